//! `/runs`: the runs that have a folder, and `DELETE /runs/{run}`, a run's folder removed.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Admin;
use super::error::{ApiError, ErrorBody, blocking};
use super::run::InRun;

/// What removing the default run says: it has no folder of its own.
pub const REMOVE_NEEDS_RUN: &str = "--remove deletes a run's folder: name the run with --run NAME";
use crate::engine::{absolute, runs};

/// Every run that has a folder, sorted; the default run is always there besides.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RunsAnswer {
    pub runs: Vec<String>,
}

/// The runs that have a folder (the dashboard's run selector, `calls --all-runs`).
#[utoipa::path(get, path = "/runs", tag = "runs",
    responses((status = 200, body = RunsAnswer), (status = 500, body = ErrorBody)))]
pub(crate) async fn list(State(admin): State<Admin>) -> Result<Json<RunsAnswer>, ApiError> {
    blocking(move || {
        let dir = admin.runs.layout().runs_dir();
        let runs = runs::list(&dir).map_err(|error| {
            ApiError::internal(format!("cannot list {}", dir.display()), &error)
        })?;
        Ok(Json(RunsAnswer {
            runs: runs.iter().map(ToString::to_string).collect(),
        }))
    })
    .await
}

/// A run's folder removed, or found missing.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Removed {
    pub run: String,
    /// Whether there was a folder to remove.
    pub removed: bool,
    /// The run's folder on the server.
    pub folder: String,
}

/// Deletes the run's folder, its overrides file, clock, world and journal with it, as
/// `careem-mcp reset --run NAME --remove` does. Clients still connected to the run make it
/// again with their next call.
#[utoipa::path(delete, path = "/runs/{run}", tag = "runs",
    params(("run" = String, Path, description = "The run (not `default`, which has no folder)")),
    responses((status = 200, body = Removed),
              (status = 400, description = "`default`, or not a run name", body = ErrorBody)))]
pub(crate) async fn remove(run: InRun) -> Result<Json<Removed>, ApiError> {
    let Some(name) = run.run.clone() else {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, REMOVE_NEEDS_RUN));
    };
    blocking(move || {
        let folder = absolute(&run.project.run_dir(&name)).display().to_string();
        let removed = runs::remove(&run.project, &name)
            .map_err(|error| ApiError::internal(format!("cannot remove {folder}"), &error))?;
        Ok(Json(Removed {
            run: name.to_string(),
            removed,
            folder,
        }))
    })
    .await
}
