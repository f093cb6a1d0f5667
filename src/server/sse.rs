//! Legacy HTTP+SSE as the Go SDK's `SSEHandler` serves it, at one path: `GET /sse` opens a
//! session's stream (its first event names `/sse?sessionid=…`), `POST /sse?sessionid=…` hands
//! the stream one message (202), whose answer arrives on the stream. A stream whose client
//! stops reading is ended once its queue is full, so an unread stream cannot grow.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderValue, Method as HttpMethod, StatusCode, header};
use axum::response::Response;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::faults::Ingress;
use super::jsonrpc::{self, Message, Method};
use super::mcp::{Mcp, PlannedCall, Reply, Session, ToolCall};
use super::plain;
use super::sessions::Sessions;
use super::streamable::event;
use super::streams::{StreamSlot, Streams};
use crate::engine::{Origin, RunName};

/// Bytes a stream may hold unsent before it is ended as abandoned.
const QUEUE_BYTES: usize = 8 * 1024 * 1024;

#[derive(Debug, Clone)]
pub(crate) struct Sse {
    pub(crate) mcp: Arc<Mcp>,
    pub(crate) sessions: Arc<Sessions>,
    outboxes: Arc<std::sync::Mutex<HashMap<String, Outbox>>>,
    streams: Arc<Streams>,
    shutdown: CancellationToken,
}

/// Where a session's answers go: its stream's queue, and what the queue holds in bytes.
#[derive(Debug, Clone)]
struct Outbox {
    sender: mpsc::UnboundedSender<Bytes>,
    queued: Arc<AtomicUsize>,
}

impl Outbox {
    /// Queues `message`; `false` when the stream is gone or its client has stopped reading.
    fn send(&self, message: &[u8]) -> bool {
        let framed = event(message);
        let size = framed.len();
        if self.queued.fetch_add(size, Ordering::AcqRel) + size > QUEUE_BYTES {
            return false;
        }
        self.sender.send(framed).is_ok()
    }
}

impl Sse {
    pub(crate) fn new(
        mcp: Arc<Mcp>,
        sessions: Arc<Sessions>,
        streams: Arc<Streams>,
        shutdown: CancellationToken,
    ) -> Self {
        Self {
            mcp,
            sessions,
            outboxes: Arc::default(),
            streams,
            shutdown,
        }
    }

    fn outbox(&self, id: &str) -> Option<Outbox> {
        self.outboxes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
            .cloned()
    }

    fn forget(&self, id: &str) {
        self.outboxes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id);
    }
}

#[derive(serde::Deserialize)]
pub(crate) struct Target {
    sessionid: Option<String>,
}

/// Both methods at one path, as the SDK's handler takes them.
pub(crate) async fn handle(
    State(sse): State<Sse>,
    Query(target): Query<Target>,
    request: Request,
) -> Response {
    serve(sse, None, target, request).await
}

/// `/sse/<run>`: the same, in the run's world; a name that is no run name is no path.
pub(crate) async fn handle_run(
    State(sse): State<Sse>,
    Path(run): Path<String>,
    Query(target): Query<Target>,
    request: Request,
) -> Response {
    match run.parse::<RunName>() {
        Ok(run) if sse.mcp.runs_served() => serve(sse, Some(run), target, request).await,
        _ => plain::not_found(),
    }
}

async fn serve(sse: Sse, run: Option<RunName>, target: Target, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    if parts.method == HttpMethod::POST {
        let json = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .is_some_and(|base| base.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return plain::error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Content-Type must be 'application/json'",
            );
        }
        let Some(id) = target.sessionid.filter(|id| !id.is_empty()) else {
            return plain::error(StatusCode::BAD_REQUEST, "sessionid must be provided");
        };
        let body = axum::body::to_bytes(body, usize::MAX)
            .await
            .unwrap_or_default();
        return post(&sse, &id, run.as_ref(), &body).await;
    }
    if parts.method != HttpMethod::GET {
        let mut refused = plain::error(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
        refused
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, POST"));
        return refused;
    }
    let Some(engine) = sse.mcp.engine_of(run.as_ref()).await else {
        return plain::not_found();
    };
    open(&sse, parts.uri.path(), engine, run)
}

/// A new session and its stream: the endpoint event first, then every answer.
fn open(
    sse: &Sse,
    path: &str,
    engine: Arc<crate::engine::Engine>,
    run: Option<RunName>,
) -> Response {
    let session = Sessions::fresh(Origin::Sse, engine, run);
    let Some(id) = session.id().map(str::to_string) else {
        unreachable!("HTTP sessions always have an id");
    };
    let (sender, receiver) = mpsc::unbounded_channel::<Bytes>();
    let queued = Arc::new(AtomicUsize::new(0));
    sse.outboxes
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(
            id.clone(),
            Outbox {
                sender,
                queued: Arc::clone(&queued),
            },
        );
    let live = sse.sessions.admit(Arc::clone(&session));
    let endpoint = format!("{path}?sessionid={id}");
    let first = Bytes::from(format!("event: endpoint\ndata: {endpoint}\n\n"));
    let state = Stream {
        slot: sse.streams.take(),
        first: Some(first),
        receiver,
        queued,
        live,
        _closing: Closing {
            sse: sse.clone(),
            id,
        },
    };
    let events = futures::stream::unfold(state, |mut state| async move {
        if let Some(first) = state.first.take() {
            return Some((Ok::<Bytes, std::io::Error>(first), state));
        }
        let next = tokio::select! {
            next = state.receiver.recv() => next?,
            () = state.live.session.ended() => return None,
            () = state.slot.ended.cancelled() => {
                return Some((Err(super::streams::displaced()), state));
            }
        };
        state.queued.fetch_sub(next.len(), Ordering::AcqRel);
        Some((Ok(next), state))
    });
    let mut response = Response::new(Body::from_stream(events));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(header::CONNECTION, HeaderValue::from_static("keep-alive"));
    response
}

