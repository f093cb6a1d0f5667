//! Plain-text answers as Go's `http.Error` writes them: the text and a newline, with
//! `text/plain; charset=utf-8` and `X-Content-Type-Options: nosniff`.

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

pub(crate) fn error(status: StatusCode, text: &str) -> Response {
    let mut response = Response::new(Body::from(format!("{text}\n")));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// An answer as Go's server writes one itself, before any handler: the text alone, with
/// `text/plain; charset=utf-8`.
pub(crate) fn bare(status: StatusCode, text: &str) -> Response {
    let mut response = Response::new(Body::from(text.to_string()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// Go's `http.NotFound`, for a path that is not served.
pub(crate) fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "404 page not found")
}

/// An empty answer with only a status (202, 204).
pub(crate) fn empty(status: StatusCode) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    response
}
