//! The routes: `/mcp` (Streamable HTTP), `/sse` (legacy SSE) and `/health`, behind the
//! listener's layers (`crate::http`) in request order: the refusals' log (`serve -v`), the
//! DNS-rebinding guard, then the body limit and deadline.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use tower::ServiceBuilder;

use super::ServerOptions;
use super::mcp::{InFlight, Mcp};
use super::sessions::Sessions;
use super::sse::Sse;
use super::streamable::Streamable;
use super::streams::Streams;
use crate::engine::Engine;
use crate::http::listener::{BodyLimits, HostGuard, bound_bodies, guard_hosts};
use crate::http::plain;

/// Request bodies above this are refused with 413, on every route.
pub(crate) const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// What the router needs: the MCP layer every session shares, the session table, the host
/// guard and the shutdown signal that ends sessions and streams.
#[derive(Debug, Clone)]
pub struct AppState {
    mcp: Arc<Mcp>,
    sessions: Arc<Sessions>,
    streams: Arc<Streams>,
    guard: Arc<HostGuard>,
    body_timeout: Duration,
    shutdown: CancellationToken,
    /// Logs every refused request (`serve -v`).
    verbose: bool,
}

impl AppState {
    pub fn new(engine: Arc<Engine>, options: &ServerOptions, shutdown: CancellationToken) -> Self {
        Self {
            mcp: Arc::new(Mcp::new(engine, options)),
            sessions: Sessions::new(options.max_sessions, options.session_idle, shutdown.clone()),
            streams: Streams::new(crate::http::listener::fitting_cap(
                options.connections.max_connections,
            )),
            guard: Arc::new(HostGuard::new(&options.allowed_hosts).without_origin_check()),
            body_timeout: options.connections.body_timeout,
            shutdown,
            verbose: options.verbose,
        }
    }

    pub(crate) fn sessions(&self) -> Arc<Sessions> {
        Arc::clone(&self.sessions)
    }

    /// The calls being answered now, for a shutdown that lets them finish.
    pub(crate) fn in_flight(&self) -> InFlight {
        self.mcp.in_flight().clone()
    }
}

/// Every route of the server.
pub fn app(state: AppState) -> Router {
    let streamable = Streamable {
        mcp: Arc::clone(&state.mcp),
        sessions: Arc::clone(&state.sessions),
        streams: Arc::clone(&state.streams),
        shutdown: state.shutdown.clone(),
    };
    let sse = Sse::new(
        Arc::clone(&state.mcp),
        Arc::clone(&state.sessions),
        Arc::clone(&state.streams),
        state.shutdown.clone(),
    );
    let tools = state.mcp.tool_count();
    let bodies = BodyLimits {
        max_bytes: MAX_BODY_BYTES,
        timeout: state.body_timeout,
        too_large,
        too_slow,
    };
    let routes = Router::new()
        .route(
            "/mcp",
            any(super::streamable::handle).with_state(streamable.clone()),
        )
        .route(
            "/mcp/{run}",
            any(super::streamable::handle_run).with_state(streamable),
        )
        .route("/sse", any(super::sse::handle).with_state(sse.clone()))
        .route("/sse/{run}", any(super::sse::handle_run).with_state(sse))
        .route(
            "/health",
            get(move || async move { axum::Json(json!({"status": "ok", "tools": tools})) }),
        )
        .fallback(|| async { plain::not_found() });
    routes.layer(
        ServiceBuilder::new()
            .option_layer(
                state
                    .verbose
                    .then(|| middleware::from_fn(super::refusals::log_refusals)),
            )
            .layer(middleware::from_fn_with_state(state.guard, guard_hosts))
            .layer(middleware::from_fn_with_state(bodies, bound_bodies)),
    )
}

/// A body over [`MAX_BODY_BYTES`], as v1.7.0's SDK refuses it.
fn too_large() -> Response {
    plain::error(
        StatusCode::PAYLOAD_TOO_LARGE,
        &format!("request body exceeds {MAX_BODY_BYTES} bytes"),
    )
}

/// A body that did not arrive within the body timeout.
fn too_slow() -> Response {
    (StatusCode::REQUEST_TIMEOUT, "Request Timeout").into_response()
}
