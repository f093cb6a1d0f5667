//! Two end states of a world compared as a person reads them: what the expected actions made
//! against what the agent made. Fields the world mints (ids, times, the next ids) are compared by
//! role, not by value: an order is the first new order, whatever its id; a line is the basket's
//! first line. Entities the seed already had are matched by their id. Ids are shown by the names
//! the data gives them ([`Names`]): `orders[new 1] Kaizen Sushi Bar: lines[0] Salmon Nigiri`.

use serde_json::{Map, Value};

use super::names::{Names, name_of};

/// Each way `actual` differs from `expected`, one line each; none when they agree.
pub fn differences(seed: &Value, expected: &Value, actual: &Value, names: &Names) -> Vec<String> {
    let mut differ = Differ {
        names,
        found: Vec::new(),
    };
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
        match (list(e), list(a)) {
            (Some(e), Some(a)) if entities(e) && entities(a) && !(e.is_empty() && a.is_empty()) => {
                let known: Vec<&Value> = seed
                    .get(key)
                    .and_then(Value::as_array)
                    .map(|s| s.iter().filter_map(identity).collect())
                    .unwrap_or_default();
                differ.entities(key, &known, e, a);
            }
            _ => differ.compare(
                key,
                key,
                e.unwrap_or(&Value::Null),
                a.unwrap_or(&Value::Null),
            ),
        }
    }
    differ.found
}

/// A field's value as a list: one a state does not have yet is an empty one (the seed may have
/// no rides); `None` for a value that is no list.
fn list(value: Option<&Value>) -> Option<&[Value]> {
    match value {
        None | Some(Value::Null) => Some(&[]),
        Some(Value::Array(list)) => Some(list),
        Some(_) => None,
    }
}

/// Whether every element is an object: a list of entities.
fn entities(list: &[Value]) -> bool {
    list.iter().all(Value::is_object)
}

/// Whether every element is a number or a string: a list of values (ids, words).
fn scalars(list: &[Value]) -> bool {
    list.iter().all(|v| v.is_number() || v.is_string())
}

/// What identifies an entity of the seed.
fn identity(entity: &Value) -> Option<&Value> {
    entity.get("id").or_else(|| entity.get("rideId"))
}

/// Fields the world mints: compared by role, not by value. A basket's `revision` counts its
/// changes, which says how the agent got there, not where it ended.
fn minted(key: &str) -> bool {
    matches!(
        key,
        "id" | "rideId" | "orderId" | "basketId" | "basketItemId" | "at" | "revision"
    ) || key.ends_with("At")
        || key.ends_with("Unix")
        || key.starts_with("next")
}

/// Whether a field holds ids of entities the data names (`restaurantId`, `optionIds`,
/// `deliveryLocationUuid`).
fn holds_ids(key: &str) -> bool {
    key.ends_with("Id") || key.ends_with("Ids") || key.ends_with("Uuid")
}

/// The fields a state's entity is known by, most telling first: an order by its restaurant, a
/// line by its item, a ride by its product.
const KNOWN_BY: [&str; 3] = ["restaurantId", "itemId", "productId"];

/// What the comparison found so far, and the names it shows ids by.
struct Differ<'a> {
    names: &'a Names,
    found: Vec<String>,
}

