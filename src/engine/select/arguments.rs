//! Arguments as production sees them: `inputSchema` defaults applied, then validated against
//! the schema compiled at start-up, a failure worded as the Go SDK's validator words it.

use serde_json::{Map, Value};

use crate::go::wording;

/// The names an object schema's `required` lists, in its order.
pub fn required(schema: &Value) -> impl Iterator<Item = &str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// Fills in every `default` the schema declares for an optional property the arguments leave
/// out, and recurses into nested objects that are present. As jsonschema-go's
/// `ApplyDefaults`, a required property's default is ignored: leaving it out stays an error.
pub fn apply_defaults(schema: &Value, args: &mut Value) {
    let (Some(properties), Value::Object(args)) =
        (schema.get("properties").and_then(Value::as_object), args)
    else {
        return;
    };
    let required = |key: &str| required(schema).any(|name| name == key);
    for (key, property) in properties {
        match args.get_mut(key) {
            Some(present) => apply_defaults(property, present),
            None if required(key) => {}
            None => {
                if let Some(default) = property.get("default") {
                    args.insert(key.clone(), default.clone());
                }
            }
        }
    }
}

/// `None` or `null` arguments are an empty object, as production treats them.
pub fn normalise(arguments: Option<Map<String, Value>>) -> Value {
    Value::Object(arguments.unwrap_or_default())
}

/// Whether `args` fit the schema, and if not, the first complaint in production's wording:
/// `validating "arguments": validating root: …`. The compiled validator decides; the Go walk
/// words it. A schema keyword the walk does not know still fails, worded by the validator.
pub fn validate(
    schema: &Value,
    validator: &jsonschema::Validator,
    args: &Value,
) -> Result<(), String> {
    let Some(error) = validator.iter_errors(args).next() else {
        return Ok(());
    };
    let details =
        wording::first_error(schema, args).unwrap_or_else(|| format!("validating root: {error}"));
    Err(format!("validating \"arguments\": {details}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_fill_absent_keys_only_and_recurse() {
        let schema = json!({"type": "object", "properties": {
            "limit": {"type": "integer", "default": 5},
            "query": {"type": "string"},
            "filter": {"type": "object", "properties": {"open": {"type": "boolean", "default": true}}},
            "id": {"type": "integer", "default": 7},
        }, "required": ["id"]});
        let cases = [
            (json!({}), json!({"limit": 5})),
            (json!({"limit": 2}), json!({"limit": 2})),
            (json!({"query": "x"}), json!({"query": "x", "limit": 5})),
            (
                json!({"filter": {}}),
                json!({"filter": {"open": true}, "limit": 5}),
            ),
            (
                json!({"filter": {"open": false}}),
                json!({"filter": {"open": false}, "limit": 5}),
            ),
            (json!([1]), json!([1])),
        ];
        for (mut args, want) in cases {
            apply_defaults(&schema, &mut args);
            assert_eq!(args, want);
        }
    }

    /// Every shipped tool: a wrong type in each property, an unknown key and a missing
    /// required one all come out in the Go walk's words, never the validator's fallback.
    #[test]
    fn every_shipped_schema_fails_in_go_words() {
        let loaded = crate::engine::catalog::load(std::path::Path::new("tools"));
        assert_eq!(loaded.tools.len(), 20);
        let prefix = "validating \"arguments\": validating root: ";
        for tool in loaded.tools.values() {
            let schema = &tool.input_schema;
            let call = |args: Value| {
                let mut args = args;
                apply_defaults(schema, &mut args);
                validate(schema, &tool.input_validator, &args).unwrap_err()
            };
            let extra = call(json!({"lang": "en"}));
            assert_eq!(
                extra,
                format!("{prefix}unexpected additional properties [\"lang\"]")
            );
            if let Some(first) = schema["required"].get(0).and_then(Value::as_str) {
                let missing = call(json!({}));
                assert!(
                    missing.starts_with(&format!(
                        "{prefix}required: missing properties: [\"{first}\""
                    )),
                    "{}: {missing}",
                    tool.name
                );
            }
            for (name, property) in schema["properties"].as_object().unwrap() {
                let wrong = if property["type"] == "string" {
                    json!(1.5)
                } else {
                    json!("tomorrow 8pm")
                };
                let message = call(json!({ name: wrong }));
                let want = format!("{prefix}validating /properties/{name}: type: ");
                assert!(message.starts_with(&want), "{}: {message}", tool.name);
            }
        }
    }

    #[test]
    fn validation_messages_are_the_go_sdks() {
        let schema = json!({"type": "object", "properties": {"id": {"type": "integer"}, "pick": {"oneOf": [{"type": "string"}]}}, "required": ["id"], "additionalProperties": false});
        let validator = jsonschema::draft202012::new(&schema).unwrap();
        assert!(validate(&schema, &validator, &json!({"id": 3})).is_ok());
        let cases = [
            (
                json!({}),
                r#"validating root: required: missing properties: ["id"]"#,
            ),
            (
                json!({"id": "x"}),
                r#"validating root: validating /properties/id: type: x has type "string", want "integer""#,
            ),
            (
                json!({"id": 1, "extra": true}),
                r#"validating root: unexpected additional properties ["extra"]"#,
            ),
            (
                json!([]),
                r#"validating root: type: [] has type "array", want "object""#,
            ),
            // `oneOf` is outside the Go walk: the validator's own words, still prefixed.
            (
                json!({"id": 1, "pick": 2}),
                r#"validating root: 2 is not valid under any of the schemas listed in the 'oneOf' keyword"#,
            ),
        ];
        for (bad, want) in cases {
            let message = validate(&schema, &validator, &bad).unwrap_err();
            assert_eq!(message, format!("validating \"arguments\": {want}"));
        }
    }
}
