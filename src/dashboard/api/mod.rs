//! The dashboard's JSON API, one file per resource: the journal's calls (and their live
//! stream), the scenarios and what is forced, the tool definitions with their lint findings,
//! "try a call", the run's world and its verdict.

mod calls;
mod in_run;
mod runs;
mod scenarios;
mod tools;
mod try_call;
mod verdict;
mod world;

use axum::Router;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use serde::Serialize;

use super::Dashboard;

pub(super) fn routes(dashboard: Dashboard) -> Router {
    Router::new()
        .route("/calls", get(calls::list).delete(calls::clear))
        .route("/calls/stream", get(calls::stream))
        .route("/runs", get(runs::list))
        .route("/scenarios", get(scenarios::list).delete(scenarios::reset))
        .route("/scenarios/{tool}", put(scenarios::force))
        .route("/scenarios/{tool}/entry", put(scenarios::set_entry))
        .route("/tools", get(tools::list))
        .route("/call", post(try_call::run))
        .route("/world", get(world::show))
        .route("/verdict", get(verdict::show))
        .with_state(dashboard)
}

/// An answer the page shows as a message: `{"error": "..."}` with the status that fits.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
    /// Names the page can offer instead (known tools or scenarios).
    known: Vec<String>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
            known: Vec::new(),
        }
    }

    /// Something on this machine failed (a file that cannot be read or written): the message
    /// says which, because the person reading it is the one who can fix it.
    fn internal(message: impl std::fmt::Display) -> Self {
        tracing::warn!("dashboard: {message}");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message.to_string())
    }
}

/// The body of an [`ApiError`], as `api.js` reads it.
#[derive(Debug, Serialize)]
struct ErrorBody {
    error: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    known: Vec<String>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.message,
            known: self.known,
        };
        (self.status, axum::Json(body)).into_response()
    }
}

/// Runs blocking engine work (file reads, rendering) off the async workers.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| ApiError::internal(format!("a dashboard task failed: {error}")))?
}
