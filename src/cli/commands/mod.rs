//! One file per subcommand; this one routes to them and builds what they share.

mod call;
mod calls;
mod completions;
mod dashboard;
mod lint;
mod scenario;
mod scenarios;
mod serve;
mod verify;

use anyhow::Context;

use super::args::{Cli, Command, GlobalArgs};
use super::project::{self, Paths};
use super::{Status, init_logging};
use crate::engine::{Engine, EngineConfig};

pub fn dispatch(cli: Cli) -> anyhow::Result<Status> {
    let global = cli.global;
    let paths = project::resolve(&global);
    match cli.command {
        Command::Completions { shell } => completions::run(shell),
        Command::Serve(args) => {
            init_logging("info,rmcp=warn");
            serve::run(&global, &paths, &args)
        }
        Command::Dashboard(args) => {
            init_logging("info");
            dashboard::run(&global, &paths, &args)
        }
        Command::Verify(args) => {
            // rmcp's client logs every JSON-RPC error answer (test 10 asks for one) and every
            // failed connection; the report carries both, so its logs would only repeat them.
            init_logging("warn,rmcp=off");
            verify::run(&global, &paths, &args)
        }
        command => {
            init_logging("warn");
            match command {
                Command::Scenario(args) => scenario::set(&paths, &args),
                Command::Scenarios { tool } => scenarios::run(&paths, tool.as_deref()),
                Command::Reset => scenario::reset(&paths),
                Command::Lint {
                    write_source,
                    format,
                } => lint::run(&global, &paths, write_source, format),
                Command::Call(args) => call::run(&global, &paths, &args),
                Command::Calls(args) => calls::run(&paths, &args),
                Command::Completions { .. }
                | Command::Serve(_)
                | Command::Verify(_)
                | Command::Dashboard(_) => {
                    unreachable!("handled above")
                }
            }
        }
    }
}

/// The engine's settings; the tools folder must exist (see [`Paths::tools`]).
pub fn engine_config(global: &GlobalArgs, paths: &Paths) -> anyhow::Result<EngineConfig> {
    Ok(EngineConfig {
        tools_dir: paths.tools()?.to_path_buf(),
        overrides: paths.overrides.clone(),
        clock: global.clock,
        seed: global.seed,
    })
}

/// The engine over the tools folder, or every problem that keeps it from loading.
pub fn load_engine(global: &GlobalArgs, paths: &Paths) -> anyhow::Result<Engine> {
    Engine::load(engine_config(global, paths)?).with_context(|| {
        format!(
            "the tool files in {} have problems (run `careem-mcp lint`)",
            paths.tools.display()
        )
    })
}

/// The engine, journalling its calls unless `--no-journal`.
pub fn load_journalled_engine(
    global: &GlobalArgs,
    paths: &Paths,
    no_journal: bool,
) -> anyhow::Result<Engine> {
    let engine = load_engine(global, paths)?;
    Ok(if no_journal {
        engine
    } else {
        engine.journalled(&paths.journal, global.journal_max_size)
    })
}

/// The async runtime `serve`, `dashboard` and `verify` run in.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}
