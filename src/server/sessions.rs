//! The Streamable HTTP session manager (rmcp's extension point: `StreamableHttpService` takes
//! any `SessionManager`). rmcp's `LocalSessionManager` does all that a session does, except:
//!
//! - the `--max-sessions` cap: a session holds its [`SessionSlot`] from `initialize` until it
//!   ends (DELETE, idle expiry, a failed handshake, shutdown), when rmcp calls `close_session`;
//! - the hot requests of an initialized session, answered on the fast path (`fast_path.rs`)
//!   instead of through the session's worker and service tasks, or before rmcp sees them at
//!   all (`direct.rs`, which asks [`Sessions::ready`]);
//! - so that both paths number their streams as the worker alone would (the `N` of event ids
//!   `0/N`, `1/N`), the numbers are handed out here, and the worker's are translated;
//! - so that fast-path traffic keeps a session alive, idle expiry is kept here too.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use futures::{Stream, StreamExt};
use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, GetExtensions, ProtocolVersion, ServerJsonRpcMessage,
};
use rmcp::service::Peer;
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::fast_path::{self, Calls, PeerSlot};
use super::handler::Handler;
use super::session_limit::{self, SessionLimit, SessionSlot};

tokio::task_local! {
    /// The place [`reserve`] took for the session that the request it guards may create: rmcp
    /// creates sessions deep inside its own handler, so the place travels with the task.
    static RESERVED: RefCell<Option<SessionSlot>>;
}

/// Request-wise streams served by rmcp's worker, remembered per session for resumption (a
/// client resumes with the number it saw); the oldest are forgotten past this.
const ROUTED_REMEMBERED: usize = 256;

/// rmcp's sessions, each holding a place under the cap, with the fast path in front.
#[derive(Debug)]
pub(crate) struct Sessions {
    local: Arc<LocalSessionManager>,
    limit: SessionLimit,
    handler: Handler,
    /// `false` only to compare the two paths (tests, benchmarks).
    fast: bool,
    idle: Duration,
    open: Mutex<HashMap<SessionId, Open>>,
}

/// A session in the map, with its place under the cap. The place is here rather than in the
/// shared [`Session`], which tasks and streams hold on to for a while after it ends: it is
/// given back the moment the session leaves the map, before a `DELETE` is answered.
#[derive(Debug)]
struct Open {
    session: Arc<Session>,
    _slot: SessionSlot,
}

/// What this manager keeps of one session.
#[derive(Debug)]
struct Session {
    /// Filled by the handler's `initialize`.
    peer: PeerSlot,
    /// The client has said `notifications/initialized`: the fast path may answer.
    initialized: AtomicBool,
    /// The next request-wise stream's number, as the client sees it.
    next_stream: AtomicU64,
    /// Our number → the worker's, for the streams the worker served.
    routed: Mutex<Vec<(u64, u64)>>,
    calls: Arc<Calls>,
    /// Cancelled when the session ends: ends its fast-path calls and its idle timer.
    ended: CancellationToken,
    /// Milliseconds since `born` at the last sign of life.
    seen: AtomicU64,
    born: Instant,
}

impl Session {
    fn touch(&self) {
        let now = u64::try_from(self.born.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.seen.fetch_max(now, Ordering::Relaxed);
    }

    fn last_seen(&self) -> Instant {
        self.born + Duration::from_millis(self.seen.load(Ordering::Relaxed))
    }

    fn routed(&self) -> std::sync::MutexGuard<'_, Vec<(u64, u64)>> {
        self.routed.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Remembers that our stream `ours` is the worker's `theirs`.
    fn route(&self, ours: u64, theirs: u64) {
        let mut routed = self.routed();
        if routed.len() >= ROUTED_REMEMBERED {
            routed.remove(0);
        }
        routed.push((ours, theirs));
    }
}

/// A session that requests may be answered in before rmcp sees them (`direct.rs`): rmcp has
/// it, the client has said `initialized`, and it negotiated a version with the handshake.
pub(crate) struct Ready {
    pub(crate) peer: Peer<RoleServer>,
    session: Arc<Session>,
    /// rmcp's `sse_retry`: the priming event's `retry`, or no priming event.
    pub(crate) retry: Option<Duration>,
}

impl Ready {
    /// The next request-wise stream's number, as the client sees it (`N` in `0/N`, `1/N`).
    pub(crate) fn next_stream(&self) -> u64 {
        self.session.next_stream.fetch_add(1, Ordering::Relaxed)
    }

    pub(crate) fn calls(&self) -> &Arc<Calls> {
        &self.session.calls
    }