/// What a session's stream holds while it is open.
struct Stream {
    slot: StreamSlot,
    first: Option<Bytes>,
    receiver: mpsc::UnboundedReceiver<Bytes>,
    queued: Arc<AtomicUsize>,
    live: Arc<super::sessions::OpenSession>,
    _closing: Closing,
}

/// Ends the session when its stream's body is dropped (the client went away).
struct Closing {
    sse: Sse,
    id: String,
}

impl Drop for Closing {
    fn drop(&mut self) {
        self.sse.forget(&self.id);
        self.sse.sessions.close(&self.id);
    }
}

async fn post(sse: &Sse, id: &str, run: Option<&RunName>, body: &[u8]) -> Response {
    let (Some(live), Some(outbox)) = (sse.sessions.get(id), sse.outbox(id)) else {
        return plain::error(StatusCode::NOT_FOUND, "session not found");
    };
    if live.session.run() != run {
        return plain::error(StatusCode::NOT_FOUND, "session not found");
    }
    let Ok(message) = jsonrpc::decode(body) else {
        return plain::error(StatusCode::BAD_REQUEST, "failed to parse body");
    };
    let Message::Request(request) = message else {
        return plain::empty(StatusCode::ACCEPTED);
    };
    let method = match jsonrpc::check(&request, sse.mcp.profile()) {
        Ok(method) => method,
        Err(refusal) => return plain::error(StatusCode::BAD_REQUEST, &refusal.to_string()),
    };
    let session = Arc::clone(&live.session);
    let mut arrival = None;
    if method == Method::ToolsCall
        && request.is_call()
        && session.is_initialized()
        && let Some(name) = ToolCall::name_of(request.params.as_deref())
    {
        let arrived = sse.mcp.arrive(&session, &name);
        if let Some(fault) = arrived.ingress_fault() {
            let ingress = Ingress::new(&sse.mcp, &sse.sessions, &sse.shutdown);
            let params = request.params.as_deref();
            return ingress.serve_fault(&session, params, arrived, fault).await;
        }
        arrival = Some(arrived);
    }
    if !request.is_call() {
        let _ = sse.mcp.handle(&session, request, method, None).await;
        return plain::empty(StatusCode::ACCEPTED);
    }
    if method == Method::Initialize {
        // As the SDK does, `initialize` is answered before what follows it: its answer is on
        // the stream before the POST is accepted, ahead of any later request's.
        answer_on_stream(
            &sse.mcp,
            &session,
            request,
            method,
            arrival,
            &outbox,
            &sse.sessions,
            id,
        )
        .await;
        return plain::empty(StatusCode::ACCEPTED);
    }
    let (mcp, sessions, id) = (
        Arc::clone(&sse.mcp),
        Arc::clone(&sse.sessions),
        id.to_string(),
    );
    if method == Method::SubscriptionsListen {
        // Taken before the POST is accepted (its id among the pending ones), so that a later
        // cancellation finds it; only its wait runs on a task of its own.
        let reply = mcp.handle(&session, request, method, None).await;
        tokio::spawn(async move { send_reply(reply, &outbox, &sessions, &id).await });
        return plain::empty(StatusCode::ACCEPTED);
    }
    tokio::spawn(async move {
        answer_on_stream(
            &mcp, &session, request, method, arrival, &outbox, &sessions, &id,
        )
        .await;
    });
    plain::empty(StatusCode::ACCEPTED)
}

#[allow(clippy::too_many_arguments)]
async fn answer_on_stream(
    mcp: &Mcp,
    session: &Arc<Session>,
    request: jsonrpc::Request,
    method: Method,
    arrival: Option<PlannedCall>,
    outbox: &Outbox,
    sessions: &Sessions,
    id: &str,
) {
    let reply = tokio::select! {
        reply = mcp.handle(session, request, method, arrival) => reply,
        () = session.ended() => return,
    };
    send_reply(reply, outbox, sessions, id).await;
}

/// Sends `reply` on the session's stream; a client that stopped reading ends its session.
async fn send_reply(reply: Reply, outbox: &Outbox, sessions: &Sessions, id: &str) {
    let sent = match reply {
        Reply::Message(message) => outbox.send(&message),
        Reply::Listening(listening) => {
            // Held, it waits for its cancellation or the session's end, which the stream's
            // close brings.
            outbox.send(listening.acknowledged())
                && match listening.result().await {
                    Some(result) => outbox.send(&result),
                    None => true,
                }
        }
        Reply::None | Reply::Exit(_) => true,
    };
    if !sent {
        tracing::warn!(session = %id, "the stream's client stopped reading: ending the session");
        sessions.close(id);
    }
}
