//! Where two JSON values differ, place by place: how the server names what a tool definition
//! would lose on its way through rmcp's `Tool`, and how `verify` names where a listed tool
//! differs from its file.

use serde_json::Value;

/// One place where `after` differs from `before`.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference<'a> {
    /// The keys and indexes down to the place; empty for the values themselves.
    pub path: Vec<String>,
    pub change: Change<'a>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Change<'a> {
    /// Only `before` has the place.
    Removed,
    /// Only `after` has the place.
    Added,
    /// Both have it, with different values.
    Changed { before: &'a Value, after: &'a Value },
}

impl Difference<'_> {
    /// The place as a JSON pointer (RFC 6901): `/a~1b/0` for key `a/b`, index 0.
    pub fn pointer(&self) -> String {
        self.path
            .iter()
            .map(|step| format!("/{}", pointer_token(step)))
            .collect()
    }
}

/// A key as one token of a JSON pointer (RFC 6901): `~` and `/` escaped.
pub fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Every difference, depth first in `before`'s key order, keys only `after` has last at each
/// level. Numbers compare by value (`2` and `2.0` are the same); arrays of different lengths
/// differ as a whole.
pub fn differences<'a>(before: &'a Value, after: &'a Value) -> Vec<Difference<'a>> {
    let mut found = Vec::new();
    walk(before, after, &mut Vec::new(), &mut found);
    found
}

fn walk<'a>(
    before: &'a Value,
    after: &'a Value,
    path: &mut Vec<String>,
    found: &mut Vec<Difference<'a>>,
) {
    match (before, after) {
        (Value::Object(before), Value::Object(after)) => {
            for (key, value) in before {
                path.push(key.clone());
                match after.get(key) {
                    None => found.push(Difference {
                        path: path.clone(),
                        change: Change::Removed,
                    }),
                    Some(other) => walk(value, other, path, found),
                }
                path.pop();
            }
            for key in after.keys().filter(|key| !before.contains_key(*key)) {
                let mut path = path.clone();
                path.push(key.clone());
                found.push(Difference {
                    path,
                    change: Change::Added,
                });
            }
        }
        (Value::Array(before), Value::Array(after)) if before.len() == after.len() => {
            for (index, (a, b)) in before.iter().zip(after).enumerate() {
                path.push(index.to_string());
                walk(a, b, path, found);
                path.pop();
            }
        }
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => {}
        _ if before == after => {}
        _ => found.push(Difference {
            path: path.clone(),
            change: Change::Changed { before, after },
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_place_is_named_in_order() {
        let before = json!({"a": 1, "b": {"c/d": [1, 2]}, "e": "x", "n": 2});
        let after = json!({"b": {"c/d": [1, 3]}, "e": "x", "n": 2.0, "z": null});
        let found: Vec<(String, &str)> = differences(&before, &after)
            .iter()
            .map(|d| {
                let change = match d.change {
                    Change::Removed => "removed",
                    Change::Added => "added",
                    Change::Changed { .. } => "changed",
                };
                (d.pointer(), change)
            })
            .collect();
        let expected = [("/a", "removed"), ("/b/c~1d/1", "changed"), ("/z", "added")];
        assert_eq!(
            found,
            expected.map(|(p, c)| (p.to_string(), c)),
            "{before} → {after}"
        );
        assert!(differences(&before, &before).is_empty());
    }
}
