//! Legacy HTTP+SSE (MCP 2024-11-05), which rmcp 3.x no longer serves: `GET /sse` opens a
//! stream whose first event names the POST endpoint, and each connection gets its own rmcp
//! service over a pair of channels (rmcp takes a `(Sink, Stream)` pair as a transport), its
//! request ids kept unique by `unique_ids.rs`.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::{Stream, StreamExt};
use rmcp::ServiceExt;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, GetExtensions, ServerJsonRpcMessage};
use rmcp::transport::sink_stream::SinkStreamTransport;
use serde::Deserialize;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_util::sync::{CancellationToken, PollSender};

use super::faults::{self, Planned};
use super::handler::Handler;
use super::session_limit::{self, SessionLimit, SessionSlot};
use super::unique_ids::UniqueIds;
use crate::engine::{Fault, Origin, Plan};

/// Where clients POST their messages; the `endpoint` event adds `?sessionId=`.
const MESSAGE_PATH: &str = "/message";
/// Messages buffered each way per session before a sender waits.
const CHANNEL_CAPACITY: usize = 64;

/// A session's rmcp transport: the channels each way, request ids kept unique.
type SessionTransport = UniqueIds<
    SinkStreamTransport<PollSender<ServerJsonRpcMessage>, ReceiverStream<ClientJsonRpcMessage>>,
>;

/// The open SSE connections, each with the sender that feeds its rmcp service.
#[derive(Debug, Clone)]
pub(crate) struct SseSessions {
    handler: Handler,
    /// `--max-sessions`, shared with Streamable HTTP: each open stream holds a place.
    limit: SessionLimit,
    sessions: Arc<Mutex<HashMap<String, Session>>>,
    shutdown: CancellationToken,
}

/// An open connection: the sender that feeds its rmcp service, and the token that ends it.
#[derive(Debug, Clone)]
struct Session {
    sender: mpsc::Sender<ClientJsonRpcMessage>,
    stop: CancellationToken,
}

impl SseSessions {
    pub(crate) fn new(handler: Handler, limit: SessionLimit, shutdown: CancellationToken) -> Self {
        Self {
            handler,
            limit,
            sessions: Arc::default(),
            shutdown,
        }
    }

    fn session(&self, id: &str) -> Option<Session> {
        self.sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .cloned()
    }
}

pub(crate) fn routes(sessions: SseSessions) -> Router {
    Router::new()
        .route("/sse", get(open))
        .route(MESSAGE_PATH, post(message))
        .with_state(sessions)
}

/// Removes the session and stops its service when the client goes away (the response stream
/// is dropped) or the stream ends; its place under `--max-sessions` goes back with it.
struct SessionGuard {
    id: String,
    sessions: SseSessions,
    stop: CancellationToken,
    _slot: SessionSlot,
}

impl Drop for SessionGuard {
    fn drop(&mut self) {
        self.stop.cancel();
        self.sessions
            .sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
        self.sessions
            .handler
            .engine()
            .positions()
            .forget_session(&self.id);
        tracing::debug!(session = %self.id, "SSE session closed");
    }
}

/// A new stream, or the ingress's 503 when `--max-sessions` are open.
async fn open(State(sessions): State<SseSessions>) -> Response {
    match sessions.limit.try_open() {
        Some(slot) => open_stream(sessions, slot).into_response(),
        None => session_limit::refusal(),
    }
}

