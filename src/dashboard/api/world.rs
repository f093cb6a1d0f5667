//! `/api/world?run=NAME`: the run's world as `careem-mcp world --json` shows it (the clock, the
//! basket, the orders and rides with their status now), for the page's World view.

use axum::Json;

use super::in_run::InRun;
use super::{ApiError, blocking};
use crate::engine::WorldView;

pub(super) async fn show(InRun(dashboard): InRun) -> Result<Json<WorldView>, ApiError> {
    blocking(move || Ok(Json(dashboard.engine.world_view()))).await
}
