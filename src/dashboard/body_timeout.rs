//! A request body is read whole within the body timeout, or answered `408 Request Timeout` and
//! its connection closed: a client that sends half a body cannot hold a connection (and what
//! it sent) for ever. The accept loop under the dashboard (`server/connections.rs`) times the
//! headers; this times the body, as `serve` does.

use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::MAX_BODY_BYTES;

pub(super) async fn read_bodies_in_time(
    State(timeout): State<Duration>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(error)) => {
            tracing::debug!("dashboard: cannot read a request body: {error}");
            (
                StatusCode::PAYLOAD_TOO_LARGE,
                axum::Json(serde_json::json!({"error": "the request body is too large"})),
            )
                .into_response()
        }
        Err(_) => {
            tracing::debug!("dashboard: a request body still incomplete after {timeout:?}");
            (
                StatusCode::REQUEST_TIMEOUT,
                [(header::CONNECTION, "close")],
                axum::Json(serde_json::json!({"error": "the request body did not arrive in time"})),
            )
                .into_response()
        }
    }
}
