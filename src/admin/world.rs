//! `/runs/{run}/world`: the run's world as `careem-mcp world --json` shows it (the clock, the
//! basket, the orders and rides with their status now).

use axum::Json;

use super::error::{ApiError, ErrorBody, blocking};
use super::run::InRun;
use crate::engine::WorldView;

/// The run's world now, read through its read-only tools; reading changes nothing.
#[utoipa::path(get, path = "/runs/{run}/world", tag = "world",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp")),
    responses((status = 200, description = "As `careem-mcp world --json` prints it", body = Object),
              (status = 404, description = "No such run", body = ErrorBody)))]
pub(crate) async fn show(run: InRun) -> Result<Json<WorldView>, ApiError> {
    run.existing()?;
    blocking(move || Ok(Json(run.engine.world_view()))).await
}
