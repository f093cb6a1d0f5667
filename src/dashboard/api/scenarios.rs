//! `/api/scenarios`: every tool's scenarios with their kind and which one is forced now;
//! forcing, setting whole entries (sequences, delays, faults, rates, the `*` default),
//! clearing and resetting through the engine's [`force::force`], as `careem-mcp scenario`
//! and `reset` do.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{ApiError, blocking};
use crate::dashboard::Dashboard;
use crate::engine::{
    Control, Controls, DEFAULT_ENTRY, Fault, ForceError, catalog, force, overrides, scenario_kind,
};

/// Every tool's scenarios and what the overrides file asks now (`scenarios.js`, `controls.js`).
#[derive(Debug, Serialize)]
pub(super) struct ScenariosAnswer {
    /// The overrides file's path.
    overrides: String,
    /// Why the overrides file does not read, when it does not.
    problem: Option<String>,
    faults: Vec<&'static str>,
    default: DefaultEntry,
    ignored: Vec<Ignored>,
    tools: Vec<ToolScenarios>,
}

/// The `*` entry, the default for every tool.
#[derive(Debug, Serialize)]
struct DefaultEntry {
    entry: Option<Value>,
    ignored: Option<String>,
}

/// An entry the engine skips, with the reason.
#[derive(Debug, Serialize)]
struct Ignored {
    tool: String,
    reason: String,
}

#[derive(Debug, Serialize)]
struct ToolScenarios {
    tool: String,
    domain: Option<String>,
    /// The tool's entry in the overrides file, as it stands there.
    forced: Option<Value>,
    ignored: Option<String>,
    scenarios: Vec<ScenarioRow>,
}

#[derive(Debug, Serialize)]
struct ScenarioRow {
    name: String,
    kind: scenario_kind::ScenarioKind,
    label: &'static str,
    rule: Option<Value>,
    /// Whether the tool's entry names this scenario.
    forced: bool,
}

pub(super) async fn list(
    State(dashboard): State<Dashboard>,
) -> Result<Json<ScenariosAnswer>, ApiError> {
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
        // Entries the engine skips (a bad delay typed by hand, a scenario key on `*`) show with
        // the reason, as `careem-mcp scenarios` shows them.
        let problems = Controls::from_overrides(&forced).problems;
        let reason = |tool: &str| {
            problems
                .iter()
                .find(|p| p.tool == tool)
                .map(|p| p.message.clone())
        };
        let tools: Vec<ToolScenarios> = loaded
            .tool_files()
            .map(|file| {
                // An entry is a scenario name, or a sequence / delay / fault (the CLI's controls):
                // every scenario it names shows as forced.
                let entry = forced.get(&file.tool);
                let named: Vec<String> = entry
                    .and_then(|value| Control::parse(&file.tool, value).ok())
                    .map(|control| control.scenario_names().map(str::to_string).collect())
                    .unwrap_or_default();
                let scenarios = scenario_kind::kinds(&file.scenarios)
                    .into_iter()
                    .map(|(scenario, kind)| ScenarioRow {
                        name: scenario.name.clone(),
                        kind,
                        label: kind.label(),
                        rule: scenario.rule.clone(),
                        forced: named.iter().any(|n| n.eq_ignore_ascii_case(&scenario.name)),
                    })
                    .collect();
                ToolScenarios {
                    tool: file.tool.clone(),
                    domain: file.domain.clone(),
                    forced: entry.cloned(),
                    ignored: reason(&file.tool),
                    scenarios,
                }
            })
            .collect();
        Ok(Json(ScenariosAnswer {
            overrides: config.overrides.display().to_string(),
            problem,
            faults: Fault::ALL.iter().map(|f| f.name()).collect(),
            default: DefaultEntry {
                entry: forced.get(DEFAULT_ENTRY).cloned(),
                ignored: reason(DEFAULT_ENTRY),
            },
            ignored: problems
                .iter()
                .map(|p| Ignored {
                    tool: p.tool.clone(),
                    reason: p.message.clone(),
                })
                .collect(),
            tools,
        }))
    })
    .await
}

#[derive(Debug, Deserialize)]
pub(super) struct ForceBody {
    /// The scenario to force; `null` goes back to normal selection.
    scenario: Option<String>,
}

/// The scenario now forced for a tool, if any.
#[derive(Debug, Serialize)]
pub(super) struct Forced {
    tool: String,
    forced: Option<String>,
}

pub(super) async fn force(
    State(dashboard): State<Dashboard>,
    Path(tool): Path<String>,
    Json(body): Json<ForceBody>,
) -> Result<Json<Forced>, ApiError> {
    blocking(move || {
        let config = dashboard.engine.config();
        force::force(
            &config.tools_dir,
            &config.overrides,
            &tool,
            body.scenario.as_deref(),
        )
        .map(|forced| Json(Forced { tool, forced }))
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

/// A tool's entry as the overrides file now holds it; `null` when cleared.
#[derive(Debug, Serialize)]
pub(super) struct EntrySet {
    tool: String,
    entry: Option<Value>,
}

/// Sets a tool's (or `*`'s) whole entry: sequences, delays, faults and rates, checked by the
/// engine's parser and against the tool's scenarios before anything is written.
pub(super) async fn set_entry(
    State(dashboard): State<Dashboard>,
    Path(tool): Path<String>,
    Json(body): Json<EntryBody>,
) -> Result<Json<EntrySet>, ApiError> {
    blocking(move || {
        let config = dashboard.engine.config();
        force::set(
            &config.tools_dir,
            &config.overrides,
            &tool,
            body.entry.as_ref(),
        )
        .map(|control| {
            Json(EntrySet {
                tool,
                entry: control.map(|c| c.to_value()),
            })
        })
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

/// The overrides file emptied.
#[derive(Debug, Serialize)]
pub(super) struct Reset {
    reset: bool,
}

pub(super) async fn reset(State(dashboard): State<Dashboard>) -> Result<Json<Reset>, ApiError> {
    blocking(move || {
        force::reset(&dashboard.engine.config().overrides)
            .map_err(|error| ApiError::new(StatusCode::CONFLICT, error.to_string()))?;
        Ok(Json(Reset { reset: true }))
    })
    .await
}
