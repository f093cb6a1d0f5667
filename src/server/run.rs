//! `careem-mcp serve` from start to end: its own runtime, the server over stdio or HTTP until
//! SIGINT or SIGTERM (over stdio, also until stdin closes), calls in flight finished first;
//! beside it, when asked, the admin API on a listener of its own.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use super::{Ended, ServerError, ServerOptions, serve_stdio, start_http};
use crate::admin::{self, AdminOptions};
use crate::engine::{Engine, Runs};
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

/// The admin API beside the server (`serve --admin`): the runs it controls and its listener.
#[derive(Debug)]
pub struct AdminListener {
    pub runs: Arc<Runs>,
    pub options: AdminOptions,
}

/// Where the server listens, once it does: the MCP endpoint (`None` over stdio) and the admin
/// API's listener, when there is one.
#[derive(Debug, Clone, Copy)]
pub struct Listening {
    pub mcp: Option<SocketAddr>,
    pub admin: Option<SocketAddr>,
}

/// Serves `engine`, and the admin API when `admin` is given, until told to stop; `listening`
/// is told the addresses once they are bound (the caller says where to connect). The admin
/// listener is bound first, so that a test that waits for the MCP address finds both. A stdio
/// server that a fault ends returns at once, leaving what still runs behind.
///
/// # Errors
///
/// The runtime cannot start, or an address cannot be bound.
pub fn run_until_signal(
    engine: Arc<Engine>,
    options: ServerOptions,
    stdio: bool,
    admin: Option<AdminListener>,
    listening: impl FnOnce(Listening) + Send,
) -> Result<Ended, ServerError> {
    let runtime = runtime()?;
    let served = runtime.block_on(async move {
        let tools = engine.tools().len();
        let admin = match admin {
            Some(AdminListener { runs, options }) => Some(admin::start(runs, options).await?),
            None => None,
        };
        let admin_addr = admin.as_ref().map(|admin| admin.addr);
        if stdio {
            tracing::info!("serving {tools} tools over stdio");
            if admin_addr.is_some() {
                listening(Listening {
                    mcp: None,
                    admin: admin_addr,
                });
            }
            let ended = serve_stdio(engine, options, shutdown_signal()).await;
            if ended != Ended::Stopped {
                return Ok(ended);
            }
        } else {
            if !is_loopback(&options.host) {
                tracing::warn!(
                    "listening on {}: anyone who can reach this address can use the server",
                    options.host
                );
            }
            let server = start_http(engine, options).await?;
            listening(Listening {
                mcp: Some(server.addr),
                admin: admin_addr,
            });
            shutdown_signal().await;
            tracing::info!("shutting down");
            server.shutdown().await;
        }
        if let Some(admin) = admin {
            admin.shutdown().await;
        }
        Ok(Ended::Stopped)
    });
    // The sessions are over. What still runs is stuck in a blocking call (a journal write to a
    // pipe nobody reads, a disk that does not answer) that no shutdown can interrupt: leave it
    // behind rather than wait for it, so SIGTERM always ends the process. A fault that ends
    // the process waits for nothing.
    match served {
        Ok(Ended::Stopped) | Err(_) => runtime.shutdown_timeout(LEFTOVER_GRACE),
        Ok(Ended::Crashed | Ended::SessionExpired) => runtime.shutdown_background(),
    }
    served
}
