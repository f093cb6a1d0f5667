//! The HTTP face: `/mcp` (rmcp's Streamable HTTP service), `/sse` + `/message` (legacy SSE) and
//! `/health`, behind one DNS-rebinding guard and one body limit.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::faults::HttpFaults;
use super::handler::Handler;
use super::sse::SseSessions;
use super::{ServerError, ServerOptions};
use crate::engine::Engine;

/// Request bodies above this are refused with 413, on every route.
pub(crate) const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// What the router needs: the handler every session clones, the host guard and the shutdown
/// signal that ends sessions and streams.
#[derive(Debug, Clone)]
pub struct AppState {
    handler: Handler,
    guard: Arc<HostGuard>,
    session_idle: Duration,
    shutdown: CancellationToken,
}

impl AppState {
    /// # Errors
    ///
    /// A tool's definition cannot be advertised exactly as its file has it.
    pub fn new(
        engine: Arc<Engine>,
        options: &ServerOptions,
        shutdown: CancellationToken,
    ) -> Result<Self, ServerError> {
        Ok(Self {
            handler: Handler::new(engine, options)?,
            guard: Arc::new(HostGuard::new(&options.allowed_hosts)),
            session_idle: options.session_idle,
            shutdown,
        })
    }

    /// The calls being answered now, for a shutdown that lets them finish.
    pub(crate) fn in_flight(&self) -> super::handler::InFlight {
        self.handler.in_flight()
    }
}

/// Every route of the server; cancelling the state's shutdown token ends all sessions.
pub fn app(state: AppState) -> Router {
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(state.session_idle);
    let config = StreamableHttpServerConfig::default()
        // The guard below checks Host and Origin for every route, with the same rules.
        .disable_allowed_hosts()
        .with_max_request_body_bytes(MAX_BODY_BYTES)
        .with_cancellation_token(state.shutdown.child_token());
    let sessions = Arc::new(sessions);
    let handler = state.handler.clone();
    let faults = HttpFaults {
        engine: state.handler.engine(),
        sessions: Arc::clone(&sessions),
        shutdown: state.shutdown.clone(),
    };
    let mcp = StreamableHttpService::new(move || Ok(handler.clone()), sessions, config);
    let mcp = Router::new()
        .route_service("/mcp", mcp)
        .layer(middleware::from_fn_with_state(
            faults,
            super::faults::streamable_http,
        ))
        .layer(middleware::from_fn(delete_answers_no_content))
        .layer(middleware::from_fn(answer_unreadable_messages));

    let tools = state.handler.tool_count();
    let sse = SseSessions::new(state.handler.clone(), state.shutdown.child_token());
    Router::new()
        .merge(mcp)
        .merge(super::sse::routes(sse))
        .route(
            "/health",
            get(move || async move { axum::Json(json!({"status": "ok", "tools": tools})) }),
        )
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn(refuse_large_bodies))
        .layer(middleware::from_fn_with_state(state.guard, guard_hosts))
}

/// rmcp answers a session's `DELETE` with 202; the Python SDK warns on anything but 200/204.
async fn delete_answers_no_content(request: Request, next: Next) -> Response {
    let delete = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
        response.headers_mut().remove(header::CONTENT_LENGTH);
        response.headers_mut().remove(header::CONTENT_TYPE);
        *response.body_mut() = Body::empty();
    }
    response
}

/// rmcp answers a JSON body that is not one JSON-RPC message with 415 and serde's error (line,
/// column, what it expected). The client gets JSON-RPC's own answer instead, with nothing of
/// the parser in it: 400 with `-32700` when the body is not JSON at all (or nests too deeply to
/// read), `-32600` when it is JSON but not a message (a batch array, no `jsonrpc`, …). The body
/// is kept so the answer can tell the two apart; only the refusal path looks at it again.
async fn answer_unreadable_messages(request: Request, next: Next) -> Response {
    let json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"));
    if request.method() != Method::POST || !json {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
        Ok(bytes) => bytes,
        Err(error) => {
            tracing::debug!("cannot read a request body: {error}");
            return (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large").into_response();
        }
    };
    let response = next
        .run(Request::from_parts(parts, Body::from(bytes.clone())))
        .await;
    if response.status() != StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return response;
    }
    let (code, message) = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(_) => (-32600, "Invalid Request"),
        Err(error) => {
            tracing::debug!("a request body that is not JSON: {error}");
            (-32700, "Parse error")
        }
    };
    let error = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}});
    (StatusCode::BAD_REQUEST, axum::Json(error)).into_response()
}

/// A declared length over the limit is refused before anything reads the body; streamed bodies
/// are cut off by rmcp (`/mcp`) and `DefaultBodyLimit` (`/message`).
async fn refuse_large_bodies(request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        return (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large").into_response();
    }
    next.run(request).await
}

async fn guard_hosts(
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
}

#[derive(Debug, PartialEq, Eq)]
struct Authority {
    host: String,
    port: Option<u16>,
}

#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    BadHost,
    ForeignHost(String),
    ForeignOrigin(String),
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        match self {
            Self::BadHost => (
                StatusCode::BAD_REQUEST,
                "Bad Request: missing or invalid Host header",
            )
                .into_response(),
            Self::ForeignHost(host) => {
                tracing::warn!(%host, "refused a request for a foreign Host (DNS rebinding?)");
                (
                    StatusCode::FORBIDDEN,
                    "Forbidden: Host header is not allowed",
                )
                    .into_response()
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
        Self { allowed }
    }

    pub(crate) fn check(&self, uri: &Uri, headers: &HeaderMap) -> Result<(), Refusal> {
        let host = match headers.get(header::HOST) {
            Some(value) => value
                .to_str()
                .ok()
                .and_then(Authority::parse)
                .ok_or(Refusal::BadHost)?,
            None => uri
                .authority()
                .and_then(|a| Authority::parse(a.as_str()))
                .ok_or(Refusal::BadHost)?,
        };
        if !self.admits(&host) {
            return Err(Refusal::ForeignHost(host.to_string()));
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
        self.host == "localhost" || self.host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }
}

impl std::fmt::Display for Authority {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.port {
            Some(port) => write!(f, "{}:{port}", self.host),
            None => f.write_str(&self.host),
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
}
