//! Arguments as production sees them: `inputSchema` defaults applied, then validated against
//! the schema compiled at start-up.

use serde_json::{Map, Value};

/// Fills in every `default` the schema declares for a property the arguments leave out, and
/// recurses into nested objects that are present.
pub fn apply_defaults(schema: &Value, args: &mut Value) {
    let (Some(properties), Value::Object(args)) =
        (schema.get("properties").and_then(Value::as_object), args)
    else {
        return;
    };
    for (key, property) in properties {
        match args.get_mut(key) {
            Some(present) => apply_defaults(property, present),
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

/// The validator's first complaint in production's wording: `validating "arguments": …`.
pub fn validate(validator: &jsonschema::Validator, args: &Value) -> Result<(), String> {
    match validator.iter_errors(args).next() {
        None => Ok(()),
        Some(error) => {
            let at = error.instance_path().to_string();
            let at = if at.is_empty() {
                "root".to_string()
            } else {
                at
            };
            Err(format!(
                "validating \"arguments\": validating {at}: {error}"
            ))
        }
    }
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
        }});
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

    #[test]
    fn validation_messages_carry_the_prefix() {
        let schema = json!({"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"], "additionalProperties": false});
        let validator = jsonschema::draft202012::new(&schema).unwrap();
        assert!(validate(&validator, &json!({"id": 3})).is_ok());
        for bad in [
            json!({}),
            json!({"id": "x"}),
            json!({"id": 1, "extra": true}),
            json!([]),
        ] {
            let message = validate(&validator, &bad).unwrap_err();
            assert!(
                message.starts_with("validating \"arguments\": "),
                "{message}"
            );
        }
    }
}
