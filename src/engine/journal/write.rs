//! The call journal: one JSON line per tool call, so that an agent's test suite can assert on
//! what the agent actually did. Written whole-line under a lock, never read by the server.

use std::borrow::Cow;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::file::{DEFAULT_MAX_SIZE, JournalFile, JournalStatus};
use crate::engine::clip::{JOURNAL_LIMIT, NAME_LIMIT, clip};
use crate::engine::origin::Origin;
use crate::engine::output::{CallOutput, Decision, Recorded};

/// One journal line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub time: String,
    pub transport: String,
    pub session: Option<String>,
    pub tool: String,
    pub scenario: Option<String>,
    pub forced: bool,
    pub received: Value,
    pub arguments: Value,
    pub is_error: bool,
    pub micros: u64,
    /// The step of the tool's sequence, counted from 1, when the overrides file set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// The delay the overrides file applied before the answer, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_ms: Option<u64>,
    /// The fault that answered instead of a scenario.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
    /// Set when an upstream answered (`careem-mcp record`): `new` (written as `scenario`),
    /// `known` (the file had `scenario` already) or `skipped`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded: Option<String>,
    /// `cancelled` when the call was cut before it was answered (a shutdown, the client's
    /// cancellation during its delay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    pub result: Value,
}

impl Entry {
    /// The entry of a call: the reference that [`call_line`]'s bytes are held to.
    #[cfg(test)]
    pub fn new(transport: Origin, session: Option<String>, output: &CallOutput) -> Self {
        let (scenario, forced) = match &output.decision {
            Decision::Scenario { name, forced } => (Some(name.clone()), *forced),
            Decision::Upstream(recorded) => (recorded.scenario().map(str::to_string), false),
            _ => (None, false),
        };
        Self {
            time: now(),
            transport: transport.to_string(),
            session,
            tool: clip(&output.tool, NAME_LIMIT).into_owned(),
            scenario,
            forced,
            received: output.received.clone(),
            arguments: output.arguments.clone(),
            is_error: output.is_error,
            micros: output.micros,
            step: output.step.map(|step| step + 1),
            delay_ms: (output.delay_ms > 0).then_some(output.delay_ms),
            fault: output.fault().map(|fault| fault.name().to_string()),
            recorded: output.recorded().map(|r| r.word().to_string()),
            outcome: output.outcome().map(str::to_string),
            result: match (&output.value, output.json) {
                (Some(value), _) => value.clone(),
                (None, Some(_)) => serde_json::from_str(&output.text)
                    .unwrap_or_else(|_| Value::String(output.text.clone())),
                (None, None) => Value::String(output.text.clone()),
            },
        }
    }
}

/// The mark a writer leaves where it lost lines: `lost` calls before `time` could not be
/// journalled (a full disk, a folder that was gone). Written with the next line that can be,
/// so that `calls` shows the gap instead of hiding it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gap {
    pub time: String,
    pub lost: u64,
}

/// An [`Entry`] borrowed from the call: the same fields, names and order, so that
/// [`Journal::append_call`] writes the line `serde_json::to_vec(&Entry::new(…))` would, without
/// copying the call's values.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Head<'a> {
    time: String,
    transport: &'a str,
    session: Option<&'a str>,
    tool: Cow<'a, str>,
    scenario: Option<&'a str>,
    forced: bool,
    received: Cow<'a, Value>,
    arguments: Cow<'a, Value>,
    is_error: bool,
    micros: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    delay_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fault: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    recorded: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'static str>,
}

/// The value, or when its JSON is longer than [`JOURNAL_LIMIT`], a string of its first bytes
/// and its length, so that a 4 MiB argument costs a line of journal, not megabytes.
fn bounded(value: &Value) -> Cow<'_, Value> {
    let text = value.to_string();
    if text.len() <= JOURNAL_LIMIT {
        return Cow::Borrowed(value);
    }
    Cow::Owned(Value::String(clip(&text, JOURNAL_LIMIT).into_owned()))
}

