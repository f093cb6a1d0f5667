//! The Streamable HTTP session manager (rmcp's extension point: `StreamableHttpService` takes
//! any `SessionManager`). rmcp's `LocalSessionManager` does all that a session does; this one
//! adds the `--max-sessions` cap: a session holds its [`SessionSlot`] from `initialize` until it
//! ends (DELETE, idle expiry, a failed handshake, shutdown), when rmcp calls `close_session`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};

use super::session_limit::{self, SessionLimit, SessionSlot};

tokio::task_local! {
    /// The place [`reserve`] took for the session that the request it guards may create: rmcp
    /// creates sessions deep inside its own handler, so the place travels with the task.
    static RESERVED: RefCell<Option<SessionSlot>>;
}

/// rmcp's sessions, each holding a place under the cap.
#[derive(Debug)]
pub(crate) struct Sessions {
    local: LocalSessionManager,
    limit: SessionLimit,
    slots: Mutex<HashMap<SessionId, SessionSlot>>,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum SessionsError {
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
    /// Only when a session is created without [`reserve`] in front (never through the router).
    #[error("the maximum number of sessions are open")]
    Full,
}

impl Sessions {
    pub(crate) fn new(local: LocalSessionManager, limit: SessionLimit) -> Self {
        Self {
            local,
            limit,
            slots: Mutex::default(),
        }
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, SessionSlot>> {
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
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

const SESSION_ID: &str = "mcp-session-id";

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
        self.slots().insert(id.clone(), slot);
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.local.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.local.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        let closed = self.local.close_session(id).await;
        // Given back even when closing failed: the session is out of the map either way.
        self.slots().remove(id);
        Ok(closed?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.local.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        Ok(self.local.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.local.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.local.resume(id, last_event_id).await?)
    }
}
