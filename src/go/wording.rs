//! Validation errors worded as production words them. Production is built on the Go MCP SDK,
//! whose validator, `google/jsonschema-go`, stops at the first failure and wraps it once per
//! schema it descended through: `validating root: validating /properties/limit: minimum: 0/1
//! is less than 1.000000`. An agent developer who has seen production's messages would spot
//! any other wording at once, so this module walks a schema in the same order and words each
//! failure the same way.
//!
//! The walk covers the keywords of schemas the Go SDK infers and their usual hand additions:
//! `type`, `enum`, `const`, the numeric bounds, the string lengths and `pattern`, `items`,
//! `prefixItems`, the item counts, `uniqueItems`, `allOf`, `properties`,
//! `additionalProperties`, the property counts and `required`. Like production it never
//! checks `format`. Go visits `properties` in random map order; this walk takes them in the
//! schema's order, which is one of the orders production may show.

use regex::Regex;
use serde_json::{Map, Value};

use super::fmt;

/// jsonschema-go's message for the first way `instance` breaks `schema`, without the SDK's
/// `validating "arguments": ` prefix; `None` if the walk finds nothing.
pub fn first_error(schema: &Value, instance: &Value) -> Option<String> {
    check(schema, instance, "root")
}

fn check(schema: &Value, instance: &Value, path: &str) -> Option<String> {
    let schema = schema.as_object()?;
    local(schema, instance)
        .or_else(|| all_of(schema, instance, path))
        .or_else(|| array(schema, instance, path))
        .or_else(|| object(schema, instance, path))
        .map(|error| format!("validating {path}: {error}"))
}

/// The keywords that look at the value itself, in jsonschema-go's order.
fn local(schema: &Map<String, Value>, instance: &Value) -> Option<String> {
    type_error(schema, instance)
        .or_else(|| enum_error(schema, instance))
        .or_else(|| const_error(schema, instance))
        .or_else(|| number_error(schema, instance))
        .or_else(|| string_error(schema, instance))
}

/// JSON Schema's name for the value's type; a whole number is an `integer` however written.
fn type_of(instance: &Value) -> &'static str {
    match instance {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.as_f64().is_some_and(|x| x.fract() == 0.0) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_error(schema: &Map<String, Value>, instance: &Value) -> Option<String> {
    let got = type_of(instance);
    let fits = |want: &str| want == got || (want == "number" && got == "integer");
    match schema.get("type")? {
        Value::String(want) if !fits(want) => Some(format!(
            "type: {} has type {}, want {}",
            fmt::v(instance),
            fmt::quote(got),
            fmt::quote(want)
        )),
        Value::Array(wants) => {
            let wants: Vec<&str> = wants.iter().filter_map(Value::as_str).collect();
            (!wants.iter().any(|want| fits(want))).then(|| {
                format!(
                    "type: {} has type {}, want one of {}",
                    fmt::v(instance),
                    fmt::quote(got),
                    fmt::quote(&wants.join(", "))
                )
            })
        }
        _ => None,
    }
}

/// Equality as JSON Schema defines it: numbers by value, so `1` equals `1.0`.
fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, a)| y.get(key).is_some_and(|b| equal(a, b)))
        }
        _ => a == b,
    }
}

fn enum_error(schema: &Map<String, Value>, instance: &Value) -> Option<String> {
    let options = schema.get("enum")?.as_array()?;
    (!options.iter().any(|option| equal(option, instance))).then(|| {
        format!(
            "enum: {} does not equal any of: {}",
            fmt::v(instance),
            fmt::v(&Value::Array(options.clone()))
        )
    })
}

fn const_error(schema: &Map<String, Value>, instance: &Value) -> Option<String> {
    let want = schema.get("const")?;
    (!equal(want, instance)).then(|| {
        format!(
            "const: {} does not equal {}",
            fmt::v(instance),
            fmt::v(want)
        )
    })
}

/// Whether a number breaks a bound.
type Breaks = fn(f64, f64) -> bool;

fn number_error(schema: &Map<String, Value>, instance: &Value) -> Option<String> {
    let n = instance.as_f64()?;
    let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
    let rational = fmt::rational(n);
    if let Some(m) = bound("multipleOf")
        && (n / m).fract() != 0.0
    {
        return Some(format!(
            "multipleOf: {rational} is not a multiple of {}",
            fmt::fixed(m)
        ));
    }
    let checks: [(&str, Breaks, &str); 4] = [
        ("minimum", |n, m| n < m, "is less than"),
        ("maximum", |n, m| n > m, "is greater than"),
        (
            "exclusiveMinimum",
            |n, m| n <= m,
            "is less than or equal to",
        ),
        (
            "exclusiveMaximum",
            |n, m| n >= m,
            "is greater than or equal to",
        ),
    ];
    checks.into_iter().find_map(|(key, fails, words)| {
        let m = bound(key)?;
        fails(n, m).then(|| format!("{key}: {rational} {words} {}", fmt::fixed(m)))
    })
}

