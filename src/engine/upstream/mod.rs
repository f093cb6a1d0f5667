//! Staying true to production: what it advertises against the project (`drift`), the tool
//! files brought in line with it, and its answers written as scenarios (`record`), each file
//! written whole or not at all.

pub mod drift;
pub mod drift_write;
pub(super) mod recording;

use std::path::Path;

use serde_json::{Map, Value};

use super::Engine;
use super::call::Unjournalled;
use super::origin::Origin;
use super::output::{self, CallOutput, Decision, JsonShape, Recorded};
use recording::{RecordOptions, Recording, Stored};

/// One call an upstream answered (or failed to), as `careem-mcp record` hands it to the engine.
#[derive(Debug, Clone, Copy)]
pub struct UpstreamCall<'a> {
    pub origin: Origin,
    pub session: Option<&'a str>,
    pub tool: &'a str,
    /// The arguments as the agent sent them.
    pub arguments: &'a Map<String, Value>,
    pub answer: UpstreamAnswer<'a>,
    pub micros: u64,
}

/// What the upstream sent back for a call.
#[derive(Debug, Clone, Copy)]
pub enum UpstreamAnswer<'a> {
    /// A `tools/call` result.
    Result {
        /// Its value: its `structuredContent`, or its text when that is JSON.
        value: Option<&'a Value>,
        /// Its text content.
        text: &'a str,
        is_error: bool,
    },
    /// No result: a JSON-RPC error, or no answer at all; the words say which.
    Failed(&'a str),
}

impl Engine {
    /// `careem-mcp record`: an upstream's answer to a call, written as a scenario of the tool's
    /// file (under `into` when given, a copy kept apart), or found there already; then the call
    /// is logged and journalled as the upstream's. An answer that cannot be a scenario (not
    /// JSON, an error, or a tool without a file) is `Skipped`, with the reason in the log.
    pub fn record_upstream(
        &self,
        call: &UpstreamCall<'_>,
        options: &RecordOptions,
        into: Option<&Path>,
    ) -> Recorded {
        let recorded = self.store(call, options, into);
        let received = Value::Object(call.arguments.clone());
        let (value, text, is_error) = match call.answer {
            UpstreamAnswer::Result { text, is_error, .. } => {
                let (value, text) = journalled(text);
                (value, text, is_error)
            }
            UpstreamAnswer::Failed(why) => (None, why.to_string(), true),
        };
        let output = CallOutput {
            tool: call.tool.to_string(),
            arguments: received.clone(),
            received,
            decision: Decision::Upstream(recorded.clone()),
            json: value.as_ref().map(|value| JsonShape::of(value.is_object())),
            value,
            text,
            kept: None,
            is_error,
            micros: call.micros,
            step: None,
            delay_ms: 0,
        };
        output::log(&output);
        self.journal(Unjournalled {
            output,
            origin: call.origin,
            session: call.session.map(str::to_string),
        });
        recorded
    }

    /// The answer written as a scenario, when it can be one.
    fn store(
        &self,
        call: &UpstreamCall<'_>,
        options: &RecordOptions,
        into: Option<&Path>,
    ) -> Recorded {
        let Some(tool) = self.tool(call.tool) else {
            tracing::warn!(
                tool = call.tool,
                "not recorded: the project has no file for this tool"
            );
            return Recorded::Skipped;
        };
        let (answer, is_error) = match call.answer {
            UpstreamAnswer::Result {
                value: Some(value),
                is_error,
                ..
            } => (value, is_error),
            UpstreamAnswer::Result { value: None, .. } => {
                tracing::warn!(tool = call.tool, "not recorded: the answer is not JSON");
                return Recorded::Skipped;
            }
            UpstreamAnswer::Failed(_) => {
                tracing::warn!(
                    tool = call.tool,
                    "not recorded: the upstream gave no result"
                );
                return Recorded::Skipped;
            }
        };
        let relative = tool
            .path
            .strip_prefix(&self.config.tools_dir)
            .unwrap_or(&tool.path);
        let target = into.map_or_else(|| tool.path.clone(), |dir| dir.join(relative));
        let recording = Recording {
            tool: call.tool,
            arguments: call.arguments,
            answer,
            is_error,
            now: self.now(),
        };
        match recording::record(&tool.path, &target, &recording, options) {
            Ok(Stored::Written { scenario, .. }) => Recorded::New(scenario),
            Ok(Stored::Known { scenario, .. }) => Recorded::Known(scenario),
            Err(error) => {
                tracing::warn!(tool = call.tool, "not recorded: {error}");
                Recorded::Skipped
            }
        }
    }
}

/// An upstream's text as the journal holds it in `result`: when the text is JSON, its value and
/// that value's compact JSON, which the journal writes as it stands; otherwise no value and the
/// text, which the journal writes as a JSON string. The upstream's text is never written as it
/// came: a text that is not JSON, or is JSON over several lines, would end the line, make it
/// invalid, or add lines of its own.
fn journalled(text: &str) -> (Option<Value>, String) {
    match serde_json::from_str::<Value>(text) {
        Ok(value) => {
            let compact = value.to_string();
            (Some(value), compact)
        }
        Err(_) => (None, text.to_string()),
    }
}
