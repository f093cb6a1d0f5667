//! The engine behind MCP, on production's wire: the Go SDK's JSON-RPC (`jsonrpc/`) and MCP
//! layer (`mcp/`), served over Streamable HTTP, legacy HTTP+SSE and stdio. The only layer that
//! knows the protocol; it never prints (logs go through `tracing`).

mod ended;
pub(crate) mod faults;
mod jsonrpc;
mod mcp;
mod profile;
mod refusals;
mod routes;
mod run;
mod sessions;
mod sse;
mod standard_headers;
mod stateless;
mod stdio;
mod streamable;
mod streams;
mod widget;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::value::RawValue;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::engine::{Engine, Origin};
use crate::http::{BindError, ConnectionLimits, bind, listener, memory};
// Go's `http.Error`, in which the transports answer, as `super::plain`.
use crate::http::plain;
use mcp::InFlight;

pub use ended::Ended;
pub(crate) use mcp::result_json;
pub use mcp::{advertised, advertised_as, rewritten_fields};
pub use profile::{UnknownProfile, WireProfile};
pub use routes::{AppState, app};
pub use run::{AdminListener, Listening, run_until_signal, runtime};
pub use sessions::DEFAULT_MAX_SESSIONS;
pub use stdio::serve_stdio;

/// How long [`RunningServer::shutdown`] waits for calls in flight, then for open connections,
/// before it drops them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
/// After the last call returns, the time its answer gets to reach its stream before the
/// sessions end.
const SHUTDOWN_SETTLE: Duration = Duration::from_millis(100);

/// Everything a client can observe about the server besides the tools, plus the HTTP limits.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    pub host: String,
    /// `0` picks a free port.
    pub port: u16,
    pub server_name: String,
    pub server_version: String,
    /// Where the widget bundle is served from; the widget resource's HTML and CSP name it.
    pub widget_domain: String,
    /// Hosts admitted besides the loopback names (e.g. a tunnel for ChatGPT), with or without
    /// a port; a port-less entry admits any port.
    pub allowed_hosts: Vec<String>,
    pub no_output_schema: bool,
    /// Drops every tool's `_meta` together with the widget resource.
    pub no_meta: bool,
    /// A Streamable HTTP session with no traffic for this long is closed.
    pub session_idle: Duration,
    /// Sessions open at once over HTTP (Streamable HTTP and legacy SSE together); one more
    /// ends the session idle longest.
    pub max_sessions: usize,
    /// Timeouts and the cap on open connections of the HTTP listener.
    pub connections: ConnectionLimits,
    /// Every run's world, for `/mcp/<run>` and `/sse/<run>`; without it only the default run
    /// is served.
    pub runs: Option<Arc<crate::engine::Runs>>,
    /// Answers every `tools/call` in place of the engine (`careem-mcp record`).
    pub forwarder: Option<Arc<dyn Forwarder>>,
    /// The Go SDK release whose wire the server speaks.
    pub wire: WireProfile,
    /// Logs every refused HTTP request to stderr: method, path, status, reason, session.
    pub verbose: bool,
}

/// Answers `tools/call` in place of the engine: `careem-mcp record` sends each call upstream
/// and hands back the upstream's result as it came.
pub trait Forwarder: Send + Sync + std::fmt::Debug {
    /// The upstream's answer to `call`: its result's JSON, or its JSON-RPC error.
    fn forward(&self, call: &Forwarded)
    -> BoxFuture<'static, Result<Box<RawValue>, UpstreamError>>;

    /// Records the answer and journals the call; called in the call's turn, where blocking is
    /// fine, after `forward`'s answer and before it goes out.
    fn record(&self, call: Forwarded, answer: &Result<Box<RawValue>, UpstreamError>, micros: u64);
}

/// A call on its way upstream, and where it came from (for the journal).
#[derive(Debug, Clone)]
pub struct Forwarded {
    pub tool: String,
    pub arguments: Option<serde_json::Map<String, serde_json::Value>>,
    pub origin: Origin,
    pub session: Option<String>,
}

