//! SDK v1.7.0's checks of a POST to `/mcp` for protocol 2026-07-28, and its answers to them:
//! the `Mcp-Protocol-Version` header against each request's `_meta`, the `Mcp-Method` and
//! `Mcp-Name` headers against the body, and the errors it writes as one JSON-RPC message with
//! an HTTP status of its own instead of a stream.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;

use super::jsonrpc::codes::{
    HEADER_MISMATCH, MISSING_CLIENT_CAPABILITIES, UNSUPPORTED_PROTOCOL_VERSION,
};
use super::jsonrpc::{
    self, INVALID_PARAMS, Id, METHOD_NOT_FOUND, Method, Refusal, Request, RpcError,
};
use super::mcp::per_request::{META_PROTOCOL_VERSION, meta_version};
use super::plain;
use super::profile::PROTOCOL_2026;

const METHOD_HEADER: &str = "mcp-method";
const NAME_HEADER: &str = "mcp-name";

/// Whether `version` (a header's) is 2026-07-28 or later.
pub(crate) fn is_2026(version: &str) -> bool {
    version >= PROTOCOL_2026
}

/// The answer to a request the method table refused: from 2026-07-28 on, an unknown method
/// called is a JSON-RPC -32601 with 404; otherwise the plain-text 400.
pub(crate) fn refused(request: &Request, refusal: &Refusal, version: &str) -> Response {
    match (&request.id, refusal) {
        (Some(id), Refusal::NotHandled(_)) if is_2026(version) => json_error(
            StatusCode::NOT_FOUND,
            Some(id),
            &RpcError::new(METHOD_NOT_FOUND, refusal.to_string()),
        ),
        _ => plain::error(StatusCode::BAD_REQUEST, &refusal.to_string()),
    }
}

/// v1.7.0's check of one request's protocol version, header against `_meta`: a 2026-07-28
/// request needs a stateless server (`server/discover` excepted), the header, and a `_meta`
/// version equal to it. `header` is the header as sent; `version` what it stands for.
pub(crate) fn per_request(
    request: &Request,
    method: Method,
    header: Option<&str>,
    version: &str,
    stateless: bool,
) -> Option<Response> {
    let meta = meta_version(request.params.as_deref());
    if !is_2026(version) && meta.as_deref().is_none_or(str::is_empty) {
        return None;
    }
    if !stateless && method != Method::Discover {
        return Some(plain::error(
            StatusCode::BAD_REQUEST,
            &format!(
                "Bad Request: protocol version {} is only supported on stateless HTTP servers (set StreamableHTTPOptions.Stateless = true)",
                crate::go::fmt::quote(version)
            ),
        ));
    }
    let id = request.id.as_ref();
    let Some(header) = header.filter(|header| !header.is_empty()) else {
        return Some(json_error(
            StatusCode::BAD_REQUEST,
            id,
            &RpcError::new(
                HEADER_MISMATCH,
                format!(
                    "Mcp-Protocol-Version header is required for requests carrying \"{META_PROTOCOL_VERSION}\""
                ),
            ),
        ));
    };
    let Some(meta) = meta.filter(|meta| !meta.is_empty()) else {
        return Some(json_error(
            StatusCode::BAD_REQUEST,
            id,
            &RpcError::new(
                INVALID_PARAMS,
                format!("missing or invalid _meta field \"{META_PROTOCOL_VERSION}\""),
            ),
        ));
    };
    (header != meta).then(|| {
        json_error(
            StatusCode::BAD_REQUEST,
            id,
            &RpcError::new(
                HEADER_MISMATCH,
                format!(
                    "Mcp-Protocol-Version header {} does not match request {META_PROTOCOL_VERSION} {}",
                    crate::go::fmt::quote(header),
                    crate::go::fmt::quote(&meta)
                ),
            ),
        )
    })
}

/// v1.7.0's `validateMcpHeaders` for a POST of one request under 2026-07-28 or later:
/// `Mcp-Method` must name the body's method and, for a call of a tool, a prompt or a resource,
/// `Mcp-Name` its name.
pub(crate) fn standard(headers: &HeaderMap, request: &Request, version: &str) -> Option<Response> {
    if !is_2026(version) {
        return None;
    }
    let text = |name: &str| {
        headers
            .get(name)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
            .filter(|value| !value.is_empty())
    };
    let mismatch = |message: String| {
        json_error(
            StatusCode::BAD_REQUEST,
            request.id.as_ref(),
            &RpcError::new(HEADER_MISMATCH, message),
        )
    };
    let Some(method) = text(METHOD_HEADER) else {
        return Some(mismatch("missing required Mcp-Method header".into()));
    };
    if method != request.method {
        return Some(mismatch(format!(
            "header mismatch: Mcp-Method header value '{method}' does not match body value '{}'",
            request.method
        )));
    }
    let key = match request.method.as_str() {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return None,
    };
    let Some(name) = text(NAME_HEADER) else {
        return Some(mismatch(format!(
            "missing required Mcp-Name header for method {}",
            crate::go::fmt::quote(&request.method)
        )));
    };
    let Some(in_body) = name_in_body(request, key) else {
        return Some(mismatch(format!(
            "failed to extract name from parameters for method {}",
            crate::go::fmt::quote(&request.method)
        )));
    };
    (name != in_body).then(|| {
        mismatch(format!(
            "header mismatch: Mcp-Name header value '{name}' does not match body value '{in_body}'"
        ))
    })
}

