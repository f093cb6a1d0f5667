//! The overrides file's faults as production's stack shows them on each transport (the table
//! in `docs/CONTROLS.md`): the ingress's 502/503/504 with its plain-text body, a stream that
//! closes without an answer, a session that really ends, JSON-RPC `-32603`. Faults the HTTP
//! layer answers fire here, before rmcp sees the request; the others travel to the handler
//! inside the request as its [`Planned`] call.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::ErrorData as McpError;
use rmcp::transport::streamable_http_server::SessionManager;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::http::MAX_BODY_BYTES;
use super::sessions::{Sessions, session_of_post};
use crate::engine::{CallRequest, Engine, Fault, Origin, Plan, Planning, Rendering};

/// A call's plan, made where the request arrived and carried to the handler in the request's
/// extensions, so that each call advances its session's sequence exactly once.
#[derive(Debug, Clone)]
pub(crate) struct Planned(pub(crate) Plan);

/// Production's JSON-RPC answer when a handler fails (the Go SDK's).
pub(crate) fn internal_error() -> McpError {
    McpError::internal_error("internal error", None)
}

/// Whether the HTTP layer answers `fault` itself (on Streamable HTTP and the SSE message
/// POST), rather than the MCP handler.
pub(crate) fn answered_by_http(fault: Fault) -> bool {
    matches!(
        fault,
        Fault::Http502 | Fault::Http503 | Fault::Http504 | Fault::Drop | Fault::SessionExpired
    )
}

/// The ingress's answer for a fault that is one status and body: the Envoy texts production's
/// ingress sends, and the Go SDK's own 404 for a session it no longer has.
pub(crate) fn status_answer(fault: Fault) -> Option<Response> {
    let (status, body) = match fault {
        Fault::Http502 => (
            StatusCode::BAD_GATEWAY,
            "upstream connect error or disconnect/reset before headers. reset reason: connection termination",
        ),
        Fault::Http503 => (StatusCode::SERVICE_UNAVAILABLE, "no healthy upstream"),
        Fault::Http504 => (StatusCode::GATEWAY_TIMEOUT, "upstream request timeout"),
        Fault::SessionExpired => (StatusCode::NOT_FOUND, "session not found"),
        Fault::Drop | Fault::Hang | Fault::InternalError => return None,
    };
    Some((status, [(header::CONTENT_TYPE, "text/plain")], body).into_response())
}

/// An answer that starts as the SSE stream of a call and breaks before any event: what a client
/// sees when the pod dies after the ingress passed its headers on.
fn broken_stream() -> Response {
    let body = futures::stream::once(async {
        Err::<Bytes, std::io::Error>(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "connection reset",
        ))
    });
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(body),
    )
        .into_response()
}

/// Waits out a plan's delay in the call's own task, or until `cancelled` fires; `false` when
/// the wait was cut short.
pub(crate) async fn wait(delay: Duration, cancelled: &CancellationToken) -> bool {
    if delay.is_zero() {
        return true;
    }
    tokio::select! {
        () = tokio::time::sleep(delay) => true,
        () = cancelled.cancelled() => false,
    }
}

/// A `tools/call` as the HTTP layer reads it from a request body.
pub(crate) struct ToolCall {
    pub(crate) name: String,
    pub(crate) arguments: Option<Map<String, Value>>,
}

impl ToolCall {
    /// The call in `body`, if it is a `tools/call` request; anything else is rmcp's to answer.
    fn read(body: &[u8]) -> Option<Self> {
        // Most messages are not calls: skip parsing them twice.
        if !body.windows(10).any(|window| window == b"tools/call") {
            return None;
        }
        let message: Value = serde_json::from_slice(body).ok()?;
        if message.get("method")?.as_str()? != "tools/call" || message.get("id").is_none() {
            return None;
        }
        let params = message.get("params")?;
        Some(Self {
            name: params.get("name")?.as_str()?.to_string(),
            arguments: params.get("arguments").and_then(Value::as_object).cloned(),
        })
    }
}

/// Plans a call of a known tool, in place: the plan reads the overrides file, which is opened
/// without blocking, refused unless it is a regular file, bounded to 1 MiB and parsed only when
/// its bytes change (`engine::overrides`), so the read cannot hold up the runtime. A thread
/// hand-off here used to cost more than the plan.
pub(crate) fn plan(engine: &Engine, tool: &str, session: Option<&str>) -> Option<Plan> {
    engine.tool(tool)?;
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.plan(tool, session))) {
        Ok(plan) => Some(plan),
        Err(_) => {
            tracing::error!("planning a call failed: it panicked");
            None
        }
    }
}

/// Journals a fault off the async workers.
pub(crate) async fn record(
    engine: &Arc<Engine>,
    origin: Origin,
    session: Option<&str>,
    call: ToolCall,
    plan: &Plan,
) {
    let engine = Arc::clone(engine);
    let request = CallRequest {
        tool: call.name,
        arguments: call.arguments,
        planning: Planning::Given(plan.clone()),
        rendering: Rendering::Text,
        origin,
        session: session.map(str::to_string),
    };
    let recorded = tokio::task::spawn_blocking(move || {
        engine.answer(&request);
    })
    .await;
    if let Err(error) = recorded {
        tracing::error!("journalling a fault failed: {error}");
    }
}

/// What the Streamable HTTP layer needs to fire faults: the engine that plans calls and the
/// sessions a `session-expired` ends.
#[derive(Debug, Clone)]
pub(crate) struct HttpFaults {
    pub(crate) engine: Arc<Engine>,
    pub(crate) sessions: Arc<Sessions>,
    pub(crate) shutdown: CancellationToken,
}

/// Plans every `tools/call` POSTed to `/mcp` in a live session: fires the faults the HTTP layer
/// answers, after the plan's delay, and hands every other plan to the handler.
pub(crate) async fn streamable_http(
    State(faults): State<HttpFaults>,
    request: Request,
    next: Next,
) -> Response {
    let Some(session) = session_of_post(&request) else {
        return next.run(request).await;
    };
    let (mut parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
        Ok(bytes) => bytes,
        Err(error) => {
            tracing::debug!("cannot read a request body: {error}");
            return (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large").into_response();
        }
    };
    let call = ToolCall::read(&bytes);
    let mut planned = None;
    // A session rmcp no longer has gets its own 404 there, with no plan made.
    if let Some(call) = &call
        && faults
            .sessions
            .has_session(&Arc::from(session.as_str()))
            .await
            .unwrap_or(false)
    {
        // Made already when the call came by `direct.rs`, which passed it on. A call this
        // layer does not recognise keeps its plan for the handler, which would otherwise make
        // a second one.
        planned = match parts.extensions.remove::<Planned>() {
            Some(Planned(plan)) => Some(plan),
            None => plan(&faults.engine, &call.name, Some(&session)),
        };
    }
    if let (Some(call), Some(plan)) = (call, planned) {
        if let Some(fault) = plan.fault.filter(|fault| answered_by_http(*fault)) {
            if !wait(plan.delay, &faults.shutdown).await {
                return (StatusCode::SERVICE_UNAVAILABLE, "no healthy upstream").into_response();
            }
            record(&faults.engine, Origin::Http, Some(&session), call, &plan).await;
            if fault == Fault::SessionExpired {
                let id = Arc::from(session.as_str());
                if let Err(error) = faults.sessions.close_session(&id).await {
                    tracing::warn!(%session, "cannot end the session: {error}");
                }
                faults.engine.positions().forget_session(&session);
            }
            return status_answer(fault).unwrap_or_else(broken_stream);
        }
        parts.extensions.insert(Planned(plan));
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}
