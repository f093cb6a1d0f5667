//! `careem-mcp dashboard`: starts the dashboard beside whatever `serve` is running, over the
//! same tools folder, overrides file and journal, until SIGINT or SIGTERM.

use super::engine_config;
use crate::cli::Status;
use crate::cli::args::{DashboardArgs, GlobalArgs};
use crate::dashboard::{DashboardOptions, run_until_signal};
use crate::engine::ProjectLayout;
use crate::http::ConnectionLimits;

pub fn run(
    global: &GlobalArgs,
    layout: &ProjectLayout,
    args: &DashboardArgs,
) -> anyhow::Result<Status> {
    if let Some(dir) = &args.expected
        && !dir.is_dir()
    {
        anyhow::bail!(
            "--expected {}: not a folder (it holds one expected file per run, NAME.json)",
            dir.display()
        );
    }
    let options = DashboardOptions {
        host: args.host.clone(),
        port: args.port,
        allowed_hosts: args.allowed_hosts.clone(),
        journal_max_size: global.journal_max_size,
        project: layout.clone(),
        connections: ConnectionLimits {
            max_connections: args.max_connections,
            header_timeout: args.header_timeout,
            body_timeout: args.body_timeout,
        },
        max_streams: args.max_streams,
        expected: args.expected.clone(),
    };
    run_until_signal(engine_config(global, layout)?, options, |url| {
        eprintln!("careem-mcp: dashboard at {url}");
        if args.open
            && let Err(error) = open::that_detached(url)
        {
            tracing::warn!("cannot open a browser ({error}); open {url} yourself");
        }
    })?;
    Ok(Status::Success)
}
