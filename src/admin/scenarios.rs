//! `/runs/{run}/scenarios`: every tool's scenarios with their kind and which one is forced
//! now; forcing, setting whole entries (sequences, delays, faults, rates, the `*` default),
//! clearing and resetting through the engine's [`force`], as `careem-mcp scenario` and
//! `reset` do.

use axum::Json;
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::error::{ApiError, ErrorBody, JsonBody, blocking};
use super::run::InRun;
use super::words::force_answer;
use crate::engine::{
    Controls, DEFAULT_ENTRY, Fault, Step, absolute, catalog, did_you_mean, entry_notes, force,
    overrides, scenario_kind,
};

/// Every tool's scenarios and what the overrides file asks now: what `careem-mcp scenarios`
/// prints, and what the dashboard's `scenarios.js` and `controls.js` show.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ScenariosAnswer {
    /// The overrides file's path.
    pub overrides: String,
    /// Why the overrides file does not read, when it does not.
    pub problem: Option<String>,
    pub faults: Vec<String>,
    pub default: DefaultEntry,
    pub ignored: Vec<Ignored>,
    pub tools: Vec<ToolScenarios>,
    /// Every entry of the file in words (sequences, delays, faults) and those that cannot be
    /// used, with why, as `careem-mcp scenarios` lists them under `entries:`.
    pub notes: Vec<String>,
}

/// The `*` entry, the default for every tool.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DefaultEntry {
    #[schema(value_type = Option<Object>)]
    pub entry: Option<Value>,
    pub ignored: Option<String>,
}

/// An entry the engine skips, with the reason.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Ignored {
    pub tool: String,
    pub reason: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ToolScenarios {
    pub tool: String,
    pub domain: Option<String>,
    /// The tool's entry in the overrides file, as it stands there.
    #[schema(value_type = Option<Object>)]
    pub forced: Option<Value>,
    pub ignored: Option<String>,
    pub scenarios: Vec<ScenarioRow>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ScenarioRow {
    pub name: String,
    /// `default`, `match`, `forced-only`, `error` or `error-forced-only`.
    #[schema(value_type = String)]
    pub kind: scenario_kind::ScenarioKind,
    pub label: String,
    /// Its `json match` rule.
    #[schema(value_type = Option<Object>)]
    pub rule: Option<Value>,
    /// Its `jq when` condition, as the file writes it.
    pub when: Option<String>,
    /// Whether the tool's entry names this scenario.
    pub forced: bool,
    /// How the tool's entry forces it, in words (`always`, `step 2`), empty when it does not.
    pub forcing: String,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ScenariosQuery {
    /// Only this tool (and the `*` entry).
    tool: Option<String>,
}

/// Every tool's scenarios, the run's overrides entries and the entries the engine ignores.
#[utoipa::path(get, path = "/runs/{run}/scenarios", tag = "scenarios",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp"), ScenariosQuery),
    responses((status = 200, body = ScenariosAnswer),
              (status = 400, body = ErrorBody),
              (status = 404, description = "`tool` names no tool", body = ErrorBody)))]
pub(crate) async fn list(
    run: InRun,
    Query(query): Query<ScenariosQuery>,
) -> Result<Json<ScenariosAnswer>, ApiError> {
    blocking(move || {
        let config = run.engine.config();
        listing(&config.tools_dir, &config.overrides, query.tool.as_deref())
            .map(Json)
            .map_err(|refusal| ApiError::new(StatusCode::NOT_FOUND, refusal))
    })
    .await
}

