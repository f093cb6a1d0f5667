//! Scenario selection (SPEC §3): the forced scenario, else the first matching one in file
//! order, else the first default; and the match rules, how a scenario's `json match` block is
//! compared with the arguments of a call.

use serde_json::Value;

use crate::engine::toolfile::parse::{Program, Scenario};

/// The chosen scenario and whether it was forced out-of-band.
pub struct Selection<'a> {
    pub scenario: &'a Scenario,
    pub forced: bool,
}

/// The scenario for `args`: the forced one, else the first whose match rule and `jq when`
/// condition both hold (`holds` runs a condition), else the first default. A condition that
/// fails to run fails the selection.
pub fn select<'a, E>(
    scenarios: &'a [Scenario],
    args: &Value,
    forced: Option<&str>,
    mut holds: impl FnMut(&Program) -> Result<bool, E>,
) -> Result<Option<Selection<'a>>, E> {
    if let Some(name) = forced
        && let Some(scenario) = scenarios.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    {
        return Ok(Some(Selection {
            scenario,
            forced: true,
        }));
    }
    for scenario in scenarios.iter().filter(|s| !s.is_default()) {
        let matched = scenario
            .rule
            .as_ref()
            .is_none_or(|rule| matches(rule, Some(args)));
        let chosen = matched
            && match &scenario.when {
                Some(when) => holds(when)?,
                None => true,
            };
        if chosen {
            return Ok(Some(Selection {
                scenario,
                forced: false,
            }));
        }
    }
    Ok(scenarios
        .iter()
        .find(|s| s.is_default())
        .map(|scenario| Selection {
            scenario,
            forced: false,
        }))
}

/// Whether `got` (the arguments, or part of them) satisfies the pattern `want`.
/// `None` stands for an absent key, which never matches.
pub fn matches(want: &Value, got: Option<&Value>) -> bool {
    let Some(got) = got else { return false };
    match want {
        Value::Object(want) => match got {
            Value::Object(got) => want.iter().all(|(key, w)| matches(w, got.get(key))),
            _ => false,
        },
        Value::Array(want) => match got {
            Value::Array(got) => want.iter().all(|w| got.iter().any(|g| matches(w, Some(g)))),
            _ => false,
        },
        Value::String(pattern) => !got.is_null() && string_matches(pattern, got),
        Value::Number(w) => got.as_number().is_some_and(|g| numbers_equal(w, g)),
        Value::Bool(_) | Value::Null => want == got,
    }
}

fn string_matches(pattern: &str, got: &Value) -> bool {
    if pattern == "*" {
        return true;
    }
    let number;
    let text = match got {
        Value::String(s) => s.as_str(),
        other => {
            number = other.to_string();
            number.as_str()
        }
    };
    let (needle, contains) = match pattern.strip_prefix('~') {
        Some(needle) => (needle, true),
        None => (pattern.strip_prefix('=').unwrap_or(pattern), false),
    };
    // ASCII folds byte by byte: most arguments (numbers, ids, English words) are compared
    // without building a folded copy of either side.
    if text.is_ascii() && needle.is_ascii() {
        return if contains {
            contains_ignoring_ascii_case(text.as_bytes(), needle.as_bytes())
        } else {
            text.eq_ignore_ascii_case(needle)
        };
    }
    let (text, needle) = (fold(text), fold(needle));
    if contains {
        text.contains(&needle)
    } else {
        text == needle
    }
}

fn contains_ignoring_ascii_case(text: &[u8], needle: &[u8]) -> bool {
    needle.is_empty()
        || text
            .windows(needle.len())
            .any(|window| window.eq_ignore_ascii_case(needle))
}

/// Lower case, one character at a time, with the final sigma folded into `σ`.
/// `str::to_lowercase` looks at the neighbours (a capital sigma ending a word becomes `ς`,
/// anywhere else `σ`), so a part of a text would not always be found in the whole; character
/// by character it always is, and `ς`/`σ` stay equal as they are in case-insensitive text.
fn fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| if c == 'ς' { 'σ' } else { c })
        .collect()
}

/// `42` equals `42.0`: JSON has one number type, whatever the text looked like.
fn numbers_equal(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
        (Some(x), Some(y), _, _) => x == y,
        (_, _, Some(x), Some(y)) => x == y,
        _ => a.as_f64() == b.as_f64(),
    }
}

