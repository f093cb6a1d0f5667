//! The HTTP listener, under `serve` (Streamable HTTP, legacy SSE and `/health`), the admin API
//! and the dashboard alike: what a connection and each request on it pass before any route.
//!
//! The accept loop. `axum::serve` would hold every connection for as long as the client likes
//! and accept as many as the process has file descriptors, so that a flood of half-sent
//! headers locks normal clients out. Here every connection is bounded:
//!
//! - a connection waiting for a request's headers (its first, or the next one on a kept-alive
//!   connection) is closed after `header_timeout` (hyper's header read timer covers both);
//! - a request body still incomplete after `body_timeout` is answered 408 and its connection
//!   closed ([`bound_bodies`]);
//! - at most `max_connections` are open at once (fewer when the file-descriptor limit would not
//!   leave room for files and the journal). At the cap, a new connection displaces the open one
//!   that has been idle longest, those that never completed a request first, so a flood of
//!   half-open connections cannot keep a normal client out. A connection that is answering a
//!   request or holding a stream open is never displaced: the new one waits for a free slot.
//!
//! Responses are never timed: SSE streams (legacy `GET /sse`, Streamable HTTP's `GET` and
//! `POST` streams) last as long as their session.
//!
//! The guards, the layers every HTTP face stacks in front of its routes, in request order.
//! DNS-rebinding and cross-site protection: `serve`'s routes and the dashboard check `Host` and
//! `Origin` with the same rules ([`guard_hosts`]). Request bodies, bounded before any route
//! sees them ([`bound_bodies`]): a declared length over the limit is refused before anything
//! reads the body, and any other body is read whole within a deadline. A client that sends its
//! body slowly, or holds back its last bytes, would otherwise hold its connection and what it
//! sent for ever: it gets 408 and its connection is closed, as nginx answers a body that
//! stalls. Requests without a body pass at once. Each face words the two refusals its own way
//! (`serve` as Go's `http.Error`, the dashboard as JSON).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
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

/// Middleware for `axum::middleware::from_fn_with_state`: refuses what [`HostGuard::check`]
/// refuses.
pub(crate) async fn guard_hosts(
    State(guard): State<Arc<HostGuard>>,
    request: Request,
    next: Next,
) -> Response {
    match guard.check(request.uri(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(refusal) => refusal.into_response(),
    }
}

/// DNS-rebinding protection: a page on a foreign site must not reach this local server by
/// pointing its own name at 127.0.0.1, so `Host` and `Origin` must name loopback or an
/// explicitly allowed host (e.g. the tunnel ChatGPT connects through).
#[derive(Debug)]
pub(crate) struct HostGuard {
    allowed: Vec<Authority>,
    /// Whether a foreign `Origin` is refused too: the dashboard's rule. The MCP routes accept
    /// every Origin, as production does; a cross-site page cannot send them JSON without a
    /// CORS preflight, which nothing here grants.
    origins: bool,
}

#[derive(Debug, PartialEq, Eq)]
struct Authority {
    host: String,
    port: Option<u16>,
}

#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    BadHost,
    /// More than one `Host` header: Go's server refuses the request before any handler.
    ManyHosts,
    ForeignHost(String),
    ForeignOrigin(String),
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        match self {
            Self::BadHost => super::plain::error(
                StatusCode::BAD_REQUEST,
                "Bad Request: missing or invalid Host header",
            ),
            Self::ManyHosts => {
                tracing::warn!("refused a request with more than one Host header");
                let mut refused = super::plain::bare(StatusCode::BAD_REQUEST, "400 Bad Request");
                refused
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
                refused
            }
            Self::ForeignHost(host) => {
                tracing::warn!(%host, "refused a request for a foreign Host (DNS rebinding?)");
                super::plain::error(
                    StatusCode::FORBIDDEN,
                    &format!(
                        "Forbidden: invalid Host header {}",
                        crate::go::fmt::quote(&host)
                    ),
                )
            }
            Self::ForeignOrigin(origin) => {
                tracing::warn!(%origin, "refused a request from a foreign Origin");
                (StatusCode::FORBIDDEN, "Forbidden: Origin is not allowed").into_response()
            }
        }
    }
}