fn open_stream(
    sessions: SseSessions,
    slot: SessionSlot,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let id = uuid::Uuid::new_v4().to_string();
    let (to_service, from_client) = mpsc::channel::<ClientJsonRpcMessage>(CHANNEL_CAPACITY);
    let (to_client, from_service) = mpsc::channel::<ServerJsonRpcMessage>(CHANNEL_CAPACITY);
    let stop = sessions.shutdown.child_token();
    sessions
        .sessions
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(
            id.clone(),
            Session {
                sender: to_service,
                stop: stop.clone(),
            },
        );

    let transport = UniqueIds::new(SinkStreamTransport::new(
        PollSender::new(to_client),
        ReceiverStream::new(from_client),
    ));
    tokio::spawn(run(
        sessions.handler.labelled(Origin::Sse, Some(&id)),
        id.clone(),
        transport,
        stop.clone(),
    ));
    tracing::debug!(session = %id, "SSE session opened");

    let endpoint = Event::default()
        .event("endpoint")
        .data(format!("{MESSAGE_PATH}?sessionId={id}"));
    let guard = SessionGuard {
        id,
        sessions,
        stop: stop.clone(),
        _slot: slot,
    };
    let messages =
        ReceiverStream::new(from_service).filter_map(|message| async move { event(&message) });
    let stream = futures::stream::once(async move { endpoint })
        .chain(messages)
        .take_until(stop.cancelled_owned())
        .map(move |event| {
            let _alive = &guard;
            Ok(event)
        });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

fn event(message: &ServerJsonRpcMessage) -> Option<Event> {
    match serde_json::to_string(message) {
        Ok(json) => Some(Event::default().event("message").data(json)),
        Err(error) => {
            tracing::error!("cannot encode a message for an SSE client: {error}");
            None
        }
    }
}

/// One session's rmcp service; it ends when the client disconnects or the server shuts down.
async fn run(handler: Handler, id: String, transport: SessionTransport, stop: CancellationToken) {
    match handler.serve_with_ct(transport, stop).await {
        Ok(service) => {
            if let Err(error) = service.waiting().await {
                tracing::error!(session = %id, "SSE session failed: {error}");
            }
        }
        Err(error) => {
            tracing::debug!(session = %id, "SSE session ended before initializing: {error}");
        }
    }
}

#[derive(Debug, Deserialize)]
struct MessageQuery {
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
}

async fn message(
    State(sessions): State<SseSessions>,
    Query(query): Query<MessageQuery>,
    body: Bytes,
) -> Response {
    let Some(id) = query.session_id else {
        return (StatusCode::BAD_REQUEST, "Bad Request: missing sessionId").into_response();
    };
    let Some(session) = sessions.session(&id) else {
        return (StatusCode::NOT_FOUND, "Not Found: unknown session").into_response();
    };
    let mut message = match serde_json::from_slice::<ClientJsonRpcMessage>(&body) {
        Ok(message) => message,
        Err(error) => {
            tracing::debug!(session = %id, "malformed message: {error}");
            return (
                StatusCode::BAD_REQUEST,
                "Bad Request: invalid JSON-RPC message",
            )
                .into_response();
        }
    };
    if let ClientJsonRpcMessage::Request(request) = &mut message
        && let ClientRequest::CallToolRequest(call) = &mut request.request
    {
        let engine = sessions.handler.engine();
        if let Some(plan) = faults::plan(&engine, &call.params.name, Some(&id)) {
            if let Some(fault) = plan.fault.filter(|fault| faults::answered_by_http(*fault)) {
                let call = faults::ToolCall {
                    name: call.params.name.to_string(),
                    arguments: call.params.arguments.clone(),
                };
                return fire(&sessions, &session, &id, call, &plan, fault).await;
            }
            call.extensions_mut().insert(Planned(plan));
        }
    }
    if session.sender.send(message).await.is_err() {
        return (StatusCode::NOT_FOUND, "Not Found: the session has ended").into_response();
    }
    (StatusCode::ACCEPTED, "Accepted").into_response()
}

/// A fault the message endpoint answers: the ingress's status on the POST, or (`drop`) a POST
/// accepted while its stream closes, or (`session-expired`) a session that ends and a 404.
async fn fire(
    sessions: &SseSessions,
    session: &Session,
    id: &str,
    call: faults::ToolCall,
    plan: &Plan,
    fault: Fault,
) -> Response {
    if !faults::wait(plan.delay, &session.stop).await {
        return (StatusCode::NOT_FOUND, "Not Found: the session has ended").into_response();
    }
    let engine = sessions.handler.engine();
    faults::record(&engine, Origin::Sse, Some(id), call, plan).await;
    if matches!(fault, Fault::Drop | Fault::SessionExpired) {
        session.stop.cancel();
    }
    faults::status_answer(fault)
        .unwrap_or_else(|| (StatusCode::ACCEPTED, "Accepted").into_response())
}
