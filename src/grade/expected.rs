//! An expected file (docs/GRADING.md): the actions a correct agent would take, as a JSON template
//! in the scenario files' placeholder syntax, whose `{{results.N…}}` is the `structuredContent`
//! of the N-th action's answer (ids the world mints are known only after the fact), and the
//! optional checks on the calls.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

/// One action: a tool and its arguments.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Action {
    pub tool: String,
    #[serde(default)]
    pub arguments: serde_json::Map<String, Value>,
}

/// The checks on the calls the agent made.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallChecks {
    /// Tools the agent must never call.
    #[serde(default)]
    pub never: Vec<String>,
    /// The most calls of each tool.
    #[serde(default)]
    pub at_most: BTreeMap<String, usize>,
    /// The most calls in all.
    #[serde(default)]
    pub max_total: Option<usize>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    actions: Vec<Value>,
    #[serde(default)]
    calls: CallChecks,
}

/// An expected file as read once: its actions with each placeholder standing as a marker, to
/// fill one action at a time. Reading the file once keeps grading linear in its actions.
#[derive(Debug, Clone)]
pub struct Expected {
    actions: Vec<Value>,
    /// How many actions it names.
    pub count: usize,
    pub calls: CallChecks,
}

/// What is wrong with an expected file, at which action (counted from 0).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", action.map(|a| format!("action {a}: ")).unwrap_or_default())]
pub struct ExpectedError {
    pub action: Option<usize>,
    pub message: String,
}

impl ExpectedError {
    fn new(action: Option<usize>, message: impl Into<String>) -> Self {
        Self {
            action,
            message: message.into(),
        }
    }
}

/// Marks a placeholder that points past the actions done so far.
const PENDING: char = '\u{1}';
/// Marks a placeholder that points to a field the answer does not have.
const MISSING: char = '\u{2}';
/// Stands, both sides, for a placeholder written where a JSON value goes: the whole string is
/// the placeholder, filled with its value as JSON.
const BARE: char = '\u{3}';
/// Stands, both sides, for a placeholder inside a JSON string: filled with its value as text.
const IN_TEXT: char = '\u{4}';

impl Expected {
    /// Reads `text`: it must be a JSON object with `actions` (and optionally `calls`) once its
    /// placeholders are filled.
    pub fn parse(text: &str) -> Result<Self, ExpectedError> {
        let document: Document = serde_json::from_str(&mark(text)).map_err(|error| {
            ExpectedError::new(None, format!("not valid JSON after rendering: {error}"))
        })?;
        Ok(Self {
            count: document.actions.len(),
            actions: document.actions,
            calls: document.calls,
        })
    }

    /// Action `index` with `results` (the answers of the actions before it) in its placeholders.
    pub fn action(&self, index: usize, results: &[Value]) -> Result<Action, ExpectedError> {
        let action = self
            .actions
            .get(index)
            .ok_or_else(|| ExpectedError::new(Some(index), "no such action"))?;
        let action = fill(action, results);
        if let Some(what) = marker_in(&action, PENDING) {
            return Err(ExpectedError::new(
                Some(index),
                format!(
                    "{what} points past the actions done so far (results.0 is the first action's answer)"
                ),
            ));
        }
        if let Some(what) = marker_in(&action, MISSING) {
            return Err(ExpectedError::new(
                Some(index),
                format!("{what} is not a field of that action's answer"),
            ));
        }
        serde_json::from_value(action).map_err(|error| {
            ExpectedError::new(
                Some(index),
                format!("an action is {{\"tool\": …, \"arguments\": {{…}}}}: {error}"),
            )
        })
    }
}

/// The placeholder that `marker` stands for somewhere in `value`'s strings.
fn marker_in(value: &Value, marker: char) -> Option<String> {
    match value {
        Value::String(text) => {
            let at = text.find(marker)?;
            let rest = &text[at + marker.len_utf8()..];
            Some(rest.split(marker).next().unwrap_or_default().to_string())
        }
        Value::Array(items) => items.iter().find_map(|item| marker_in(item, marker)),
        Value::Object(map) => map.values().find_map(|item| marker_in(item, marker)),
        _ => None,
    }
}

/// `text` with every `{{ results.N.path }}` standing as a marker: a string of its own where a
/// JSON value goes ([`BARE`]), marked text inside a JSON string ([`IN_TEXT`]) (SPEC §3's two
/// contexts), so that the file is JSON before any action is done.
fn mark(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("{{")
            && let Some(end) = after.find("}}")
        {
            let expr = after[..end].trim();
            if in_string {
                let quoted = Value::String(format!("{IN_TEXT}{expr}{IN_TEXT}")).to_string();
                out.push_str(&quoted[1..quoted.len() - 1]);
            } else {
                out.push_str(&Value::String(format!("{BARE}{expr}{BARE}")).to_string());
            }
            rest = &after[end + 2..];
            continue;
        }
        let mut chars = rest.chars();
        let c = chars.next().expect("rest is not empty");
        if c == '\\' && in_string {
            out.push(c);
            if let Some(next) = chars.next() {
                out.push(next);
            }
            rest = chars.as_str();
            continue;
        }
        if c == '"' {
            in_string = !in_string;
        }
        out.push(c);
        rest = chars.as_str();
    }
    out
}

