//! Sample arguments for the honesty check (FORMAT.md "Keeping scenarios honest"): a value for
//! every input property, overlaid with what a scenario's match block asks for.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::engine::select::arguments;

/// Which properties of an object a sample fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Properties {
    /// Every property: what FORMAT.md's honesty rule prescribes.
    All,
    /// Only the required ones and those with a default: the leanest call a client can make,
    /// which catches templates that echo an absent optional argument as `null`.
    Required,
}

/// A value for `schema` with every property filled.
pub fn sample(schema: &Value, now: DateTime<Utc>) -> Value {
    sample_with(schema, now, Properties::All)
}

/// A value for `schema`: its `const`, `default`, first example, first enum member, or one
/// made from its type.
pub fn sample_with(schema: &Value, now: DateTime<Utc>, filled: Properties) -> Value {
    for key in ["const", "default"] {
        if let Some(value) = schema.get(key) {
            return value.clone();
        }
    }
    for key in ["examples", "enum"] {
        if let Some(first) = schema
            .get(key)
            .and_then(Value::as_array)
            .and_then(|a| a.first())
        {
            return first.clone();
        }
    }
    match primary_type(schema).as_deref() {
        Some("string") => Value::String(sample_string(schema, now)),
        Some("integer" | "number") => schema.get("minimum").cloned().unwrap_or(Value::from(1)),
        Some("boolean") => Value::Bool(false),
        Some("array") => {
            let count = schema
                .get("minItems")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .max(1);
            let item = sample_with(schema.get("items").unwrap_or(&Value::Null), now, filled);
            Value::Array(vec![item; usize::try_from(count).unwrap_or(1)])
        }
        Some("null") => Value::Null,
        _ => {
            let required: Vec<&str> = arguments::required(schema).collect();
            let wanted = |key: &str, property: &Value| {
                filled == Properties::All
                    || required.contains(&key)
                    || property.get("default").is_some()
            };
            let properties = schema.get("properties").and_then(Value::as_object);
            let map: Map<String, Value> = properties
                .into_iter()
                .flatten()
                .filter(|(key, property)| wanted(key, property))
                .map(|(key, property)| (key.clone(), sample_with(property, now, filled)))
                .collect();
            Value::Object(map)
        }
    }
}

/// The first non-null type; a schema with properties and no type is an object.
fn primary_type(schema: &Value) -> Option<String> {
    match schema.get("type") {
        Some(Value::String(t)) => Some(t.clone()),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .map(str::to_string),
        _ => schema.get("properties").map(|_| "object".to_string()),
    }
}

fn sample_string(schema: &Value, now: DateTime<Utc>) -> String {
    match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => now.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        Some("date") => now.format("%Y-%m-%d").to_string(),
        Some("time") => now.format("%H:%M:%SZ").to_string(),
        Some("uuid") => "7c0e8a52-3f5d-4b1e-9a4e-2d6f1c8b9e01".to_string(),
        Some("email") => "layla@careem.com".to_string(),
        Some("uri") => "https://www.careem.com".to_string(),
        _ => "sample".to_string(),
    }
}

/// Lays the match rule over the sample, turning each pattern into a value that satisfies it.
/// `now` is the engine's (frozen under `--clock`), so that `lint` and `verify` reproduce.
pub fn overlay(sample: Value, rule: &Value, schema: &Value, now: DateTime<Utc>) -> Value {
    match (rule, sample) {
        (Value::Object(rule), sample) => {
            let mut map = match sample {
                Value::Object(map) => map,
                _ => Map::new(),
            };
            for (key, pattern) in rule {
                let property = schema
                    .get("properties")
                    .and_then(|p| p.get(key))
                    .unwrap_or(&Value::Null);
                let current = map
                    .remove(key)
                    .unwrap_or_else(|| self::sample(property, now));
                map.insert(key.clone(), overlay(current, pattern, property, now));
            }
            Value::Object(map)
        }
        (Value::Array(rule), sample) => {
            let item_schema = schema.get("items").unwrap_or(&Value::Null);
            let mut items = match sample {
                Value::Array(items) => items,
                _ => Vec::new(),
            };
            for pattern in rule {
                let base = self::sample(item_schema, now);
                items.push(overlay(base, pattern, item_schema, now));
            }
            Value::Array(items)
        }
        (Value::String(pattern), sample) if pattern == "*" => sample,
        (Value::String(pattern), _) => match pattern.strip_prefix('~') {
            Some(piece) => containing(piece, schema),
            None => convert(pattern.strip_prefix('=').unwrap_or(pattern), schema),
        },
        (other, _) => other.clone(),
    }
}