/// `select` for files without conditions.
#[cfg(test)]
fn select_plain<'a>(
    scenarios: &'a [Scenario],
    args: &Value,
    forced: Option<&str>,
) -> Option<Selection<'a>> {
    select(scenarios, args, forced, |_| Ok::<_, ()>(false)).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::toolfile::parse::{Answer, Outcome};
    use crate::engine::toolfile::template::Template;
    use serde_json::json;

    fn scenario(name: &str, rule: Option<Value>) -> Scenario {
        Scenario {
            name: name.into(),
            line: 1,
            rule,
            when: None,
            outcome: Outcome::Response,
            answer: Answer::Template(Template::parse("{}").unwrap()),
            update: None,
            sample: None,
        }
    }

    #[test]
    fn selection_rules() {
        let file = vec![
            scenario("sushi", Some(json!({"query": "~sushi"}))),
            scenario("no-results", None),
            scenario("upstream-unavailable", None),
            scenario("sushi-too", Some(json!({"query": "~su"}))),
        ];
        let cases = [
            (
                json!({"query": "Sushi"}),
                None,
                "sushi",
                false,
                "first match in file order",
            ),
            (
                json!({"query": "sumo"}),
                None,
                "sushi-too",
                false,
                "a later match beats the default",
            ),
            (
                json!({"query": "pizza"}),
                None,
                "no-results",
                false,
                "first default",
            ),
            (
                json!({}),
                None,
                "no-results",
                false,
                "absent key falls to default",
            ),
            (
                json!({"query": "sushi"}),
                Some("UPSTREAM-unavailable"),
                "upstream-unavailable",
                true,
                "forced, any case",
            ),
            (
                json!({"query": "sushi"}),
                Some("gone"),
                "sushi",
                false,
                "unknown forced name ignored",
            ),
        ];
        for (args, forced, want, want_forced, why) in cases {
            let chosen = select_plain(&file, &args, forced).unwrap();
            assert_eq!(
                (chosen.scenario.name.as_str(), chosen.forced),
                (want, want_forced),
                "{why}"
            );
        }
    }

    #[test]
    fn table_of_spec_rules() {
        let cases = [
            // (want, got, expected, why)
            (
                json!({"a": 1}),
                Some(json!({"a": 1, "b": 2})),
                true,
                "object: extra keys fine",
            ),
            (
                json!({"a": 1, "c": 3}),
                Some(json!({"a": 1})),
                false,
                "object: every key needed",
            ),
            (
                json!({"a": 1}),
                Some(json!([1])),
                false,
                "object against array",
            ),
            (
                json!({"a": {"b": "~x"}}),
                Some(json!({"a": {"b": "XYZ"}})),
                true,
                "object: recursive",
            ),
            (
                json!([]),
                Some(json!([1, 2])),
                true,
                "array: [] matches any array",
            ),
            (json!([]), Some(json!("a")), false, "array: needs an array"),
            (
                json!([2, 1]),
                Some(json!([1, 2, 3])),
                true,
                "array: each in some",
            ),
            (
                json!([4]),
                Some(json!([1, 2, 3])),
                false,
                "array: missing element",
            ),
            (json!("*"), Some(json!(0)), true, "*: present"),
            (
                json!("*"),
                Some(json!("")),
                true,
                "*: empty string is present",
            ),
            (json!("*"), Some(json!(null)), false, "*: null"),
            (
                json!("~SuSh"),
                Some(json!("best sushi")),
                true,
                "~: contains, case-insensitive",
            ),
            (json!("~2"), Some(json!(123)), true, "~: number text"),
            (json!("~-"), Some(json!(-0.5)), true, "~: a number's sign"),
            (
                json!("~5."),
                Some(json!(25)),
                false,
                "~: a whole number has no point",
            ),
            (
                json!("~CAFÉ"),
                Some(json!("Morning Syrniki Café")),
                true,
                "~: beyond ASCII",
            ),
            (json!("~"), Some(json!("x")), true, "~: an empty needle"),
            (
                json!("MARINA"),
                Some(json!("marina")),
                true,
                "plain: ASCII case",
            ),
            (json!("~x"), Some(json!(null)), false, "~: null"),
            (json!("=*"), Some(json!("*")), true, "=: literal star"),
            (json!("=*"), Some(json!("abc")), false, "=: not a wildcard"),
            (json!("="), Some(json!("")), true, "=: empty string"),
            (json!("="), Some(json!("a")), false, "=: non-empty"),
            (json!("=~a"), Some(json!("~A")), true, "=: literal tilde"),
            (
                json!("Home"),
                Some(json!("HOME")),
                true,
                "string: case-insensitive",
            ),
            (
                json!("5"),
                Some(json!(5)),
                true,
                "string against number text",
            ),
            (
                json!("true"),
                Some(json!(true)),
                true,
                "string against boolean text",
            ),
            (
                json!("{\"a\":1}"),
                Some(json!({"a": 1})),
                true,
                "string against object text",
            ),
            (
                json!("null"),
                Some(json!(null)),
                false,
                "string never matches null",
            ),
            (json!(42), Some(json!(42.0)), true, "number: JSON-equal"),
            (json!(91), Some(json!(91.5)), false, "number: different"),
            (json!(5), Some(json!("5")), false, "number against string"),
            (json!(true), Some(json!(true)), true, "boolean equal"),
            (
                json!(false),
                Some(json!("false")),
                false,
                "boolean against string",
            ),
            (
                json!(null),
                Some(json!(null)),
                true,
                "null matches explicit null",
            ),
            (json!(null), None, false, "null never matches absent"),
            (json!("*"), None, false, "absent never matches"),
            (json!("~Σ"), Some(json!("ΟΔΟΣ")), true, "~: a final sigma"),
            (
                json!("=οδοσ"),
                Some(json!("ΟΔΟΣ")),
                true,
                "=: a final sigma",
            ),
            (
                json!("=ΟΔΟΣ"),
                Some(json!("οδος")),
                true,
                "=: a final sigma, lower case",
            ),
        ];
        for (want, got, expected, why) in cases {
            assert_eq!(
                matches(&want, got.as_ref()),
                expected,
                "{why}: {want} vs {got:?}"
            );
        }
    }

    #[test]
    fn absent_key_inside_object_never_matches() {
        assert!(!matches(&json!({"a": null}), Some(&json!({}))));
    }
}