fn string_error(schema: &Map<String, Value>, instance: &Value) -> Option<String> {
    let s = instance.as_str()?;
    let length = s.chars().count();
    let count = |key: &str| {
        schema
            .get(key)
            .and_then(Value::as_u64)
            .and_then(|m| usize::try_from(m).ok())
    };
    if let Some(m) = count("minLength")
        && length < m
    {
        return Some(format!(
            "minLength: {} contains {length} Unicode code points, fewer than {m}",
            fmt::quote(s)
        ));
    }
    if let Some(m) = count("maxLength")
        && length > m
    {
        return Some(format!(
            "maxLength: {} contains {length} Unicode code points, more than {m}",
            fmt::quote(s)
        ));
    }
    let pattern = schema.get("pattern")?.as_str()?;
    let matches = Regex::new(pattern).is_ok_and(|re| re.is_match(s));
    (!matches).then(|| {
        format!(
            "pattern: {} does not match regular expression {}",
            fmt::quote(s),
            fmt::quote(pattern)
        )
    })
}

fn all_of(schema: &Map<String, Value>, instance: &Value, path: &str) -> Option<String> {
    let parts = schema.get("allOf")?.as_array()?;
    parts
        .iter()
        .enumerate()
        .find_map(|(i, part)| check(part, instance, &format!("{}/allOf/{i}", base(path))))
}

fn array(schema: &Map<String, Value>, instance: &Value, path: &str) -> Option<String> {
    let items = instance.as_array()?;
    let prefix = schema.get("prefixItems").and_then(Value::as_array);
    let prefix_len = prefix.map_or(0, Vec::len);
    let prefixed = prefix.into_iter().flatten().zip(items).enumerate();
    for (i, (item_schema, item)) in prefixed {
        if let Some(error) = check(
            item_schema,
            item,
            &format!("{}/prefixItems/{i}", base(path)),
        ) {
            return Some(error);
        }
    }
    if let Some(item_schema) = schema.get("items") {
        let at = format!("{}/items", base(path));
        if let Some(error) = items
            .iter()
            .skip(prefix_len)
            .find_map(|item| check(item_schema, item, &at))
        {
            return Some(error);
        }
    }
    let count = |key: &str| schema.get(key).and_then(Value::as_u64);
    let len = items.len() as u64;
    if let Some(m) = count("minItems")
        && len < m
    {
        return Some(format!("minItems: array length {len} is less than {m}"));
    }
    if let Some(m) = count("maxItems")
        && len > m
    {
        return Some(format!("maxItems: array length {len} is greater than {m}"));
    }
    if schema.get("uniqueItems") == Some(&Value::Bool(true)) {
        for (i, item) in items.iter().enumerate() {
            if let Some(j) = items[..i].iter().position(|earlier| equal(earlier, item)) {
                return Some(format!("uniqueItems: array items {i} and {j} are equal"));
            }
        }
    }
    None
}

fn object(schema: &Map<String, Value>, instance: &Value, path: &str) -> Option<String> {
    let fields = instance.as_object()?;
    let empty = Map::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for (name, property) in properties {
        if let Some(value) = fields.get(name) {
            let at = format!("{}/properties/{}", base(path), pointer_segment(name));
            if let Some(error) = check(property, value, &at) {
                return Some(error);
            }
        }
    }
    let extra = || {
        fields
            .iter()
            .filter(|(name, _)| !properties.contains_key(*name))
    };
    match schema.get("additionalProperties") {
        Some(Value::Bool(false)) => {
            let names: Vec<&str> = extra().map(|(name, _)| name.as_str()).collect();
            if !names.is_empty() {
                return Some(format!(
                    "unexpected additional properties {}",
                    fmt::quote_all(names)
                ));
            }
        }
        Some(additional @ Value::Object(_)) => {
            let at = format!("{}/additionalProperties", base(path));
            if let Some(error) = extra().find_map(|(_, value)| check(additional, value, &at)) {
                return Some(error);
            }
        }
        _ => {}
    }
    let count = |key: &str| schema.get(key).and_then(Value::as_u64);
    let len = fields.len() as u64;
    if let Some(m) = count("minProperties")
        && len < m
    {
        return Some(format!(
            "minProperties: object has {len} properties, less than {m}"
        ));
    }
    if let Some(m) = count("maxProperties")
        && len > m
    {
        return Some(format!(
            "maxProperties: object has {len} properties, greater than {m}"
        ));
    }
    let missing: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|name| !fields.contains_key(*name))
        .collect();
    (!missing.is_empty())
        .then(|| format!("required: missing properties: {}", fmt::quote_all(missing)))
}