/// A value of the type the schema asks for whose text contains `piece`: the piece itself when
/// it reads as one, else, for a number, the piece completed on either side (`"3."` → `3.5`,
/// `"-"` → `-5`, `"04."` → `104.5`), as a rule that tells coordinates apart by their digits
/// needs.
fn containing(piece: &str, schema: &Value) -> Value {
    let value = convert(piece, schema);
    if !value.is_string() || !matches!(primary_type(schema).as_deref(), Some("number" | "integer"))
    {
        return value;
    }
    [
        format!("{piece}5"),
        format!("1{piece}"),
        format!("1{piece}5"),
    ]
    .iter()
    .map(|text| convert(text, schema))
    .find(|candidate| candidate.is_number() && candidate.to_string().contains(piece))
    .unwrap_or(value)
}

/// A matched string in the type the schema asks for (`"30104"` → `30104`).
fn convert(text: &str, schema: &Value) -> Value {
    let as_string = || Value::String(text.to_string());
    match primary_type(schema).as_deref() {
        Some("integer") => text
            .parse::<i64>()
            .map(Value::from)
            .unwrap_or_else(|_| as_string()),
        Some("number") => serde_json::from_str::<serde_json::Number>(text)
            .map(Value::Number)
            .unwrap_or_else(|_| as_string()),
        Some("boolean") => text
            .parse::<bool>()
            .map(Value::Bool)
            .unwrap_or_else(|_| as_string()),
        _ => as_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn samples_follow_the_schema() {
        let now = DateTime::parse_from_rfc3339("2026-10-05T12:00:00Z")
            .unwrap()
            .to_utc();
        let schema = json!({"type": "object", "properties": {
            "c": {"type": "string", "const": "k"},
            "d": {"type": "integer", "default": 5},
            "e": {"type": "string", "examples": ["ex"]},
            "n": {"type": "string", "enum": ["A", "B"]},
            "s": {"type": "string"},
            "t": {"type": "string", "format": "date-time"},
            "i": {"type": "integer", "minimum": 3},
            "f": {"type": "number"},
            "b": {"type": "boolean"},
            "a": {"type": "array", "items": {"type": "integer"}, "minItems": 2},
            "o": {"type": "object", "properties": {"x": {"type": ["string", "null"]}}},
        }});
        assert_eq!(
            sample(&schema, now),
            json!({
                "c": "k", "d": 5, "e": "ex", "n": "A", "s": "sample", "t": "2026-10-05T12:00:00Z",
                "i": 3, "f": 1, "b": false, "a": [1, 1], "o": {"x": "sample"},
            })
        );
    }

    #[test]
    fn overlay_turns_patterns_into_values() {
        let schema = json!({"type": "object", "properties": {
            "id": {"type": "integer"}, "lat": {"type": "number"}, "q": {"type": "string"},
            "on": {"type": "boolean"}, "tags": {"type": "array", "items": {"type": "string"}},
        }});
        let base = json!({"id": 1, "lat": 1, "q": "sample", "on": false, "tags": ["sample"]});
        let cases = [
            (
                json!({"id": "30104"}),
                json!({"id": 30104, "lat": 1, "q": "sample", "on": false, "tags": ["sample"]}),
            ),
            (
                json!({"lat": 91}),
                json!({"id": 1, "lat": 91, "q": "sample", "on": false, "tags": ["sample"]}),
            ),
            (
                json!({"lat": "25.0866"}),
                json!({"id": 1, "lat": 25.0866, "q": "sample", "on": false, "tags": ["sample"]}),
            ),
            (
                json!({"lat": "~3."}),
                json!({"id": 1, "lat": 3.5, "q": "sample", "on": false, "tags": ["sample"]}),
            ),
            (
                json!({"lat": "~-"}),
                json!({"id": 1, "lat": -5, "q": "sample", "on": false, "tags": ["sample"]}),
            ),
            (
                json!({"lat": "~04."}),
                json!({"id": 1, "lat": 104.5, "q": "sample", "on": false, "tags": ["sample"]}),
            ),
            (
                json!({"lat": "~25.3"}),
                json!({"id": 1, "lat": 25.3, "q": "sample", "on": false, "tags": ["sample"]}),
            ),
            (
                json!({"q": "~sushi"}),
                json!({"id": 1, "lat": 1, "q": "sushi", "on": false, "tags": ["sample"]}),
            ),
            (
                json!({"q": "="}),
                json!({"id": 1, "lat": 1, "q": "", "on": false, "tags": ["sample"]}),
            ),
            (json!({"q": "*"}), base.clone()),
            (
                json!({"on": "true"}),
                json!({"id": 1, "lat": 1, "q": "sample", "on": true, "tags": ["sample"]}),
            ),
            (
                json!({"tags": ["~vip"]}),
                json!({"id": 1, "lat": 1, "q": "sample", "on": false, "tags": ["sample", "vip"]}),
            ),
        ];
        for (rule, want) in cases {
            assert_eq!(
                overlay(base.clone(), &rule, &schema, Utc::now()),
                want,
                "{rule}"
            );
        }
    }
}
