//! The accept loop of the HTTP listener, under `serve` (Streamable HTTP, legacy SSE and
//! `/health`) and the dashboard alike. `axum::serve` would hold every connection for as long as
//! the client likes and accept as many as the process has file descriptors, so that a flood of
//! half-sent headers locks normal clients out. Here every connection is bounded:
//!
//! - a connection waiting for a request's headers (its first, or the next one on a kept-alive
//!   connection) is closed after `header_timeout` (hyper's header read timer covers both);
//! - a request body still incomplete after `body_timeout` is answered 408 and its connection
//!   closed (`guard::bound_bodies`);
//! - at most `max_connections` are open at once (fewer when the file-descriptor limit would not
//!   leave room for files and the journal). At the cap, a new connection displaces the open one
//!   that has been idle longest, those that never completed a request first, so a flood of
//!   half-open connections cannot keep a normal client out. A connection that is answering a
//!   request or holding a stream open is never displaced: the new one waits for a free slot.
//!
//! Responses are never timed: SSE streams (legacy `GET /sse`, Streamable HTTP's `GET` and
//! `POST` streams) last as long as their session.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tower_service::Service;

use super::guarded_body::holding;

/// File descriptors kept free for what the server opens besides connections: tool files, the
/// overrides file, the journal, the listener, the runtime's own.
const RESERVED_DESCRIPTORS: u64 = 128;
/// How long the loop waits after `accept` fails (out of descriptors, most likely) before it
/// tries again, instead of spinning.
const ACCEPT_RETRY: Duration = Duration::from_millis(100);

/// How long and how many connections the HTTP listener holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Open connections at once (lowered to fit the file-descriptor limit).
    pub max_connections: usize,
    /// A connection waiting this long for a request's headers (first or next) is closed.
    pub header_timeout: Duration,
    /// A request body still incomplete after this long is answered 408.
    pub body_timeout: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self {
            max_connections: 1024,
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(30),
        }
    }
}

/// Serves `router` on `listener` until `stop` is cancelled, then stops accepting, lets every
/// connection finish its request (hyper's graceful shutdown) and returns once all are closed.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    stop: CancellationToken,
) {
    let cap = fitting_cap(limits.max_connections);
    tracing::debug!(cap, "connection cap");
    let slots = Arc::new(Semaphore::new(cap));
    let open = Arc::new(Open::default());
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    loop {
        let tcp = tokio::select! {
            () = stop.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(error) => {
                    tracing::warn!("cannot accept a connection: {error}");
                    tokio::select! {
                        () = stop.cancelled() => break,
                        () = tokio::time::sleep(ACCEPT_RETRY) => continue,
                    }
                }
            },
        };
        let slot = match Arc::clone(&slots).try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                open.displace_the_idlest();
                tokio::select! {
                    () = stop.cancelled() => break,
                    slot = Arc::clone(&slots).acquire_owned() => match slot {
                        Ok(slot) => slot,
                        Err(_) => break,
                    },
                }
            }
        };
        spawn_connection(tcp, slot, &builder, &router, &open, &stop);
    }
    drop(listener);
    // Every slot back means every connection closed.
    let all = u32::try_from(cap).unwrap_or(u32::MAX);
    let _ = slots.acquire_many(all).await;
}

fn spawn_connection(
    tcp: TcpStream,
    slot: OwnedSemaphorePermit,
    builder: &http1::Builder,
    router: &Router,
    open: &Arc<Open>,
    stop: &CancellationToken,
) {
    // rmcp writes each SSE response in several pieces: with Nagle on and the client's delayed
    // ACKs, every request after the first on a kept-alive connection would wait ~40 ms.
    if let Err(error) = tcp.set_nodelay(true) {
        tracing::warn!("cannot set TCP_NODELAY: {error}");
    }
    let (id, state) = open.add();
    let router = router.clone();
    let requests = Arc::clone(&state);
    let activity = Arc::clone(open);
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let busy = Busy::start(&requests, &activity);
        let mut router = router.clone();
        async move {
            let response = router.call(request.map(Body::new)).await;
            // The request stays busy until its response (a stream, say) has been sent.
            response.map(|response| response.map(|body| holding(body, busy)))
        }
    });
    let connection = builder.serve_connection(TokioIo::new(tcp), service);
    let (open, stop) = (Arc::clone(open), stop.clone());
    tokio::spawn(async move {
        let mut connection = std::pin::pin!(connection);
        let mut stopping = false;
        loop {
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(error) = result {
                        tracing::debug!("connection closed: {error}");
                    }
                    break;
                }
                // Nothing of it is in a request: dropping it loses nothing.
                () = state.displaced.cancelled() => break,
                () = stop.cancelled(), if !stopping => {
                    stopping = true;
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
        open.remove(id);
        drop(slot);
    });
}