/// The name (or uri) in a request's params, read as the SDK reads them into its struct.
fn name_in_body(request: &Request, key: &str) -> Option<String> {
    let params: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(request.params.as_deref()?.get()).ok()?;
    match params.get(key) {
        None | Some(serde_json::Value::Null) => Some(String::new()),
        Some(serde_json::Value::String(name)) => Some(name.clone()),
        Some(_) => None,
    }
}

/// v1.7.0's `extractErrorStatus`: under 2026-07-28, an answer that is one of these errors goes
/// out as plain JSON with its own status instead of on the stream.
pub(crate) fn error_status(version: &str, message: &[u8]) -> Option<StatusCode> {
    #[derive(serde::Deserialize)]
    struct Answer {
        error: Option<Code>,
    }
    #[derive(serde::Deserialize)]
    struct Code {
        code: i64,
    }
    if !is_2026(version) {
        return None;
    }
    let answer: Answer = serde_json::from_slice(message).ok()?;
    match answer.error?.code {
        METHOD_NOT_FOUND => Some(StatusCode::NOT_FOUND),
        INVALID_PARAMS | UNSUPPORTED_PROTOCOL_VERSION | MISSING_CLIENT_CAPABILITIES => {
            Some(StatusCode::BAD_REQUEST)
        }
        _ => None,
    }
}

/// One answer written as the SDK writes such an error on a POST whose stream headers were set:
/// `status`, `application/json`, the stream's cache and connection headers kept.
pub(crate) fn json_answer(status: StatusCode, message: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(message));
    *response.status_mut() = status;
    super::sessions::stream_headers(&mut response, "application/json");
    response
}

/// The SDK's `writeJSONRPCError`: one error message as JSON, with `status`.
fn json_error(status: StatusCode, id: Option<&Id>, error: &RpcError) -> Response {
    let mut response = Response::new(Body::from(jsonrpc::error_message(id, error)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, params: &str) -> Request {
        Request {
            id: Some(Id::Number(7)),
            method: method.into(),
            params: Some(serde_json::value::RawValue::from_string(params.into()).unwrap()),
        }
    }

    async fn body(response: Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[tokio::test]
    async fn headers_are_checked_against_the_body_as_v1_7_0_checks_them() {
        let meta =
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"t"}"#;
        let mut headers = HeaderMap::new();
        headers.insert(METHOD_HEADER, HeaderValue::from_static("tools/call"));
        let call = request("tools/call", meta);
        let missing = standard(&headers, &call, PROTOCOL_2026).unwrap();
        assert!(
            body(missing)
                .await
                .contains("missing required Mcp-Name header")
        );
        headers.insert(NAME_HEADER, HeaderValue::from_static("other"));
        let differs = standard(&headers, &call, PROTOCOL_2026).unwrap();
        assert!(
            body(differs)
                .await
                .contains("Mcp-Name header value 'other'")
        );
        headers.insert(NAME_HEADER, HeaderValue::from_static("t"));
        assert!(standard(&headers, &call, PROTOCOL_2026).is_none());
        assert!(standard(&HeaderMap::new(), &call, "2025-11-25").is_none());
    }

    #[tokio::test]
    async fn per_request_versions_need_the_header_and_a_stateless_server() {
        let call = request(
            "tools/list",
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#,
        );
        let stateful = per_request(
            &call,
            Method::ToolsList,
            Some(PROTOCOL_2026),
            PROTOCOL_2026,
            false,
        );
        assert!(
            body(stateful.unwrap())
                .await
                .contains("only supported on stateless")
        );
        let no_header = per_request(&call, Method::ToolsList, None, "2025-03-26", true);
        assert!(body(no_header.unwrap()).await.contains("-32020"));
        assert!(
            per_request(
                &call,
                Method::ToolsList,
                Some(PROTOCOL_2026),
                PROTOCOL_2026,
                true
            )
            .is_none()
        );
        let bare = request("tools/list", "{}");
        let no_meta = per_request(
            &bare,
            Method::ToolsList,
            Some(PROTOCOL_2026),
            PROTOCOL_2026,
            true,
        );
        assert!(
            body(no_meta.unwrap())
                .await
                .contains("missing or invalid _meta field")
        );
        assert!(per_request(&bare, Method::ToolsList, None, "2025-03-26", false).is_none());
    }
}
