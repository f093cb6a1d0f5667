//! `POST /api/runs/{run}/call`: one call run in process as `careem-mcp call` runs it
//! ([`crate::engine::Engine::answer`]), journalled as made from the dashboard, answered
//! with the MCP result a client would get
//! ([`crate::server::result_json`], shaped as the server shapes it) and the
//! scenario that produced it.

use axum::Json;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::admin::{ApiError, InRun, blocking};
use crate::engine::{CallRequest, Decision, DecisionKind, Origin, Planning, UnknownTool};

#[derive(Debug, Deserialize)]
pub(super) struct CallBody {
    tool: String,
    #[serde(default)]
    arguments: Option<Map<String, Value>>,
    /// Forces this scenario for this call alone, as `call --scenario`.
    #[serde(default)]
    scenario: Option<String>,
}

/// What the page shows of a call (`try.js`).
#[derive(Debug, Serialize)]
pub(super) struct CallAnswer {
    scenario: Option<String>,
    forced: bool,
    decision: DecisionKind,
    /// The arguments after `inputSchema` defaults.
    arguments: Value,
    micros: u64,
    /// The MCP result a client would get.
    result: Value,
}

pub(super) async fn run(
    run: InRun,
    Json(body): Json<CallBody>,
) -> Result<Json<CallAnswer>, ApiError> {
    blocking(move || {
        let engine = &run.engine;
        let mut request = CallRequest::new(Origin::Dashboard, &body.tool, body.arguments);
        if let Some(scenario) = body.scenario.filter(|s| !s.is_empty()) {
            request.planning = Planning::Forced(scenario);
        }
        let output = engine.answer(&request);
        if output.decision == Decision::UnknownTool {
            return Err(
                ApiError::new(StatusCode::NOT_FOUND, UnknownTool(body.tool).to_string())
                    .offering(engine.tools().map(|t| t.name.clone()).collect()),
            );
        }
        let (scenario, forced) = output.scenario().map_or((None, false), |(name, forced)| {
            (Some(name.to_string()), forced)
        });
        Ok(Json(CallAnswer {
            scenario,
            forced,
            decision: output.decision.kind(),
            arguments: output.arguments.clone(),
            micros: output.micros,
            result: crate::server::result_json(&output),
        }))
    })
    .await
}
