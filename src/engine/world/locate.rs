//! Where a value of the world's data is, said so that a person finds it: the line on which it
//! starts in its file, found by its JSON pointer (`/restaurants/2/minimumOrder`); the path with
//! the ids of the entities it passes through (`restaurants[2] (30103).minimumOrder`); the keys a
//! file gives twice, which a JSON reader would silently take the last of; and the entity of the
//! data a call's arguments name (its restaurant, item, order, ride, place …). A small scanner
//! over text that already parsed: it follows the pointer and skips everything else.

use std::collections::HashMap;

use serde_json::{Map, Value};

/// The tokens of a JSON pointer, unescaped.
fn tokens(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
}

/// `key` as one token of a JSON pointer.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The 1-based line of the value at `pointer` in `text`; the line of the nearest enclosing
/// value that exists when the pointer goes further than the text.
pub fn line_of(text: &str, pointer: &str) -> usize {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    for token in tokens(pointer) {
        match bytes.get(at) {
            Some(b'{') => match member(bytes, at, &token) {
                Some(value) => at = value,
                None => break,
            },
            Some(b'[') => match token
                .parse::<usize>()
                .ok()
                .and_then(|i| element(bytes, at, i))
            {
                Some(value) => at = value,
                None => break,
            },
            _ => break,
        }
    }
    line_at(text, at)
}

/// The 1-based line of byte `at` of `text`.
fn line_at(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// What identifies an entity of the data, an object in a list: its `id`, else its first
/// field whose name ends in `Id` or `Uuid` (`productId`, `rideId`, `locationUuid`), else its
/// `name`.
pub fn label(value: &Value) -> Option<String> {
    let Value::Object(fields) = value else {
        return None;
    };
    let text = |value: &Value| match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    };
    fields
        .get("id")
        .and_then(text)
        .or_else(|| {
            fields
                .iter()
                .filter(|(key, _)| key.ends_with("Id") || key.ends_with("Uuid"))
                .find_map(|(_, value)| text(value))
        })
        .or_else(|| {
            fields
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
}

/// What an entity is called: its `name` (or `name.value`), `title`, `displayName` or `label`.
pub fn name(value: &Value) -> Option<&str> {
    ["name", "title", "displayName", "label"]
        .iter()
        .filter_map(|key| value.get(key))
        .find_map(|found| found.as_str().or_else(|| found.get("value")?.as_str()))
}

/// The value at `pointer` as a person reads its place: keys joined by dots, list positions in
/// brackets, and the outermost and innermost entity of a list with its [`label`]:
/// `restaurants[6] (30107).categories[0].items[1] (3010702).price`. Empty for the whole.
pub fn readable(value: &Value, pointer: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut labelled: Vec<(usize, String)> = Vec::new();
    let mut at = Some(value);
    for token in tokens(pointer) {
        match at {
            Some(Value::Array(items)) => {
                at = token.parse::<usize>().ok().and_then(|i| items.get(i));
                parts.push(format!("[{token}]"));
                if let Some(label) = at.and_then(label) {
                    labelled.push((parts.len() - 1, label));
                }
            }
            other => {
                at = other.and_then(|value| value.get(&token));
                let plain = !token.is_empty()
                    && token
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
                parts.push(if plain {
                    format!(".{token}")
                } else {
                    format!("[{}]", Value::String(token))
                });
            }
        }
    }
    let shown = [labelled.first(), labelled.last()];
    for (index, label) in shown.into_iter().flatten() {
        if !parts[*index].ends_with(')') {
            parts[*index].push_str(&format!(" ({label})"));
        }
    }
    parts.concat().trim_start_matches('.').to_string()
}

/// A key an object of a JSON text gives more than once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The pointer of the key's value (`/restaurants/0/price`).
    pub pointer: String,
    pub key: String,
    /// The line of the later key, and of the first.
    pub line: usize,
    pub first_line: usize,
}

/// Every key that an object of `text` (a JSON text that parsed) gives again after giving it
/// once, in the order they appear.
pub fn duplicate_keys(text: &str) -> Vec<Duplicate> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut pointer = String::new();
    walk(text, skip_space(bytes, 0), &mut pointer, &mut found);
    found
}

