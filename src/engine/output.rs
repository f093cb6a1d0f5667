//! The engine's answer to one call, free of any protocol type: what decided it, the value and
//! its text, and the one log line per call. The server, `careem-mcp call`, the dashboard and the
//! journal all read this shape; [`super::Engine::answer`] makes it.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::clip::{LOG_LIMIT, NAME_LIMIT, clip};
use super::controls::entries::Fault;
use super::controls::plan::Plan;
use super::select::arguments;
use super::world::Computed;

/// The only text a client sees when something inside went wrong; details go to the log.
pub const INTERNAL_ERROR: &str = "internal server error";

/// What decided the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Scenario {
        name: String,
        forced: bool,
    },
    InvalidArguments,
    InternalError,
    UnknownTool,
    /// A fault of the overrides file answered instead of a scenario.
    Fault(Fault),
    /// The upstream answered (`careem-mcp record`), and this became of its answer.
    Upstream(Recorded),
    /// Taken in, then cut before it was answered: by a shutdown, or by the client's
    /// cancellation while the call waited its delay.
    Cancelled,
}

/// What `careem-mcp record` did with an upstream's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// Written as a new scenario of this name.
    New(String),
    /// The file holds this scenario for the same match already.
    Known(String),
    /// Not written: the answer cannot be a scenario (it is not JSON, say).
    Skipped,
}

impl Recorded {
    /// The journal's word for it.
    pub fn word(&self) -> &'static str {
        match self {
            Self::New(_) => "new",
            Self::Known(_) => "known",
            Self::Skipped => "skipped",
        }
    }

    pub fn scenario(&self) -> Option<&str> {
        match self {
            Self::New(name) | Self::Known(name) => Some(name),
            Self::Skipped => None,
        }
    }
}

/// What kind of thing decided the answer, as the dashboard names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum DecisionKind {
    #[serde(rename = "scenario")]
    Scenario,
    #[serde(rename = "invalid arguments")]
    InvalidArguments,
    #[serde(rename = "internal error")]
    InternalError,
    #[serde(rename = "unknown tool")]
    UnknownTool,
    #[serde(rename = "fault")]
    Fault,
    #[serde(rename = "upstream")]
    Upstream,
    #[serde(rename = "cancelled")]
    Cancelled,
}

impl Decision {
    pub fn kind(&self) -> DecisionKind {
        match self {
            Self::Scenario { .. } => DecisionKind::Scenario,
            Self::InvalidArguments => DecisionKind::InvalidArguments,
            Self::InternalError => DecisionKind::InternalError,
            Self::UnknownTool => DecisionKind::UnknownTool,
            Self::Fault(_) => DecisionKind::Fault,
            Self::Upstream(_) => DecisionKind::Upstream,
            Self::Cancelled => DecisionKind::Cancelled,
        }
    }
}

/// Whether a scenario's value is an object: MCP's `structuredContent` is sent only for one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonShape {
    Object,
    Other,
}

impl JsonShape {
    pub(super) fn of(object: bool) -> Self {
        if object { Self::Object } else { Self::Other }
    }
}

/// What a caller needs of a scenario's answer. The value is as large as the answer and costs
/// most of a render to build; a caller that sends the text as it stands does without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rendering {
    /// The value and its text.
    Value,
    /// The text alone ([`CallOutput::value`] stays `None`).
    Text,
}

/// The engine's answer to one call, free of any protocol type.
#[derive(Debug, Clone)]
pub struct CallOutput {
    pub tool: String,
    /// The arguments as the client sent them.
    pub received: Value,
    /// The arguments after `inputSchema` defaults.
    pub arguments: Value,
    pub decision: Decision,
    /// The rendered value, when a scenario answered and the caller asked for it
    /// ([`Rendering::Value`]).
    pub value: Option<Value>,
    /// Set when `text` is a value's compact JSON, whether or not `value` was built: a
    /// scenario's render, or an upstream's JSON text written again. The journal writes such a
    /// text as it stands, so it is never set for a text that came from outside.
    pub json: Option<JsonShape>,
    /// The one text content item: the compact JSON of the value, or an error message.
    pub text: String,
    /// The kept value the text was written from, shared by the calls it answers: the server
    /// keeps the result's bytes under it, so a repeated call is not written again.
    pub kept: Option<Arc<Computed>>,
    pub is_error: bool,
    pub micros: u64,
    /// The step of the tool's sequence this call was, counted from 0.
    pub step: Option<usize>,
    /// How long the call waited before it was answered, as the overrides file asked.
    pub delay_ms: u64,
}

