//! Every task of `tasks/` is solvable, and only the right way: on one `serve --stateful`, each
//! task's start is made on a run of its own, a scripted agent walks the calls of a correct
//! agent over MCP (`/mcp/<run>`), taking every id from the answers before, and the run grades
//! as passed; on another run it walks the task's typical wrong path, which grades as failed
//! with the difference that names it.

use std::time::Duration;

use careem_mcp::engine::{Engine, EngineConfig, LayoutPaths, ProjectLayout, RunName};
use careem_mcp::grade::{self, Expected, Verdict};
use careem_mcp::tasks::{self, Task};
use serde_json::Value;

use crate::support::{Project, call, http_client, repo, serve_binary, terminate_cleanly};

/// The suite's floor: the issue asks for 30 tasks or more.
const AT_LEAST: usize = 30;

#[tokio::test(flavor = "multi_thread")]
async fn every_task_passes_its_right_walk_and_fails_its_wrong_one() {
    let suite = tasks::load(&repo().join("tasks")).expect("every task file reads");
    assert!(suite.len() >= AT_LEAST, "{} tasks", suite.len());
    let project = Project::copy_of_repo();
    let layout = ProjectLayout::derive(LayoutPaths {
        project: Some(project.path()),
        tools: None,
        overrides: None,
        journal: None,
    });
    let engine = Engine::load(EngineConfig {
        tools_dir: layout.tools.clone(),
        overrides: layout.overrides.clone(),
        clock: None,
        seed: None,
        stateful: true,
    })
    .expect("the tool files load");
    let (server, url, _stderr) = serve_binary(&project, &["--stateful"]);
    let mut failures = Vec::new();
    for (n, task) in suite.iter().enumerate() {
        let walks = task
            .walks
            .as_ref()
            .unwrap_or_else(|| panic!("{}: a task of the suite has walks.wrong", task.id));
        let right = task.right_walk().expect("the right walk reads");
        let verdict = walk(&engine, &layout, &url, task, &format!("right-{n}"), &right).await;
        if !verdict.passed {
            failures.push(format!(
                "{}: the right walk failed: {:?} {:?}",
                task.id, verdict.differences, verdict.broken_checks
            ));
        }
        let wrong = tasks::calls_expected(&walks.wrong.calls).expect("the wrong walk reads");
        let verdict = walk(&engine, &layout, &url, task, &format!("wrong-{n}"), &wrong).await;
        let said: Vec<&String> = verdict
            .differences
            .iter()
            .chain(&verdict.broken_checks)
            .collect();
        if verdict.passed || walks.wrong.differs.is_empty() {
            failures.push(format!(
                "{}: the wrong walk ({}) passed or names no difference; the grade says {said:?}",
                task.id, walks.wrong.what
            ));
        }
        for line in &walks.wrong.differs {
            if !said.iter().any(|said| said.contains(line.as_str())) {
                failures.push(format!(
                    "{}: the wrong walk ({}): no {line:?} in {said:?}",
                    task.id, walks.wrong.what
                ));
            }
        }
    }
    terminate_cleanly(server, Duration::from_secs(30));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Makes `run` the task's start, walks `calls` over MCP as an agent would, each rendered with
/// the answers before it, and grades the run against the task.
async fn walk(
    engine: &Engine,
    layout: &ProjectLayout,
    url: &str,
    task: &Task,
    run: &str,
    calls: &Expected,
) -> Verdict {
    let name: RunName = run.parse().expect("a run name");
    let run_layout = layout.for_run(&name);
    tasks::start::start(engine, &run_layout, task)
        .unwrap_or_else(|e| panic!("{}: the start: {e}", task.id));
    let client = http_client(&format!("{url}/{run}")).await;
    let mut answers = Vec::new();
    for index in 0..calls.count {
        let action = calls
            .action(index, &answers)
            .unwrap_or_else(|e| panic!("{} ({run}): {e}", task.id));
        let result = call(&client, &action.tool, Value::Object(action.arguments))
            .await
            .unwrap_or_else(|e| panic!("{} ({run}): {} fails: {e}", task.id, action.tool));
        answers.push(
            result
                .get("structuredContent")
                .cloned()
                .unwrap_or(Value::Null),
        );
    }
    drop(client);
    let expected = task.expected().expect("the expected file reads");
    let scratch = tempfile::tempdir().expect("a scratch folder");
    grade::grade(
        &engine.for_run(run_layout.overrides.clone()),
        &run_layout.journal,
        &expected,
        scratch.path(),
    )
    .unwrap_or_else(|e| panic!("{} ({run}): grading: {e}", task.id))
}