/// The journal line of a call, as `serde_json::to_vec(&Entry::new(…))` would write it at
/// `time`: the head's fields, then the result, last. Every field is the JSON of its value. When
/// the text is a value's compact JSON (`CallOutput::json`: a scenario's render, or an upstream's
/// JSON text the engine wrote again), that is what `result` holds: it goes in as it stands,
/// neither serialised again nor parsed to be checked. Otherwise, or when it is too long to keep
/// whole, the result is the text as a JSON string, so that no text can end the line or add one.
fn call_line(
    time: String,
    transport: Origin,
    session: Option<&str>,
    output: &CallOutput,
) -> Vec<u8> {
    let (scenario, forced) = match &output.decision {
        Decision::Scenario { name, forced } => (Some(name.as_str()), *forced),
        Decision::Upstream(recorded) => (recorded.scenario(), false),
        _ => (None, false),
    };
    let head = Head {
        time,
        transport: transport.as_str(),
        session,
        tool: clip(&output.tool, NAME_LIMIT),
        scenario,
        forced,
        received: bounded(&output.received),
        arguments: bounded(&output.arguments),
        is_error: output.is_error,
        micros: output.micros,
        step: output.step.map(|step| step + 1),
        delay_ms: (output.delay_ms > 0).then_some(output.delay_ms),
        fault: output
            .fault()
            .map(crate::engine::controls::entries::Fault::name),
        recorded: output.recorded().map(Recorded::word),
        outcome: output.outcome(),
    };
    let mut line = Vec::with_capacity(output.text.len() + 512);
    serde_json::to_writer(&mut line, &head).expect("a journal entry serialises");
    // The head is an object with fields: its closing brace goes after the result.
    line.pop();
    line.extend_from_slice(b",\"result\":");
    match clip(&output.text, JOURNAL_LIMIT) {
        Cow::Borrowed(json) if output.json.is_some() => line.extend_from_slice(json.as_bytes()),
        text => serde_json::to_writer(&mut line, &text).expect("a string serialises"),
    }
    line.push(b'}');
    line
}

fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}

#[derive(Debug)]
pub struct Journal {
    file: JournalFile,
    /// Calls whose lines could not be written since the last line that could.
    lost: AtomicU64,
}

impl Journal {
    /// Opens the journal with the default bound on its size.
    pub fn open(path: &Path) -> std::io::Result<Self> {
        Self::open_with_max_size(path, DEFAULT_MAX_SIZE)
    }

    /// Opens the journal, rotating it once it would pass `max_size` bytes.
    pub fn open_with_max_size(path: &Path, max_size: u64) -> std::io::Result<Self> {
        Ok(Self::of(JournalFile::open(path, max_size)?))
    }

    /// Opens the journal as [`Journal::open_with_max_size`] does, but one that cannot be opened
    /// now is tried again on each call; the error is returned beside it.
    pub fn open_retrying(path: &Path, max_size: u64) -> (Self, Option<std::io::Error>) {
        let (file, error) = JournalFile::open_retrying(path, max_size);
        (Self::of(file), error)
    }

    /// As [`Journal::open_with_max_size`], but nothing is made on disk (no file, no folder)
    /// until the first call is journalled.
    pub fn deferred(path: &Path, max_size: u64) -> Self {
        Self::of(JournalFile::deferred(path, max_size))
    }

    fn of(file: JournalFile) -> Self {
        Self {
            file,
            lost: AtomicU64::new(0),
        }
    }

    /// The lines to write for a call: its own, after a [`Gap`] when lines were lost before
    /// it; and how many lost calls that gap counts.
    fn with_gap(&self, call: Vec<u8>) -> (u64, Vec<u8>) {
        let lost = self.lost.swap(0, Ordering::Relaxed);
        if lost == 0 {
            return (0, call);
        }
        let gap = Gap { time: now(), lost };
        let mut lines = serde_json::to_vec(&gap).expect("a gap serialises");
        lines.push(b'\n');
        lines.extend_from_slice(&call);
        (lost, lines)
    }

    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The size past which the journal rotates.
    pub fn max_size(&self) -> u64 {
        self.file.max_size()
    }