impl HostGuard {
    pub(crate) fn new(allowed_hosts: &[String]) -> Self {
        let allowed = allowed_hosts
            .iter()
            .filter_map(|entry| {
                let parsed = Authority::parse_lenient(entry);
                if parsed.is_none() {
                    tracing::warn!(host = %entry, "ignoring an allowed host that is not a host name");
                }
                parsed
            })
            .collect();
        Self {
            allowed,
            origins: true,
        }
    }

    /// The same guard, admitting any `Origin`.
    #[must_use]
    pub(crate) fn without_origin_check(mut self) -> Self {
        self.origins = false;
        self
    }

    /// The request's host is its target's authority when the target is in absolute form
    /// (`POST http://host/mcp`), else its one `Host` header, as RFC 9112 §3.2.2 and Go's server
    /// read it; two `Host` headers are refused outright.
    pub(crate) fn check(&self, uri: &Uri, headers: &HeaderMap) -> Result<(), Refusal> {
        let mut hosts = headers.get_all(header::HOST).iter();
        let header_host = hosts.next();
        if hosts.next().is_some() {
            return Err(Refusal::ManyHosts);
        }
        let raw = match uri.authority() {
            Some(authority) => authority.as_str().to_string(),
            None => header_host
                .and_then(|value| value.to_str().ok())
                .ok_or(Refusal::BadHost)?
                .to_string(),
        };
        let host = Authority::parse(&raw).ok_or(Refusal::BadHost)?;
        if !self.admits(&host) {
            return Err(Refusal::ForeignHost(raw));
        }
        if !self.origins {
            return Ok(());
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let text = origin.to_str().unwrap_or_default();
            let admitted = origin_authority(text).is_some_and(|authority| self.admits(&authority));
            if !admitted {
                return Err(Refusal::ForeignOrigin(text.to_string()));
            }
        }
        Ok(())
    }

    fn admits(&self, authority: &Authority) -> bool {
        authority.is_loopback()
            || self.allowed.iter().any(|allowed| {
                allowed.host == authority.host
                    && allowed.port.is_none_or(|port| authority.port == Some(port))
            })
    }
}

/// The `scheme://host[:port]` of an `Origin`, with the scheme's default port filled in
/// (`"null"` and anything unparsable have none, so they are refused).
fn origin_authority(origin: &str) -> Option<Authority> {
    let uri: Uri = origin.trim().parse().ok()?;
    let mut authority = Authority::parse(uri.authority()?.as_str())?;
    if authority.port.is_none() {
        authority.port = match uri.scheme_str() {
            Some("https") => Some(443),
            Some("http") => Some(80),
            _ => None,
        };
    }
    Some(authority)
}

impl Authority {
    /// `host[:port]` as in a `Host` header; IPv6 in brackets; no user info.
    fn parse(text: &str) -> Option<Self> {
        let authority: axum::http::uri::Authority = text.trim().parse().ok()?;
        if authority.as_str().contains('@') {
            return None;
        }
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']');
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        (!host.is_empty()).then(|| Self {
            host,
            port: authority.port_u16(),
        })
    }

    /// An `--allowed-host` entry: a host, `host:port`, or a URL someone pasted.
    fn parse_lenient(text: &str) -> Option<Self> {
        let text = text.trim();
        match text.split_once("://") {
            Some(_) => {
                let uri: Uri = text.parse().ok()?;
                Self::parse(uri.authority()?.as_str())
            }
            None => Self::parse(text.trim_end_matches('/')),
        }
    }

    fn is_loopback(&self) -> bool {
        is_loopback(&self.host)
    }
}

/// Whether `host` (a name or an address, IPv6 with or without brackets) is this machine only:
/// what the guard always accepts, and what `serve` and the dashboard listen on without a
/// warning.
pub fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .trim_matches(['[', ']'])
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl std::fmt::Display for Authority {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.port {
            Some(port) => write!(f, "{}:{port}", self.host),
            None => f.write_str(&self.host),
        }
    }
}

/// How a face bounds request bodies, and how it answers those it refuses.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyLimits {
    /// Bodies above this many bytes are refused.
    pub(crate) max_bytes: usize,
    /// A body still incomplete after this long is refused.
    pub(crate) timeout: Duration,
    /// The answer to a body over `max_bytes`.
    pub(crate) too_large: fn() -> Response,
    /// The answer to a body that did not arrive in time; its connection is closed after it.
    pub(crate) too_slow: fn() -> Response,
}

