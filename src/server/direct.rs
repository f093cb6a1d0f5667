//! The hot requests of an initialized Streamable HTTP session, answered before rmcp's service
//! sees them. Behind rmcp's `handle_post` every request had its headers checked, its body
//! parsed, its session looked up and its answer framed through boxed streams with a keep-alive
//! timer, and the middlewares in front of it (faults, duplicate ids) each parsed the body again:
//! once the session's task hops were gone (`fast_path.rs`) that was most of a `tools/call`'s
//! cost, with the answer's value built, copied into rmcp's result and serialised.
//!
//! Here a request is read once. When it is one that rmcp would answer in the ordinary way, it
//! is answered in place: `ping`, `tools/list` and `resources/*` through rmcp's own dispatch, and
//! a `tools/call` that waits on nothing from the engine's text alone, written straight into the
//! SSE event (`call_result::call_answer_json`). Anything else — another method, headers or
//! `_meta` that rmcp's checks act on, an id already pending, a call with a delay, a fault, an
//! unknown tool or a tool file to parse again — goes on down the stack, a call with its plan
//! carried along, and is answered there as before. `tests/integration/fast_path.rs` holds the
//! two paths to the same bytes.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures::FutureExt;
use rmcp::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, GetMeta, JsonRpcRequest, RequestId,
    ServerJsonRpcMessage,
};
use tokio_util::sync::CancellationToken;

use super::answer_stream;
use super::call_result::call_answer_json;
use super::duplicate_ids::{Pending, PendingIds};
use super::fast_path;
use super::faults::{self, Planned};
use super::handler::{Handler, PANICKED};
use super::http::MAX_BODY_BYTES;
use super::sessions::{Ready, SESSION_ID, Sessions, session_of_post};
use crate::engine::{CallOutput, INTERNAL_ERROR, JsonShape, Rendering};

/// What answering in place needs: the handler and engine, the sessions, the ids pending on
/// them (shared with `duplicate_ids`), and the shutdown, after which rmcp answers everything.
#[derive(Debug, Clone)]
pub(crate) struct Direct {
    pub(crate) handler: Handler,
    pub(crate) sessions: Arc<Sessions>,
    pub(crate) pending: PendingIds,
    pub(crate) shutdown: CancellationToken,
}

