//! `/api/runs`: the runs that have a folder, for the page's run selector.

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use super::{ApiError, blocking};
use crate::dashboard::Dashboard;
use crate::engine::runs;

pub(super) async fn list(State(dashboard): State<Dashboard>) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let dir = dashboard.runs.layout().runs_dir();
        let runs = runs::list(&dir)
            .map_err(|e| ApiError::internal(format!("cannot list {}: {e}", dir.display())))?;
        Ok(Json(json!({"runs": runs})))
    })
    .await
}