/// The cap, lowered so that the connections leave [`RESERVED_DESCRIPTORS`] free: past the
/// limit `accept` fails and the server could no longer open its files either.
pub(crate) fn fitting_cap(wanted: usize) -> usize {
    // The journals of the runs have room of their own beside the reserve.
    let reserved = RESERVED_DESCRIPTORS + crate::engine::open_journals_cap() as u64;
    let fits = crate::engine::descriptor_limit()
        .map_or(u64::MAX, |limit| limit.saturating_sub(reserved))
        .max(1);
    let fits = usize::try_from(fits).unwrap_or(usize::MAX);
    if wanted > fits {
        tracing::info!(
            "at most {fits} connections at once: the file-descriptor limit leaves no room for {wanted}"
        );
    }
    wanted.min(fits).max(1)
}

/// The open connections, for choosing one to displace at the cap.
#[derive(Debug, Default)]
struct Open {
    next_id: AtomicU64,
    /// A clock that ticks on every connection opened and every request ended: the lower a
    /// connection's `last_active`, the longer it has been idle.
    clock: AtomicU64,
    connections: Mutex<HashMap<u64, Arc<Connection>>>,
}

#[derive(Debug, Default)]
struct Connection {
    /// Requests being answered, their response bodies included (a stream counts until it ends).
    requests: AtomicUsize,
    /// Whether a request ever completed: a client that has been answered goes after those
    /// that never sent a whole request.
    answered: AtomicUsize,
    last_active: AtomicU64,
    displaced: CancellationToken,
}

impl Open {
    fn add(&self) -> (u64, Arc<Connection>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let connection = Arc::new(Connection::default());
        connection.last_active.store(self.tick(), Ordering::Relaxed);
        self.lock().insert(id, Arc::clone(&connection));
        (id, connection)
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::Relaxed)
    }

    /// Closes the idle connection that comes first in (never answered, idle longest) order, if
    /// any connection is idle at all.
    fn displace_the_idlest(&self) {
        let mut connections = self.lock();
        let idlest = connections
            .iter()
            .filter(|(_, c)| c.requests.load(Ordering::Acquire) == 0)
            .min_by_key(|(_, c)| {
                (
                    c.answered.load(Ordering::Relaxed) > 0,
                    c.last_active.load(Ordering::Relaxed),
                )
            })
            .map(|(id, _)| *id);
        if let Some(connection) = idlest.and_then(|id| connections.remove(&id)) {
            tracing::debug!("at the connection cap: closing the connection idle longest");
            connection.displaced.cancel();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Connection>>> {
        self.connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// A request being answered on a connection, from its headers to the end of its response body.
#[derive(Debug)]
struct Busy {
    connection: Arc<Connection>,
    open: Arc<Open>,
}

impl Busy {
    fn start(connection: &Arc<Connection>, open: &Arc<Open>) -> Self {
        connection.requests.fetch_add(1, Ordering::AcqRel);
        Self {
            connection: Arc::clone(connection),
            open: Arc::clone(open),
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let connection = &self.connection;
        connection
            .last_active
            .store(self.open.tick(), Ordering::Relaxed);
        connection.answered.fetch_add(1, Ordering::Relaxed);
        connection.requests.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_idlest_never_answered_connection_is_displaced_first_and_busy_ones_never() {
        let open = Arc::new(Open::default());
        let (_, answered_long_ago) = open.add();
        drop(Busy::start(&answered_long_ago, &open));
        let (_, streaming) = open.add();
        let _stream = Busy::start(&streaming, &open);
        let (_, half_open_old) = open.add();
        let (_, half_open_new) = open.add();

        let order = [&half_open_old, &half_open_new, &answered_long_ago];
        for connection in order {
            open.displace_the_idlest();
            assert!(connection.displaced.is_cancelled());
        }
        open.displace_the_idlest();
        assert!(!streaming.displaced.is_cancelled(), "a busy one stays");
    }
}