impl CallOutput {
    /// An answer with no value: an error until a scenario answers, at the plan's step and delay.
    pub(super) fn unanswered(
        tool: &str,
        received: Value,
        arguments: Value,
        decision: Decision,
        text: String,
        plan: Option<&Plan>,
    ) -> Self {
        Self {
            tool: tool.to_string(),
            received,
            arguments,
            decision,
            value: None,
            json: None,
            text,
            kept: None,
            is_error: true,
            micros: 0,
            step: plan.and_then(|plan| plan.step),
            delay_ms: plan.map_or(0, |plan| {
                u64::try_from(plan.delay.as_millis()).unwrap_or(u64::MAX)
            }),
        }
    }

    /// What a call of a tool that does not exist amounts to, for the journal: its text names
    /// the tool clipped, as the journal's `tool` field does.
    pub fn unknown_tool(tool: &str, arguments: Option<Map<String, Value>>) -> Self {
        let received = arguments::normalise(arguments);
        let text = UnknownTool(clip(tool, NAME_LIMIT).into_owned()).to_string();
        Self::unanswered(
            tool,
            received.clone(),
            received,
            Decision::UnknownTool,
            text,
            None,
        )
    }

    /// A call that `fault` answered, after the plan's delay, with no scenario.
    pub fn faulted(
        tool: &str,
        arguments: Option<Map<String, Value>>,
        plan: &Plan,
        fault: Fault,
    ) -> Self {
        let received = arguments::normalise(arguments);
        let (decision, text) = (Decision::Fault(fault), fault.name().to_string());
        Self::unanswered(tool, received.clone(), received, decision, text, Some(plan))
    }

    /// A call cut before it was answered, at the plan's step and delay.
    pub fn cancelled(tool: &str, arguments: Option<Map<String, Value>>, plan: &Plan) -> Self {
        let received = arguments::normalise(arguments);
        let text = "cancelled".to_string();
        Self::unanswered(
            tool,
            received.clone(),
            received,
            Decision::Cancelled,
            text,
            Some(plan),
        )
    }

    /// What became of an upstream's answer, when one answered.
    pub fn recorded(&self) -> Option<&Recorded> {
        match &self.decision {
            Decision::Upstream(recorded) => Some(recorded),
            _ => None,
        }
    }

    /// What cut the call short, for the journal's `outcome`: `cancelled`, or nothing.
    pub fn outcome(&self) -> Option<&'static str> {
        (self.decision == Decision::Cancelled).then_some("cancelled")
    }

    /// The fault that answered the call, if one did.
    pub fn fault(&self) -> Option<Fault> {
        match self.decision {
            Decision::Fault(fault) => Some(fault),
            _ => None,
        }
    }

    /// Records a scenario's rendered text, and its value when one was built.
    pub(super) fn rendered(&mut self, text: String, object: bool, value: Option<Value>) {
        self.text = text;
        self.json = Some(JsonShape::of(object));
        self.value = value;
        self.kept = None;
    }

    pub fn scenario(&self) -> Option<(&str, bool)> {
        match &self.decision {
            Decision::Scenario { name, forced } => Some((name, *forced)),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tool {0:?}")]
pub struct UnknownTool(pub String);

/// SPEC §5: one line per call with the tool, the scenario (marked when forced) and the
/// compact arguments (clipped to about 1 KB); the step, delay and fault when the overrides file set them.
pub(super) fn log(output: &CallOutput) {
    let scenario = match &output.decision {
        Decision::Scenario { name, forced: true } => format!("{name} (forced)"),
        Decision::Scenario {
            name,
            forced: false,
        } => name.clone(),
        Decision::InvalidArguments => "<invalid arguments>".to_string(),
        Decision::InternalError => "<internal error>".to_string(),
        Decision::UnknownTool => "<unknown tool>".to_string(),
        Decision::Cancelled => "<cancelled>".to_string(),
        Decision::Fault(fault) => format!("<fault {fault}>"),
        Decision::Upstream(recorded) => format!(
            "<upstream, recorded {}{}>",
            recorded.word(),
            recorded
                .scenario()
                .map(|name| format!(" {name}"))
                .unwrap_or_default()
        ),
    };
    let mut controls = String::new();
    if let Some(step) = output.step {
        controls.push_str(&format!(" step={}", step + 1));
    }
    if output.delay_ms > 0 {
        controls.push_str(&format!(
            " delay={}",
            super::duration::delay_words(output.delay_ms)
        ));
    }
    let arguments = output.arguments.to_string();
    let arguments = clip(&arguments, LOG_LIMIT);
    let tool = clip(&output.tool, NAME_LIMIT);
    tracing::info!(target: "careem_mcp::call", "{tool} scenario={scenario}{controls} args={arguments}");
}
