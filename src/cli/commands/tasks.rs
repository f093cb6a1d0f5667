//! `careem-mcp tasks list|show|start|grade`: the task suite (docs/TASKS.md). `start` makes a
//! run into a task's start and prints the MCP path an agent is pointed at; `grade` scores the
//! run against the task's expected file, through the grade engine as `careem-mcp grade` does.

use anyhow::{Context, bail};
use chrono::{DateTime, Utc};
use chrono_tz::Asia::Dubai;
use serde::Serialize;
use serde_json::{Map, Value};

use super::{engine_config, run_layout};
use crate::cli::args::{GlobalArgs, TasksArgs, TasksCommand, TasksFormat};
use crate::cli::{Status, printer};
use crate::engine::{Engine, ProjectLayout, RunName, absolute, did_you_mean};
use crate::grade::{self, Verdict};
use crate::tasks::{self, Task, start::Started};

pub fn run(
    global: &GlobalArgs,
    project: &ProjectLayout,
    args: &TasksArgs,
) -> anyhow::Result<Status> {
    let dir = args.tasks_dir.as_ref().map_or_else(
        || project.project.join("tasks"),
        |dir| project.project.join(dir),
    );
    let suite = load(&dir)?;
    let json = args.format == TasksFormat::Json;
    match &args.command {
        TasksCommand::List => list(&suite, &dir, json),
        TasksCommand::Show { id } => show(find(&suite, id, &dir)?, json),
        TasksCommand::Start { id } => {
            let task = find(&suite, id, &dir)?;
            let (run, layout) = layout_for(global, project, task)?;
            let engine = load_engine(global, project)?;
            let started = tasks::start::start(&engine, &layout, task)
                .with_context(|| format!("cannot start task {} in run {run}", task.id))?;
            started_report(task, &run, &started, json)
        }
        TasksCommand::Grade { id } => {
            let task = find(&suite, id, &dir)?;
            let (run, layout) = layout_for(global, project, task)?;
            if !layout
                .overrides
                .parent()
                .is_some_and(std::path::Path::is_dir)
            {
                bail!(
                    "no run {run}: start it with `careem-mcp tasks start {} --run {run}`",
                    task.id
                );
            }
            let engine = load_engine(global, project)?;
            let expected = task
                .expected()
                .map_err(|e| anyhow::anyhow!("{}: expected: {e}", task.id))?;
            let scratch = tempfile::tempdir().context("cannot make a scratch folder")?;
            let verdict = grade::grade(
                &engine.for_run(layout.overrides.clone()),
                &layout.journal,
                &expected,
                scratch.path(),
            )
            .map_err(|e| anyhow::anyhow!("{}: {e}", task.id))?;
            graded_report(task, &run, verdict, json)
        }
    }
}

/// Every task of the folder, or every file that is not one.
fn load(dir: &std::path::Path) -> anyhow::Result<Vec<Task>> {
    tasks::load(dir).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        anyhow::anyhow!(lines.join("\n"))
    })
}

fn find<'a>(suite: &'a [Task], id: &str, dir: &std::path::Path) -> anyhow::Result<&'a Task> {
    suite.iter().find(|task| task.id == id).ok_or_else(|| {
        anyhow::anyhow!(
            "no task {id:?} in {}{}\n(`careem-mcp tasks list` shows them)",
            absolute(dir).display(),
            did_you_mean(id, suite.iter().map(|t| t.id.as_str()))
        )
    })
}

/// The run a task acts on (`--run`, or the task's id) and its layout.
fn layout_for(
    global: &GlobalArgs,
    project: &ProjectLayout,
    task: &Task,
) -> anyhow::Result<(RunName, ProjectLayout)> {
    let run = match &global.run {
        Some(run) => run.clone(),
        None => task.run_name()?,
    };
    let named = GlobalArgs {
        run: Some(run.clone()),
        ..global.clone()
    };
    Ok((run, run_layout(&named, project)?))
}

fn load_engine(global: &GlobalArgs, project: &ProjectLayout) -> anyhow::Result<Engine> {
    let mut config = engine_config(global, project)?;
    config.stateful = true;
    Engine::load(config).with_context(|| {
        format!(
            "the tool files in {} have problems (run `careem-mcp lint`)",
            project.tools.display()
        )
    })
}

