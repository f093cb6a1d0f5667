//! `careem-mcp serve`: the engine behind MCP until SIGINT or SIGTERM (or, with `--stdio`, until
//! stdin closes); calls in flight finish first.

use std::sync::Arc;
use std::time::Duration;

use super::{load_engine, runtime};
use crate::cli::Status;
use crate::cli::args::{GlobalArgs, ServeArgs};
use crate::engine::{ProjectLayout, absolute};
use crate::server::{
    ConnectionLimits, ServerOptions, is_loopback, serve_stdio, shutdown_signal, start_http,
};

/// How long the process waits, after the server has stopped, for work it cannot interrupt.
const LEFTOVER_GRACE: Duration = Duration::from_secs(1);

pub fn run(
    global: &GlobalArgs,
    layout: &ProjectLayout,
    args: &ServeArgs,
) -> anyhow::Result<Status> {
    let engine = Arc::new(load_engine(global, layout, args.no_journal)?);
    // On stderr, before anything else: a client starts the server in a folder of its own
    // choosing, and these show which files `scenario` and `calls` must agree with.
    eprintln!("careem-mcp: tools {}", absolute(&layout.tools).display());
    eprintln!(
        "careem-mcp: overrides {}",
        absolute(&layout.overrides).display()
    );
    if args.no_journal {
        eprintln!("careem-mcp: journal off (--no-journal)");
    } else {
        eprintln!(
            "careem-mcp: journal {}",
            absolute(&layout.journal).display()
        );
    }
    let options = ServerOptions {
        host: args.host.clone(),
        port: args.port,
        server_name: args.server_name.clone(),
        server_version: args.server_version.clone(),
        widget_domain: args.widget_domain.trim_end_matches('/').to_string(),
        allowed_hosts: args.allowed_hosts.clone(),
        no_output_schema: args.no_output_schema,
        no_meta: args.no_meta,
        session_idle: args.session_idle,
        max_sessions: args.max_sessions,
        connections: ConnectionLimits {
            max_connections: args.max_connections,
            header_timeout: args.header_timeout,
            body_timeout: args.body_timeout,
        },
        fast_path: true,
    };
    let runtime = runtime()?;
    let served = runtime.block_on(async move {
        let tools = engine.tools().len();
        if args.stdio {
            tracing::info!("serving {tools} tools over stdio");
            serve_stdio(engine, options, shutdown_signal()).await?;
            return Ok(Status::Success);
        }
        if !is_loopback(&args.host) {
            tracing::warn!("listening on {}: anyone who can reach this address can use the server", args.host);
        }
        let server = start_http(engine, options).await?;
        let base = format!("http://{}", server.addr);
        eprintln!("careem-mcp: serving {tools} tools at {base}/mcp (Streamable HTTP), {base}/sse (legacy SSE), {base}/health");
        shutdown_signal().await;
        tracing::info!("shutting down");
        server.shutdown().await;
        Ok(Status::Success)
    });
    // The sessions are over. What still runs is stuck in a blocking call (a journal write to a
    // pipe nobody reads, a disk that does not answer) that no shutdown can interrupt: leave it
    // behind rather than wait for it, so SIGTERM always ends the process.
    runtime.shutdown_timeout(LEFTOVER_GRACE);
    served
}
