//! `careem-mcp dashboard`: a browser page to watch an agent's calls as they happen and steer
//! the next answers. A separate process beside any `serve` (HTTP, SSE or stdio): it reads the
//! call journal and edits the overrides file, the same files the CLI uses, and adds nothing to
//! the MCP port. It never prints; logs go through `tracing`.

mod api;
mod assets;
mod guard;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::engine::{Engine, EngineConfig, catalog};
use crate::server::guard::HostGuard;
use crate::server::{ServerError, is_loopback, runtime, shutdown_signal};

/// Request bodies above this are refused: the largest is a "try a call" form.
const MAX_BODY_BYTES: usize = 1024 * 1024;

#[derive(Debug, Clone)]
pub struct DashboardOptions {
    pub host: String,
    /// `0` picks a free port.
    pub port: u16,
    /// Hosts admitted besides the loopback names, as `serve --allowed-host`.
    pub allowed_hosts: Vec<String>,
    /// The call journal the live view follows and "clear" empties.
    pub journal: PathBuf,
    /// Where the journal of the calls made from the page rotates (`--journal-max-size`).
    pub journal_max_size: u64,
}

/// What every handler shares: the engine (its tools, its overrides path, its journal for the
/// calls made from the page) and where the journal is.
#[derive(Debug, Clone)]
pub(crate) struct Dashboard {
    engine: Arc<Engine>,
    journal: PathBuf,
    /// Ends the live streams, so that a shutdown does not wait for browsers to leave.
    shutdown: CancellationToken,
}

/// Every route: the page and its assets, and the JSON API under `/api`.
pub fn app(engine: Arc<Engine>, options: &DashboardOptions, shutdown: CancellationToken) -> Router {
    let dashboard = Dashboard {
        engine,
        journal: options.journal.clone(),
        shutdown,
    };
    let hosts = Arc::new(HostGuard::new(&options.allowed_hosts));
    Router::new()
        .merge(assets::routes())
        .nest("/api", api::routes(dashboard))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn(guard::writes_declare_json))
        .layer(middleware::from_fn_with_state(
            hosts,
            crate::server::guard::guard_hosts,
        ))
}

/// A dashboard started by [`start`]; dropping it stops it.
#[derive(Debug)]
pub struct RunningDashboard {
    pub addr: SocketAddr,
    shutdown: CancellationToken,
    task: Option<JoinHandle<()>>,
}

impl RunningDashboard {
    #[must_use]
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Ends the live streams and stops serving.
    pub async fn shutdown(mut self) {
        self.shutdown.cancel();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for RunningDashboard {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// `careem-mcp dashboard` from start to end: the engine over `config`, served until SIGINT or
/// SIGTERM; `listening` is told the page's URL once it is bound. Unlike `serve`, broken tool
/// files do not stop the dashboard: its Tools view lists them.
///
/// # Errors
///
/// The runtime cannot start, or the address cannot be bound.
pub fn run_until_signal(
    config: EngineConfig,
    options: DashboardOptions,
    listening: impl FnOnce(&str) + Send,
) -> Result<(), ServerError> {
    let loaded = catalog::load(&config.tools_dir);
    if !loaded.diagnostics.is_empty() {
        tracing::warn!(
            "the tool files in {} have {} problem(s); the Tools view lists them",
            config.tools_dir.display(),
            loaded.diagnostics.len()
        );
    }
    // Opening the journal creates it, so the live view can follow it before `serve` starts.
    let engine = Engine::from_tools(config, loaded.tools)
        .journalled(&options.journal, options.journal_max_size);
    runtime()?.block_on(async move {
        if !is_loopback(&options.host) {
            tracing::warn!(
                "listening on {}: anyone who can reach this address can steer your scenarios",
                options.host
            );
        }
        let running = start(Arc::new(engine), options).await?;
        listening(&running.url());
        shutdown_signal().await;
        running.shutdown().await;
        Ok(())
    })
}

/// Binds (port 0 picks a free port), starts serving in the background and returns at once.
///
/// # Errors
///
/// The address cannot be bound.
pub async fn start(
    engine: Arc<Engine>,
    options: DashboardOptions,
) -> Result<RunningDashboard, ServerError> {
    let listener = crate::server::bind(&options.host, options.port).await?;
    let addr = listener.local_addr()?;
    let shutdown = CancellationToken::new();
    let router = app(engine, &options, shutdown.clone());
    let signal = shutdown.clone();
    let task = tokio::spawn(async move {
        let serving =
            axum::serve(listener, router).with_graceful_shutdown(signal.cancelled_owned());
        if let Err(error) = serving.await {
            tracing::error!("the dashboard stopped: {error}");
        }
    });
    Ok(RunningDashboard {
        addr,
        shutdown,
        task: Some(task),
    })
}
