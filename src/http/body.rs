//! Request bodies, bounded before any route sees them: a declared length over the limit is
//! refused before anything reads the body, and any other body is read whole within a deadline.
//! A client that sends its body slowly, or holds back its last bytes, would otherwise hold its
//! connection and what it sent for ever: it gets 408 and its connection is closed, as nginx
//! answers a body that stalls. Requests without a body pass at once. Each face words the two
//! refusals its own way (`serve` as Go's `http.Error`, the dashboard as JSON).

use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

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
