//! `/runs/{run}/scenarios`: every tool's scenarios with their kind and which one is forced
//! now; forcing, setting whole entries (sequences, delays, faults, rates, the `*` default),
//! clearing and resetting through the engine's [`force`], as `careem-mcp scenario` and
//! `reset` do.

use axum::Json;
use axum::extract::Path;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody, JsonBody, blocking};
use super::run::InRun;
use super::words::force_answer;
use crate::engine::{
    Control, Controls, DEFAULT_ENTRY, Fault, catalog, force, overrides, scenario_kind,
};

/// Every tool's scenarios and what the overrides file asks now (`scenarios.js`, `controls.js`).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ScenariosAnswer {
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
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct DefaultEntry {
    #[schema(value_type = Option<Object>)]
    entry: Option<Value>,
    ignored: Option<String>,
}

/// An entry the engine skips, with the reason.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Ignored {
    tool: String,
    reason: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ToolScenarios {
    tool: String,
    domain: Option<String>,
    /// The tool's entry in the overrides file, as it stands there.
    #[schema(value_type = Option<Object>)]
    forced: Option<Value>,
    ignored: Option<String>,
    scenarios: Vec<ScenarioRow>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ScenarioRow {
    name: String,
    /// `default`, `match`, `forced-only`, `error` or `error-forced-only`.
    #[schema(value_type = String)]
    kind: scenario_kind::ScenarioKind,
    label: &'static str,
    #[schema(value_type = Option<Object>)]
    rule: Option<Value>,
    /// Whether the tool's entry names this scenario.
    forced: bool,
}

/// Every tool's scenarios, the run's overrides entries and the entries the engine ignores.
#[utoipa::path(get, path = "/runs/{run}/scenarios", tag = "scenarios",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp")),
    responses((status = 200, body = ScenariosAnswer), (status = 400, body = ErrorBody)))]
pub(crate) async fn list(run: InRun) -> Result<Json<ScenariosAnswer>, ApiError> {
    blocking(move || {
        let config = run.engine.config();
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

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct ForceBody {
    /// The scenario to force; `null` goes back to normal selection.
    scenario: Option<String>,
}

/// The scenario now forced for a tool, if any.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Forced {
    tool: String,
    forced: Option<String>,
}

/// Forces one scenario on every call of the tool, or (`null`) back to normal selection.
#[utoipa::path(put, path = "/runs/{run}/scenarios/{tool}", tag = "scenarios",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp"),
           ("tool" = String, Path, description = "The tool")),
    request_body = ForceBody,
    responses((status = 200, body = Forced),
              (status = 404, description = "An unknown tool or scenario; `known` lists the names", body = ErrorBody),
              (status = 409, description = "The overrides file is not valid", body = ErrorBody)))]
pub(crate) async fn force(
    run: InRun,
    Path((_, tool)): Path<(String, String)>,
    JsonBody(body): JsonBody<ForceBody>,
) -> Result<Json<Forced>, ApiError> {
    blocking(move || {
        let config = run.engine.config();
        force::force(
            &config.tools_dir,
            &config.overrides,
            &tool,
            body.scenario.as_deref(),
        )
        .map(|forced| Json(Forced { tool, forced }))
        .map_err(force_answer)
    })
    .await
}

#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct EntryBody {
    /// The whole entry as the overrides file holds it (a name, an array of steps, or an object
    /// of `scenario`, `sequence`, `delay`, `fault`, `rate`); `null` clears it.
    #[schema(value_type = Option<Object>)]
    entry: Option<Value>,
}

/// A tool's entry as the overrides file now holds it; `null` when cleared.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct EntrySet {
    tool: String,
    #[schema(value_type = Option<Object>)]
    entry: Option<Value>,
}

/// Sets a tool's (or `*`'s) whole entry: sequences, delays, faults and rates, checked by the
/// engine's parser and against the tool's scenarios before anything is written.
#[utoipa::path(put, path = "/runs/{run}/scenarios/{tool}/entry", tag = "scenarios",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp"),
           ("tool" = String, Path, description = "The tool, or `*` for the default of every tool")),
    request_body = EntryBody,
    responses((status = 200, body = EntrySet),
              (status = 400, description = "The entry is not one the file can hold", body = ErrorBody),
              (status = 404, description = "An unknown tool or scenario; `known` lists the names", body = ErrorBody),
              (status = 409, description = "The overrides file is not valid", body = ErrorBody)))]
pub(crate) async fn set_entry(
    run: InRun,
    Path((_, tool)): Path<(String, String)>,
    JsonBody(body): JsonBody<EntryBody>,
) -> Result<Json<EntrySet>, ApiError> {
    blocking(move || {
        let config = run.engine.config();
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
        .map_err(force_answer)
    })
    .await
}

/// Clears the tool's entry (or `*`'s): back to normal selection, as `careem-mcp scenario <tool>`
/// alone does.
#[utoipa::path(delete, path = "/runs/{run}/scenarios/{tool}", tag = "scenarios",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp"),
           ("tool" = String, Path, description = "The tool, or `*` for the default of every tool")),
    responses((status = 200, body = EntrySet),
              (status = 404, description = "An unknown tool; `known` lists the names", body = ErrorBody),
              (status = 409, description = "The overrides file is not valid", body = ErrorBody)))]
pub(crate) async fn clear(
    run: InRun,
    Path((_, tool)): Path<(String, String)>,
) -> Result<Json<EntrySet>, ApiError> {
    blocking(move || {
        let config = run.engine.config();
        force::set(&config.tools_dir, &config.overrides, &tool, None)
            .map(|_| Json(EntrySet { tool, entry: None }))
            .map_err(force_answer)
    })
    .await
}
