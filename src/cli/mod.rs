//! The command line: parses arguments, dispatches to one subcommand, and is the only layer that
//! prints or decides the exit code. Errors are printed in exactly one place, [`run`].

mod args;
mod commands;
mod complete;
mod printable;
mod printer;
mod snippet;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use args::Cli;

/// How a subcommand ended, as ruff's `ExitStatus`; the exit code is the discriminant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Status {
    Success = 0,
    Findings = 1,
    /// A failure or misuse.
    Failure = 2,
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> Self {
        ExitCode::from(status as u8)
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
