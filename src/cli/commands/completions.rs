//! `careem-mcp completions <shell>`: a static completion script; it loads nothing.

use clap::CommandFactory;

use crate::cli::{Cli, Status};

pub fn run(shell: clap_complete::Shell) -> anyhow::Result<Status> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "careem-mcp", &mut out);
    crate::cli::printer::out(String::from_utf8_lossy(&out).trim_end())?;
    Ok(Status::Success)
}