/// Scans the value at `at`, noting the keys its objects repeat; where the value ends.
fn walk(text: &str, at: usize, pointer: &mut String, found: &mut Vec<Duplicate>) -> usize {
    let bytes = text.as_bytes();
    let (open, close) = match bytes.get(at) {
        Some(b'{') => (b'{', b'}'),
        Some(b'[') => (b'[', b']'),
        _ => return value_end(bytes, at),
    };
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut i = skip_space(bytes, at + 1);
    let mut index = 0usize;
    while !matches!(bytes.get(i), None | Some(&b'}') | Some(&b']')) {
        let depth = pointer.len();
        let value = if open == b'{' {
            let end = string_end(bytes, i);
            let key: String = serde_json::from_slice(&bytes[i..end]).unwrap_or_default();
            pointer.push('/');
            pointer.push_str(&escape(&key));
            if let Some(&first) = seen.get(&key) {
                found.push(Duplicate {
                    pointer: pointer.clone(),
                    key,
                    line: line_at(text, i),
                    first_line: line_at(text, first),
                });
            } else {
                seen.insert(key, i);
            }
            skip_space(bytes, skip_space(bytes, end) + 1)
        } else {
            pointer.push_str(&format!("/{index}"));
            index += 1;
            i
        };
        i = skip_space(bytes, walk(text, value, pointer, found));
        pointer.truncate(depth);
        if bytes.get(i) == Some(&b',') {
            i = skip_space(bytes, i + 1);
        }
    }
    debug_assert!(bytes.get(i).is_none_or(|&b| b == close));
    i + 1
}

/// The entity of `data` (each data file's value under its stem) that `args` name, the most
/// specific one when they name several: each argument whose name ends in `id` or `uuid`
/// (`restaurant_id`, `item_id`, `rideId`, `delivery_location_uuid`) is looked for as the
/// [`label`] of an object in a list, and the deepest one found wins (an item over its
/// restaurant). The data file's stem and the entity's pointer.
pub fn entity(data: &Map<String, Value>, args: &Value) -> Option<(String, String)> {
    let Value::Object(args) = args else {
        return None;
    };
    let wanted: Vec<String> = args
        .iter()
        .filter(|(key, _)| {
            let key = key.to_ascii_lowercase();
            key.ends_with("id") || key.ends_with("uuid")
        })
        .filter_map(|(_, value)| match value {
            Value::String(text) if !text.is_empty() => Some(text.clone()),
            Value::Number(number) => Some(number.to_string()),
            _ => None,
        })
        .collect();
    let mut best: Option<(String, String)> = None;
    for wanted in &wanted {
        for (stem, value) in data {
            let mut pointer = String::new();
            if let Some(found) = find(value, wanted, &mut pointer) {
                let deeper = best
                    .as_ref()
                    .is_none_or(|(_, best)| found.matches('/').count() > best.matches('/').count());
                if deeper {
                    best = Some((stem.clone(), found));
                }
                break;
            }
        }
    }
    best
}

/// The pointer of the first object in a list under `value` whose [`label`] is `wanted`.
fn find(value: &Value, wanted: &str, pointer: &mut String) -> Option<String> {
    let depth = pointer.len();
    let found = match value {
        Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
            pointer.truncate(depth);
            pointer.push_str(&format!("/{i}"));
            if label(item).as_deref() == Some(wanted) {
                Some(pointer.clone())
            } else {
                find(item, wanted, pointer)
            }
        }),
        Value::Object(fields) => fields.iter().find_map(|(key, field)| {
            pointer.truncate(depth);
            pointer.push('/');
            pointer.push_str(&escape(key));
            find(field, wanted, pointer)
        }),
        _ => None,
    };
    pointer.truncate(depth);
    found
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The end of the string that starts at `at` (just past its closing quote).
fn string_end(bytes: &[u8], mut at: usize) -> usize {
    at += 1;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    at
}

/// The end of the value that starts at `at`.
fn value_end(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b'"') => string_end(bytes, at),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut i = at;
            while let Some(&byte) = bytes.get(i) {
                match byte {
                    b'"' => {
                        i = string_end(bytes, i);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            i
        }
        _ => {
            let mut i = at;
            while bytes
                .get(i)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
            {
                i += 1;
            }
            i
        }
    }
}

/// Where the value of member `key` of the object at `at` starts.
fn member(bytes: &[u8], at: usize, key: &str) -> Option<usize> {
    let mut i = skip_space(bytes, at + 1);
    while bytes.get(i) == Some(&b'"') {
        let end = string_end(bytes, i);
        let name: String = serde_json::from_slice(&bytes[i..end]).ok()?;
        let colon = skip_space(bytes, end);
        let value = skip_space(bytes, colon + 1);
        if name == key {
            return Some(value);
        }
        i = skip_space(bytes, value_end(bytes, value));
        if bytes.get(i) == Some(&b',') {
            i = skip_space(bytes, i + 1);
        }
    }
    None
}

