//! `/api/tools`: each tool's definition as its file declares it (what `tools/list` carries,
//! unless `serve` was told to leave `outputSchema` or `_meta` out) and the problems `lint`
//! finds in its file.

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use super::{ApiError, blocking};
use crate::dashboard::Dashboard;
use crate::engine::{Diagnostic, lint};

pub(super) async fn list(State(dashboard): State<Dashboard>) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let linted = lint::tool_files(dashboard.engine.config().clone());
        let mut problems = linted.problems;
        let tools: Vec<Value> = linted
            .loaded
            .tool_files()
            .map(|file| {
                let (mine, rest) = problems.drain(..).partition(|p| p.path == file.path);
                problems = rest;
                json!({
                    "name": file.tool,
                    "domain": file.domain,
                    "path": file.path.display().to_string(),
                    "definition": file.definition,
                    "problems": findings(&mine),
                })
            })
            .collect();
        // Problems of files that name no tool, or of the folder itself.
        Ok(Json(
            json!({"tools": tools, "otherProblems": findings(&problems)}),
        ))
    })
    .await
}

fn findings(problems: &[Diagnostic]) -> Vec<Value> {
    problems
        .iter()
        .map(|p| {
            json!({
                "path": p.path.display().to_string(),
                "line": p.line,
                "scenario": p.scenario,
                "message": p.message,
                "text": p.to_string(),
            })
        })
        .collect()
}