/// A JSON-RPC error in answer to a forwarded call, sent on to the client as it is.
#[derive(Debug, Clone, PartialEq)]
pub struct UpstreamError {
    pub code: i64,
    pub message: String,
    pub data: Option<serde_json::Value>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            host: "127.0.0.1".to_string(),
            port: 8787,
            server_name: "careem-mcp-service".to_string(),
            server_version: "v1.0.0".to_string(),
            widget_domain: "https://careem-mcp-app.pages.dev".to_string(),
            allowed_hosts: Vec::new(),
            no_output_schema: false,
            no_meta: false,
            session_idle: Duration::from_secs(30 * 60),
            max_sessions: DEFAULT_MAX_SESSIONS,
            connections: ConnectionLimits::default(),
            runs: None,
            forwarder: None,
            wire: WireProfile::default(),
            verbose: false,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error(transparent)]
    Listen(#[from] BindError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// A server started by [`start_http`]. Dropping it stops the server too, without waiting.
#[derive(Debug)]
pub struct RunningServer {
    pub addr: SocketAddr,
    /// Stops accepting connections; requests already being answered go on.
    accept: CancellationToken,
    /// Ends every session and stream.
    sessions: CancellationToken,
    table: Arc<sessions::Sessions>,
    in_flight: InFlight,
    task: Option<JoinHandle<()>>,
}

impl RunningServer {
    /// The Streamable HTTP endpoint.
    #[must_use]
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// The legacy HTTP+SSE endpoint.
    #[must_use]
    pub fn sse_url(&self) -> String {
        format!("http://{}/sse", self.addr)
    }

    /// Stops accepting connections, lets the calls in flight finish and answer, then ends every
    /// session and stream and waits (briefly) for the connections to close.
    pub async fn shutdown(mut self) {
        self.accept.cancel();
        drain(&self.in_flight).await;
        self.table.close_all();
        self.sessions.cancel();
        if let Some(mut task) = self.task.take()
            && tokio::time::timeout(SHUTDOWN_GRACE, &mut task)
                .await
                .is_err()
        {
            tracing::warn!("connections still open after {SHUTDOWN_GRACE:?}; dropping them");
            task.abort();
        }
    }
}

/// Waits (up to the grace period) for the calls in flight, cuts those still running (they
/// answer `-32603` at once, as do `hang` faults, which are never waited for), then gives the
/// answers a moment to reach their streams.
async fn drain(in_flight: &InFlight) {
    if tokio::time::timeout(SHUTDOWN_GRACE, in_flight.drained())
        .await
        .is_err()
    {
        tracing::warn!(
            "calls still running after {SHUTDOWN_GRACE:?}; answering them with an error"
        );
    }
    in_flight.cut();
    tokio::time::sleep(SHUTDOWN_SETTLE).await;
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        // Ends everything at once; the serving task finishes on its own.
        self.accept.cancel();
        self.table.close_all();
        self.sessions.cancel();
    }
}

/// Binds (port 0 picks a free port), starts serving in the background and returns at once.
///
/// # Errors
///
/// The address cannot be bound (in use, or not a local address).
pub async fn start_http(
    engine: Arc<Engine>,
    options: ServerOptions,
) -> Result<RunningServer, ServerError> {
    let sessions = CancellationToken::new();
    let state = AppState::new(engine, &options, sessions.clone());
    let in_flight = state.in_flight();
    let table = state.sessions();
    let listener = bind(&options.host, options.port).await?;
    let addr = listener.local_addr()?;
    let router = app(state);
    memory::trim_after_loading().await;
    // Abandoned sessions expire after `session_idle`; give their memory back about as often,
    // and soon after any session ends.
    memory::spawn_trimmer(options.session_idle, table.ended(), sessions.clone());
    let accept = CancellationToken::new();
    let task = tokio::spawn(listener::serve(
        listener,
        router,
        options.connections,
        accept.clone(),
    ));
    tracing::debug!(%addr, "listening");
    Ok(RunningServer {
        addr,
        accept,
        sessions,
        table,
        in_flight,
        task: Some(task),
    })
}