impl Differ<'_> {
    fn entities(&mut self, key: &str, known: &[&Value], expected: &[Value], actual: &[Value]) {
        let is_new = |entity: &&Value| identity(entity).is_none_or(|id| !known.contains(&id));
        let (e_new, a_new): (Vec<&Value>, Vec<&Value>) = (
            expected.iter().filter(is_new).collect(),
            actual.iter().filter(is_new).collect(),
        );
        let one = singular(key);
        for (n, (e, a)) in e_new.iter().zip(&a_new).enumerate() {
            let path = format!("{key}[new {}]{}", n + 1, self.label(e));
            self.compare(&path, key, e, a);
        }
        for extra in a_new.iter().skip(e_new.len()) {
            let line = format!(
                "{key}: 1 {one}{} that the expected actions do not make",
                self.named(extra)
            );
            self.found.push(line);
        }
        for missing in e_new.iter().skip(a_new.len()) {
            let line = format!(
                "{key}: 1 {one}{} that the expected actions make is missing",
                self.named(missing)
            );
            self.found.push(line);
        }
        for id in known {
            let pick = |list: &[Value]| list.iter().find(|e| identity(e) == Some(id)).cloned();
            let (e, a) = (pick(expected), pick(actual));
            let label = e.as_ref().or(a.as_ref()).map(|e| self.label(e));
            let path = format!("{key}[{}]{}", plain(id), label.unwrap_or_default());
            self.compare(
                &path,
                key,
                &e.unwrap_or(Value::Null),
                &a.unwrap_or(Value::Null),
            );
        }
    }

    /// Adds how `actual` differs from `expected` at `path`, the value of the field `key`.
    fn compare(&mut self, path: &str, key: &str, expected: &Value, actual: &Value) {
        match (expected, actual) {
            (Value::Object(e), Value::Object(a)) => {
                let mut keys: Vec<&String> = e.keys().collect();
                keys.extend(a.keys().filter(|k| !e.contains_key(*k)));
                for field in keys.into_iter().filter(|field| !minted(field)) {
                    let (ev, av) = (
                        e.get(field).unwrap_or(&Value::Null),
                        a.get(field).unwrap_or(&Value::Null),
                    );
                    // Two objects, or two lists of entities, are gone into; anything else is
                    // one value (a list of ids among them).
                    let into = match (ev, av) {
                        (Value::Object(_), Value::Object(_)) => true,
                        (Value::Array(e), Value::Array(a)) => !(scalars(e) && scalars(a)),
                        _ => false,
                    };
                    if into {
                        self.compare(&format!("{path}: {field}"), field, ev, av);
                    } else if !same(ev, av) {
                        let line = format!(
                            "{path}: {field} expected {}, got {}",
                            self.show(field, ev),
                            self.show(field, av)
                        );
                        self.found.push(line);
                    }
                }
            }
            (Value::Array(e), Value::Array(a)) => {
                for (n, (ev, av)) in e.iter().zip(a).enumerate() {
                    let at = format!("{path}[{n}]{}", self.label(ev));
                    self.compare(&at, key, ev, av);
                }
                if e.len() != a.len() {
                    self.found.push(format!(
                        "{path}: {} expected, got {}",
                        count(e.len()),
                        count(a.len())
                    ));
                }
            }
            (e, a) if same(e, a) => {}
            (e, a) => {
                let line = format!(
                    "{path}: expected {}, got {}",
                    self.show(key, e),
                    self.show(key, a)
                );
                self.found.push(line);
            }
        }
    }

    /// A value as a person reads it: an id by its name, an entity by what it is, minted fields
    /// left out; money as `AED 24.50`, a list of ids as their names.
    fn show(&self, key: &str, value: &Value) -> String {
        match value {
            Value::Array(list) if list.is_empty() => "none".to_string(),
            Value::Array(list) => list
                .iter()
                .map(|v| self.show(key, v))
                .collect::<Vec<_>>()
                .join(if scalars(list) { ", " } else { "; " }),
            Value::Object(map) => {
                if let Some(money) = money(map) {
                    return money;
                }
                let summary = self.summary(value);
                if !summary.is_empty() {
                    return summary;
                }
                let fields: Vec<String> = map
                    .iter()
                    .filter(|(field, _)| !minted(field))
                    .map(|(field, v)| format!("{field}: {}", self.show(field, v)))
                    .collect();
                format!("{{{}}}", fields.join(", "))
            }
            id if holds_ids(key) => match self.names.of(id) {
                Some(name) => format!("{name} ({})", plain(id)),
                None => plain(id),
            },
            other => plain(other),
        }
    }

    /// An entity as a person names it: `Kaizen Sushi Bar (2 × Salmon Nigiri)`, from its name
    /// and its lines; empty for an object that is no entity.
    fn summary(&self, entity: &Value) -> String {
        let name = self.label(entity).trim().to_string();
        let lines: Vec<String> = ["lines", "items"]
            .iter()
            .find_map(|key| entity.get(*key).and_then(Value::as_array))
            .into_iter()
            .flatten()
            .map(|line| {
                let quantity = line.get("quantity").map(plain).unwrap_or_default();
                let options: Vec<&str> = line
                    .get("optionIds")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|id| self.names.of(id))
                    .collect();
                let with = if options.is_empty() {
                    String::new()
                } else {
                    format!(" with {}", options.join(", "))
                };
                format!("{quantity} × {}{with}", self.label(line).trim())
            })
            .collect();
        match (name.is_empty(), lines.is_empty()) {
            (_, true) => name,
            (true, false) => lines.join(", "),
            (false, false) => format!("{name} ({})", lines.join(", ")),
        }
    }

    /// An entity's name, for a person: ` Kaizen Sushi Bar` (with a space), or nothing. An
    /// answer's entity carries its name; a state's, an id the data names.
    fn label(&self, entity: &Value) -> String {
        [
            "/restaurant/name/value",
            "/restaurant/name",
            "/product/name",
        ]
        .iter()
        .find_map(|pointer| entity.pointer(pointer).and_then(Value::as_str))
        .or_else(|| name_of(entity))
        .or_else(|| {
            KNOWN_BY
                .iter()
                .find_map(|key| self.names.of(entity.get(*key)?))
        })
        .map(|name| format!(" {name}"))
        .unwrap_or_default()
    }

    /// An entity's name in brackets: ` (Comfort)`, or nothing.
    fn named(&self, entity: &Value) -> String {
        match self.summary(entity).as_str() {
            "" => String::new(),
            summary => format!(" ({summary})"),
        }
    }
}