/// Where element `index` of the array at `at` starts.
fn element(bytes: &[u8], at: usize, index: usize) -> Option<usize> {
    let mut i = skip_space(bytes, at + 1);
    for _ in 0..index {
        if matches!(bytes.get(i), None | Some(b']')) {
            return None;
        }
        i = skip_space(bytes, value_end(bytes, i));
        if bytes.get(i) != Some(&b',') {
            return None;
        }
        i = skip_space(bytes, i + 1);
    }
    (!matches!(bytes.get(i), None | Some(b']'))).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_find_their_lines() {
        let text = "{\n  \"a\": {\"x\": 1},\n  \"list\": [\n    {\"id\": 1, \"s\": \"q\\\"]\"},\n    {\"id\": 2,\n     \"price\": 3}\n  ],\n  \"a/b\": 5\n}\n";
        let cases = [
            ("", 1),
            ("/a", 2),
            ("/a/x", 2),
            ("/list", 3),
            ("/list/0", 4),
            ("/list/1", 5),
            ("/list/1/price", 6),
            ("/list/9", 3),
            ("/a~1b", 8),
            ("/missing", 1),
        ];
        for (pointer, line) in cases {
            assert_eq!(line_of(text, pointer), line, "{pointer}");
        }
    }

    #[test]
    fn paths_read_with_the_ids_of_their_outermost_and_innermost_entities() {
        let value = json!({
            "restaurants": [{"id": 30101, "categories": [{"id": 301011, "items": [
                {"id": 3010101, "price": 16.5, "tags": ["wrap"]}]}]}],
            "products": [{"productId": 1101, "name": "Go"}],
            "couriers": [{"name": "Arjun Nair"}],
            "pickupWait": {"LOC-50001": 0, "a b": 1},
            "sea": [[25.3, 54.0]],
        });
        let cases = [
            ("", ""),
            ("/restaurants/0", "restaurants[0] (30101)"),
            (
                "/restaurants/0/categories/0/items/0/price",
                "restaurants[0] (30101).categories[0].items[0] (3010101).price",
            ),
            (
                "/restaurants/0/categories/0/items/0/tags/0",
                "restaurants[0] (30101).categories[0].items[0] (3010101).tags[0]",
            ),
            ("/restaurants/3/name", "restaurants[3].name"),
            ("/products/0/name", "products[0] (1101).name"),
            ("/couriers/0", "couriers[0] (Arjun Nair)"),
            ("/pickupWait/LOC-50001", "pickupWait.LOC-50001"),
            ("/pickupWait/a b", "pickupWait[\"a b\"]"),
            ("/sea/0/1", "sea[0][1]"),
        ];
        for (pointer, readable_path) in cases {
            assert_eq!(readable(&value, pointer), readable_path, "{pointer}");
        }
    }

    #[test]
    fn keys_given_twice_are_found_with_both_lines() {
        let text = "{\n  \"a\": 1,\n  \"list\": [\n    {\"id\": 1, \"p\": 2,\n     \"p\": \"x\"},\n    {\"id\": 2, \"s\": \"\\\"p\\\":\"}\n  ],\n  \"a\": {\"a\": 1}\n}\n";
        serde_json::from_str::<Value>(text).expect("valid JSON");
        let found = duplicate_keys(text);
        let expected = [("/list/0/p", "p", 5, 4), ("/a", "a", 8, 2)];
        assert_eq!(found.len(), expected.len(), "{found:?}");
        for (found, (pointer, key, line, first_line)) in found.iter().zip(expected) {
            assert_eq!(
                (
                    found.pointer.as_str(),
                    found.key.as_str(),
                    found.line,
                    found.first_line
                ),
                (pointer, key, line, first_line)
            );
        }
        assert!(duplicate_keys("[{\"a\": 1}, {\"a\": 2}]").is_empty());
    }

    #[test]
    fn arguments_name_the_most_specific_entity_they_hold_an_id_of() {
        let food = json!({"restaurants": [
            {"id": 30101, "name": {"value": "Shawarma Station"}, "categories": [{"id": 301011, "items": [
                {"id": 3010101, "name": "Chicken Shawarma Wrap"}]}]},
            {"id": 30102, "name": {"value": "Kaizen"}, "categories": []}]});
        let rides = json!({"seedRides": [{"rideId": "5001001"}]});
        let data: Map<String, Value> = [("food".to_string(), food), ("rides".to_string(), rides)]
            .into_iter()
            .collect();
        let cases = [
            (
                json!({"restaurant_id": 30102}),
                Some(("food", "/restaurants/1")),
            ),
            (
                json!({"restaurant_id": 30101, "item_id": 3010101, "quantity": 1}),
                Some(("food", "/restaurants/0/categories/0/items/0")),
            ),
            (
                json!({"rideId": "5001001"}),
                Some(("rides", "/seedRides/0")),
            ),
            (json!({"query": "30101", "limit": 30101}), None),
            (json!({"restaurant_id": 1}), None),
            (json!("30101"), None),
        ];
        for (args, expected) in cases {
            let found = entity(&data, &args);
            assert_eq!(
                found
                    .as_ref()
                    .map(|(stem, pointer)| (stem.as_str(), pointer.as_str())),
                expected,
                "{args}"
            );
        }
        assert_eq!(
            name(&data["food"]["restaurants"][0]),
            Some("Shawarma Station")
        );
        assert_eq!(
            name(&data["food"]["restaurants"][0]["categories"][0]["items"][0]),
            Some("Chicken Shawarma Wrap")
        );
    }
}
