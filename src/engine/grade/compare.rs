//! Two end states of a world compared as a person reads them: what the expected actions made
//! against what the agent made. Fields the world mints (ids, times, the next ids) are compared by
//! role, not by value: an order is the first new order, whatever its id; a line is the basket's
//! first line. Entities the seed already had are matched by their id.

use serde_json::{Map, Value};

/// Each way `actual` differs from `expected`, one line each; none when they agree.
pub fn differences(seed: &Value, expected: &Value, actual: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let empty = Map::new();
    let (seed, expected, actual) = (
        seed.as_object().unwrap_or(&empty),
        expected.as_object().unwrap_or(&empty),
        actual.as_object().unwrap_or(&empty),
    );
    let mut keys: Vec<&String> = expected.keys().chain(actual.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys.into_iter().filter(|key| !minted(key)) {
        let (e, a) = (expected.get(key), actual.get(key));
        match (e, a) {
            (Some(Value::Array(e)), Some(Value::Array(a))) if entities(e) && entities(a) => {
                let known: Vec<&Value> = seed
                    .get(key)
                    .and_then(Value::as_array)
                    .map(|s| s.iter().filter_map(identity).collect())
                    .unwrap_or_default();
                compare_entities(key, &known, e, a, &mut found);
            }
            _ => compare(
                key,
                e.unwrap_or(&Value::Null),
                a.unwrap_or(&Value::Null),
                &mut found,
            ),
        }
    }
    found
}

/// Whether every element is an object: a list of entities.
fn entities(list: &[Value]) -> bool {
    list.iter().all(Value::is_object)
}

/// What identifies an entity of the seed.
fn identity(entity: &Value) -> Option<&Value> {
    entity.get("id").or_else(|| entity.get("rideId"))
}

/// Fields the world mints: compared by role, not by value.
fn minted(key: &str) -> bool {
    matches!(
        key,
        "id" | "rideId" | "orderId" | "basketId" | "basketItemId"
    ) || key.ends_with("At")
        || key.ends_with("Unix")
        || key.starts_with("next")
}

fn compare_entities(
    key: &str,
    known: &[&Value],
    expected: &[Value],
    actual: &[Value],
    found: &mut Vec<String>,
) {
    let is_new = |entity: &&Value| identity(entity).is_none_or(|id| !known.contains(&id));
    let (e_new, a_new): (Vec<&Value>, Vec<&Value>) = (
        expected.iter().filter(is_new).collect(),
        actual.iter().filter(is_new).collect(),
    );
    let one = singular(key);
    for (n, (e, a)) in e_new.iter().zip(&a_new).enumerate() {
        compare(&format!("{key}[new {}]{}", n + 1, label(e)), e, a, found);
    }
    for extra in a_new.iter().skip(e_new.len()) {
        found.push(format!(
            "{key}: 1 {one}{} that the expected actions do not make",
            named(extra)
        ));
    }
    for missing in e_new.iter().skip(a_new.len()) {
        found.push(format!(
            "{key}: 1 {one}{} that the expected actions make is missing",
            named(missing)
        ));
    }
    for id in known {
        let pick = |list: &[Value]| list.iter().find(|e| identity(e) == Some(id)).cloned();
        let (e, a) = (pick(expected), pick(actual));
        let at = format!("{key}[{}]", plain(id));
        compare(
            &format!("{at}{}", e.as_ref().map(label).unwrap_or_default()),
            &e.unwrap_or(Value::Null),
            &a.unwrap_or(Value::Null),
            found,
        );
    }
}

fn compare(path: &str, expected: &Value, actual: &Value, found: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            let mut keys: Vec<&String> = e.keys().chain(a.keys()).collect();
            keys.dedup();
            let mut seen = Vec::new();
            for key in keys {
                if minted(key) || seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                let (ev, av) = (
                    e.get(key).unwrap_or(&Value::Null),
                    a.get(key).unwrap_or(&Value::Null),
                );
                if ev.is_object() || ev.is_array() {
                    compare(&format!("{path}: {key}"), ev, av, found);
                } else if ev != av && !same_number(ev, av) {
                    found.push(format!(
                        "{path}: {key} expected {}, got {}",
                        plain(ev),
                        plain(av)
                    ));
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            for (n, (ev, av)) in e.iter().zip(a).enumerate() {
                compare(&format!("{path}[{n}]{}", label(ev)), ev, av, found);
            }
            if e.len() != a.len() {
                found.push(format!(
                    "{path}: {} expected, got {}",
                    count(e.len()),
                    count(a.len())
                ));
            }
        }
        (e, a) if e == a || same_number(e, a) => {}
        (e, a) => found.push(format!("{path}: expected {}, got {}", plain(e), plain(a))),
    }
}

fn same_number(a: &Value, b: &Value) -> bool {
    matches!((a.as_f64(), b.as_f64()), (Some(x), Some(y)) if (x - y).abs() < 1e-9)
}

fn count(n: usize) -> String {
    match n {
        1 => "1 entry".to_string(),
        n => format!("{n} entries"),
    }
}

/// A value as a person reads it: a string without quotes, money as `AED 24.50`.
fn plain(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => "nothing".to_string(),
        Value::Object(map) => match (map.get("amount"), map.get("currency")) {
            (Some(amount), Some(Value::String(currency))) => {
                format!("{currency} {:.2}", amount.as_f64().unwrap_or_default())
            }
            _ => value.to_string(),
        },
        other => other.to_string(),
    }
}