/// Child schemas' paths are JSON Pointers from the root; only the root itself is `root`.
fn base(path: &str) -> &str {
    if path == "root" { "" } else { path }
}

fn pointer_segment(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every kind of failure, each worded as jsonschema-go words it.
    #[test]
    fn every_kind_is_worded_as_jsonschema_go_words_it() {
        let order = json!({
            "type": "object",
            "properties": {
                "restaurant_id": {"type": "integer"},
                "quantity": {"type": "integer", "minimum": 1},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50},
                "latitude": {"type": "number"},
                "scheduled_slot_start": {"type": "string", "format": "date-time"},
                "option_ids": {"type": "array", "items": {"type": "integer"}},
                "rideId": {"type": "string"}
            },
            "required": ["restaurant_id", "quantity"],
            "additionalProperties": false
        });
        let kinds = json!({
            "type": "object",
            "properties": {
                "tier": {"type": "string", "enum": ["go", "comfort", "business"]},
                "currency": {"const": "AED"},
                "tip": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 100},
                "step": {"type": "number", "multipleOf": 0.5},
                "code": {"type": "string", "minLength": 3, "maxLength": 5, "pattern": "^[A-Z]+$"},
                "seats": {"type": ["integer", "null"]},
                "stops": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": true},
                "items": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"item_id": {"type": "integer"}},
                    "required": ["item_id"],
                    "additionalProperties": false
                }},
                "pair": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}]},
                "tags": {"type": "object", "additionalProperties": {"type": "string"}},
                "a/b": {"type": "boolean"}
            },
            "minProperties": 1
        });
        let root = "validating root: ";
        let cases = [
            (
                &order,
                json!({"restaurant_id": "30104", "quantity": 1}),
                "validating /properties/restaurant_id: type: 30104 has type \"string\", want \"integer\"",
            ),
            (
                &order,
                json!({"restaurant_id": 30104.5, "quantity": 1}),
                "validating /properties/restaurant_id: type: 30104.5 has type \"number\", want \"integer\"",
            ),
            (
                &order,
                json!({"restaurant_id": null, "quantity": 1}),
                "validating /properties/restaurant_id: type: <invalid reflect.Value> has type \"null\", want \"integer\"",
            ),
            (
                &order,
                json!({"restaurant_id": 1, "quantity": 1, "latitude": "25.2"}),
                "validating /properties/latitude: type: 25.2 has type \"string\", want \"number\"",
            ),
            (
                &order,
                json!({"restaurant_id": 1, "quantity": 1, "rideId": 1_234_567}),
                "validating /properties/rideId: type: 1.234567e+06 has type \"integer\", want \"string\"",
            ),
            (
                &order,
                json!({"restaurant_id": 1, "quantity": 1, "rideId": {"id": 7}}),
                "validating /properties/rideId: type: map[id:7] has type \"object\", want \"string\"",
            ),
            (
                &order,
                json!({"restaurant_id": 1, "quantity": 1, "option_ids": "1,2"}),
                "validating /properties/option_ids: type: 1,2 has type \"string\", want \"array\"",
            ),
            (
                &order,
                json!({"restaurant_id": 1, "quantity": 1, "option_ids": [1, "x"]}),
                "validating /properties/option_ids: validating /properties/option_ids/items: type: x has type \"string\", want \"integer\"",
            ),
            (
                &order,
                json!({}),
                "required: missing properties: [\"restaurant_id\" \"quantity\"]",
            ),
            (
                &order,
                json!({"quantity": 2}),
                "required: missing properties: [\"restaurant_id\"]",
            ),
            (
                &order,
                json!({"restaurant_id": 1, "quantity": 1, "lang": "en", "x": 1}),
                "unexpected additional properties [\"lang\" \"x\"]",
            ),
            (
                &order,
                json!({"lang": "en"}),
                "unexpected additional properties [\"lang\"]",
            ),
            (
                &order,
                json!({"restaurant_id": 1, "quantity": 0}),
                "validating /properties/quantity: minimum: 0/1 is less than 1.000000",
            ),
            (
                &order,
                json!({"restaurant_id": 1, "quantity": -2}),
                "validating /properties/quantity: minimum: -2/1 is less than 1.000000",
            ),
            (
                &order,
                json!({"restaurant_id": 1, "quantity": 1, "limit": 51}),
                "validating /properties/limit: maximum: 51/1 is greater than 50.000000",
            ),
            (
                &kinds,
                json!({"tier": "Business"}),
                "validating /properties/tier: enum: Business does not equal any of: [go comfort business]",
            ),
            (
                &kinds,
                json!({"currency": "USD"}),
                "validating /properties/currency: const: USD does not equal AED",
            ),
            (
                &kinds,
                json!({"tip": 0}),
                "validating /properties/tip: exclusiveMinimum: 0/1 is less than or equal to 0.000000",
            ),
            (
                &kinds,
                json!({"tip": 100}),
                "validating /properties/tip: exclusiveMaximum: 100/1 is greater than or equal to 100.000000",
            ),
            (
                &kinds,
                json!({"step": 0.25}),
                "validating /properties/step: multipleOf: 1/4 is not a multiple of 0.500000",
            ),
            (
                &kinds,
                json!({"code": "AB"}),
                "validating /properties/code: minLength: \"AB\" contains 2 Unicode code points, fewer than 3",
            ),
            (
                &kinds,
                json!({"code": "ABCDEF"}),
                "validating /properties/code: maxLength: \"ABCDEF\" contains 6 Unicode code points, more than 5",
            ),
            (
                &kinds,
                json!({"code": "ab1"}),
                "validating /properties/code: pattern: \"ab1\" does not match regular expression \"^[A-Z]+$\"",
            ),
            (
                &kinds,
                json!({"seats": "2"}),
                "validating /properties/seats: type: 2 has type \"string\", want one of \"integer, null\"",
            ),
            (
                &kinds,
                json!({"stops": []}),
                "validating /properties/stops: minItems: array length 0 is less than 1",
            ),
            (
                &kinds,
                json!({"stops": [1, 2, 3]}),
                "validating /properties/stops: maxItems: array length 3 is greater than 2",
            ),
            (
                &kinds,
                json!({"stops": [1, 1.0]}),
                "validating /properties/stops: uniqueItems: array items 1 and 0 are equal",
            ),
            (
                &kinds,
                json!({"items": [{"item_id": 1}, {"item_id": "2"}]}),
                "validating /properties/items: validating /properties/items/items: validating /properties/items/items/properties/item_id: type: 2 has type \"string\", want \"integer\"",
            ),
            (
                &kinds,
                json!({"items": [{}]}),
                "validating /properties/items: validating /properties/items/items: required: missing properties: [\"item_id\"]",
            ),
            (
                &kinds,
                json!({"items": [{"item_id": 1, "qty": 2}]}),
                "validating /properties/items: validating /properties/items/items: unexpected additional properties [\"qty\"]",
            ),
            (
                &kinds,
                json!({"pair": [25.2, "55.3"]}),
                "validating /properties/pair: validating /properties/pair/prefixItems/1: type: 55.3 has type \"string\", want \"number\"",
            ),
            (
                &kinds,
                json!({"tags": {"a": 1}}),
                "validating /properties/tags: validating /properties/tags/additionalProperties: type: 1 has type \"integer\", want \"string\"",
            ),
            (
                &kinds,
                json!({"a/b": 1}),
                "validating /properties/a~1b: type: 1 has type \"integer\", want \"boolean\"",
            ),
            (
                &kinds,
                json!({}),
                "minProperties: object has 0 properties, less than 1",
            ),
        ];
        for (schema, instance, want) in cases {
            assert_eq!(
                first_error(schema, &instance).as_deref(),
                Some(format!("{root}{want}").as_str()),
                "{instance}"
            );
        }
    }

    #[test]
    fn valid_arguments_and_format_raise_nothing() {
        let schema = json!({"type": "object", "properties": {
            "when": {"type": "string", "format": "date-time"},
            "n": {"type": "integer", "minimum": 1}
        }, "additionalProperties": false});
        for instance in [
            json!({}),
            json!({"when": "tomorrow 8pm"}),
            json!({"n": 3.0}),
        ] {
            assert_eq!(first_error(&schema, &instance), None, "{instance}");
        }
    }
}
