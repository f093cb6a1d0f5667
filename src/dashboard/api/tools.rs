//! `/api/tools`: each tool's definition as its file declares it (what `tools/list` carries,
//! unless `serve` was told to leave `outputSchema` or `_meta` out) and the problems `lint`
//! finds in its file.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::admin::{ApiError, blocking};
use crate::dashboard::Dashboard;
use crate::engine::{Diagnostic, lint};

/// Every tool with its definition and lint findings (`tools.js`, `try.js`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ToolsAnswer {
    tools: Vec<ToolRow>,
    /// Problems of files that name no tool, or of the folder itself.
    other_problems: Vec<Finding>,
}

#[derive(Debug, Serialize)]
struct ToolRow {
    name: String,
    domain: Option<String>,
    path: String,
    definition: Map<String, Value>,
    problems: Vec<Finding>,
}

/// One lint problem, with its one-line rendering.
#[derive(Debug, Serialize)]
struct Finding {
    path: String,
    line: usize,
    scenario: Option<String>,
    message: String,
    text: String,
}

pub(super) async fn list(
    State(dashboard): State<Dashboard>,
) -> Result<Json<ToolsAnswer>, ApiError> {
    blocking(move || {
        let engine = dashboard.admin.runs().default_engine();
        let linted = lint::tool_files(engine.config().clone());
        let mut problems = linted.problems;
        let tools = linted
            .loaded
            .tool_files()
            .map(|file| {
                let (mine, rest) = problems.drain(..).partition(|p| p.path == file.path);
                problems = rest;
                ToolRow {
                    name: file.tool.clone(),
                    domain: file.domain.clone(),
                    path: file.path.display().to_string(),
                    definition: file.definition.clone(),
                    problems: findings(&mine),
                }
            })
            .collect();
        Ok(Json(ToolsAnswer {
            tools,
            other_problems: findings(&problems),
        }))
    })
    .await
}

fn findings(problems: &[Diagnostic]) -> Vec<Finding> {
    problems
        .iter()
        .map(|p| Finding {
            path: p.path.display().to_string(),
            line: p.line,
            scenario: p.scenario.clone(),
            message: p.message.clone(),
            text: p.to_string(),
        })
        .collect()
}
