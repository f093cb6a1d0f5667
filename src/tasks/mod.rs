//! The task suite (docs/TASKS.md): what a user asks, the world it starts from and what a right
//! outcome is, one JSON file each in `<project>/tasks/`, as agent benchmarks ship their
//! domains with tasks (τ²-bench). A task's start is made on a run by [`start::start`]; its
//! expected actions are the file `grade` reads ([`Task::expected`]), so a run is scored as any
//! other run is.

pub mod start;
pub mod template;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::{RunName, parse_duration};
use crate::grade::{Expected, ExpectedError};

/// How hard a task is for an agent: how many steps, and how much it must notice on the way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Easy => "easy",
            Self::Medium => "medium",
            Self::Hard => "hard",
        })
    }
}

/// One task, as its file holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// The file's name without `.json`, and the run `tasks start` makes by default: a run name.
    pub id: String,
    pub title: String,
    pub difficulty: Difficulty,
    /// What the task is about (`food`, `rides`, `refusal`, `no-change`, …), for a harness to
    /// pick a share of the suite.
    #[serde(default)]
    pub tags: Vec<String>,
    /// What the user types to the assistant.
    pub request: String,
    pub start: Start,
    /// The file `grade` reads (docs/GRADING.md): `actions` and the optional `calls` checks, as
    /// plain JSON in which a string that is one `{{results.N.path}}` stands for that field's
    /// value ([`template`]).
    pub expected: Value,
    /// The calls of a correct agent and of a typical wrong one, which `cargo test` walks over
    /// MCP: every task solvable, and only the right way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub walks: Option<Walks>,
}

/// The world a task starts from: the run's clock, frozen; how long ago the world was seeded;
/// the forced scenarios.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// The instant the run's world is seeded at and its clock frozen at (RFC 3339): opening
    /// hours, slots and the seed's orders and rides read from it.
    pub clock: DateTime<Utc>,
    /// Time that has passed since the world was seeded when the user asks (`30m`, `1h`): the
    /// clock is moved on by it, so the seed's orders and rides have moved on too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advance: Option<String>,
    /// The run's overrides file: each tool's entry as docs/CONTROLS.md has it (a scenario, a
    /// sequence, a fault).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub scenarios: BTreeMap<String, Value>,
}

/// How `cargo test` proves a task: the right walk grades as passed, the wrong one as failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Walks {
    /// The calls of a correct agent, when they are not the expected actions alone (a forced
    /// refusal met on the way, a retry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub right: Option<Vec<Value>>,
    pub wrong: Wrong,
}

/// A typical wrong path and what the grade says of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wrong {
    /// What goes wrong, for a person.
    pub what: String,
    /// The calls, `{"tool", "arguments"}` each, placeholders as in `expected`.
    pub calls: Vec<Value>,
    /// Lines the grade's report holds for it, each naming what is wrong.
    pub differs: Vec<String>,
}

/// What is wrong with a task file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct TaskError {
    pub path: PathBuf,
    pub message: String,
}

impl Task {
    /// Reads the task in `text`, the file at `path`: its id must be the file's name.
    pub fn parse(path: &Path, text: &str) -> Result<Self, TaskError> {
        let error = |message: String| TaskError {
            path: path.to_path_buf(),
            message,
        };
        let task: Self = serde_json::from_str(text).map_err(|e| error(e.to_string()))?;
        task.run_name()
            .map_err(|e| error(format!("id {:?}: {e}", task.id)))?;
        let stem = path.file_stem().and_then(|s| s.to_str());
        if stem != Some(task.id.as_str()) {
            return Err(error(format!(
                "id {:?} is not the file's name: name the file {}.json",
                task.id, task.id
            )));
        }
        task.advance()
            .map_err(|e| error(format!("start.advance: {e}")))?;
        task.expected()
            .map_err(|e| error(format!("expected: {e}")))?;
        if let Some(walks) = &task.walks {
            for (what, calls) in walks
                .right
                .iter()
                .map(|calls| ("walks.right", calls))
                .chain([("walks.wrong.calls", &walks.wrong.calls)])
            {
                calls_expected(calls).map_err(|e| error(format!("{what}: {e}")))?;
            }
        }
        Ok(task)
    }

    /// The run `tasks start` makes when no other is named.
    pub fn run_name(&self) -> Result<RunName, crate::engine::RunNameError> {
        self.id.parse()
    }