/// Whether two values are the same, numbers by their value (`2` and `2.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        _ => a == b || same_number(a, b),
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

/// Money as `AED 24.50`.
fn money(map: &Map<String, Value>) -> Option<String> {
    match (map.get("amount"), map.get("currency")) {
        (Some(amount), Some(Value::String(currency))) => Some(format!(
            "{currency} {:.2}",
            amount.as_f64().unwrap_or_default()
        )),
        _ => None,
    }
}

/// A scalar as a person reads it: a string without quotes, `nothing` for null.
fn plain(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => "nothing".to_string(),
        other => other.to_string(),
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
                    "orders: 1 order (Kaizen Sushi Bar (2 × Salmon Nigiri)) that the expected actions make is missing",
                    "orders[700001]: status expected PREPARING, got CANCELLED",
                ],
            ),
        ];
        for (actual, want) in cases {
            assert_eq!(
                differences(&seed, &expected, &actual, &Names::default()),
                want,
                "{actual}"
            );
        }
        // The same basket reached in more steps.
        let basket =
            |revision: u64| json!({"basket": {"id": 880002, "revision": revision, "lines": []}});
        assert_eq!(
            differences(&seed, &basket(1), &basket(3), &Names::default()),
            Vec::<String>::new()
        );
    }

    /// States as the world stores them: ids the data names, shown by their names; minted ids
    /// and times left out.
    #[test]
    fn a_states_ids_are_shown_by_the_names_the_data_gives_them() {
        let names = Names::of_data(&json!({
            "restaurants": [
                {"id": 30101, "name": {"value": "Shawarma Station"}, "items": [
                    {"id": 3010101, "name": "Chicken Shawarma Wrap",
                     "options": [{"id": 301010112, "name": "Large"}]}]},
                {"id": 30102, "name": {"value": "Kaizen Sushi Bar"}, "items": [
                    {"id": 3010201, "name": "Salmon Nigiri"}]}],
            "products": [{"productId": 1102, "name": "Comfort"}],
            "paymentMethods": [{"id": "PM-9001", "displayName": "Visa •••• 1881"},
                               {"id": "PM-CASH", "displayName": "Cash"}],
        }));
        let line = |id: u64, item: u64, options: Value, quantity: u64| json!({"id": id, "itemId": item, "optionIds": options, "quantity": quantity, "notes": null});
        let order = |id: u64, restaurant: u64, lines: Value, payment: &str| {
            json!({"id": id, "basketId": 880002, "restaurantId": restaurant, "lines": lines,
                   "paymentMethodId": payment, "placedAt": 1_796_459_400 + id})
        };
        let nigiri = |quantity| json!([line(990004, 3010201, json!([]), quantity)]);
        let seed = json!({"basket": null, "orders": [], "rides": [{"rideId": "5001001", "productId": 1102}]});
        let expected = json!({
            "basket": null,
            "orders": [order(700101, 30102, nigiri(3), "PM-9001")],
            "rides": [{"rideId": "5001001", "productId": 1102,
                       "cancelled": {"at": 1_796_459_400, "fee": 0, "reason": "user"}}],
        });
        let cancelled_later = json!({"rideId": "5001001", "productId": 1102,
            "cancelled": {"at": 1_796_459_999, "fee": 0, "reason": "user"}});
        let cases = [
            (
                json!({"basket": null, "orders": [order(700102, 30102, nigiri(3), "PM-9001")],
                       "rides": [cancelled_later.clone()]}),
                vec![],
            ),
            (
                json!({"basket": null, "orders": [order(700101, 30102, nigiri(2), "PM-CASH")],
                       "rides": [cancelled_later.clone()]}),
                vec![
                    "orders[new 1] Kaizen Sushi Bar: lines[0] Salmon Nigiri: quantity expected 3, got 2",
                    "orders[new 1] Kaizen Sushi Bar: paymentMethodId expected Visa •••• 1881 (PM-9001), got Cash (PM-CASH)",
                ],
            ),
            (
                json!({"basket": null,
                       "orders": [order(700101, 30101, json!([line(990001, 3010101, json!([301010112]), 3)]), "PM-9001")],
                       "rides": [cancelled_later.clone()]}),
                vec![
                    "orders[new 1] Kaizen Sushi Bar: restaurantId expected Kaizen Sushi Bar (30102), got Shawarma Station (30101)",
                    "orders[new 1] Kaizen Sushi Bar: lines[0] Salmon Nigiri: itemId expected Salmon Nigiri (3010201), got Chicken Shawarma Wrap (3010101)",
                    "orders[new 1] Kaizen Sushi Bar: lines[0] Salmon Nigiri: optionIds expected none, got Large (301010112)",
                ],
            ),
            (
                json!({"basket": {"id": 880002, "restaurantId": 30102, "lines": nigiri(3), "updatedAt": 1},
                       "orders": [], "rides": [{"rideId": "5001001", "productId": 1102}]}),
                vec![
                    "basket: expected nothing, got Kaizen Sushi Bar (3 × Salmon Nigiri)",
                    "orders: 1 order (Kaizen Sushi Bar (3 × Salmon Nigiri)) that the expected actions make is missing",
                    "rides[5001001] Comfort: cancelled expected {fee: 0, reason: user}, got nothing",
                ],
            ),
        ];
        for (actual, want) in cases {
            assert_eq!(
                differences(&seed, &expected, &actual, &names),
                want,
                "{actual}"
            );
        }
        // A list the expected state has not made yet is an empty one.
        let booked = json!({"rides": [{"rideId": "6212001", "productId": 1102, "createdAt": 1}]});
        assert_eq!(
            differences(&json!({}), &json!({}), &booked, &names),
            ["rides: 1 ride (Comfort) that the expected actions do not make"]
        );
    }
}
