//! `POST /api/call`: one call run in process as `careem-mcp call` runs it
//! ([`crate::engine::Engine::call_recorded`]), journalled as made from the dashboard, answered
//! with the MCP result a client would get (shaped by the server's own [`call_result_json`]) and
//! the scenario that produced it.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{ApiError, blocking};
use crate::dashboard::Dashboard;
use crate::engine::Decision;
use crate::server::call_result_json;

#[derive(Debug, Deserialize)]
pub(super) struct CallBody {
    tool: String,
    #[serde(default)]
    arguments: Option<Map<String, Value>>,
    /// Forces this scenario for this call alone, as `call --scenario`.
    #[serde(default)]
    scenario: Option<String>,
}

pub(super) async fn run(
    State(dashboard): State<Dashboard>,
    Json(body): Json<CallBody>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let engine = &dashboard.engine;
        let output = engine
            .call_recorded(
                "dashboard",
                &body.tool,
                body.arguments,
                body.scenario.as_deref().filter(|s| !s.is_empty()),
            )
            .map_err(|unknown| ApiError {
                known: engine.tools().map(|t| t.name.clone()).collect(),
                ..ApiError::new(StatusCode::NOT_FOUND, unknown.to_string())
            })?;
        let decision = match &output.decision {
            Decision::Scenario { .. } => "scenario",
            Decision::InvalidArguments => "invalid arguments",
            Decision::InternalError => "internal error",
            Decision::UnknownTool => "unknown tool",
            Decision::Fault(_) => "fault",
            Decision::Upstream(_) => "upstream",
        };
        let (scenario, forced) = output.scenario().map_or((None, false), |(name, forced)| {
            (Some(name.to_string()), forced)
        });
        let arguments = output.arguments.clone();
        let micros = output.micros;
        Ok(Json(json!({
            "scenario": scenario,
            "forced": forced,
            "decision": decision,
            "arguments": arguments,
            "micros": micros,
            "result": call_result_json(output),
        })))
    })
    .await
}