/// An entity's name, for a person: ` Kaizen Sushi Bar` (with a space), or nothing.
fn label(entity: &Value) -> String {
    [
        "/restaurant/name/value",
        "/restaurant/name",
        "/product/name",
        "/name/value",
        "/name",
    ]
    .iter()
    .find_map(|pointer| entity.pointer(pointer).and_then(Value::as_str))
    .map(|name| format!(" {name}"))
    .unwrap_or_default()
}

/// An entity's name in brackets: ` (Comfort)`, or nothing.
fn named(entity: &Value) -> String {
    match label(entity).trim() {
        "" => String::new(),
        name => format!(" ({name})"),
    }
}

/// `orders` → `order`.
fn singular(key: &str) -> &str {
    key.strip_suffix('s').unwrap_or(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn end_states_are_compared_by_role() {
        let seed = json!({"orders": [{"id": 700001, "status": "PREPARING"}], "rides": [], "basket": null, "nextOrderId": 700005});
        let order = |id: u64, quantity: u64| {
            json!({"id": id, "restaurant": {"name": {"value": "Kaizen Sushi Bar"}}, "placedAt": "x",
                   "items": [{"name": "Salmon Nigiri", "quantity": quantity}]})
        };
        let expected = json!({"orders": [order(700005, 2), {"id": 700001, "status": "PREPARING"}], "rides": [], "basket": null, "nextOrderId": 700006});
        let cases = [
            (
                json!({"orders": [order(700009, 2), {"id": 700001, "status": "PREPARING"}], "rides": [], "basket": null, "nextOrderId": 700010}),
                vec![],
            ),
            (
                json!({"orders": [order(700005, 1), {"id": 700001, "status": "PREPARING"}], "rides": [], "basket": null}),
                vec![
                    "orders[new 1] Kaizen Sushi Bar: items[0] Salmon Nigiri: quantity expected 2, got 1",
                ],
            ),
            (
                json!({"orders": [order(700005, 2), {"id": 700001, "status": "PREPARING"}], "rides": [{"rideId": "5001007", "product": {"name": "Comfort"}}], "basket": null}),
                vec!["rides: 1 ride (Comfort) that the expected actions do not make"],
            ),
            (
                json!({"orders": [order(700009, 2), {"id": 700001, "status": "PREPARING"}], "rides": [], "basket": null, "seededAt": 1791187200, "basketEmptiedAt": 1791189000}),
                vec![],
            ),
            (
                json!({"orders": [{"id": 700001, "status": "CANCELLED"}], "rides": [], "basket": null}),
                vec![
                    "orders: 1 order (Kaizen Sushi Bar) that the expected actions make is missing",
                    "orders[700001]: status expected PREPARING, got CANCELLED",
                ],
            ),
        ];
        for (actual, want) in cases {
            assert_eq!(differences(&seed, &expected, &actual), want, "{actual}");
        }
    }
}
