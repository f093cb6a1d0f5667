//! The HTTP face: `/mcp` (rmcp's Streamable HTTP service), `/sse` + `/message` (legacy SSE) and
//! `/health`, behind one DNS-rebinding guard and one body limit.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::direct::Direct;
use super::duplicate_ids::{PendingIds, refuse_duplicate_ids};
use super::faults::HttpFaults;
use super::guard::{HostGuard, guard_hosts};
use super::handler::Handler;
use super::session_limit::SessionLimit;
use super::sessions::{self, Sessions};
use super::sse::SseSessions;
use super::{ServerError, ServerOptions};
use crate::engine::Engine;

/// Request bodies above this are refused with 413, on every route.
pub(crate) const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// What the router needs: the handler every session clones, the host guard and the shutdown
/// signal that ends sessions and streams.
#[derive(Debug, Clone)]
pub struct AppState {
    handler: Handler,
    guard: Arc<HostGuard>,
    session_idle: Duration,
    /// `--max-sessions`, over Streamable HTTP and legacy SSE together.
    limit: SessionLimit,
    body_timeout: Duration,
    fast_path: bool,
    shutdown: CancellationToken,
}

impl AppState {
    /// # Errors
    ///
    /// A tool's definition cannot be advertised exactly as its file has it.
    pub fn new(
        engine: Arc<Engine>,
        options: &ServerOptions,
        shutdown: CancellationToken,
    ) -> Result<Self, ServerError> {
        Ok(Self {
            handler: Handler::new(engine, options)?,
            guard: Arc::new(HostGuard::new(&options.allowed_hosts)),
            session_idle: options.session_idle,
            limit: SessionLimit::new(options.max_sessions),
            body_timeout: options.connections.body_timeout,
            fast_path: options.fast_path,
            shutdown,
        })
    }

    pub(crate) fn limit(&self) -> SessionLimit {
        self.limit.clone()
    }

    /// The calls being answered now, for a shutdown that lets them finish.
    pub(crate) fn in_flight(&self) -> super::handler::InFlight {
        self.handler.in_flight()
    }
}

/// Every route of the server; cancelling the state's shutdown token ends all sessions.
pub fn app(state: AppState) -> Router {
    let mut sessions = LocalSessionManager::default();
    // Idle sessions are ended by `Sessions`, which sees the fast path's traffic too.
    sessions.session_config.keep_alive = None;
    let config = StreamableHttpServerConfig::default()
        // The guard below checks Host and Origin for every route, with the same rules.
        .disable_allowed_hosts()
        .with_max_request_body_bytes(MAX_BODY_BYTES)
        .with_cancellation_token(state.shutdown.child_token());
    let sessions = Arc::new(Sessions::new(
        sessions,
        state.limit.clone(),
        state.handler.clone(),
        state.session_idle,
        state.fast_path,
    ));
    let handler = state.handler.clone();
    let pending = PendingIds::default();
    let direct = Direct {
        handler: state.handler.clone(),
        sessions: Arc::clone(&sessions),
        pending: pending.clone(),
        shutdown: state.shutdown.clone(),
    };
    let faults = HttpFaults {
        engine: state.handler.engine(),
        sessions: Arc::clone(&sessions),
        shutdown: state.shutdown.clone(),
    };
    let mcp = StreamableHttpService::new(move || Ok(handler.clone()), sessions, config);
    let mcp = Router::new()
        .route_service("/mcp", mcp)
        .layer(middleware::from_fn_with_state(
            pending,
            refuse_duplicate_ids,
        ))
        .layer(middleware::from_fn_with_state(
            faults,
            super::faults::streamable_http,
        ))
        .layer(middleware::from_fn(delete_answers_no_content))
        .layer(middleware::from_fn(answer_unreadable_messages))
        .layer(middleware::from_fn_with_state(
            state.limit.clone(),
            sessions::reserve,
        ))
        .layer(middleware::from_fn_with_state(
            direct,
            super::direct::answer_hot_requests,
        ));

    let tools = state.handler.tool_count();
    let sse = SseSessions::new(
        state.handler.clone(),
        state.limit.clone(),
        state.shutdown.child_token(),
    );
    Router::new()
        .merge(mcp)
        .merge(super::sse::routes(sse))
        .route(
            "/health",
            get(move || async move { axum::Json(json!({"status": "ok", "tools": tools})) }),
        )
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(
            state.body_timeout,
            read_bodies_in_time,
        ))
        .layer(middleware::from_fn(refuse_large_bodies))
        .layer(middleware::from_fn_with_state(state.guard, guard_hosts))
}

/// rmcp answers a session's `DELETE` with 202; the Python SDK warns on anything but 200/204.
async fn delete_answers_no_content(request: Request, next: Next) -> Response {
    let delete = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
        response.headers_mut().remove(header::CONTENT_LENGTH);
        response.headers_mut().remove(header::CONTENT_TYPE);
        *response.body_mut() = Body::empty();
    }
    response
}

/// rmcp answers a JSON body that is not one JSON-RPC message with 415 and serde's error (line,
/// column, what it expected). The client gets JSON-RPC's own answer instead, with nothing of
/// the parser in it: 400 with `-32700` when the body is not JSON at all (or nests too deeply to
/// read), `-32600` when it is JSON but not a message (a batch array, no `jsonrpc`, …). The body
/// is kept so the answer can tell the two apart; only the refusal path looks at it again.
async fn answer_unreadable_messages(request: Request, next: Next) -> Response {
    let json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"));
    if request.method() != Method::POST || !json {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
        Ok(bytes) => bytes,
        Err(error) => {
            tracing::debug!("cannot read a request body: {error}");
            return (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large").into_response();
        }
    };
    let response = next
        .run(Request::from_parts(parts, Body::from(bytes.clone())))
        .await;
    if response.status() != StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return response;
    }
    let (code, message) = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(_) => (-32600, "Invalid Request"),
        Err(error) => {
            tracing::debug!("a request body that is not JSON: {error}");
            (-32700, "Parse error")
        }
    };
    let error = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}});
    (StatusCode::BAD_REQUEST, axum::Json(error)).into_response()
}

/// A declared length over the limit is refused before anything reads the body; streamed bodies
/// are cut off by rmcp (`/mcp`) and `DefaultBodyLimit` (`/message`).
async fn refuse_large_bodies(request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        return (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large").into_response();
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
            (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large").into_response()
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
