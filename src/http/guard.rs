//! The listener's guards, the layers every HTTP face of careem-mcp stacks in front of its
//! routes, in request order.
//!
//! DNS-rebinding and cross-site protection: `serve`'s routes and the dashboard check `Host` and
//! `Origin` with the same rules ([`guard_hosts`]).
//!
//! Request bodies, bounded before any route sees them ([`bound_bodies`]): a declared length
//! over the limit is refused before anything reads the body, and any other body is read whole
//! within a deadline. A client that sends its body slowly, or holds back its last bytes, would
//! otherwise hold its connection and what it sent for ever: it gets 408 and its connection is
//! closed, as nginx answers a body that stalls. Requests without a body pass at once. Each face
//! words the two refusals its own way (`serve` as Go's `http.Error`, the dashboard as JSON).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

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
