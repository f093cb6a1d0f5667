//! One file per subcommand; this one routes to them and builds what they share.

mod call;
mod calls;
mod clock;
mod completions;
mod dashboard;
mod drift;
mod export;
mod grade;
mod lint;
mod reach;
mod record;
mod remote;
mod scenario;
mod scenarios;
mod serve;
mod tasks;
mod verify;
mod world;

use std::path::Path;

use anyhow::{Context, bail};

use super::args::{Cli, ClockChange, Command, GlobalArgs};
use super::{Status, init_logging};
use crate::admin::{Token, missing_run};
use crate::engine::{Engine, EngineConfig, LayoutPaths, ProjectLayout, RunName, absolute};

pub fn dispatch(cli: Cli) -> anyhow::Result<Status> {
    let global = cli.global;
    let project = ProjectLayout::derive(LayoutPaths {
        project: global.project.as_deref(),
        tools: global.tools.as_deref(),
        overrides: global.overrides.as_deref(),
        journal: global.journal.as_deref(),
    });
    init_logging(log_level(&cli.command));
    if let Some(url) = global.server.as_deref()
        && let Some(done) = remote::dispatch(url, &global, &cli.command)
    {
        return done;
    }
    crate::engine::world::set_deadline(global.jq_deadline);
    let run = global.run.as_ref();
    match cli.command {
        Command::Completions { shell } => completions::run(shell),
        Command::Serve(args) => serve::run(&global, &project, &args),
        Command::Dashboard(args) => dashboard::run(&global, &project, &args),
        Command::Verify(args) => verify::run(&global, &project, &args),
        Command::Drift(args) => drift::run(&global, &project, &args),
        Command::Record(args) => record::run(&global, &project, &args),
        Command::Scenario(args) => scenario::set(&run_layout(&global, &project)?, &args),
        Command::Scenarios { tool } => {
            scenarios::run(&run_layout(&global, &project)?, tool.as_deref())
        }
        Command::Reset { remove } => scenario::reset(&run_layout(&global, &project)?, run, remove),
        Command::Lint {
            write_source,
            format,
        } => lint::run(&global, &project, write_source, format),
        Command::Call(args) => call::run(&global, &run_layout(&global, &project)?, &args),
        Command::Calls(args) => {
            // `--follow` may wait for a run's first call, which makes the run.
            if !args.follow {
                existing_run(&project, run)?;
            }
            calls::run(&project, &run_layout(&global, &project)?, run, &args)
        }
        Command::Clock { change } => {
            // Setting or moving a run's clock prepares the run, before its first call.
            if !matches!(
                change,
                Some(ClockChange::Set { .. } | ClockChange::Advance { .. })
            ) {
                existing_run(&project, run)?;
            }
            clock::run(&run_layout(&global, &project)?, change)
        }
        Command::World { json } => {
            existing_run(&project, run)?;
            world::run(&global, &run_layout(&global, &project)?, json)
        }
        Command::Grade(args) => grade::run(&global, &project, &args),
        Command::Export(args) => export::run(&global, &run_layout(&global, &project)?, &args),
        Command::Tasks(args) => tasks::run(&global, &project, &args),
    }
}

/// The layout a command acts on: the run's, when `--run` names one. A run has its own
/// overrides file and journal, so naming either beside it would say two things at once.
pub fn run_layout(global: &GlobalArgs, project: &ProjectLayout) -> anyhow::Result<ProjectLayout> {
    let Some(run) = &global.run else {
        return Ok(project.clone());
    };
    if global.overrides.is_some() || global.journal.is_some() {
        bail!(
            "--run {run} uses the run's own overrides file and journal (in {}); leave out \
             --overrides and --journal (or CAREEM_MCP_OVERRIDES and CAREEM_MCP_JOURNAL)",
            absolute(&project.run_dir(run)).display()
        );
    }
    Ok(project.for_run(run))
}