/// `value` with its markers filled from `results`: a bare placeholder by its value, one in a
/// string by its value as text (a string as it is, anything else as JSON).
fn fill(value: &Value, results: &[Value]) -> Value {
    match value {
        Value::String(text) => {
            if let Some(expr) = text
                .strip_prefix(BARE)
                .and_then(|rest| rest.strip_suffix(BARE))
                .filter(|expr| !expr.contains(BARE))
            {
                return resolve(expr, results);
            }
            Value::String(fill_text(text, results))
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| fill(v, results)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, v)| (fill_text(key, results), fill(v, results)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `text` with each placeholder inside it filled as text.
fn fill_text(text: &str, results: &[Value]) -> String {
    if !text.contains(IN_TEXT) {
        return text.to_string();
    }
    // Between the markers: text, a placeholder, text, …
    text.split(IN_TEXT)
        .enumerate()
        .map(|(n, part)| {
            if n % 2 == 0 {
                return part.to_string();
            }
            match resolve(part, results) {
                Value::String(value) => value,
                value => value.to_string(),
            }
        })
        .collect()
}

/// The value of one placeholder: `results.N.path` from `results`, or a marker.
fn resolve(expr: &str, results: &[Value]) -> Value {
    let marker = |m: char| Value::String(format!("{m}{expr}{m}"));
    let Some(path) = expr.strip_prefix("results.") else {
        return marker(MISSING);
    };
    let mut parts = path.split('.');
    let Some(index) = parts.next().and_then(|n| n.parse::<usize>().ok()) else {
        return marker(MISSING);
    };
    let Some(mut value) = results.get(index) else {
        return marker(PENDING);
    };
    for part in parts {
        let next = match value {
            Value::Object(map) => map.get(part),
            Value::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        match next {
            Some(next) => value = next,
            None => return marker(MISSING),
        }
    }
    value.clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const FILE: &str = r#"{"actions": [
        {"tool": "cart_add_item", "arguments": {"restaurant_id": 30102, "item_id": 3010201}},
        {"tool": "food_place_order", "arguments": {"basket_id": {{results.0.basket.id}}, "notes": "basket {{ results.0.basket.id }}"}}
    ], "calls": {"never": ["ride_book"], "max_total": 40}}"#;

    #[test]
    fn actions_take_the_answers_before_them() {
        let expected = Expected::parse(FILE).unwrap();
        assert_eq!(expected.count, 2);
        assert_eq!(expected.calls.never, ["ride_book"]);
        let first = expected.action(0, &[]).unwrap();
        assert_eq!(first.tool, "cart_add_item");
        let second = expected
            .action(1, &[json!({"basket": {"id": 880002}})])
            .unwrap();
        assert_eq!(
            Value::Object(second.arguments),
            json!({"basket_id": 880002, "notes": "basket 880002"})
        );
    }

    /// Each action is filled from the file read once: 10,000 actions, each naming the answer
    /// before it, take milliseconds (rendering the whole file for each took minutes).
    #[test]
    fn ten_thousand_actions_are_filled_in_linear_time() {
        const ACTIONS: usize = 10_000;
        let actions: Vec<String> = (0..ACTIONS)
            .map(|n| match n {
                0 => r#"{"tool": "t", "arguments": {"v": 0}}"#.to_string(),
                n => format!(
                    r#"{{"tool": "t", "arguments": {{"v": {{{{results.{}.v}}}}, "note": "after {{{{ results.{}.v }}}}"}}}}"#,
                    n - 1,
                    n - 1
                ),
            })
            .collect();
        let text = format!(r#"{{"actions": [{}]}}"#, actions.join(",\n"));
        let started = std::time::Instant::now();
        let expected = Expected::parse(&text).unwrap();
        let mut results = Vec::with_capacity(ACTIONS);
        for index in 0..ACTIONS {
            let action = expected.action(index, &results).unwrap();
            let v = action.arguments["v"].as_u64().unwrap();
            assert_eq!(v, index.saturating_sub(1) as u64);
            results.push(json!({"v": index}));
        }
        assert_eq!(
            expected.action(2, &results).unwrap().arguments["note"],
            "after 1"
        );
        let took = started.elapsed();
        assert!(took < std::time::Duration::from_secs(10), "{took:?}");
    }

    #[test]
    fn bad_references_name_their_action() {
        let expected = Expected::parse(FILE).unwrap();
        let cases = [
            (vec![], "points past the actions done so far"),
            (
                vec![json!({"basket": {}})],
                "results.0.basket.id is not a field",
            ),
        ];
        for (results, want) in cases {
            let error = expected.action(1, &results).unwrap_err();
            assert_eq!(error.action, Some(1));
            assert!(error.message.contains(want), "{error}");
        }
        for (text, want) in [
            ("{\"actions\": [", "not valid JSON"),
            ("{\"actions\": [], \"extra\": 1}", "unknown field"),
        ] {
            assert!(
                Expected::parse(text)
                    .unwrap_err()
                    .to_string()
                    .contains(want)
            );
        }
    }
}
