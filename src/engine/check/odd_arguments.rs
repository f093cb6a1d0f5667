//! The odd-arguments pass of the honesty check. The sample arguments are tidy; agents are
//! not. They send free text ("tomorrow 8pm") where a time is meant, leave optional arguments
//! out, and pass numbers at the edge of what the schema allows. Production validates
//! arguments without looking at `format`, so all of these reach the scenarios. This pass
//! renders every scenario again with each such argument in turn, and holds the answer to the
//! `outputSchema`, `format`s included: an echo of free text into a `date-time`, an enum or a
//! number, or a `null` the schema does not allow, is caught here before an agent sees it.

use serde_json::{Value, json};

use crate::engine::catalog::load::Tool;
use crate::engine::select::arguments;
use crate::engine::toolfile::parse::Scenario;

/// Text agents really send: a relative time, quotes, a line break, markup, a backslash and
/// an emoji, and nothing at all.
const ODD_TEXT: [&str; 3] = ["tomorrow 8pm", "Say \"hi\"\n<b>&\\ 🍣", ""];

/// One way of calling a scenario with an odd argument: what was changed, and the arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub label: String,
    pub arguments: Value,
}

/// Each odd argument an agent may send to `scenario`, one property at a time, starting from
/// `sample` (the honesty check's arguments). Properties the scenario's match rule pins are
/// kept, since other values would not reach it; so are variants production would refuse.
pub fn variants(tool: &Tool, scenario: &Scenario, sample: &Value) -> Vec<Variant> {
    let schema = &tool.input_schema;
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let required = |key: &str| arguments::required(schema).any(|name| name == key);
    let mut found = Vec::new();
    for (key, property) in properties {
        if pinned(scenario, key) {
            continue;
        }
        let mut candidates: Vec<(String, Option<Value>)> = odd_values(property)
            .into_iter()
            .map(|value| (format!("{key} = {value}"), Some(value)))
            .collect();
        if !required(key) {
            candidates.push((format!("{key} left out"), None));
        }
        for (label, value) in candidates {
            let mut args = sample.clone();
            if let Value::Object(map) = &mut args {
                match value {
                    Some(value) => map.insert(key.clone(), value),
                    None => map.remove(key),
                };
            }
            arguments::apply_defaults(schema, &mut args);
            if &args != sample && tool.input_validator.is_valid(&args) {
                found.push(Variant {
                    label,
                    arguments: args,
                });
            }
        }
    }
    found
}

/// Two calls that carry the odd arguments all at once, for checks that pay for each call
/// (`verify` goes over the wire): every unpinned property at its first odd value production
/// accepts, and every unpinned optional property left out.
pub fn combined(tool: &Tool, scenario: &Scenario, sample: &Value) -> Vec<Variant> {
    let mut odd = sample.clone();
    let mut lean = sample.clone();
    let mut changed = Vec::new();
    let mut left_out = Vec::new();
    for variant in variants(tool, scenario, sample) {
        let (Value::Object(from), Value::Object(into_odd), Value::Object(into_lean)) =
            (&variant.arguments, &mut odd, &mut lean)
        else {
            continue;
        };
        let Some((key, _)) = variant.label.split_once(' ') else {
            continue;
        };
        if variant.label.ends_with(" left out") {
            if into_lean.remove(key).is_some() {
                left_out.push(key.to_string());
            }
        } else if !changed.iter().any(|k: &String| k == key)
            && let Some(value) = from.get(key)
        {
            into_odd.insert(key.to_string(), value.clone());
            changed.push(key.to_string());
        }
    }
    arguments::apply_defaults(&tool.input_schema, &mut lean);
    let mut found = Vec::new();
    for (words, keys, args) in [("odd", changed, odd), ("left out", left_out, lean)] {
        if !keys.is_empty() && &args != sample && tool.input_validator.is_valid(&args) {
            found.push(Variant {
                label: format!("{} {words}", keys.join(", ")),
                arguments: args,
            });
        }
    }
    found
}

/// Whether the match rule or the sample fixes `key` to particular values (anything but
/// `"*"`).
fn pinned(scenario: &Scenario, key: &str) -> bool {
    [&scenario.rule, &scenario.sample]
        .into_iter()
        .flatten()
        .filter_map(|rule| rule.get(key))
        .any(|pattern| pattern != "*")
}

/// The odd values for a property of this schema: free text for strings (whatever their
/// `format`), the edges and extremes for numbers, the other truth value, an empty list.
fn odd_values(property: &Value) -> Vec<Value> {
    let bound = |key: &str| property.get(key).cloned();
    let types: Vec<&str> = match property.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let mut values = Vec::new();
    for t in types {
        match t {
            "string" => values.extend(ODD_TEXT.map(Value::from)),
            "integer" => {
                values.extend([json!(0), json!(-1), json!(2_147_483_647)]);
                values.extend(["minimum", "maximum"].into_iter().filter_map(bound));
            }
            "number" => {
                values.extend([json!(0), json!(-90.5), json!(1e9), json!(25.123_456_789)]);
                values.extend(["minimum", "maximum"].into_iter().filter_map(bound));
            }
            "boolean" => values.extend([json!(true), json!(false)]),
            "array" => values.push(json!([])),
            _ => {}
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::toolfile::parse::{Answer, Outcome};
    use crate::engine::toolfile::template::Template;

    #[test]
    fn each_unpinned_property_is_varied_within_what_production_accepts() {
        let schema = json!({"type": "object", "properties": {
            "restaurant_id": {"type": "integer"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
            "when": {"type": "string", "format": "date-time"}
        }, "required": ["restaurant_id"], "additionalProperties": false});
        let tool = Tool {
            name: "t".into(),
            path: "tools/t.md".into(),
            definition: serde_json::Map::new(),
            input_validator: jsonschema::draft202012::new(&schema).unwrap(),
            input_schema: schema,
            output_validator: None,
        };
        let scenario = Scenario {
            name: "s".into(),
            line: 1,
            rule: Some(json!({"restaurant_id": 30104, "when": "*"})),
            when: None,
            outcome: Outcome::Response,
            answer: Answer::Template(Template::parse("{}").unwrap()),
            update: None,
            sample: None,
        };
        let sample = json!({"restaurant_id": 30104, "limit": 10, "when": "2026-12-03T19:30:00Z"});
        let labels: Vec<String> = variants(&tool, &scenario, &sample)
            .into_iter()
            .map(|v| v.label)
            .collect();
        let combined: Vec<Value> = combined(&tool, &scenario, &sample)
            .into_iter()
            .map(|v| v.arguments)
            .collect();
        assert_eq!(
            combined,
            [
                json!({"restaurant_id": 30104, "limit": 1, "when": "tomorrow 8pm"}),
                json!({"restaurant_id": 30104, "limit": 10}),
            ]
        );
        assert_eq!(
            labels,
            [
                "limit = 1",
                "limit = 50",
                r#"when = "tomorrow 8pm""#,
                r#"when = "Say \"hi\"\n<b>&\\ 🍣""#,
                r#"when = """#,
                "when left out",
            ]
        );
    }
}
