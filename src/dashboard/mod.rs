//! `careem-mcp dashboard`: a browser page to watch an agent's calls as they happen and steer
//! the next answers. A separate process beside any `serve` (HTTP, SSE or stdio): it reads the
//! call journal and edits the overrides file, the same files the CLI uses, and adds nothing to
//! the MCP port. Given a folder of expected files, it grades the run it shows
//! (docs/GRADING.md). It never prints; logs go through `tracing`.

mod api;
mod assets;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRef};
use axum::middleware;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tower::ServiceBuilder;

use crate::admin::{self, Admin, MAX_BODY_BYTES, too_large, too_slow, writes};
use crate::engine::{Engine, EngineConfig, ProjectLayout, Runs, catalog};
use crate::http::listener::{self, BodyLimits, HostGuard, bound_bodies, guard_hosts};
use crate::http::{ConnectionLimits, bind, is_loopback, shutdown_signal};
use crate::server::{ServerError, runtime};

/// How long a shutdown waits for connections to finish their requests before it drops them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
/// How long the process waits, once the dashboard has stopped, for blocking work (a journal
/// read on a disk that does not answer) before it leaves it behind.
const LEFTOVER_GRACE: Duration = Duration::from_secs(1);
/// Live views open at once, by default: a few browser tabs, with room to spare.
pub const DEFAULT_MAX_STREAMS: usize = admin::DEFAULT_MAX_STREAMS;

#[derive(Debug, Clone)]
pub struct DashboardOptions {
    pub host: String,
    /// `0` picks a free port.
    pub port: u16,
    /// Hosts admitted besides the loopback names, as `serve --allowed-host`.
    pub allowed_hosts: Vec<String>,
    /// Where the journal of the calls made from the page rotates (`--journal-max-size`).
    pub journal_max_size: u64,
    /// Where the project keeps its runs, each with its own overrides file and journal.
    pub project: ProjectLayout,
    /// Timeouts and the cap on open connections, as `serve` has them.
    pub connections: ConnectionLimits,
    /// Live streams (`/api/calls/stream`) open at once; one more is answered 503.
    pub max_streams: usize,
    /// The folder of expected files (`--expected`), one per run name (`NAME.json`,
    /// `default.json` for the default run): the Calls view shows the run's verdict.
    pub expected: Option<PathBuf>,
}

/// What every handler shares: the admin API's state (the runs, the live streams) and where the
/// expected files are.
#[derive(Debug, Clone)]
pub(crate) struct Dashboard {
    admin: Admin,
    /// Where the expected files are, when given.
    expected: Option<Arc<PathBuf>>,
}

impl FromRef<Dashboard> for Admin {
    fn from_ref(dashboard: &Dashboard) -> Self {
        dashboard.admin.clone()
    }
}

/// Every route: the page and its assets, and the JSON API under `/api`.
pub fn app(engine: Arc<Engine>, options: &DashboardOptions, shutdown: CancellationToken) -> Router {
    let runs = Arc::new(Runs::new(engine, &options.project));
    let dashboard = Dashboard {
        admin: Admin::new(runs, options.max_streams, shutdown),
        expected: options.expected.clone().map(Arc::new),
    };
    let hosts = Arc::new(HostGuard::new(&options.allowed_hosts));
    let bodies = BodyLimits {
        max_bytes: MAX_BODY_BYTES,
        timeout: options.connections.body_timeout,
        too_large,
        too_slow,
    };
    Router::new()
        .merge(assets::routes())
        .nest("/api", api::routes(dashboard))
        .layer(
            ServiceBuilder::new()
                .layer(middleware::from_fn_with_state(hosts, guard_hosts))
                .layer(middleware::from_fn(writes::writes_declare_json))
                .layer(middleware::from_fn_with_state(bodies, bound_bodies))
                .layer(DefaultBodyLimit::max(MAX_BODY_BYTES)),
        )
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

    /// Ends the live streams and stops serving: connections get [`SHUTDOWN_GRACE`] to finish
    /// the request they are on (a half-sent one included), then are dropped.
    pub async fn shutdown(mut self) {
        self.shutdown.cancel();
        if let Some(mut task) = self.task.take()
            && tokio::time::timeout(SHUTDOWN_GRACE, &mut task)
                .await
                .is_err()
        {
            tracing::warn!(
                "dashboard: connections still open after {SHUTDOWN_GRACE:?}; dropping them"
            );
            task.abort();
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
    let engine = Engine::from_loaded(config, loaded.tools, loaded.world)
        .journalled(&options.project.journal, options.journal_max_size);
    let runtime = runtime()?;
    let served = runtime.block_on(async move {
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
    });
    runtime.shutdown_timeout(LEFTOVER_GRACE);
    served
}

/// Binds (port 0 picks a free port), starts serving in the background through the listener's
/// accept loop (header and body timeouts, the connection cap) and returns at once.
///
/// # Errors
///
/// The address cannot be bound.
pub async fn start(
    engine: Arc<Engine>,
    options: DashboardOptions,
) -> Result<RunningDashboard, ServerError> {
    let listener = bind(&options.host, options.port).await?;
    let addr = listener.local_addr()?;
    let shutdown = CancellationToken::new();
    let router = app(engine, &options, shutdown.clone());
    let signal = shutdown.clone();
    let task = tokio::spawn(listener::serve(
        listener,
        router,
        options.connections,
        signal,
    ));
    Ok(RunningDashboard {
        addr,
        shutdown,
        task: Some(task),
    })
}
