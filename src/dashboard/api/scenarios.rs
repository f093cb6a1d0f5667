//! `/api/scenarios`: every tool's scenarios with their kind and which one is forced now;
//! forcing, setting whole entries (sequences, delays, faults, rates, the `*` default),
//! clearing and resetting through the engine's [`force_scenario`], as `careem-mcp scenario`
//! and `reset` do.

use axum::Json;
use axum::extract::Path;
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::in_run::InRun;
use super::{ApiError, blocking};
use crate::engine::{
    Control, Controls, DEFAULT_ENTRY, Fault, ForceError, force_scenario, load_catalog,
    read_overrides, read_overrides_strict, reset_overrides, scenario_kinds, set_control,
};

pub(super) async fn list(InRun(dashboard): InRun) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let config = dashboard.engine.config();
        let loaded = load_catalog(&config.tools_dir);
        // The strict read tells a file someone broke by hand from an empty one; the page says so
        // instead of showing "nothing forced".
        let (forced, problem) = match read_overrides_strict(&config.overrides) {
            Ok(forced) => (forced, None),
            Err(error) => (read_overrides(&config.overrides), Some(error.to_string())),
        };
        // Entries the engine skips (a bad delay typed by hand, a scenario key on `*`) show with
        // the reason, as `careem-mcp scenarios` shows them.
        let problems = Controls::from_overrides(&forced).problems;
        let reason = |tool: &str| {
            problems
                .iter()
                .find(|p| p.tool == tool)
                .map(|p| p.message.clone())
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
                let scenarios: Vec<Value> = scenario_kinds(&file.scenarios)
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
                    "ignored": reason(&file.tool),
                    "scenarios": scenarios,
                })
            })
            .collect();
        Ok(Json(json!({
            "overrides": config.overrides.display().to_string(),
            "problem": problem,
            "faults": Fault::ALL.iter().map(|f| f.name()).collect::<Vec<_>>(),
            "default": {
                "entry": forced.get(DEFAULT_ENTRY),
                "ignored": reason(DEFAULT_ENTRY),
            },
            "ignored": problems
                .iter()
                .map(|p| json!({"tool": p.tool, "reason": p.message}))
                .collect::<Vec<_>>(),
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
    InRun(dashboard): InRun,
    Path(tool): Path<String>,
    Json(body): Json<ForceBody>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let config = dashboard.engine.config();
        force_scenario(
            &config.tools_dir,
            &config.overrides,
            &tool,
            body.scenario.as_deref(),
        )
        .map(|forced| Json(json!({"tool": tool, "forced": forced})))
        .map_err(refusal)
    })
    .await
}

#[derive(Debug, Deserialize)]
pub(super) struct EntryBody {
    /// The whole entry as the overrides file holds it (a name, an array of steps, or an object
    /// of `scenario`, `sequence`, `delay`, `fault`, `rate`); `null` clears it.
    entry: Option<Value>,
}

/// Sets a tool's (or `*`'s) whole entry: sequences, delays, faults and rates, checked by the
/// engine's parser and against the tool's scenarios before anything is written.
pub(super) async fn set_entry(
    InRun(dashboard): InRun,
    Path(tool): Path<String>,
    Json(body): Json<EntryBody>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let config = dashboard.engine.config();
        set_control(
            &config.tools_dir,
            &config.overrides,
            &tool,
            body.entry.as_ref(),
        )
        .map(|control| Json(json!({"tool": tool, "entry": control.map(|c| c.to_value())})))
        .map_err(refusal)
    })
    .await
}

/// The answer for an edit the engine refused: unknown names offer the known ones, a bad entry
/// says what is wrong with it, a broken file is a conflict the person must resolve.
fn refusal(error: ForceError) -> ApiError {
    let message = error.to_string();
    match error {
        ForceError::UnknownTool { known, .. } | ForceError::UnknownScenario { known, .. } => {
            ApiError {
                known,
                ..ApiError::new(StatusCode::NOT_FOUND, message)
            }
        }
        ForceError::Invalid(_) => ApiError::new(StatusCode::BAD_REQUEST, message),
        ForceError::Overrides(_) => ApiError::new(StatusCode::CONFLICT, message),
    }
}

pub(super) async fn reset(InRun(dashboard): InRun) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        reset_overrides(&dashboard.engine.config().overrides)
            .map_err(|error| ApiError::new(StatusCode::CONFLICT, error.to_string()))?;
        Ok(Json(json!({"reset": true})))
    })
    .await
}
