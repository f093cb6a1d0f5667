//! One client's session, on any transport: whether it has initialized, and the calls it has
//! pending (a request id in use, a call a `notifications/cancelled` can stop).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

use crate::server::jsonrpc::Id;

/// Where a session's messages come from, as the call journal names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    Http,
    Sse,
    Stdio,
}

impl Transport {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Http => "http",
            Self::Sse => "sse",
            Self::Stdio => "stdio",
        }
    }
}

#[derive(Debug)]
pub(crate) struct Session {
    /// The id a client names the session by (none over stdio): the journal's and the controls'
    /// session.
    id: Option<Arc<str>>,
    transport: Transport,
    initialized: Mutex<bool>,
    pending: Mutex<HashMap<Id, CancellationToken>>,
    /// Cancelled when the session ends: its calls still running stop.
    ended: CancellationToken,
}

/// A call's place among its session's pending requests, given back when dropped.
#[derive(Debug)]
pub(crate) struct Pending {
    session: Arc<Session>,
    id: Id,
    pub(crate) cancelled: CancellationToken,
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.session.pending().remove(&self.id);
    }
}

impl Session {
    pub(crate) fn new(id: Option<Arc<str>>, transport: Transport) -> Arc<Self> {
        Arc::new(Self {
            id,
            transport,
            initialized: Mutex::new(false),
            pending: Mutex::default(),
            ended: CancellationToken::new(),
        })
    }

    pub(crate) fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    pub(crate) fn transport(&self) -> Transport {
        self.transport
    }

    pub(crate) fn is_initialized(&self) -> bool {
        *self
            .initialized
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn mark_initialized(&self) {
        *self
            .initialized
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = true;
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<Id, CancellationToken>> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes `id` for a call; `None` when a call of this session already has it.
    pub(crate) fn enter(self: &Arc<Self>, id: &Id) -> Option<Pending> {
        let mut pending = self.pending();
        if pending.contains_key(id) {
            return None;
        }
        let cancelled = self.ended.child_token();
        pending.insert(id.clone(), cancelled.clone());
        Some(Pending {
            session: Arc::clone(self),
            id: id.clone(),
            cancelled,
        })
    }

    /// A `notifications/cancelled` for `id`.
    pub(crate) fn cancel(&self, id: &Id) {
        if let Some(call) = self.pending().get(id) {
            call.cancel();
        }
    }

    /// Ends the session: every call still running stops.
    pub(crate) fn end(&self) {
        self.ended.cancel();
    }

    #[cfg(test)]
    pub(crate) fn has_ended(&self) -> bool {
        self.ended.is_cancelled()
    }

    pub(crate) async fn ended(&self) {
        self.ended.cancelled().await;
    }
}
