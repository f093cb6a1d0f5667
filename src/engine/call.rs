//! The `tools/call` path of SPEC §3 minus the transport: defaults, validation, a fresh read of
//! the tool's file, selection, rendering and the result shape.

use std::time::Instant;

use serde_json::{Map, Value};

use super::Engine;
use super::arguments;
use super::controls::Fault;
use super::plan::Plan;
use super::select::select;
use super::toolfile::Outcome;

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
    /// The rendered value, when a scenario answered.
    pub value: Option<Value>,
    /// The one text content item: the compact JSON of `value`, or an error message.
    pub text: String,
    pub is_error: bool,
    pub micros: u64,
    /// The step of the tool's sequence this call was, counted from 0.
    pub step: Option<usize>,
    /// How long the call waited before it was answered, as the overrides file asked.
    pub delay_ms: u64,
}

impl CallOutput {
    /// What a call of a tool that does not exist amounts to, for the journal.
    pub fn unknown_tool(tool: &str, arguments: Option<Map<String, Value>>) -> Self {
        let received = arguments::normalise(arguments);
        Self {
            tool: tool.to_string(),
            arguments: received.clone(),
            received,
            decision: Decision::UnknownTool,
            value: None,
            text: UnknownTool(tool.to_string()).to_string(),
            is_error: true,
            micros: 0,
            step: None,
            delay_ms: 0,
        }
    }

    /// A call that `fault` answered, after the plan's delay, with no scenario.
    pub fn faulted(
        tool: &str,
        arguments: Option<Map<String, Value>>,
        plan: &Plan,
        fault: Fault,
    ) -> Self {
        let received = arguments::normalise(arguments);
        Self {
            tool: tool.to_string(),
            arguments: received.clone(),
            received,
            decision: Decision::Fault(fault),
            value: None,
            text: fault.name().to_string(),
            is_error: true,
            micros: 0,
            step: plan.step,
            delay_ms: u64::try_from(plan.delay.as_millis()).unwrap_or(u64::MAX),
        }
    }

    /// The fault that answered the call, if one did.
    pub fn fault(&self) -> Option<Fault> {
        match self.decision {
            Decision::Fault(fault) => Some(fault),
            _ => None,
        }
    }

    /// `structuredContent`: the value, whenever it is a JSON object.
    pub fn structured(&self) -> Option<&Map<String, Value>> {
        self.value.as_ref().and_then(Value::as_object)
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

impl Engine {
    /// Answers a call as the in-process session would: the overrides file's scenario (or step
    /// of a sequence) applies; its delays and faults are the server's to act on.
    pub fn call(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
    ) -> Result<CallOutput, UnknownTool> {
        self.call_with(name, arguments, None)
    }

    /// A call made from outside MCP (`careem-mcp call`, the dashboard's "try a call"): answered
    /// as [`Engine::call_with`] answers it, then journalled under `transport`.
    pub fn call_recorded(
        &self,
        transport: &str,
        name: &str,
        arguments: Option<Map<String, Value>>,
        force: Option<&str>,
    ) -> Result<CallOutput, UnknownTool> {
        let output = self.call_with(name, arguments, force)?;
        self.record(transport, None, &output);
        Ok(output)
    }

    /// As [`Engine::call`], with a scenario forced for this call alone (the CLI's `--scenario`).
    pub fn call_with(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
        force: Option<&str>,
    ) -> Result<CallOutput, UnknownTool> {
        if !self.tools.contains_key(name) {
            return Err(UnknownTool(name.to_string()));
        }
        let plan = match force {
            Some(scenario) => Plan::forced(scenario),
            None => self.plan(name, None),
        };
        self.call_planned(name, arguments, &plan)
    }

    /// Answers a call with the scenario `plan` forces (normal selection without one), and
    /// records its step and delay. The plan's fault, if any, is not the engine's to fire.
    pub fn call_planned(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
        plan: &Plan,
    ) -> Result<CallOutput, UnknownTool> {
        let started = Instant::now();
        let tool = self
            .tools
            .get(name)
            .ok_or_else(|| UnknownTool(name.to_string()))?;
        let received = arguments::normalise(arguments);
        let mut args = received.clone();
        arguments::apply_defaults(&tool.input_schema, &mut args);
        let mut output = CallOutput {
            tool: name.to_string(),
            received,
            arguments: args,
            decision: Decision::InternalError,
            value: None,
            text: INTERNAL_ERROR.to_string(),
            is_error: true,
            micros: 0,
            step: plan.step,
            delay_ms: u64::try_from(plan.delay.as_millis()).unwrap_or(u64::MAX),
        };
        if let Err(message) =
            arguments::validate(&tool.input_schema, &tool.input_validator, &output.arguments)
        {
            output.decision = Decision::InvalidArguments;
            output.text = message;
        } else {
            self.answer(&tool.path, plan.scenario.as_deref(), &mut output);
        }
        output.micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        log(&output);
        Ok(output)
    }

    fn answer(&self, path: &std::path::Path, force: Option<&str>, output: &mut CallOutput) {
        let parsed = match self.cache.get(path) {
            Ok(parsed) => parsed,
            Err(error) => {
                tracing::error!(tool = %output.tool, path = %path.display(), "cannot read the tool file: {error}");
                return;
            }
        };
        if !parsed.diagnostics.is_empty() || parsed.file.tool != output.tool {
            for diagnostic in &parsed.diagnostics {
                tracing::error!(tool = %output.tool, "{diagnostic}");
            }
            if parsed.file.tool != output.tool {
                tracing::error!(tool = %output.tool, path = %path.display(), "the file now names tool {:?}", parsed.file.tool);
            }
            return;
        }
        let Some(selection) = select(&parsed.file.scenarios, &output.arguments, force) else {
            tracing::error!(tool = %output.tool, "the file has no default scenario");
            return;
        };
        let scenario = selection.scenario;
        output.decision = Decision::Scenario {
            name: scenario.name.clone(),
            forced: selection.forced,
        };
        match self.render_with_text(scenario, &output.arguments) {
            Ok((value, text)) => {
                output.text = text;
                output.is_error = scenario.outcome == Outcome::Error;
                output.value = Some(value);
            }
            Err(error) => {
                tracing::error!(tool = %output.tool, scenario = %scenario.name, path = %path.display(), "{error}");
                output.decision = Decision::InternalError;
            }
        }
    }
}

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
        Decision::Fault(fault) => format!("<fault {fault}>"),
    };
    let mut controls = String::new();
    if let Some(step) = output.step {
        controls.push_str(&format!(" step={}", step + 1));
    }
    if output.delay_ms > 0 {
        controls.push_str(&format!(" delay={}ms", output.delay_ms));
    }
    let arguments = output.arguments.to_string();
    let arguments = super::clip::clip(&arguments, super::clip::LOG_LIMIT);
    tracing::info!(target: "careem_mcp::call", "{} scenario={scenario}{controls} args={arguments}", output.tool);
}
