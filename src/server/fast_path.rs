//! The hot requests of an initialized Streamable HTTP session, answered in the request's own
//! task. Through rmcp's `LocalSessionManager` every request travels to the session's worker
//! task, then to its service task, then to a task of its own for the handler, and its answer
//! back through the same hops: a wake-up across threads at each. Here the same rmcp dispatcher
//! (`Service::handle_request`, with the session's own peer) answers `ping`, `tools/list`,
//! `resources/list`, `resources/read` and a `tools/call` that waits on nothing at once, a call
//! that waits (a delay, a `hang`, a parse, a journal that is a pipe) in one task, and the stream
//! carries the same `ServerSseMessage`s the worker would send: a priming event `0/N`, then the
//! answer `1/N`. Everything else stays rmcp's (`sessions.rs`).

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use futures::{FutureExt, Stream, StreamExt};
use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, GetExtensions, GetMeta, JsonRpcRequest, RequestId,
    ServerJsonRpcMessage,
};
use rmcp::service::{Peer, RequestContext, Service};
use rmcp::transport::streamable_http_server::session::ServerSseMessage;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_util::sync::CancellationToken;

use super::handler::Handler;

/// Where the handler leaves a Streamable HTTP session's peer (the client's capabilities and
/// negotiated version) when it answers `initialize`: the fast path answers with it, as rmcp's
/// service would.
#[derive(Debug, Clone, Default)]
pub(crate) struct PeerSlot(Arc<OnceLock<Peer<RoleServer>>>);

impl PeerSlot {
    pub(crate) fn fill(&self, peer: Peer<RoleServer>) {
        let _ = self.0.set(peer);
    }

    pub(crate) fn peer(&self) -> Option<Peer<RoleServer>> {
        self.0.get().cloned()
    }
}

/// The requests of one session being answered in a task of their own, by JSON-RPC id, so that a
/// `notifications/cancelled` reaches them as it reaches rmcp's. Each registration has a ticket
/// of its own: a request that ends forgets only its own, never a later request's with the
/// same id.
#[derive(Debug, Default)]
pub(crate) struct Calls {
    next: AtomicU64,
    running: Mutex<HashMap<RequestId, (u64, CancellationToken)>>,
}

impl Calls {
    /// Cancels the call, as rmcp does: the handler's token fires and the stream ends without an
    /// answer.
    pub(crate) fn cancel(&self, id: &RequestId) {
        if let Some((_, call)) = self.lock().remove(id) {
            call.cancel();
        }
    }

    /// Registers a call, so that a cancellation reaches it; the ticket forgets it.
    pub(crate) fn insert(&self, id: RequestId, call: CancellationToken) -> u64 {
        let ticket = self.next.fetch_add(1, Ordering::Relaxed);
        self.lock().insert(id, (ticket, call));
        ticket
    }

