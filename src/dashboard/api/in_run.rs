//! The run a request is about: `?run=NAME` on any API request (none, or empty, for the default
//! run). Handlers take [`InRun`] instead of the dashboard's state and see the run's engine (its
//! overrides file, its journal for calls made from the page), the run's journal and its name, so each
//! handler is the same for every run.

use axum::extract::{FromRequestParts, Query};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::Deserialize;

use super::{ApiError, blocking};
use crate::dashboard::Dashboard;
use crate::engine::{RunName, RunNameError};

/// The dashboard as seen from one run.
pub(crate) struct InRun(pub Dashboard);

#[derive(Deserialize)]
struct RunQuery {
    #[serde(default)]
    run: Option<String>,
}

impl FromRequestParts<Dashboard> for InRun {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        dashboard: &Dashboard,
    ) -> Result<Self, Self::Rejection> {
        let Query(query) = Query::<RunQuery>::from_request_parts(parts, dashboard)
            .await
            .map_err(|error| ApiError::new(StatusCode::BAD_REQUEST, error.body_text()))?;
        let Some(run) = query.run.filter(|run| !run.is_empty()) else {
            return Ok(Self(dashboard.clone()));
        };
        let run: RunName = run.parse().map_err(|error: RunNameError| {
            ApiError::new(StatusCode::BAD_REQUEST, error.to_string())
        })?;
        let journal = dashboard.runs.layout().for_run(&run).journal;
        let runs = dashboard.runs.clone();
        let name = run.clone();
        // The run's journal is opened (its folder made) on first use.
        let engine = blocking(move || Ok(runs.get(Some(&name)))).await?;
        Ok(Self(Dashboard {
            engine,
            journal,
            run: Some(run),
            ..dashboard.clone()
        }))
    }
}