    /// Whether the file is open now, or why not.
    pub fn status(&self) -> JournalStatus {
        self.file.status()
    }

    /// Appends a call as one line in one write: `Entry::new(transport, session, output)` as
    /// JSON.
    pub fn append_call(
        &self,
        transport: Origin,
        session: Option<&str>,
        output: &CallOutput,
    ) -> std::io::Result<()> {
        let mut line = call_line(now(), transport, session, output);
        line.push(b'\n');
        let (gap, lines) = self.with_gap(line);
        let written = self.file.write_line(&lines);
        if written.is_err() {
            // This call's line is lost too, and so is the gap that went with it.
            self.lost.fetch_add(gap + 1, Ordering::Relaxed);
        }
        written
    }

    /// As [`Journal::append_call`] when the write cannot block (see
    /// [`JournalFile::try_write_line`]); `None` when nothing was written.
    pub fn try_append_call(
        &self,
        transport: Origin,
        session: Option<&str>,
        output: &CallOutput,
    ) -> Option<std::io::Result<()>> {
        let mut line = call_line(now(), transport, session, output);
        line.push(b'\n');
        let (gap, lines) = self.with_gap(line);
        let written = self.file.try_write_line(&lines);
        match &written {
            Some(Ok(())) => {}
            // Not written here: the caller writes it with `append_call`, gap and all.
            None => {
                self.lost.fetch_add(gap, Ordering::Relaxed);
            }
            Some(Err(_)) => {
                self.lost.fetch_add(gap + 1, Ordering::Relaxed);
            }
        }
        written
    }
}

/// Every entry of the journal at `path`; lines that do not parse are skipped.
pub fn read(path: &Path) -> std::io::Result<Vec<Entry>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_call_line_is_the_line_of_its_entry() {
        let value = json!({"a": "é \"q\" \\ 🍣", "n": [1, 2.5, null], "o": {"t": true}});
        let answered = CallOutput {
            tool: "t".into(),
            received: json!({"x": 1.5}),
            arguments: json!({"x": 1.5, "d": "default"}),
            decision: Decision::Scenario {
                name: "ok".into(),
                forced: true,
            },
            text: value.to_string(),
            kept: None,
            value: Some(value),
            json: Some(crate::engine::output::JsonShape::Object),
            is_error: false,
            micros: 17,
            step: None,
            delay_ms: 0,
        };
        let unknown = CallOutput::unknown_tool("nope", None);
        let invalid = CallOutput {
            decision: Decision::InvalidArguments,
            value: None,
            json: None,
            text: "validating \"arguments\": bad \n value".into(),
            is_error: true,
            ..answered.clone()
        };
        let text_only = CallOutput {
            value: None,
            ..answered.clone()
        };
        let stepped = CallOutput {
            step: Some(2),
            delay_ms: 1500,
            ..answered.clone()
        };
        let faulted = CallOutput::faulted(
            "t",
            None,
            &crate::engine::controls::plan::Plan {
                step: Some(0),
                ..Default::default()
            },
            crate::engine::controls::entries::Fault::Http503,
        );
        for output in [
            &answered, &text_only, &unknown, &invalid, &stepped, &faulted,
        ] {
            for session in [None, Some("s-1")] {
                let time = "2026-10-05T12:00:00.000Z".to_string();
                let mut entry = Entry::new(Origin::Http, session.map(str::to_string), output);
                entry.time.clone_from(&time);
                assert_eq!(
                    String::from_utf8(call_line(time, Origin::Http, session, output)).unwrap(),
                    serde_json::to_string(&entry).unwrap(),
                    "{output:?}"
                );
            }
        }
    }
}
