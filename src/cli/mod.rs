//! The command line: parses arguments, dispatches to one subcommand, and is the only layer that
//! prints or decides the exit code. Errors are printed in exactly one place, [`run`].

mod args;
mod commands;
mod complete;
mod printer;
mod snippet;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

pub use args::{Cli, Command, GlobalArgs};

/// How a subcommand ended, as ruff's `ExitStatus`: 0 ok, 1 findings, 2 failure or misuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Success,
    Findings,
    Failure,
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> Self {
        match status {
            Status::Success => ExitCode::SUCCESS,
            Status::Findings => ExitCode::from(1),
            Status::Failure => ExitCode::from(2),
        }
    }
}

pub fn run() -> ExitCode {
    clap_complete::CompleteEnv::with_factory(Cli::command).complete();
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches)
        .unwrap_or_else(|error| error.format(&mut Cli::command()).exit());
    match commands::dispatch(cli) {
        Ok(status) => status.into(),
        Err(error) if printer::is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            for cause in error.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            Status::Failure.into()
        }
    }
}

/// Logs to stderr only: stdout may be carrying MCP messages or a command's output.
fn init_logging(default_level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("CAREEM_MCP_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(printer::stderr_colours())
        .with_target(false)
        .try_init();
}