/// The scenarios of the tools in `tools_dir` (only `only`'s, when named) and what the overrides
/// file at `overrides_path` asks of them: the API's answer and what `careem-mcp scenarios`
/// prints.
///
/// # Errors
///
/// `only` names no tool: the refusal in the CLI's words.
pub fn listing(
    tools_dir: &std::path::Path,
    overrides_path: &std::path::Path,
    only: Option<&str>,
) -> Result<ScenariosAnswer, String> {
    let loaded = catalog::load(tools_dir);
    let files: Vec<_> = loaded
        .tool_files()
        .filter(|f| only.is_none_or(|t| f.tool == t))
        .collect();
    if let Some(tool) = only
        && files.is_empty()
    {
        let hint = did_you_mean(tool, loaded.tool_files().map(|f| f.tool.as_str()));
        return Err(format!("unknown tool {tool:?}{hint}"));
    }
    // The strict read tells a file someone broke by hand from an empty one; the page says so
    // instead of showing "nothing forced".
    let (forced, problem) = match overrides::read_strict(overrides_path) {
        Ok(forced) => (forced, None),
        Err(error) => (
            overrides::read_lenient(overrides_path),
            Some(error.to_string()),
        ),
    };
    // Entries the engine skips (a bad delay typed by hand, a scenario key on `*`) show with
    // the reason, as `careem-mcp scenarios` shows them.
    let controls = Controls::from_overrides(&forced);
    let reason = |tool: &str| {
        controls
            .problems
            .iter()
            .find(|p| p.tool == tool)
            .map(|p| p.message.clone())
    };
    let tools: Vec<ToolScenarios> = files
        .iter()
        .map(|file| {
            // An entry is a scenario name, or a sequence / delay / fault (the CLI's controls):
            // every scenario it names shows as forced.
            let entry = forced.get(&file.tool);
            let control = controls.tool(&file.tool).map(|entry| &entry.control);
            let scenarios = scenario_kind::kinds(&file.scenarios)
                .into_iter()
                .map(|(scenario, kind)| {
                    let forcing = control
                        .map(|c| c.forcing(&scenario.name).to_string())
                        .unwrap_or_default();
                    ScenarioRow {
                        name: scenario.name.clone(),
                        kind,
                        label: kind.label().to_string(),
                        rule: scenario.rule.clone(),
                        when: scenario.when.as_ref().map(|when| when.source.clone()),
                        forced: !forcing.is_empty(),
                        forcing,
                    }
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
    Ok(ScenariosAnswer {
        overrides: absolute(overrides_path).display().to_string(),
        problem,
        faults: Fault::ALL.iter().map(|f| f.name().to_string()).collect(),
        default: DefaultEntry {
            entry: forced.get(DEFAULT_ENTRY).cloned(),
            ignored: reason(DEFAULT_ENTRY),
        },
        ignored: controls
            .problems
            .iter()
            .map(|p| Ignored {
                tool: p.tool.clone(),
                reason: p.message.clone(),
            })
            .collect(),
        notes: entry_notes(&controls, &files, only),
        tools,
    })
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
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct EntrySet {
    pub tool: String,
    #[schema(value_type = Option<Object>)]
    pub entry: Option<Value>,
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

/// The steps `careem-mcp scenario TOOL STEP… [--delay] [--fault] [--rate]` is given.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct StepsBody {
    /// Scenario names (one forces it on every call, several make a sequence) or `fault:KIND`.
    #[serde(default)]
    pub steps: Vec<String>,
    /// Applies to every call: `2s`, `200ms..1500ms`.
    #[serde(default)]
    pub delay: Option<String>,
    #[serde(default)]
    pub fault: Option<String>,
    #[serde(default)]
    pub rate: Option<f64>,
}

/// Sets the tool's entry from steps as `careem-mcp scenario` takes them, names checked and
/// spelled as the file spells them; no steps and no options clear it.
#[utoipa::path(put, path = "/runs/{run}/scenarios/{tool}/steps", tag = "scenarios",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp"),
           ("tool" = String, Path, description = "The tool, or `*` for the default of every tool")),
    request_body = StepsBody,
    responses((status = 200, body = EntrySet),
              (status = 400, description = "A delay, fault or rate that does not read", body = ErrorBody),
              (status = 404, description = "An unknown tool or scenario; `known` lists the names", body = ErrorBody),
              (status = 409, description = "The overrides file is not valid", body = ErrorBody)))]
pub(crate) async fn set_steps(
    run: InRun,
    Path((_, tool)): Path<(String, String)>,
    JsonBody(body): JsonBody<StepsBody>,
) -> Result<Json<EntrySet>, ApiError> {
    let bad = |why: String| ApiError::new(StatusCode::BAD_REQUEST, why);
    let each = Step {
        scenario: None,
        delay: body
            .delay
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(bad)?,
        fault: body
            .fault
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(bad)?,
        rate: body.rate,
    };
    blocking(move || {
        let config = run.engine.config();
        force::set_steps(
            &config.tools_dir,
            &config.overrides,
            &tool,
            &body.steps,
            each,
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
