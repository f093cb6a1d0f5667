//! `careem-mcp serve`: the engine behind MCP until SIGINT or SIGTERM (or, with `--stdio`, until
//! stdin closes); calls in flight finish first.

use std::sync::Arc;
use std::time::Duration;

use super::{load_journalled_engine, runtime};
use crate::cli::Status;
use crate::cli::args::{GlobalArgs, ServeArgs};
use crate::cli::project::{Paths, shown};
use crate::server::{ConnectionLimits, ServerOptions, is_loopback, serve_stdio, start_http};

/// How long the process waits, after the server has stopped, for work it cannot interrupt.
const LEFTOVER_GRACE: Duration = Duration::from_secs(1);

pub fn run(global: &GlobalArgs, paths: &Paths, args: &ServeArgs) -> anyhow::Result<Status> {
    let engine = Arc::new(load_journalled_engine(global, paths, args.no_journal)?);
    // On stderr, before anything else: a client starts the server in a folder of its own
    // choosing, and these show which files `scenario` and `calls` must agree with.
    eprintln!("careem-mcp: tools {}", shown(&paths.tools));
    eprintln!("careem-mcp: overrides {}", shown(&paths.overrides));
    if args.no_journal {
        eprintln!("careem-mcp: journal off (--no-journal)");
    } else {
        eprintln!("careem-mcp: journal {}", shown(&paths.journal));
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
        session_idle: Duration::from_secs(args.session_idle.max(1)),
        max_sessions: args.max_sessions,
        connections: ConnectionLimits {
            max_connections: usize::try_from(args.max_connections).unwrap_or(usize::MAX),
            header_timeout: Duration::from_secs(args.header_timeout),
            body_timeout: Duration::from_secs(args.body_timeout),
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

pub(super) async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(signal) => signal,
                Err(error) => {
                    tracing::warn!("cannot listen for SIGTERM: {error}");
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}
