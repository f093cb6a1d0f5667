//! What production advertises against what the project holds: the `initialize` answer, every
//! tool and every resource, compared place by place. `careem-mcp drift` prints the result;
//! `drift --write` brings the tool files in line with it.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::engine::check::diff::{Change, differences};

/// What one side advertises, as the JSON a client receives.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Surface {
    /// The `initialize` result: `serverInfo`, `capabilities`, `protocolVersion`,
    /// `instructions`.
    pub initialize: Value,
    /// Every tool of every page of `tools/list`, by name.
    pub tools: BTreeMap<String, Value>,
    /// Every resource by URI: `{"listed": <resources/list entry>, "read": <resources/read>}`.
    pub resources: BTreeMap<String, Value>,
}

/// What a difference is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    Initialize,
    Tool,
    Resource,
}

impl Subject {
    pub fn word(self) -> &'static str {
        match self {
            Self::Initialize => "initialize",
            Self::Tool => "tool",
            Self::Resource => "resource",
        }
    }
}

/// Whether both sides have the subject.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    /// Both have it, with the changes listed.
    Changed,
    /// Production has it; the project does not.
    OnlyInProduction,
    /// The project has it; production no longer does.
    OnlyInProject,
}

/// One place where production differs from the project.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldChange {
    /// A JSON pointer (RFC 6901) into the subject; empty for the subject as a whole.
    pub path: String,
    /// The project's value; absent when only production has the place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<Value>,
    /// Production's value; absent when only the project has the place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub production: Option<Value>,
}

/// Everything that differs about one subject.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SubjectDrift {
    pub subject: Subject,
    /// The tool's name or the resource's URI; `initialize` for the handshake.
    pub name: String,
    pub presence: Presence,
    /// The places that differ; empty when only one side has the subject.
    pub changes: Vec<FieldChange>,
}

/// The whole comparison, in a fixed order: `initialize`, then tools and resources by name.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Drift {
    pub differences: Vec<SubjectDrift>,
}

impl Drift {
    pub fn is_empty(&self) -> bool {
        self.differences.is_empty()
    }

    /// The number of places that differ, a subject on one side only counting as one.
    pub fn places(&self) -> usize {
        self.differences
            .iter()
            .map(|drift| drift.changes.len().max(1))
            .sum()
    }

    /// The tools that differ in place or are new in production.
    pub fn tools(&self, presence: Presence) -> impl Iterator<Item = &str> {
        self.differences
            .iter()
            .filter(move |d| d.subject == Subject::Tool && d.presence == presence)
            .map(|d| d.name.as_str())
    }
}

/// Every difference between the project and production.
pub fn compare(project: &Surface, production: &Surface) -> Drift {
    let mut found = Vec::new();
    let changes = field_changes(&project.initialize, &production.initialize);
    if !changes.is_empty() {
        found.push(SubjectDrift {
            subject: Subject::Initialize,
            name: Subject::Initialize.word().to_string(),
            presence: Presence::Changed,
            changes,
        });
    }
    found.extend(by_name(Subject::Tool, &project.tools, &production.tools));
    found.extend(by_name(
        Subject::Resource,
        &project.resources,
        &production.resources,
    ));
    Drift { differences: found }
}

fn by_name(
    subject: Subject,
    project: &BTreeMap<String, Value>,
    production: &BTreeMap<String, Value>,
) -> Vec<SubjectDrift> {
    let mut names: Vec<&String> = project.keys().chain(production.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter_map(|name| {
            let (presence, changes) = match (project.get(name), production.get(name)) {
                (Some(ours), Some(theirs)) => {
                    let changes = field_changes(ours, theirs);
                    if changes.is_empty() {
                        return None;
                    }
                    (Presence::Changed, changes)
                }
                (None, Some(_)) => (Presence::OnlyInProduction, Vec::new()),
                (Some(_), None) => (Presence::OnlyInProject, Vec::new()),
                (None, None) => return None,
            };
            Some(SubjectDrift {
                subject,
                name: name.clone(),
                presence,
                changes,
            })
        })
        .collect()
}

fn field_changes(project: &Value, production: &Value) -> Vec<FieldChange> {
    differences(project, production)
        .into_iter()
        .map(|difference| {
            let path = difference.pointer();
            let at = |side: &Value| side.pointer(&path).cloned();
            let (project, production) = match difference.change {
                Change::Removed => (at(project), None),
                Change::Added => (None, at(production)),
                Change::Changed { before, after } => (Some(before.clone()), Some(after.clone())),
            };
            FieldChange {
                path,
                project,
                production,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A difference as (subject, name, presence, [(path, project, production)]).
    type Summary<'a> = (
        Subject,
        &'a str,
        Presence,
        Vec<(&'a str, Option<Value>, Option<Value>)>,
    );

    fn surface(tools: &[(&str, Value)]) -> Surface {
        Surface {
            initialize: json!({"serverInfo": {"name": "s", "version": "v1"}}),
            tools: tools
                .iter()
                .map(|(name, tool)| ((*name).to_string(), tool.clone()))
                .collect(),
            resources: BTreeMap::new(),
        }
    }

    #[test]
    fn each_kind_of_difference_is_named_with_both_values() {
        let project = surface(&[
            ("kept", json!({"name": "kept", "description": "old"})),
            ("gone", json!({"name": "gone"})),
            ("same", json!({"name": "same", "n": 1})),
        ]);
        let mut production = surface(&[
            (
                "kept",
                json!({"name": "kept", "description": "new", "_meta": {"k": 1}}),
            ),
            ("new", json!({"name": "new"})),
            ("same", json!({"name": "same", "n": 1.0})),
        ]);
        production.initialize = json!({"serverInfo": {"name": "s", "version": "v2"}});
        let drift = compare(&project, &production);
        let summary: Vec<Summary> = drift
            .differences
            .iter()
            .map(|d| {
                let changes = d
                    .changes
                    .iter()
                    .map(|c| (c.path.as_str(), c.project.clone(), c.production.clone()))
                    .collect();
                (d.subject, d.name.as_str(), d.presence, changes)
            })
            .collect();
        let expected = vec![
            (
                Subject::Initialize,
                "initialize",
                Presence::Changed,
                vec![("/serverInfo/version", Some(json!("v1")), Some(json!("v2")))],
            ),
            (Subject::Tool, "gone", Presence::OnlyInProject, vec![]),
            (
                Subject::Tool,
                "kept",
                Presence::Changed,
                vec![
                    ("/description", Some(json!("old")), Some(json!("new"))),
                    ("/_meta", None, Some(json!({"k": 1}))),
                ],
            ),
            (Subject::Tool, "new", Presence::OnlyInProduction, vec![]),
        ];
        assert_eq!(summary, expected);
        assert_eq!(drift.places(), 5);
        assert!(compare(&project, &project).is_empty());
    }
}