    /// How long after the seed the user asks; zero when no time has passed.
    pub fn advance(&self) -> Result<TimeDelta, String> {
        self.start
            .advance
            .as_deref()
            .map_or(Ok(TimeDelta::zero()), parse_duration)
    }

    /// The expected file as `grade` reads it.
    pub fn expected_text(&self) -> String {
        template::to_template(&self.expected)
    }

    /// The expected actions and checks, read as `grade` reads a file.
    pub fn expected(&self) -> Result<Expected, ExpectedError> {
        Expected::parse(&self.expected_text())
    }

    /// The calls a correct agent makes: the right walk, or the expected actions.
    pub fn right_walk(&self) -> Result<Expected, ExpectedError> {
        match self.walks.as_ref().and_then(|w| w.right.as_ref()) {
            Some(calls) => calls_expected(calls),
            None => self.expected(),
        }
    }
}

/// Calls, `{"tool", "arguments"}` each, read as the actions of an expected file, so that each
/// is rendered with the answers before it.
pub fn calls_expected(calls: &[Value]) -> Result<Expected, ExpectedError> {
    Expected::parse(&template::to_template(
        &serde_json::json!({"actions": calls}),
    ))
}

/// The tasks of `dir` (its `*.json` files), by id; or every file that is not a task.
pub fn load(dir: &Path) -> Result<Vec<Task>, Vec<TaskError>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        vec![TaskError {
            path: dir.to_path_buf(),
            message: format!("cannot read the tasks folder: {e}"),
        }]
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "json") && path.is_file())
        .collect();
    paths.sort();
    let mut tasks = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        let read = std::fs::read_to_string(&path).map_err(|e| TaskError {
            path: path.clone(),
            message: format!("cannot read: {e}"),
        });
        match read.and_then(|text| Task::parse(&path, &text)) {
            Ok(task) => tasks.push(task),
            Err(error) => errors.push(error),
        }
    }
    if errors.is_empty() {
        tasks.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(tasks)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TASK: &str = r#"{
      "id": "nigiri",
      "title": "Two salmon nigiri",
      "difficulty": "easy",
      "request": "Order two salmon nigiri",
      "start": {"clock": "2026-10-05T08:30:00Z", "advance": "30m"},
      "expected": {"actions": [
        {"tool": "cart_add_item", "arguments": {"restaurant_id": 30102, "item_id": 3010201, "quantity": 2}},
        {"tool": "food_place_order", "arguments": {"basket_id": "{{results.0.basket.id}}", "payment_method_id": "PM-9002", "delivery_location_uuid": "LOC-50005"}}
      ], "calls": {"never": ["ride_book"]}}
    }"#;

    #[test]
    fn a_task_reads_as_grade_reads_its_expected_file() {
        let task = Task::parse(Path::new("tasks/nigiri.json"), TASK).unwrap();
        assert_eq!(task.difficulty, Difficulty::Easy);
        assert_eq!(task.advance().unwrap(), TimeDelta::minutes(30));
        let expected = task.expected().unwrap();
        assert_eq!(expected.count, 2);
        assert_eq!(expected.calls.never, ["ride_book"]);
        let order = expected
            .action(1, &[serde_json::json!({"basket": {"id": 880002}})])
            .unwrap();
        assert_eq!(order.arguments["basket_id"], 880002);
        assert_eq!(task.right_walk().unwrap().count, 2);
    }

    #[test]
    fn broken_tasks_say_what_is_wrong() {
        let cases = [
            (
                "tasks/other.json",
                TASK.to_string(),
                "name the file nigiri.json",
            ),
            (
                "tasks/Nigiri.json",
                TASK.replace("\"nigiri\"", "\"Nigiri\""),
                "id \"Nigiri\": a run name is lower-case",
            ),
            (
                "tasks/nigiri.json",
                TASK.replace("\"30m\"", "\"soon\""),
                "start.advance: \"soon\" is not a duration",
            ),
            (
                "tasks/nigiri.json",
                TASK.replace("\"easy\"", "\"trivial\""),
                "unknown variant `trivial`",
            ),
            (
                "tasks/nigiri.json",
                TASK.replace("\"never\"", "\"always\""),
                "expected: not valid JSON after rendering: unknown field `always`",
            ),
            (
                "tasks/nigiri.json",
                TASK.replace("\"request\"", "\"prompt\""),
                "unknown field `prompt`",
            ),
        ];
        for (path, text, want) in cases {
            let error = Task::parse(Path::new(path), &text).unwrap_err();
            assert!(error.to_string().contains(want), "{want}: {error}");
        }
    }
}
