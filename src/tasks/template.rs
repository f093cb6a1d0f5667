//! A task's actions are plain JSON, so that any harness reads the file; `grade` reads a JSON
//! template whose bare `{{results.N.path}}` inserts a previous answer's field as JSON
//! (docs/GRADING.md). A string that is one placeholder and nothing else stands for that bare
//! placeholder: `"basket_id": "{{results.1.basket.id}}"` is the basket's id as the answer has it
//! (a number), `"rideId": "{{results.0.ride.rideId}}"` a string. A placeholder with other text
//! around it stays text, as in the scenario files.

use serde_json::Value;

/// `value` as the template `grade` reads: its JSON text, with every string that is exactly one
/// `{{…}}` placeholder written bare.
pub fn to_template(value: &Value) -> String {
    let mut out = String::new();
    write(value, 0, &mut out);
    out
}

fn write(value: &Value, depth: usize, out: &mut String) {
    match value {
        Value::String(text) if is_placeholder(text) => out.push_str(text),
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                newline(depth + 1, out);
                write(item, depth + 1, out);
            }
            newline(depth, out);
            out.push(']');
        }
        Value::Object(map) if !map.is_empty() => {
            out.push('{');
            for (n, (key, item)) in map.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                newline(depth + 1, out);
                out.push_str(&Value::String(key.clone()).to_string());
                out.push_str(": ");
                write(item, depth + 1, out);
            }
            newline(depth, out);
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn newline(depth: usize, out: &mut String) {
    out.push('\n');
    out.push_str(&"  ".repeat(depth));
}

/// Whether `text` is one placeholder and nothing else, with nothing inside that would end it
/// early or break the JSON around it.
fn is_placeholder(text: &str) -> bool {
    text.strip_prefix("{{")
        .and_then(|rest| rest.strip_suffix("}}"))
        .is_some_and(|inner| {
            !inner.trim().is_empty()
                && !inner.contains("{{")
                && !inner.contains("}}")
                && !inner.contains(['"', '\\', '\n'])
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn whole_string_placeholders_are_written_bare() {
        let cases = [
            (
                json!({"basket_id": "{{results.1.basket.id}}"}),
                "{\n  \"basket_id\": {{results.1.basket.id}}\n}",
            ),
            (
                json!({"notes": "basket {{results.1.basket.id}}"}),
                "{\n  \"notes\": \"basket {{results.1.basket.id}}\"\n}",
            ),
            (
                json!(["{{ results.0.ride.rideId }}"]),
                "[\n  {{ results.0.ride.rideId }}\n]",
            ),
            (
                json!({"empty": "{{}}", "list": []}),
                "{\n  \"empty\": \"{{}}\",\n  \"list\": []\n}",
            ),
            (json!("{{a}} and {{b}}"), "\"{{a}} and {{b}}\""),
        ];
        for (value, want) in cases {
            assert_eq!(to_template(&value), want, "{value}");
        }
    }

    #[test]
    fn without_placeholders_the_template_is_the_json() {
        let value = json!({"actions": [{"tool": "t", "arguments": {"a": 1.5, "b": [true, null], "c": "x\"y"}}], "calls": {}});
        let text = to_template(&value);
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
    }
}
