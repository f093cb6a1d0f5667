//! Streamable HTTP as SDK v1.7.0 serves it with `Stateless: true`: POST only, no session ids;
//! each POST is answered in a session of its own, which ends with it. A POST without
//! `initialize` is served as though the handshake had happened (legacy clients keep working),
//! and protocol 2026-07-28's requests carry their handshake in `_meta`.
//!
//! Without sessions, what the controls keep per session is kept per run: sequence positions
//! and draws count every stateless call of the run together (docs/CONTROLS.md).

use std::sync::Arc;

use axum::http::{HeaderValue, Method as HttpMethod, StatusCode, header};
use axum::response::Response;

use super::jsonrpc::{Method, Request};
use super::mcp::Session;
use super::plain;
use super::standard_headers::is_2026;
use crate::engine::{Engine, Origin, RunName};

/// What the stateless handler refuses before it reads the body: any method but POST, a body
/// that is not JSON, an `Accept` without both media types. `accepts` is the SDK's reading of
/// `Accept` (JSON, stream).
pub(crate) fn refused(
    method: &HttpMethod,
    json_body: bool,
    accepts: (bool, bool),
) -> Option<Response> {
    if method != HttpMethod::POST {
        let mut refused = plain::error(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
        refused
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("POST"));
        return Some(refused);
    }
    if !json_body {
        return Some(plain::error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type must be 'application/json'",
        ));
    }
    let (json, stream) = accepts;
    (!json || !stream).then(|| {
        plain::error(
            StatusCode::BAD_REQUEST,
            "Accept must contain both 'application/json' and 'text/event-stream'",
        )
    })
}

/// The session one POST is served in: no id, and already initialized unless the POST brings
/// its own `initialize` or is a 2026-07-28 one (whose requests initialize it themselves).
pub(crate) fn session(
    engine: Arc<Engine>,
    run: Option<RunName>,
    requests: &[(Request, Method)],
    version: &str,
) -> Arc<Session> {
    let session = Session::new(None, Origin::Http, engine, run);
    let initializes = requests
        .iter()
        .any(|(_, method)| *method == Method::Initialize);
    let per_request = is_2026(version) && !requests.is_empty();
    if !initializes && !per_request {
        session.mark_initialized(None);
    }
    session
}
