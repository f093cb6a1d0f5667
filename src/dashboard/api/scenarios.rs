//! `/api/scenarios`: every tool's scenarios with their kind and which one is forced now;
//! forcing, clearing and resetting through the engine's [`force`], as `careem-mcp scenario`
//! and `reset` do.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiError, blocking};
use crate::dashboard::Dashboard;
use crate::engine::controls::Control;
use crate::engine::force::{self, ForceError};
use crate::engine::scenario_kind;
use crate::engine::{catalog, overrides};

pub(super) async fn list(State(dashboard): State<Dashboard>) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let config = dashboard.engine.config();
        let loaded = catalog::load(&config.tools_dir);
        // The strict read tells a file someone broke by hand from an empty one; the page says so
        // instead of showing "nothing forced".
        let (forced, problem) = match overrides::read_strict(&config.overrides) {
            Ok(forced) => (forced, None),
            Err(error) => (
                overrides::read_lenient(&config.overrides),
                Some(error.to_string()),
            ),
        };
        let tools: Vec<Value> = loaded
            .tool_files()
            .map(|file| {
                // An entry is a scenario name, or a sequence / delay / fault (the CLI's controls):
                // every scenario it names shows as forced.
                let entry = forced.get(&file.tool);
                let named: Vec<String> = entry
                    .and_then(|value| Control::parse(&file.tool, value).ok())
                    .map(|control| control.scenario_names().map(str::to_string).collect())
                    .unwrap_or_default();
                let scenarios: Vec<Value> = scenario_kind::kinds(&file.scenarios)
                    .into_iter()
                    .map(|(scenario, kind)| {
                        json!({
                            "name": scenario.name,
                            "kind": kind,
                            "label": kind.label(),
                            "rule": scenario.rule,
                            "forced": named.iter().any(|n| n.eq_ignore_ascii_case(&scenario.name)),
                        })
                    })
                    .collect();
                json!({
                    "tool": file.tool,
                    "domain": file.domain,
                    "forced": entry,
                    "scenarios": scenarios,
                })
            })
            .collect();
        Ok(Json(json!({
            "overrides": config.overrides.display().to_string(),
            "problem": problem,
            "tools": tools,
        })))
    })
    .await
}

#[derive(Debug, Deserialize)]
pub(super) struct ForceBody {
    /// The scenario to force; `null` goes back to normal selection.
    scenario: Option<String>,
}

pub(super) async fn force(
    State(dashboard): State<Dashboard>,
    Path(tool): Path<String>,
    Json(body): Json<ForceBody>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let config = dashboard.engine.config();
        match force::force(
            &config.tools_dir,
            &config.overrides,
            &tool,
            body.scenario.as_deref(),
        ) {
            Ok(forced) => Ok(Json(json!({"tool": tool, "forced": forced}))),
            Err(ForceError::UnknownTool { known, .. }) => Err(ApiError {
                known,
                ..ApiError::new(StatusCode::NOT_FOUND, format!("unknown tool {tool:?}"))
            }),
            Err(error @ ForceError::UnknownScenario { .. }) => {
                let message = error.to_string();
                let ForceError::UnknownScenario { known, .. } = error else {
                    unreachable!("matched above")
                };
                Err(ApiError {
                    known,
                    ..ApiError::new(StatusCode::NOT_FOUND, message)
                })
            }
            Err(ForceError::Overrides(error)) => {
                Err(ApiError::new(StatusCode::CONFLICT, error.to_string()))
            }
        }
    })
    .await
}

pub(super) async fn reset(State(dashboard): State<Dashboard>) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        force::reset(&dashboard.engine.config().overrides)
            .map_err(|error| ApiError::new(StatusCode::CONFLICT, error.to_string()))?;
        Ok(Json(json!({"reset": true})))
    })
    .await
}
