//! `careem-mcp dashboard`: starts the dashboard beside whatever `serve` is running, over the
//! same tools folder, overrides file and journal, until SIGINT or SIGTERM.

use std::sync::Arc;

use super::{engine_config, runtime};
use crate::cli::Status;
use crate::cli::args::{DashboardArgs, GlobalArgs};
use crate::dashboard::{self, DashboardOptions};
use crate::engine::{Engine, ProjectLayout, load_catalog};
use crate::server::{is_loopback, shutdown_signal};

pub fn run(
    global: &GlobalArgs,
    layout: &ProjectLayout,
    args: &DashboardArgs,
) -> anyhow::Result<Status> {
    // Unlike `serve`, broken tool files do not stop the dashboard: its Tools view lists them.
    let config = engine_config(global, layout)?;
    let loaded = load_catalog(&config.tools_dir);
    if !loaded.diagnostics.is_empty() {
        tracing::warn!(
            "the tool files in {} have {} problem(s); the Tools view lists them",
            config.tools_dir.display(),
            loaded.diagnostics.len()
        );
    }
    // Opening the journal creates it, so the live view can follow it before `serve` starts.
    let engine = Engine::from_tools(config, loaded.tools)
        .journalled(&layout.journal, global.journal_max_size);
    let options = DashboardOptions {
        host: args.host.clone(),
        port: args.port,
        allowed_hosts: args.allowed_hosts.clone(),
        journal: layout.journal.clone(),
    };
    let runtime = runtime()?;
    runtime.block_on(async move {
        if !is_loopback(&args.host) {
            tracing::warn!(
                "listening on {}: anyone who can reach this address can steer your scenarios",
                args.host
            );
        }
        let running = dashboard::start(Arc::new(engine), options).await?;
        let url = running.url();
        eprintln!("careem-mcp: dashboard at {url}");
        if args.open
            && let Err(error) = open::that_detached(&url)
        {
            tracing::warn!("cannot open a browser ({error}); open {url} yourself");
        }
        shutdown_signal().await;
        running.shutdown().await;
        Ok(Status::Success)
    })
}