    /// Cancelled when the session ends.
    pub(crate) fn ended(&self) -> &CancellationToken {
        &self.session.ended
    }
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum SessionsError {
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
    /// Only when a session is created without [`reserve`] in front (never through the router).
    #[error("the maximum number of sessions are open")]
    Full,
    #[error("no stream {0} to resume")]
    NoStream(String),
}

impl Sessions {
    /// `local`'s own idle expiry must be off (`keep_alive: None`): it would not see the
    /// fast path's traffic. Sessions idle for `idle` are ended here instead.
    pub(crate) fn new(
        local: LocalSessionManager,
        limit: SessionLimit,
        handler: Handler,
        idle: Duration,
        fast: bool,
    ) -> Self {
        Self {
            local: Arc::new(local),
            limit,
            handler,
            fast,
            idle,
            open: Mutex::default(),
        }
    }

    fn open(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Open>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn session(&self, id: &SessionId) -> Option<Arc<Session>> {
        let session = self.open().get(id).map(|open| Arc::clone(&open.session));
        if let Some(session) = &session {
            session.touch();
        }
        session
    }

    /// The session `id`, when a request in it may be answered before rmcp sees it (seen, as
    /// any request to it is). Only sessions that negotiated a version before 2026-07-28
    /// (which rmcp answers alike on every request) qualify.
    pub(crate) async fn ready(&self, id: &str) -> Option<Ready> {
        if !self.fast {
            return None;
        }
        let id = SessionId::from(id);
        let session = self.session(&id)?;
        if !session.initialized.load(Ordering::Acquire) {
            return None;
        }
        let peer = session.peer.peer()?;
        let negotiated = peer.peer_info()?.protocol_version.clone();
        if negotiated.as_str() >= ProtocolVersion::V_2026_07_28.as_str() {
            return None;
        }
        if !self.local.has_session(&id).await.unwrap_or(false) {
            return None;
        }
        Some(Ready {
            peer,
            session,
            retry: self.local.session_config.sse_retry,
        })
    }

    /// Ends the session once it has seen nothing for the idle time (rmcp's worker would).
    fn expire_when_idle(&self, id: SessionId, session: &Arc<Session>) {
        let (local, session, idle) = (Arc::clone(&self.local), Arc::clone(session), self.idle);
        tokio::spawn(async move {
            // An idle time too long to add to a time means no expiry.
            while let Some(deadline) = session.last_seen().checked_add(idle) {
                tokio::select! {
                    () = session.ended.cancelled() => return,
                    () = tokio::time::sleep_until(deadline) => {}
                }
                if session
                    .last_seen()
                    .checked_add(idle)
                    .is_some_and(|deadline| deadline <= Instant::now())
                {
                    tracing::debug!(session = %id, "the session was idle for {idle:?}: ending it");
                    if let Err(error) = local.close_session(&id).await {
                        tracing::warn!(session = %id, "cannot end an idle session: {error}");
                    }
                    return;
                }
            }
        });
    }
}

/// Middleware in front of `/mcp`: a POST without `Mcp-Session-Id` may create a session (if it is
/// an `initialize`), so it needs a place under the cap first, or it is refused with 503.
pub(crate) async fn reserve(
    State(limit): State<SessionLimit>,
    request: Request,
    next: Next,
) -> Response {
    let opens = request.method() == Method::POST && !request.headers().contains_key(SESSION_ID);
    if !opens {
        return next.run(request).await;
    }
    let Some(slot) = limit.try_open() else {
        return session_limit::refusal();
    };
    RESERVED
        .scope(RefCell::new(Some(slot)), next.run(request))
        .await
}

/// The header that names a Streamable HTTP session.
pub(crate) const SESSION_ID: &str = "mcp-session-id";

/// The session a `POST` to `/mcp` is sent in: the middlewares that act per session (faults,
/// duplicate ids) let every other request through untouched.
pub(crate) fn session_of_post(request: &Request) -> Option<String> {
    if request.method() != Method::POST {
        return None;
    }
    let header = request.headers().get(SESSION_ID)?;
    header.to_str().ok().map(str::to_string)
}

/// `index/number` with the number replaced.
fn renumbered(event_id: &str, number: u64) -> Option<String> {
    let (index, _) = event_id.split_once('/')?;
    Some(format!("{index}/{number}"))
}

/// The event as the client must see it: in stream `number`.
fn renumber(mut event: ServerSseMessage, number: u64) -> ServerSseMessage {
    if let Some(renumbered) = event
        .event_id
        .as_deref()
        .and_then(|id| renumbered(id, number))
    {
        event.event_id = Some(renumbered);
    }
    event
}

/// The stream number in an `index/number` event id.
fn stream_number(event_id: &str) -> Option<u64> {
    event_id.split_once('/')?.1.parse().ok()
}

impl SessionManager for Sessions {
    type Error = SessionsError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let reserved = RESERVED
            .try_with(|slot| slot.borrow_mut().take())
            .ok()
            .flatten();
        let slot = reserved
            .or_else(|| self.limit.try_open())
            .ok_or(SessionsError::Full)?;
        let (id, transport) = self.local.create_session().await?;
        let session = Arc::new(Session {
            peer: PeerSlot::default(),
            initialized: AtomicBool::new(false),
            next_stream: AtomicU64::new(0),
            routed: Mutex::default(),
            calls: Arc::default(),
            ended: CancellationToken::new(),
            seen: AtomicU64::new(0),
            born: Instant::now(),
        });
        self.expire_when_idle(id.clone(), &session);
        self.open().insert(
            id.clone(),
            Open {
                session,
                _slot: slot,
            },
        );
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        if let Some(session) = self.session(id)
            && let ClientJsonRpcMessage::Request(request) = &mut message
        {
            request
                .request
                .extensions_mut()
                .insert(session.peer.clone());
        }
        Ok(self.local.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.local.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        let closed = self.local.close_session(id).await;
        // Given back even when closing failed: the session is out of the map either way.
        if let Some(open) = self.open().remove(id) {
            open.session.ended.cancel();
        }
        Ok(closed?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let Some(session) = self.session(id) else {
            // Gone meanwhile: rmcp's own answer.
            let stream = self.local.create_stream(id, message).await?;
            return Ok(stream.left_stream().left_stream());
        };
        let number = session.next_stream.fetch_add(1, Ordering::Relaxed);
        let peer = if self.fast
            && session.initialized.load(Ordering::Acquire)
            && fast_path::is_hot(&message)
        {
            session.peer.peer()
        } else {
            None
        };
        let message = match (peer, message) {
            (Some(peer), ClientJsonRpcMessage::Request(request)) => {
                let fast = fast_path::Session {
                    peer,
                    number,
                    retry: self.local.session_config.sse_retry,
                    calls: &session.calls,
                    ended: &session.ended,
                };
                let stream = fast_path::answer(&self.handler, fast, request);
                return Ok(stream.right_stream());
            }
            (_, message) => message,
        };
        let stream = self.local.create_stream(id, message).await?;
        let mut routed = false;
        let stream = stream.map(move |event| {
            session.touch();
            if !routed && let Some(theirs) = event.event_id.as_deref().and_then(stream_number) {
                session.route(number, theirs);
                routed = true;
            }
            renumber(event, number)
        });
        Ok(stream.right_stream().left_stream())
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        let session = self.session(id);
        let notification = match &message {
            ClientJsonRpcMessage::Notification(notification) => Some(&notification.notification),
            _ => None,
        };
        let initialized = matches!(
            notification,
            Some(ClientNotification::InitializedNotification(_))
        );
        if let (Some(session), Some(ClientNotification::CancelledNotification(cancelled))) =
            (&session, notification)
            && let Some(request) = &cancelled.params.request_id
        {
            session.calls.cancel(request);
        }
        self.local.accept_message(id, message).await?;
        // Before the client hears its 202: its next request may take the fast path.
        if let (Some(session), true) = (&session, initialized) {
            session.initialized.store(true, Ordering::Release);
        }
        Ok(())
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let session = self.session(id);
        let stream = self.local.create_standalone_stream(id).await?;
        Ok(stream.map(move |event| {
            if let Some(session) = &session {
                session.touch();
            }
            event
        }))
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let session = self.session(id);
        // The standalone stream's ids (`index`) are the worker's own.
        let Some(ours) = stream_number(&last_event_id) else {
            return Ok(self.local.resume(id, last_event_id).await?.left_stream());
        };
        let theirs = session.as_ref().and_then(|session| {
            let routed = session.routed();
            routed.iter().find_map(|&(o, t)| (o == ours).then_some(t))
        });
        // A fast-path stream has ended with its answer: as rmcp's worker for a finished one.
        let Some(theirs) = theirs else {
            return Err(SessionsError::NoStream(last_event_id));
        };
        let asked = renumbered(&last_event_id, theirs).unwrap_or(last_event_id);
        let stream = self.local.resume(id, asked).await?;
        Ok(stream
            .map(move |event| renumber(event, ours))
            .right_stream())
    }
}
