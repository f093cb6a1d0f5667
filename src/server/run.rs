//! `careem-mcp serve` from start to end: its own runtime, the server over stdio or HTTP until
//! SIGINT or SIGTERM (over stdio, also until stdin closes), calls in flight finished first.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use super::{ServerError, ServerOptions, serve_stdio, start_http};
use crate::engine::Engine;
use crate::http::{is_loopback, shutdown_signal};

/// The async runtime `serve`, the dashboard and `verify` run in.
///
/// # Errors
///
/// The runtime's threads or its IO driver cannot start.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
}

/// How long the process waits, after the server has stopped, for work it cannot interrupt.
const LEFTOVER_GRACE: Duration = Duration::from_secs(1);

/// Serves `engine` until told to stop; `listening` is told the HTTP address once it is bound
/// (the caller says where to connect).
///
/// # Errors
///
/// The runtime cannot start, or the address cannot be bound.
pub fn run_until_signal(
    engine: Arc<Engine>,
    options: ServerOptions,
    stdio: bool,
    listening: impl FnOnce(SocketAddr) + Send,
) -> Result<(), ServerError> {
    let runtime = runtime()?;
    let served = runtime.block_on(async move {
        let tools = engine.tools().len();
        if stdio {
            tracing::info!("serving {tools} tools over stdio");
            serve_stdio(engine, options, shutdown_signal()).await;
            return Ok(());
        }
        if !is_loopback(&options.host) {
            tracing::warn!(
                "listening on {}: anyone who can reach this address can use the server",
                options.host
            );
        }
        let server = start_http(engine, options).await?;
        listening(server.addr);
        shutdown_signal().await;
        tracing::info!("shutting down");
        server.shutdown().await;
        Ok(())
    });
    // The sessions are over. What still runs is stuck in a blocking call (a journal write to a
    // pipe nobody reads, a disk that does not answer) that no shutdown can interrupt: leave it
    // behind rather than wait for it, so SIGTERM always ends the process.
    runtime.shutdown_timeout(LEFTOVER_GRACE);
    served
}
