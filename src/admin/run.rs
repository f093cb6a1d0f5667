//! The run a request is about: the `{run}` of its path, `default` for the default run (plain
//! `/mcp`, the project's own `.run/`). Handlers take [`InRun`] and see the run's engine (its
//! overrides file, its clock and world, its journal for the calls it makes) and its files, so
//! each handler is the same for every run.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts, RawPathParams};
use axum::http::StatusCode;
use axum::http::request::Parts;

use super::Admin;
use super::error::{ApiError, blocking};
use crate::engine::{Engine, ProjectLayout, RunName, RunNameError, absolute, runs};

/// How the API names the default run: what `grade` and the expected files call it.
pub const DEFAULT_RUN: &str = "default";

/// How many run names a refusal lists before it counts the rest.
const RUNS_NAMED: usize = 20;

/// One run, as a request sees it.
pub(crate) struct InRun {
    pub(crate) engine: Arc<Engine>,
    /// `None` for the default run.
    pub(crate) run: Option<RunName>,
    /// The run's files: its overrides file, journal and folder.
    pub(crate) layout: ProjectLayout,
    /// The project's files, every run's.
    pub(crate) project: ProjectLayout,
}

impl InRun {
    /// The run's name as the API and `grade` say it.
    pub(crate) fn name(&self) -> &str {
        self.run.as_ref().map_or(DEFAULT_RUN, RunName::as_str)
    }

    /// Refuses to read a run that is not there (no folder yet): its seed world or its empty
    /// journal would pass for the run's own. The default run is always there.
    pub(crate) fn existing(&self) -> Result<(), ApiError> {
        match missing_run(&self.project, self.run.as_ref()) {
            None => Ok(()),
            Some(message) => Err(ApiError::new(StatusCode::NOT_FOUND, message)),
        }
    }
}

/// Why `run` cannot be read, naming the runs there are; `None` when it exists. A run exists
/// once it has a folder, `.run/runs/<run>/` (its first journalled call makes it, as do forcing
/// a scenario, a reset and setting its clock); the default run (`None`) always exists.
pub fn missing_run(project: &ProjectLayout, run: Option<&RunName>) -> Option<String> {
    let run = run?;
    if project.run_dir(run).is_dir() {
        return None;
    }
    let others = runs::list(&project.runs_dir()).unwrap_or_default();
    let mut names: Vec<String> = std::iter::once(DEFAULT_RUN.to_string())
        .chain(others.iter().take(RUNS_NAMED).map(ToString::to_string))
        .collect();
    if others.len() > RUNS_NAMED {
        names.push(format!("and {} more", others.len() - RUNS_NAMED));
    }
    Some(format!(
        "no run {run}: {} does not exist; the runs are {}",
        absolute(&project.run_dir(run)).display(),
        names.join(", ")
    ))
}

/// The run a path's `{run}` names: `None` for `default`.
pub(crate) fn parse_run(text: &str) -> Result<Option<RunName>, ApiError> {
    if text == DEFAULT_RUN {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|error: RunNameError| ApiError::new(StatusCode::BAD_REQUEST, error.to_string()))
}

impl<S> FromRequestParts<S> for InRun
where
    Admin: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let admin = Admin::from_ref(state);
        let params = RawPathParams::from_request_parts(parts, state)
            .await
            .map_err(|error| ApiError::new(StatusCode::BAD_REQUEST, error.body_text()))?;
        let text = params
            .iter()
            .find(|(key, _)| *key == "run")
            .map(|(_, value)| value.to_string())
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "this path names no run"))?;
        let run = parse_run(&text)?;
        let runs = Arc::clone(&admin.runs);
        let project = runs.layout().clone();
        let Some(name) = run else {
            return Ok(Self {
                engine: Arc::clone(runs.default_engine()),
                run: None,
                layout: project.clone(),
                project,
            });
        };
        let asked = name.clone();
        // A run's engine is made on first use, within `serve --max-runs`.
        let engine = blocking(move || {
            runs.admit(&asked).ok_or_else(|| {
                ApiError::new(
                    StatusCode::CONFLICT,
                    format!(
                        "no room for run {asked}: the server serves at most --max-runs runs and \
                         that many exist; remove one (DELETE /runs/NAME, or `careem-mcp reset \
                         --run NAME --remove`)"
                    ),
                )
            })
        })
        .await?;
        Ok(Self {
            engine,
            layout: project.for_run(&name),
            run: Some(name),
            project,
        })
    }
}