/// The admin API's token: the first line of `--admin-token-file`, else `CAREEM_MCP_ADMIN_TOKEN`;
/// `None` when neither is given. Never printed.
pub fn admin_token(global: &GlobalArgs) -> anyhow::Result<Option<Token>> {
    let (text, from) = match &global.admin_token_file {
        Some(path) => (
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the admin token file {}", path.display()))?,
            format!("the admin token file {}", path.display()),
        ),
        None => match std::env::var(TOKEN_VARIABLE) {
            Ok(text) => (text, TOKEN_VARIABLE.to_string()),
            Err(std::env::VarError::NotPresent) => return Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => {
                bail!("{TOKEN_VARIABLE} is not UTF-8")
            }
        },
    };
    let first = text.lines().next().unwrap_or_default();
    Token::new(first)
        .map(Some)
        .with_context(|| format!("{from} holds no usable token"))
}

/// The variable that holds the admin API's token, when no file names it.
const TOKEN_VARIABLE: &str = "CAREEM_MCP_ADMIN_TOKEN";

/// Refuses a `--run` that names no run, naming the runs there are, in the words the admin API
/// answers with ([`missing_run`]). A run exists once it has a folder, `.run/runs/<run>/` (its
/// first journalled call makes it, as do `scenario`, `reset`, `clock set` and `clock advance`
/// naming it); the default run (no `--run`) always exists. Reading a run that is not there
/// would show the seed world or no calls as if they were its.
pub fn existing_run(project: &ProjectLayout, run: Option<&RunName>) -> anyhow::Result<()> {
    match missing_run(project, run) {
        None => Ok(()),
        Some(refusal) => bail!("{refusal}"),
    }
}

/// What each command logs to stderr unless `CAREEM_MCP_LOG` says otherwise.
fn log_level(command: &Command) -> &'static str {
    match command {
        Command::Serve(_) | Command::Record(_) => "info,rmcp=warn",
        Command::Dashboard(_) => "info",
        // rmcp's client logs every JSON-RPC error answer (test 10 asks for one) and every
        // failed connection; the report carries both, so its logs would only repeat them.
        Command::Verify(_) | Command::Drift(_) => "warn,rmcp=off",
        _ => "warn",
    }
}

/// The tools folder, or an error that names the folder used and how to name the project: a
/// bare "not found" leaves a user whose client started the server elsewhere guessing.
pub fn tools_dir(layout: &ProjectLayout) -> anyhow::Result<&Path> {
    if layout.tools.is_dir() {
        return Ok(&layout.tools);
    }
    if layout.named.tools {
        bail!(
            "no tools folder at {} (named by --tools or CAREEM_MCP_TOOLS)",
            absolute(&layout.tools).display()
        );
    }
    let which = if layout.named.project {
        "the project folder named by --project or CAREEM_MCP_PROJECT"
    } else {
        "the current folder, as no project was named"
    };
    bail!(
        "no tools folder in {} ({which})\n  point at the project with `--project DIR` or \
         CAREEM_MCP_PROJECT=DIR; give MCP clients an absolute path",
        absolute(&layout.project).display()
    )
}

/// The engine's settings; the tools folder must exist (see [`tools_dir`]).
pub fn engine_config(global: &GlobalArgs, layout: &ProjectLayout) -> anyhow::Result<EngineConfig> {
    Ok(EngineConfig {
        tools_dir: tools_dir(layout)?.to_path_buf(),
        overrides: layout.overrides.clone(),
        clock: global.clock,
        seed: global.seed,
        stateful: global.stateful,
    })
}

/// The engine over the tools folder, or every problem that keeps it from loading; it journals
/// its calls unless `--no-journal`.
pub fn load_engine(
    global: &GlobalArgs,
    layout: &ProjectLayout,
    no_journal: bool,
) -> anyhow::Result<Engine> {
    let engine = Engine::load(engine_config(global, layout)?).with_context(|| {
        format!(
            "the tool files in {} have problems (run `careem-mcp lint`)",
            layout.tools.display()
        )
    })?;
    Ok(if no_journal {
        engine
    } else {
        engine.journalled(&layout.journal, global.journal_max_size)
    })
}
