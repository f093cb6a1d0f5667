//! Injected faults as production's ingress shows them over HTTP: its 502, 503 and 504, the 404
//! of a session that ended, and a connection cut mid-answer. They fire in front of the SDK's
//! layer, as production's load balancer stands in front of its Go server; the faults the SDK's
//! layer answers (`-32603`, `hang`, a stdio process that ends) live in `mcp/calls.rs`.

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

use crate::engine::Fault;

/// Whether the ingress answers `fault` over HTTP, instead of the SDK's layer.
pub(crate) fn answered_by_ingress(fault: Fault) -> bool {
    matches!(
        fault,
        Fault::Http502 | Fault::Http503 | Fault::Http504 | Fault::Drop | Fault::SessionExpired
    )
}

/// The ingress's answer to a faulted call.
pub(crate) fn ingress_answer(fault: Fault) -> Response {
    let (status, body) = match fault {
        Fault::Http502 => (
            StatusCode::BAD_GATEWAY,
            "upstream connect error or disconnect/reset before headers. reset reason: connection termination",
        ),
        Fault::Http503 => (StatusCode::SERVICE_UNAVAILABLE, "no healthy upstream"),
        Fault::Http504 => (StatusCode::GATEWAY_TIMEOUT, "upstream request timeout"),
        Fault::SessionExpired => {
            return crate::server::plain::error(StatusCode::NOT_FOUND, "session not found");
        }
        Fault::Drop | Fault::Hang | Fault::InternalError => return broken_stream(),
    };
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    response
}

/// A stream whose connection is reset before anything reaches the client.
fn broken_stream() -> Response {
    let body = futures::stream::once(async {
        Err::<Bytes, std::io::Error>(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "connection reset",
        ))
    });
    let mut response = Response::new(Body::from_stream(body));
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("no-cache, no-transform"),
    );
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    response
}
