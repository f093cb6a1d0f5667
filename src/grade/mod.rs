//! Grading a run by its end state (docs/GRADING.md), as agent benchmarks grade: the expected
//! actions are replayed on a fresh copy of the run's world (its seed, its clock when it first
//! changed, `--seed`), and that end state is compared with the run's. Any path that reaches the
//! right state passes; any extra change fails. Reads change nothing, so they never count.
//! Grading never changes the run.

pub mod compare;
pub mod expected;
pub mod names;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::journal::rotated_path;
use crate::engine::{
    CallRequest, Decision, Engine, Origin, journal, read_limited, regular_or_absent,
};
pub use expected::{Action, CallChecks, Expected, ExpectedError};

/// One run graded against one expected file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Verdict {
    pub passed: bool,
    /// How the run's end state differs from the expected one.
    pub differences: Vec<String>,
    /// The broken checks on the calls.
    pub broken_checks: Vec<String>,
    /// The tool calls the run's journal holds.
    pub calls: usize,
}

/// Why a run could not be graded.
#[derive(Debug, Clone, thiserror::Error)]
pub enum GradeError {
    #[error(transparent)]
    Expected(#[from] ExpectedError),
    #[error("action {action}: unknown tool {tool:?}")]
    UnknownTool { action: usize, tool: String },
    #[error("action {action}: {tool}: {message}")]
    Refused {
        action: usize,
        tool: String,
        message: String,
    },
    #[error("the fresh world cannot be made: {0}")]
    World(String),
    #[error("the run's journal {path} cannot be read: {why}")]
    Journal { path: PathBuf, why: String },
}

/// An expected file larger than this is refused: 10,000 actions take about 1 MiB.
pub const EXPECTED_LIMIT: u64 = 16 * 1024 * 1024;

/// A run's journal (each of `calls.jsonl` and its rotated `calls.jsonl.1`) larger than this is
/// refused: `--journal-max-size` rotates it at 32 MiB unless told otherwise.
pub const JOURNAL_LIMIT: u64 = 256 * 1024 * 1024;

/// The text of the expected file at `path`: a regular file of at most [`EXPECTED_LIMIT`]
/// bytes, so that a FIFO or `/dev/zero` is refused rather than waited on or read for ever.
pub fn read_expected(path: &Path) -> std::io::Result<String> {
    let bytes = read_limited(path, EXPECTED_LIMIT)?;
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// Grades the run served by `run` (its engine: its world, clock and journal) against
/// `expected`, replaying it in `scratch` (an empty folder of the grader's).
pub fn grade(
    run: &Engine,
    journal_path: &Path,
    expected: &Expected,
    scratch: &Path,
) -> Result<Verdict, GradeError> {
    let world = run.world().map_err(|problems| {
        GradeError::World(format!("{} problems in the world", problems.len()))
    })?;
    let seed = world.seed().clone();
    let names = names::Names::of_data(&Value::Object(world.data().clone()));
    let actual = run.world_store().read(&seed);
    let fresh = run.fresh_in(
        scratch,
        run.world_store().started().unwrap_or_else(|| run.now()),
    );
    let mut results = Vec::with_capacity(expected.count);
    for index in 0..expected.count {
        let action = expected.action(index, &results)?;
        results.push(replay(&fresh, index, action)?);
    }
    let wanted = fresh.state().unwrap_or(Value::Null);
    let differences = compare::differences(&seed, &wanted, &actual, &names);
    let (calls, broken_checks) = check_calls(journal_path, &expected.calls)?;
    Ok(Verdict {
        passed: differences.is_empty() && broken_checks.is_empty(),
        differences,
        broken_checks,
        calls,
    })
}

/// One action on the fresh world: its answer's value, or why the world refused it.
fn replay(fresh: &Engine, index: usize, action: Action) -> Result<Value, GradeError> {
    if fresh.tool(&action.tool).is_none() {
        return Err(GradeError::UnknownTool {
            action: index,
            tool: action.tool,
        });
    }
    let output = fresh.answer(&CallRequest::new(
        Origin::Cli,
        &action.tool,
        Some(action.arguments),
    ));
    let refused = |message: String| GradeError::Refused {
        action: index,
        tool: action.tool.clone(),
        message,
    };
    match &output.decision {
        Decision::InvalidArguments => return Err(refused(output.text.clone())),
        Decision::InternalError => return Err(refused("internal server error".into())),
        _ => {}
    }
    let value = output.value.clone().unwrap_or(Value::Null);
    if output.is_error {
        return Err(refused(output.text.clone()));
    }
    if let Some(error) = value.get("error").and_then(Value::as_str) {
        return Err(refused(format!("the world refuses it: {error}")));
    }
    Ok(value)
}

/// The run's tool calls over MCP, and each check they break. A journal that is not a regular
/// file, or larger than [`JOURNAL_LIMIT`], cannot be graded.
fn check_calls(
    journal_path: &Path,
    checks: &CallChecks,
) -> Result<(usize, Vec<String>), GradeError> {
    let refused = |path: &Path, why: std::io::Error| GradeError::Journal {
        path: path.to_path_buf(),
        why: why.to_string(),
    };
    for path in [journal_path.to_path_buf(), rotated_path(journal_path)] {
        regular_or_absent(&path, JOURNAL_LIMIT).map_err(|why| refused(&path, why))?;
    }
    let entries = journal::recent(journal_path, None, |entry| {
        matches!(entry.transport.as_str(), "http" | "sse" | "stdio")
    })
    .map_err(|why| refused(journal_path, why))?
    .entries;
    let mut per_tool: BTreeMap<&str, usize> = BTreeMap::new();
    for entry in &entries {
        *per_tool.entry(entry.tool.as_str()).or_default() += 1;
    }
    let times = |n: usize| {
        if n == 1 {
            "1 time".to_string()
        } else {
            format!("{n} times")
        }
    };
    let mut broken = Vec::new();
    for tool in &checks.never {
        if let Some(&n) = per_tool.get(tool.as_str()) {
            broken.push(format!("calls: {tool} called {}; expected never", times(n)));
        }
    }
    for (tool, &most) in &checks.at_most {
        let n = per_tool.get(tool.as_str()).copied().unwrap_or(0);
        if n > most {
            broken.push(format!(
                "calls: {tool} called {}; expected at most {most}",
                times(n)
            ));
        }
    }
    if let Some(most) = checks.max_total
        && entries.len() > most
    {
        broken.push(format!(
            "calls: {} calls in all; expected at most {most}",
            entries.len()
        ));
    }
    Ok((entries.len(), broken))
}
