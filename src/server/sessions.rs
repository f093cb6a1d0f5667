//! The HTTP sessions open now, Streamable HTTP and legacy SSE alike: ids as the Go SDK makes
//! them (26 characters of base32), idle expiry, and `--max-sessions`, where the session idle
//! longest is ended to make room, so that a new client is always served.
//!
//! And a POST's answer in a session as the SDK writes it: its headers, the header that names
//! the session, and the `text/event-stream` that carries its messages. Shared by the
//! transports, the ingress's faults and the header checks, so that none of them reaches into
//! another for it.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::Response;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::mcp::Session;
use crate::engine::{Engine, Origin, RunName};

pub const DEFAULT_MAX_SESSIONS: usize = 2000;

/// The header that names a Streamable HTTP session.
pub(crate) const SESSION_ID: &str = "mcp-session-id";

/// A session in the table, with what the HTTP layers keep beside it.
#[derive(Debug)]
pub(crate) struct OpenSession {
    pub(crate) session: Arc<Session>,
    touched: Mutex<Instant>,
    /// Whether the session's standalone GET stream is open (one at a time).
    pub(crate) standalone: AtomicBool,
}

impl OpenSession {
    pub(crate) fn touch(&self) {
        *self.touched.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
    }

    fn touched(&self) -> Instant {
        *self.touched.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[derive(Debug)]
pub(crate) struct Sessions {
    open: Mutex<HashMap<Arc<str>, Arc<OpenSession>>>,
    max: usize,
    idle: Duration,
    /// Told whenever a session ends, for the memory trimmer.
    ended: Arc<Notify>,
    shutdown: CancellationToken,
}

impl Sessions {
    pub(crate) fn new(max: usize, idle: Duration, shutdown: CancellationToken) -> Arc<Self> {
        Arc::new(Self {
            open: Mutex::default(),
            max: max.max(1),
            idle,
            ended: Arc::default(),
            shutdown,
        })
    }

    fn open(&self) -> std::sync::MutexGuard<'_, HashMap<Arc<str>, Arc<OpenSession>>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn ended(&self) -> Arc<Notify> {
        Arc::clone(&self.ended)
    }

    /// A new session with a fresh id, not in the table until [`Sessions::admit`].
    pub(crate) fn fresh(origin: Origin, engine: Arc<Engine>, run: Option<RunName>) -> Arc<Session> {
        Session::new(Some(Arc::from(new_id())), origin, engine, run)
    }

    /// Puts `session` in the table (ending the one idle longest when the table is full) and
    /// expires it once it has been idle for the idle time.
    pub(crate) fn admit(self: &Arc<Self>, session: Arc<Session>) -> Arc<OpenSession> {
        let Some(id) = session.id().map(Arc::<str>::from) else {
            unreachable!("HTTP sessions always have an id");
        };
        let live = Arc::new(OpenSession {
            session,
            touched: Mutex::new(Instant::now()),
            standalone: AtomicBool::new(false),
        });
        let evicted = {
            let mut open = self.open();
            let evicted = if open.len() >= self.max {
                let oldest = open
                    .iter()
                    .min_by_key(|(_, live)| live.touched())
                    .map(|(id, _)| Arc::clone(id));
                oldest.and_then(|oldest| open.remove(&oldest))
            } else {
                None
            };
            open.insert(Arc::clone(&id), Arc::clone(&live));
            evicted
        };
        if let Some(evicted) = evicted {
            tracing::warn!(
                session = evicted.session.id().unwrap_or_default(),
                "--max-sessions are open: ending the session idle longest"
            );
            self.finish(&evicted);
        }
        self.expire_when_idle(id, &live);
        live
    }

    pub(crate) fn get(&self, id: &str) -> Option<Arc<OpenSession>> {
        let live = self.open().get(id).cloned()?;
        live.touch();
        Some(live)
    }

    /// Ends the session `id` (DELETE, a fault, the end of its stream).
    pub(crate) fn close(&self, id: &str) -> bool {
        let removed = self.open().remove(id);
        match removed {
            Some(live) => {
                self.finish(&live);
                true
            }
            None => false,
        }
    }

    /// Ends every session (shutdown).
    pub(crate) fn close_all(&self) {
        let all: Vec<Arc<OpenSession>> = self.open().drain().map(|(_, live)| live).collect();
        for live in all {
            self.finish(&live);
        }
    }

    fn finish(&self, live: &OpenSession) {
        live.session.end();
        self.ended.notify_one();
    }

    fn expire_when_idle(self: &Arc<Self>, id: Arc<str>, live: &Arc<OpenSession>) {
        let (sessions, live, idle) = (Arc::downgrade(self), Arc::clone(live), self.idle);
        let shutdown = self.shutdown.clone();
        tokio::spawn(async move {
            // An idle time too long to add to a time means no expiry.
            while let Some(deadline) = live.touched().checked_add(idle) {
                tokio::select! {
                    () = tokio::time::sleep_until(deadline.into()) => {}
                    () = live.session.ended() => return,
                    () = shutdown.cancelled() => return,
                }
                if live
                    .touched()
                    .checked_add(idle)
                    .is_some_and(|due| due <= Instant::now())
                {
                    tracing::debug!(session = %id, "the session was idle for {idle:?}: ending it");
                    if let Some(sessions) = sessions.upgrade() {
                        sessions.close(&id);
                    }
                    return;
                }
            }
        });
    }
}

/// 26 characters of base32 from 128 random bits, as Go's `crypto/rand.Text`.
fn new_id() -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let bits: u128 = rand::random();
    (0..26)
        .map(|at| ALPHABET[((bits >> (at * 5)) & 31) as usize] as char)
        .collect()
}

/// A 200 `text/event-stream` answer with the SDK's headers.
pub(crate) fn stream(
    events: futures::stream::BoxStream<'static, Result<Bytes, std::io::Error>>,
    session: Option<&str>,
) -> Response {
    let mut response = Response::new(Body::from_stream(events));
    stream_headers(&mut response, "text/event-stream");
    if let Some(id) = session.and_then(|id| HeaderValue::from_str(id).ok()) {
        response.headers_mut().insert(SESSION_ID, id);
    }
    response
}

/// The headers the SDK sets on a POST's answer before it writes it: no caching, the
/// connection kept alive, and `content_type` (the stream's, or JSON for an error it answers
/// instead).
pub(crate) fn stream_headers(response: &mut Response, content_type: &'static str) {
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("no-cache, no-transform"),
    );
    headers.insert(header::CONNECTION, HeaderValue::from_static("keep-alive"));
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_26_characters_of_base32_and_differ() {
        let (a, b) = (new_id(), new_id());
        for id in [&a, &b] {
            assert_eq!(id.len(), 26);
            assert!(
                id.bytes()
                    .all(|byte| byte.is_ascii_uppercase() || (b'2'..=b'7').contains(&byte))
            );
        }
        assert_ne!(a, b);
    }

    fn fresh() -> Arc<Session> {
        Sessions::fresh(Origin::Http, Session::bare_engine(), None)
    }

    #[tokio::test]
    async fn a_full_table_ends_the_session_idle_longest() {
        let sessions = Sessions::new(2, Duration::from_secs(60), CancellationToken::new());
        let first = sessions.admit(fresh());
        let second = sessions.admit(fresh());
        first.touch();
        let third = sessions.admit(fresh());
        assert!(second.session.has_ended(), "the one idle longest");
        assert!(!first.session.has_ended() && !third.session.has_ended());
        assert!(sessions.get(second.session.id().unwrap()).is_none());
    }
}
