//! `serve -v`: one log line per refused HTTP request, so that a client that cannot connect is
//! not a mystery. A refusal is any answer of status 400 or above; its line names the method,
//! the path, the status, the reason the client was given (the plain-text body, or a JSON-RPC
//! error's message) and the session the request named, if any.

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;

use super::sessions::SESSION_ID;

/// A refusal's body is read up to this many bytes for its reason (refusals are short).
const REASON_BYTES: usize = 64 * 1024;

/// Logs every refusal of the requests it wraps.
pub(crate) async fn log_refusals(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let session = session_of(&request);
    let response = next.run(request).await;
    let status = response.status();
    if status.as_u16() < 400 {
        return response;
    }
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    let (parts, body) = response.into_parts();
    let bytes = to_bytes(body, REASON_BYTES).await.unwrap_or_default();
    let reason = reason(&bytes, json);
    let session = session
        .map(|id| format!(" (session {id})"))
        .unwrap_or_default();
    tracing::info!("refused {method} {path}: {status} {reason}{session}");
    Response::from_parts(parts, Body::from(bytes))
}

/// The session a request names: its `Mcp-Session-Id`, or legacy SSE's `sessionid` query.
fn session_of(request: &Request) -> Option<String> {
    if let Some(id) = request
        .headers()
        .get(SESSION_ID)
        .and_then(|value| value.to_str().ok())
        .filter(|id| !id.is_empty())
    {
        return Some(id.to_string());
    }
    request
        .uri()
        .query()?
        .split('&')
        .find_map(|pair| pair.strip_prefix("sessionid="))
        .filter(|id| !id.is_empty())
        .map(str::to_string)
}

/// What the client was told: a JSON-RPC error's message, or the text on one line.
fn reason(body: &[u8], json: bool) -> String {
    if json
        && let Ok(message) = serde_json::from_slice::<serde_json::Value>(body)
        && let Some(text) = message["error"]["message"].as_str()
    {
        return text.to_string();
    }
    let text = String::from_utf8_lossy(body);
    let line = text.trim().replace(['\n', '\r'], " ");
    if line.is_empty() {
        "(no reason given)".to_string()
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_what_the_client_was_told() {
        assert_eq!(
            reason(
                b"JSON RPC not handled: \"server/discover\" unsupported\n",
                false
            ),
            r#"JSON RPC not handled: "server/discover" unsupported"#
        );
        assert_eq!(
            reason(
                br#"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"gone"}}"#,
                true
            ),
            "gone"
        );
        assert_eq!(reason(b"", false), "(no reason given)");
    }
}