/// Middleware for `axum::middleware::from_fn_with_state`: what the module says.
pub(crate) async fn bound_bodies(
    State(limits): State<BodyLimits>,
    request: Request,
    next: Next,
) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > limits.max_bytes as u64) {
        return (limits.too_large)();
    }
    let (parts, body) = request.into_parts();
    let read = axum::body::to_bytes(body, limits.max_bytes);
    match tokio::time::timeout(limits.timeout, read).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(error)) => {
            tracing::debug!("cannot read a request body: {error}");
            (limits.too_large)()
        }
        Err(_) => {
            tracing::debug!(
                "a request body still incomplete after {:?}: closing its connection",
                limits.timeout
            );
            let mut refused = (limits.too_slow)();
            refused
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            refused
        }
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

    fn check(allowed: &[&str], host: Option<&str>, origin: Option<&str>) -> Result<(), Refusal> {
        let guard = HostGuard::new(&allowed.iter().map(ToString::to_string).collect::<Vec<_>>());
        let mut headers = HeaderMap::new();
        if let Some(host) = host {
            headers.insert(header::HOST, host.parse().unwrap());
        }
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, origin.parse().unwrap());
        }
        guard.check(&Uri::from_static("/mcp"), &headers)
    }

    #[test]
    fn hosts() {
        let tunnel = ["abc.trycloudflare.com"];
        let cases: &[(&[&str], &str, bool)] = &[
            (&[], "127.0.0.1:8787", true),
            (&[], "localhost:8787", true),
            (&[], "LOCALHOST", true),
            (&[], "[::1]:8787", true),
            (&[], "127.0.0.2:80", true),
            (&[], "evil.test:8787", false),
            (&[], "localhost.evil.test", false),
            (&[], "0.0.0.0:8787", false),
            (&tunnel, "abc.trycloudflare.com", true),
            (&tunnel, "ABC.trycloudflare.com:443", true),
            (&tunnel, "xyz.trycloudflare.com", false),
            (
                &["https://abc.trycloudflare.com/"],
                "abc.trycloudflare.com",
                true,
            ),
            (&["tunnel.test:9000"], "tunnel.test:9000", true),
            (&["tunnel.test:9000"], "tunnel.test:9001", false),
            (&["tunnel.test:9000"], "tunnel.test", false),
        ];
        for (allowed, host, admitted) in cases {
            assert_eq!(
                check(allowed, Some(host), None).is_ok(),
                *admitted,
                "allowed {allowed:?}, Host {host}"
            );
        }
    }

    #[test]
    fn origins() {
        let cases: &[(&str, bool)] = &[
            ("http://localhost:6274", true),
            ("http://127.0.0.1:8787", true),
            ("http://[::1]:8787", true),
            ("https://evil.test", false),
            ("http://localhost.evil.test", false),
            ("null", false),
            ("not a url", false),
            ("https://abc.trycloudflare.com", true),
        ];
        for (origin, admitted) in cases {
            let result = check(
                &["abc.trycloudflare.com"],
                Some("127.0.0.1:8787"),
                Some(origin),
            );
            assert_eq!(result.is_ok(), *admitted, "Origin {origin}");
        }
    }

    #[test]
    fn a_missing_or_broken_host_is_a_bad_request() {
        assert_eq!(check(&[], None, None), Err(Refusal::BadHost));
        assert_eq!(check(&[], Some("a b"), None), Err(Refusal::BadHost));
    }

    #[test]
    fn the_targets_authority_is_the_host_and_two_hosts_are_refused() {
        let guard = HostGuard::new(&[]);
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, "localhost".parse().unwrap());
        let absolute = Uri::from_static("http://evil.test/mcp");
        assert_eq!(
            guard.check(&absolute, &headers),
            Err(Refusal::ForeignHost("evil.test".to_string()))
        );
        headers.insert(header::HOST, "evil.test".parse().unwrap());
        let local = Uri::from_static("http://127.0.0.1:8787/mcp");
        assert_eq!(guard.check(&local, &headers), Ok(()));
        headers.append(header::HOST, "evil.test".parse().unwrap());
        assert_eq!(
            guard.check(&Uri::from_static("/mcp"), &headers),
            Err(Refusal::ManyHosts)
        );
    }
}
