//! The HTTP face: `/mcp` (Streamable HTTP), `/sse` (legacy SSE) and `/health`, behind one
//! DNS-rebinding guard, one body limit and one body timeout.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::ServerOptions;
use super::guard::{HostGuard, guard_hosts};
use super::mcp::{InFlight, Mcp};
use super::plain;
use super::sessions::Sessions;
use super::sse::Sse;
use super::streamable::Streamable;
use super::streams::Streams;
use crate::engine::Engine;

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
            streams: Streams::new(super::connections::fitting_cap(
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
    let router = Router::new()
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
        .fallback(|| async { plain::error(StatusCode::NOT_FOUND, "404 page not found") })
        .layer(middleware::from_fn_with_state(
            state.body_timeout,
            read_bodies_in_time,
        ))
        .layer(middleware::from_fn(refuse_large_bodies))
        .layer(middleware::from_fn_with_state(state.guard, guard_hosts));
    if state.verbose {
        router.layer(middleware::from_fn(super::refusals::log_refusals))
    } else {
        router
    }
}

fn too_large() -> Response {
    plain::error(
        StatusCode::PAYLOAD_TOO_LARGE,
        &format!("request body exceeds {MAX_BODY_BYTES} bytes"),
    )
}

/// A declared length over the limit is refused before anything reads the body; streamed bodies
/// are cut off by [`read_bodies_in_time`].
async fn refuse_large_bodies(request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        return too_large();
    }
    next.run(request).await
}

/// Reads the whole body (within the size limit) before any route sees it, and gives up after
/// `timeout`: a client that sends its body slowly, or holds back its last bytes, would otherwise
/// hold the connection and the buffered part for ever. It gets 408 and its connection is
/// closed, as nginx answers a body that stalls. Requests without a body pass at once.
async fn read_bodies_in_time(
    State(timeout): State<Duration>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(error)) => {
            tracing::debug!("cannot read a request body: {error}");
            too_large()
        }
        Err(_) => {
            tracing::debug!(
                "a request body still incomplete after {timeout:?}: closing its connection"
            );
            (
                StatusCode::REQUEST_TIMEOUT,
                [(header::CONNECTION, "close")],
                "Request Timeout",
            )
                .into_response()
        }
    }
}
