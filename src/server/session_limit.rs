//! `--max-sessions`: one count of the sessions open over every HTTP transport (Streamable HTTP
//! and legacy SSE alike), so that a client opening sessions in a loop meets a refusal instead of
//! exhausting the machine (~53 KiB a session, held for the idle time). Past the cap a new session
//! is refused as production's ingress refuses a request it cannot place: HTTP 503 `no healthy
//! upstream`; sessions already open carry on.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tokio::sync::Notify;

use super::faults::status_answer;
use crate::engine::Fault;

/// The sessions a server holds open by default: thousands, far more than any agent test opens,
/// and with ~53 KiB each a bound of ~100 MiB.
pub const DEFAULT_MAX_SESSIONS: usize = 2000;

/// The shared count. Cheap to clone.
#[derive(Debug, Clone)]
pub(crate) struct SessionLimit {
    open: Arc<AtomicUsize>,
    max: usize,
    /// Told each time a session ends, so that its memory goes back to the system soon after
    /// (`memory.rs`) rather than at the next periodic trim.
    ended: Arc<Notify>,
}

/// One open session's place under the cap, given back when dropped.
#[derive(Debug)]
pub(crate) struct SessionSlot(SessionLimit);

impl SessionLimit {
    pub(crate) fn new(max: usize) -> Self {
        Self {
            open: Arc::default(),
            max,
            ended: Arc::default(),
        }
    }

    /// A place for a new session, or `None` when `max` are open.
    pub(crate) fn try_open(&self) -> Option<SessionSlot> {
        self.open
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |open| {
                (open < self.max).then_some(open + 1)
            })
            .ok()
            .map(|_| SessionSlot(self.clone()))
    }

    /// Resolves after a session has ended (at least one since the last call).
    pub(crate) async fn ended(&self) {
        self.ended.notified().await;
    }
}

impl Drop for SessionSlot {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::AcqRel);
        self.0.ended.notify_one();
    }
}

/// What a client asking for one session too many receives: the ingress's 503.
pub(crate) fn refusal() -> Response {
    tracing::warn!("refused a new session: --max-sessions are open");
    status_answer(Fault::Http503).unwrap_or_else(|| StatusCode::SERVICE_UNAVAILABLE.into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_refused_past_the_cap_and_come_back_when_dropped() {
        let limit = SessionLimit::new(2);
        let first = limit.try_open().expect("one");
        let second = limit.try_open().expect("two");
        assert!(limit.try_open().is_none(), "a third is refused");
        drop(first);
        let third = limit.try_open().expect("a place came back");
        assert!(limit.try_open().is_none());
        drop((second, third));
        assert!(limit.try_open().is_some());
    }
}