/// Middleware in front of `/mcp`: answers what it can in place, passes on the rest.
pub(crate) async fn answer_hot_requests(
    State(direct): State<Direct>,
    request: Request,
    next: Next,
) -> Response {
    let Some(session) = session_of_post(&request) else {
        return next.run(request).await;
    };
    let ending = direct.shutdown.is_cancelled() || direct.handler.calls_cut();
    // An upstream's calls go through the handler, which forwards them.
    if ending || direct.handler.forwards() || !plain_headers(request.headers(), &direct.handler) {
        return next.run(request).await;
    }
    let Some(ready) = direct.sessions.ready(&session).await else {
        return next.run(request).await;
    };
    let (mut parts, body) = request.into_parts();
    // Already read whole (`http::read_bodies_in_time`): this only takes the bytes.
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY_BYTES).await else {
        return (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large").into_response();
    };
    let hot = match serde_json::from_slice::<ClientJsonRpcMessage>(&bytes) {
        Ok(ClientJsonRpcMessage::Request(request))
            if fast_path::is_hot_request(&request.request)
                // A version in `_meta` has rmcp check it against the header and the session.
                && request.request.get_meta().protocol_version().is_none() =>
        {
            Some(request)
        }
        _ => None,
    };
    if let Some(request) = hot
        && let Some(response) = direct.answer(&session, &ready, request, &mut parts)
    {
        return response;
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// Whether rmcp's checks of the headers would all pass without a word: both media types
/// accepted (plainly, without parameters to weigh), a JSON body, and no protocol version header
/// or one of the versions with a handshake, which needs nothing more of a request.
fn plain_headers(headers: &HeaderMap, handler: &Handler) -> bool {
    let (mut json, mut sse) = (false, false);
    for value in headers.get_all(header::ACCEPT) {
        let Ok(value) = value.to_str() else {
            return false;
        };
        for entry in value.split(',').map(str::trim) {
            if entry.contains([';', '"']) {
                return false;
            }
            json |= entry.eq_ignore_ascii_case("application/json");
            sse |= entry.eq_ignore_ascii_case("text/event-stream");
        }
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"));
    let version = headers.get("mcp-protocol-version").is_none_or(|value| {
        value.to_str().is_ok_and(|version| {
            let known = handler.supported_protocol_versions();
            known.iter().any(|known| known.as_str() == version)
        })
    });
    json && sse && content_type && version && headers.get_all(SESSION_ID).iter().count() == 1
}

impl Direct {
    /// The answer to `request`, or `None` to pass it on (with a call's plan in `parts`).
    fn answer(
        &self,
        session: &str,
        ready: &Ready,
        mut request: JsonRpcRequest<ClientRequest>,
        parts: &mut Parts,
    ) -> Option<Response> {
        let id = request.id.clone();
        // An id already pending is `duplicate_ids`' to refuse.
        let pending = self.pending.take((session.to_string(), id.clone()))?;
        let method = request.request.method();
        if let ClientRequest::CallToolRequest(call) = request.request {
            return self.call(session, ready, id, call.params, pending, parts);
        }
        tracing::debug!(%id, method, "answered in place, before rmcp");
        // As in rmcp's service: the request's token is a child of the session's, the handler's
        // a child of the request's.
        let call = ready.ended().child_token();
        let context = fast_path::context(ready.peer.clone(), &mut request, call.child_token());
        let mut answering = Box::pin(fast_path::dispatch(self.handler.clone(), request, context));
        let number = ready.next_stream();
        if let Some(answer) = answering.as_mut().now_or_never() {
            return Some(answer_stream::now(
                ready,
                number,
                &to_json(&answer),
                pending,
            ));
        }
        let json = answering.map(|message| to_json(&message));
        Some(answer_stream::later(ready, id, number, pending, call, json))
    }

    /// A `tools/call` that waits on nothing: planned, answered by the engine from a tool file
    /// parsed already, journalled (in place when that cannot block), and sent.
    fn call(
        &self,
        session: &str,
        ready: &Ready,
        id: RequestId,
        params: CallToolRequestParams,
        pending: Pending,
        parts: &mut Parts,
    ) -> Option<Response> {
        let engine = self.handler.engine();
        // An unknown tool is rmcp's `-32602`, with its journal line.
        let plan = faults::plan(&engine, &params.name, Some(session))?;
        if plan.fault.is_some() || !plan.delay.is_zero() {
            parts.extensions.insert(Planned(plan));
            return None;
        }
        let in_flight = self.handler.enter_call();
        let mut arguments = params.arguments;
        let warm = panic::catch_unwind(AssertUnwindSafe(|| {
            engine.call_planned_warm(&params.name, &mut arguments, &plan, Rendering::Text)
        }));
        let tool = params.name.into_owned();
        let output = match warm {
            Ok(Some(Ok(output))) => output,
            // The file changed since its last parse (parsed where that may block), or the tool
            // is gone: rmcp's path answers either.
            Ok(_) => {
                parts.extensions.insert(Planned(plan));
                return None;
            }
            Err(_) => {
                let json = call_json(&id, &tool, Err(PANICKED.to_string()));
                return Some(answer_stream::now(
                    ready,
                    ready.next_stream(),
                    &json,
                    pending,
                ));
            }
        };
        tracing::debug!(%id, method = "tools/call", "answered in place, before rmcp");
        // Numbered only once this path answers for sure: rmcp numbers the streams it serves.
        let number = ready.next_stream();
        let (handler, session, answer_id) = (self.handler.clone(), session.to_string(), id.clone());
        let mut answering = Box::pin(async move {
            let answered = handler.journal_call(Some(session), output).await;
            drop(in_flight);
            match answered {
                Some(answered) => call_json(&answer_id, &tool, answered),
                None => to_json(&ServerJsonRpcMessage::error(
                    faults::internal_error(),
                    Some(answer_id),
                )),
            }
        });
        // The journal line is written in place when that cannot block, else on a thread of
        // its own while the client has the priming event.
        if let Some(json) = answering.as_mut().now_or_never() {
            return Some(answer_stream::now(ready, number, &json, pending));
        }
        let call = ready.ended().child_token();
        Some(answer_stream::later(
            ready, id, number, pending, call, answering,
        ))
    }
}

/// A call's outcome as the JSON-RPC answer to `id`, as the handler shapes it: the engine's
/// answer, or when something inside failed (the details go to the log), `internal server
/// error` as a tool error.
fn call_json(id: &RequestId, tool: &str, answered: Result<CallOutput, String>) -> Vec<u8> {
    match answered {
        Ok(output) => call_answer_json(
            id,
            &output.text,
            output.json == Some(JsonShape::Object),
            output.is_error,
        ),
        Err(error) => {
            tracing::error!(%tool, "the call failed: {error}");
            call_answer_json(id, INTERNAL_ERROR, false, true)
        }
    }
}

/// A message as rmcp's stream serialises it.
fn to_json(message: &ServerJsonRpcMessage) -> Vec<u8> {
    serde_json::to_vec(message).expect("a server message serialises")
}
