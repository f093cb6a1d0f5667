//! `POST /runs/{run}/reset`: the run back to its start, as `careem-mcp reset` puts it.

use axum::Json;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody, blocking};
use super::run::InRun;
use crate::engine::force;

/// The run reset.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Reset {
    pub reset: bool,
}

/// Every tool back to normal selection and every story to its first step, the world back to
/// its seed and the clock to the real time. The journal stays (`DELETE /runs/{run}/calls`
/// empties it); `DELETE /runs/{run}` removes the run altogether.
#[utoipa::path(post, path = "/runs/{run}/reset", tag = "runs",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp")),
    responses((status = 200, body = Reset),
              (status = 409, description = "The overrides file is not valid", body = ErrorBody)))]
pub(crate) async fn reset(run: InRun) -> Result<Json<Reset>, ApiError> {
    blocking(move || {
        force::reset(run.engine.run_files()).map_err(|error| {
            ApiError::new(StatusCode::CONFLICT, "cannot reset the overrides").caused_by(&error)
        })?;
        Ok(Json(Reset { reset: true }))
    })
    .await
}