fn list(suite: &[Task], dir: &std::path::Path, json: bool) -> anyhow::Result<Status> {
    if json {
        printer::out(&serde_json::to_string_pretty(suite)?)?;
        return Ok(Status::Success);
    }
    let mut table = printer::table(&["id", "difficulty", "tags", "title"]);
    for task in suite {
        table.add_row(vec![
            task.id.clone(),
            task.difficulty.to_string(),
            task.tags.join(", "),
            task.title.clone(),
        ]);
    }
    printer::out(&format!(
        "{table}\n{} tasks in {}",
        suite.len(),
        absolute(dir).display()
    ))?;
    Ok(Status::Success)
}

fn show(task: &Task, json: bool) -> anyhow::Result<Status> {
    if json {
        printer::out(&serde_json::to_string_pretty(task)?)?;
        return Ok(Status::Success);
    }
    let mut lines = vec![
        format!("{}: {} ({})", task.id, task.title, task.difficulty),
        format!("tags: {}", task.tags.join(", ")),
        format!("request: {}", task.request),
        format!("clock: {}", moment(task.start.clock)),
    ];
    if let Some(advance) = &task.start.advance {
        lines.push(format!("then: {advance} pass before the user asks"));
    }
    for (tool, entry) in &task.start.scenarios {
        lines.push(format!("forced: {tool} → {entry}"));
    }
    lines.push("expected (the file `careem-mcp grade` reads):".to_string());
    lines.push(task.expected_text());
    printer::out(&lines.join("\n"))?;
    Ok(Status::Success)
}

/// An instant in UTC and as Dubai reads it.
fn moment(at: DateTime<Utc>) -> String {
    format!(
        "{} ({} in Dubai)",
        at.format("%Y-%m-%dT%H:%M:%SZ"),
        at.with_timezone(&Dubai).format("%a %H:%M")
    )
}

/// What `tasks start` prints for a harness.
#[derive(Debug, Serialize)]
struct StartReport<'a> {
    task: &'a str,
    run: &'a str,
    /// The run's Streamable HTTP path on any `serve --stateful`.
    path: String,
    request: &'a str,
    clock: DateTime<Utc>,
    seeded_at: DateTime<Utc>,
    scenarios: Map<String, Value>,
}

fn started_report(
    task: &Task,
    run: &RunName,
    started: &Started,
    json: bool,
) -> anyhow::Result<Status> {
    let report = StartReport {
        task: &task.id,
        run: run.as_str(),
        path: format!("/mcp/{run}"),
        request: &task.request,
        clock: started.clock,
        seeded_at: started.seeded_at,
        scenarios: started
            .scenarios
            .iter()
            .map(|(tool, control)| (tool.clone(), control.to_value()))
            .collect(),
    };
    if json {
        printer::out(&serde_json::to_string_pretty(&report)?)?;
        return Ok(Status::Success);
    }
    let mut lines = vec![format!("run {run}: the start of task {}", task.id)];
    lines.push(if started.clock == started.seeded_at {
        format!("clock: {}, frozen", moment(started.clock))
    } else {
        format!(
            "clock: {}, frozen; the world was seeded at {}",
            moment(started.clock),
            moment(started.seeded_at)
        )
    });
    for (tool, control) in &started.scenarios {
        lines.push(format!("forced: {tool} → {control}"));
    }
    lines.push(format!("mcp: {}", report.path));
    lines.push(format!("request: {}", task.request));
    printer::out(&lines.join("\n"))?;
    Ok(Status::Success)
}

/// What `tasks grade` prints for a harness: the verdict of `careem-mcp grade --format json`,
/// with the task and run it is about.
#[derive(Debug, Serialize)]
struct GradeReport<'a> {
    task: &'a str,
    run: &'a str,
    #[serde(flatten)]
    verdict: Verdict,
}

fn graded_report(
    task: &Task,
    run: &RunName,
    verdict: Verdict,
    json: bool,
) -> anyhow::Result<Status> {
    let status = if verdict.passed {
        Status::Success
    } else {
        Status::Findings
    };
    if json {
        let report = GradeReport {
            task: &task.id,
            run: run.as_str(),
            verdict,
        };
        printer::out(&serde_json::to_string_pretty(&report)?)?;
        return Ok(status);
    }
    let word = if verdict.passed {
        printer::green("passed")
    } else {
        printer::red("failed")
    };
    let mut lines = vec![format!(
        "{run} (task {}): {word}, {} calls",
        task.id, verdict.calls
    )];
    for line in verdict.differences.iter().chain(&verdict.broken_checks) {
        lines.push(format!("  {line}"));
    }
    printer::out(&lines.join("\n"))?;
    Ok(status)
}