    /// Forgets a call that has ended, unless its id now names another.
    pub(crate) fn remove(&self, id: &RequestId, ticket: u64) {
        let mut running = self.lock();
        if running.get(id).is_some_and(|(held, _)| *held == ticket) {
            running.remove(id);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, (u64, CancellationToken)>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Whether the fast path answers `message`.
pub(crate) fn is_hot(message: &ClientJsonRpcMessage) -> bool {
    matches!(message, ClientJsonRpcMessage::Request(request) if is_hot_request(&request.request))
}

/// Whether the fast path answers a request of this kind.
pub(crate) fn is_hot_request(request: &ClientRequest) -> bool {
    matches!(
        request,
        ClientRequest::CallToolRequest(_)
            | ClientRequest::ListToolsRequest(_)
            | ClientRequest::ListResourcesRequest(_)
            | ClientRequest::ReadResourceRequest(_)
            | ClientRequest::PingRequest(_)
    )
}

/// What the fast path needs of the session a request belongs to.
pub(crate) struct Session<'a> {
    pub(crate) peer: Peer<RoleServer>,
    /// The stream's number (`N` in the event ids `0/N`, `1/N`).
    pub(crate) number: u64,
    /// rmcp's `sse_retry`: the priming event's `retry`, or no priming event.
    pub(crate) retry: Option<Duration>,
    pub(crate) calls: &'a Arc<Calls>,
    /// Cancelled when the session ends.
    pub(crate) ended: &'a CancellationToken,
}

/// The stream a client receives for `request`: what rmcp's worker would send.
pub(crate) fn answer(
    handler: &Handler,
    session: Session<'_>,
    mut request: JsonRpcRequest<ClientRequest>,
) -> impl Stream<Item = ServerSseMessage> + Send + Sync + use<> {
    let priming = session
        .retry
        .map(|retry| ServerSseMessage::priming(format!("0/{}", session.number), retry));
    let (number, index) = (session.number, u64::from(priming.is_some()));
    let event = move |message| ServerSseMessage::new(format!("{index}/{number}"), message);
    let id = request.id.clone();
    tracing::debug!(%id, method = request.request.method(), "answered on the fast path");
    let calling = matches!(request.request, ClientRequest::CallToolRequest(_));
    // As in rmcp's service: the call's token is a child of the session's, the handler's a
    // child of the call's. A call's is registered before its first poll, so that a
    // cancellation reaches it from the moment it runs.
    let call = session.ended.child_token();
    let ticket = calling.then(|| session.calls.insert(id.clone(), call.clone()));
    let context = context(session.peer, &mut request, call.child_token());
    let mut answering = Box::pin(dispatch(handler.clone(), request, context));
    if let Some(message) = answering.as_mut().now_or_never() {
        // Lists, reads, pings and the calls that wait on nothing (no delay or hang, the tool
        // file parsed already, the journal line written in place) are answered right here, in
        // the request's own task: the call ran to its end, as in a task of its own.
        if let Some(ticket) = ticket {
            session.calls.remove(&id, ticket);
        }
        return futures::stream::iter(priming.into_iter().chain([event(message)])).left_stream();
    }
    let (sender, receiver) = mpsc::channel(2);
    if let Some(priming) = priming {
        let _ = sender.try_send(priming);
    }
    let ticket = ticket.unwrap_or_else(|| session.calls.insert(id.clone(), call.clone()));
    let answering = answering.map(event);
    let registered = (Arc::clone(session.calls), id, ticket);
    answer_in_task(registered, call, answering, sender);
    ReceiverStream::new(receiver).right_stream()
}

/// Runs a request that waits in a task of its own, as rmcp gives each handler: it runs to its
/// end even if the client goes away (a call's journal line, its place in a sequence). Its answer
/// goes to `sender`; once `call` is cancelled the stream ends at once and the answer is dropped.
/// The request, as registered in its session's calls, is forgotten there at its end.
pub(crate) fn answer_in_task<T: Send + 'static>(
    (calls, id, ticket): (Arc<Calls>, RequestId, u64),
    call: CancellationToken,
    answering: impl Future<Output = T> + Send + 'static,
    sender: mpsc::Sender<T>,
) {
    let mut answering = Box::pin(answering);
    tokio::spawn(async move {
        tokio::select! {
            // A cancelled call's handler may end at once (its token fired): cancelled first.
            biased;
            () = call.cancelled() => {
                drop(sender);
                answering.await;
            }
            answer = &mut answering => {
                let _ = sender.send(answer).await;
            }
        }
        calls.remove(&id, ticket);
    });
}

/// The handler's context, made as rmcp's service makes it: the request's `_meta` and
/// extensions (the HTTP request's parts, a planned call) move into it.
pub(crate) fn context(
    peer: Peer<RoleServer>,
    request: &mut JsonRpcRequest<ClientRequest>,
    ct: CancellationToken,
) -> RequestContext<RoleServer> {
    let mut context = RequestContext::new(request.id.clone(), peer);
    context.ct = ct;
    std::mem::swap(&mut context.meta, request.request.get_meta_mut());
    std::mem::swap(&mut context.extensions, request.request.extensions_mut());
    context
}

/// rmcp's own dispatch (protocol checks, result shaping per negotiated version), and the answer
/// as rmcp's service frames it.
pub(crate) async fn dispatch(
    handler: Handler,
    request: JsonRpcRequest<ClientRequest>,
    context: RequestContext<RoleServer>,
) -> ServerJsonRpcMessage {
    let id = request.id;
    match handler.handle_request(request.request, context).await {
        Ok(result) => ServerJsonRpcMessage::response(result, id),
        Err(error) => {
            tracing::warn!(%id, ?error, "response error");
            ServerJsonRpcMessage::error(error, Some(id))
        }
    }
}
