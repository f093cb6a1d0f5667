//! How the API refuses: `{"error": "…"}` with the status that fits, in the words the CLI
//! prints for the same failure, and, where the CLI adds them, the causes it prints under it
//! (`caused by: …`) and the names a typo could have meant (`known`). A JSON body that does not
//! read is refused the same way, never with axum's plain-text rejection.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A refusal, as every endpoint answers one.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) body: ErrorBody,
}

/// The body of every refusal.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong, as the CLI says it.
    pub error: String,
    /// Why, one cause a line, as the CLI prints them under the error (`caused by: …`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<String>,
    /// Names that exist, offered for a name that does not (tools, scenarios).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<String>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            body: ErrorBody {
                error: message.into(),
                causes: Vec::new(),
                known: Vec::new(),
            },
        }
    }

    /// Something on the server's machine failed (a file that cannot be read or written): the
    /// message says which, because the person reading it is the one who can fix it; `cause`
    /// says why, as the CLI's `caused by` line does.
    pub(crate) fn internal(message: impl Into<String>, cause: &dyn std::error::Error) -> Self {
        let message = message.into();
        tracing::warn!("admin: {message}: {cause}");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message).caused_by(cause)
    }

    /// The error with `cause` and each of its sources as its causes, as the CLI's `caused by`
    /// lines list them.
    #[must_use]
    pub(crate) fn caused_by(mut self, cause: &dyn std::error::Error) -> Self {
        let mut next = Some(cause);
        while let Some(cause) = next {
            self.body.causes.push(cause.to_string());
            next = cause.source();
        }
        self
    }

    /// The error and its causes on one line, as a message shown inline.
    pub(crate) fn one_line(&self) -> String {
        std::iter::once(self.body.error.as_str())
            .chain(self.body.causes.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(": ")
    }

    #[must_use]
    pub(crate) fn offering(mut self, known: Vec<String>) -> Self {
        self.body.known = known;
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body)).into_response()
    }
}

/// Runs blocking engine work (file reads, rendering, grading) off the async workers.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|error| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("an admin task failed: {error}"),
        )
    })?
}

/// A JSON request body; one that does not read is a 400 in JSON with serde's reason.
#[derive(Debug)]
pub(crate) struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(refused_body(&rejection)),
        }
    }
}

fn refused_body(rejection: &JsonRejection) -> ApiError {
    ApiError::new(rejection.status(), rejection.body_text())
}

/// The answer to a path no endpoint has.
pub(crate) async fn no_endpoint(request: Request) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no endpoint {} {}: /openapi.json lists them",
            request.method(),
            request.uri().path()
        ),
    )
}

/// The answer to a method the path does not take.
pub(crate) async fn wrong_method(request: Request) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} does not take {}: /openapi.json lists what it takes",
            request.uri().path(),
            request.method()
        ),
    )
}
