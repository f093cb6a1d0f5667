//! A POST's answer as the SDK writes it: its headers, and the `text/event-stream` that carries
//! its messages. Shared by the transports, the ingress's faults and the header checks, so that
//! none of them reaches into another for it.

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::Response;

/// The header that names a Streamable HTTP session.
pub(crate) const SESSION_ID: &str = "mcp-session-id";

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
