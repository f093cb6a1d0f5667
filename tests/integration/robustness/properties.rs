//! Property tests of the parser, renderer and matcher (cargo fuzz needs nightly; see
//! fuzz/README.md). `fuzz/run.sh` runs the `prop_` tests with a large PROPTEST_CASES. Failing
//! inputs stay below as fixed cases.

use std::path::Path;

use careem_mcp::engine::world::World;
use careem_mcp::engine::{
    Answer, Engine, EngineConfig, Outcome, Scenario, Template, matches, toolfile,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// PROPTEST_CASES applies; failures are kept as fixed regression cases in this file rather
/// than in a `proptest-regressions/` folder.
fn proptest_config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// An engine with no tools, for rendering templates directly.
fn bare_engine() -> Engine {
    let config = EngineConfig {
        tools_dir: "tools".into(),
        overrides: ".run/overrides.json".into(),
        clock: None,
        seed: Some(1),
        stateful: false,
    };
    let (world, _) = World::load(&config.tools_dir, &[]);
    Engine::from_loaded(
        config,
        std::collections::BTreeMap::new(),
        std::sync::Arc::new(world),
    )
}

fn render(engine: &Engine, template: &Template, args: &Value) -> Result<Value, String> {
    let scenario = Scenario {
        name: "s".to_string(),
        line: 1,
        rule: None,
        when: None,
        outcome: Outcome::Response,
        answer: Answer::Template(template.clone()),
        update: None,
        sample: None,
    };
    engine
        .render(&scenario, args)
        .map_err(|error| error.to_string())
}

/// Characters that break naive escaping or case folding, mixed with anything at all.
fn tricky_string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => any::<char>().prop_map(String::from),
        4 => "[a-zA-Z0-9 ]{1,4}",
        1 => Just("\"".to_string()),
        1 => Just("\\".to_string()),
        1 => Just("\\\"".to_string()),
        1 => Just("\u{0}".to_string()),
        1 => Just("\u{1f}\u{7f}".to_string()),
        1 => Just("\n\r\t".to_string()),
        1 => Just("\u{2028}\u{2029}".to_string()),
        1 => Just("🍣👨‍👩‍👧".to_string()),
        1 => Just("مرحبا".to_string()),
        1 => Just("ΑΣ σς İi ß".to_string()),
        1 => Just("{{args.q}}".to_string()),
        1 => Just("}}{{".to_string()),
        1 => Just("*".to_string()),
        1 => Just("~".to_string()),
        1 => Just("=".to_string()),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|pieces| pieces.concat())
}

/// Any JSON value, nested a few levels, with tricky strings as keys and values.
fn arg_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        tricky_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((tricky_string(), inner), 0..5)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// The arguments of a call: the keys templates below refer to, and maybe some others.
fn arguments() -> impl Strategy<Value = Value> {
    (arg_value(), arg_value(), arg_value(), arg_value()).prop_map(|(q, a, list, other)| {
        json!({"q": q, "a": {"b": a}, "list": [list, {"x": other}], "other": other})
    })
}

fn placeholder_expr() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just("args.q"),
        2 => Just("args.a.b"),
        2 => Just("args.list.0"),
        1 => Just("args.list.1.x"),
        1 => Just("args.q.0.missing"),
        1 => Just("args.nothing"),
        1 => Just("now"),
        1 => Just("now+2h@20m|hhmm"),
        1 => Just("unix-30m"),
        1 => Just("unixms"),
        1 => Just("uuid"),
        1 => Just("rand:0-9"),
    ]
    .prop_flat_map(|expr| {
        prop_oneof![
            Just(format!("{{{{{expr}}}}}")),
            Just(format!("{{{{ {expr} }}}}"))
        ]
    })
}

/// A JSON string literal as a template writes it: text, escapes and placeholders.
fn template_string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => "[a-zA-Z0-9 _.:/-]{1,6}",
        1 => Just(r#"\""#.to_string()),
        1 => Just(r"\\".to_string()),
        1 => Just(r"\n\t".to_string()),
        1 => Just(r"\u00e9\ud83c\udf63".to_string()),
        1 => Just("Café 🍣 – مرحبا".to_string()),
        1 => Just("}}".to_string()),
        3 => placeholder_expr(),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|pieces| format!("\"{}\"", pieces.concat()))
}

/// Templates shaped like the ones in tool files: objects, arrays, literals, strings with
/// placeholders inside, and bare placeholders as values.
fn template_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        1 => Just("null".to_string()),
        1 => Just("true".to_string()),
        1 => "-?[0-9]{1,4}(\\.[0-9]{1,2})?",
        3 => template_string(),
        3 => placeholder_expr(),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5)
                .prop_map(|items| format!("[{}]", items.join(", "))),
            prop::collection::vec((template_string(), inner), 0..5).prop_map(|entries| {
                let entries: Vec<String> = entries
                    .into_iter()
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect();
                format!("{{\n  {}\n}}", entries.join(",\n  "))
            }),
        ]
    })
}

/// Token soup: most of it is not JSON, some of it is, and some of that passes the start-up
/// check in ways a hand-written template would not (quotes and backslashes around
/// placeholders), which is what the string-context scanner has to get right.
fn template_soup() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("{"),
        Just("}"),
        Just("["),
        Just("]"),
        Just(","),
        Just(":"),
        Just("\""),
        Just("\\"),
        Just("\\\""),
        Just("\"k\""),
        Just("1"),
        Just("null"),
        Just(" "),
        Just("{{args.q}}"),
        Just("{{ args.a.b }}"),
        Just("{{now}}"),
    ];
    prop::collection::vec(token, 0..14).prop_map(|tokens| tokens.concat())
}

/// A compact JSON encoding of a value, as inside-a-string placeholders insert it.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Regression cases for the properties below, kept as fixed tests (see the catalogue).
#[test]
fn fixed_cases_from_property_testing() {
    // "~" and "=" rules compare case-insensitively character by character: a final sigma
    // ("ΑΣ" lowercases to "ας" as a word, but "Σ" alone to "σ") still contains "Σ".
    let cases = [
        (json!("~Σ"), json!("ΑΣ"), true),
        (json!("=ΑΣ"), json!("ας"), true),
        (json!("~σ"), json!("ΟΔΟΣ"), true),
        (json!("~i̇"), json!("İ"), true),
    ];
    for (want, got, expected) in cases {
        assert_eq!(matches(&want, Some(&got)), expected, "{want} vs {got}");
    }
}

proptest! {
    #![proptest_config(proptest_config())]

    #[test]
    fn prop_tool_file_parsing_never_panics(text in any::<String>()) {
        let _ = toolfile::parse(Path::new("tools/t.md"), &text);
    }

    #[test]
    fn prop_tool_file_parsing_never_panics_on_near_misses(
        pieces in prop::collection::vec(prop_oneof![
            Just("---\n"), Just("tool: t\n"), Just("tool: \"t\" # c\n"), Just("domain: 'x'\n"),
            Just("## Definition\n"), Just("## Scenario: a\n"), Just("## Scenario: A\n"),
            Just("## Scenario:\n"), Just("```json tool\n"), Just("```json match\n"),
            Just("```json response\n"), Just("```json error\n"), Just("```\n"), Just("```text\n"),
            Just(r#"{"name": "t", "inputSchema": {"type": "object"}}"#), Just("{\"q\": \"~x\"}\n"),
            Just("{\"v\": \"{{args.q}}\"}\n"), Just("{{now+99999999999999999999h@7ms}}"),
            Just("{{rand:18446744073709551615-18446744073709551615}}"), Just("{{"), Just("}}"),
            Just("\n"), Just("é🍣"), Just("\r\n"), Just("\u{0}"),
        ], 0..40),
    ) {
        let text = pieces.concat();
        let parsed = toolfile::parse(Path::new("tools/t.md"), &text);
        // A file fit to serve renders every scenario with empty arguments (the start-up check).
        if parsed.diagnostics.is_empty() {
            let engine = bare_engine();
            for scenario in &parsed.file.scenarios {
                prop_assert!(engine.render(scenario, &json!({})).is_ok(), "{}", scenario.name);
            }
        }
    }

    #[test]
    fn prop_a_template_that_passes_start_up_renders_valid_json_for_any_arguments(
        source in prop_oneof![template_value(), template_soup()],
        args in arguments(),
    ) {
        let engine = bare_engine();
        let Ok(template) = Template::parse(&source) else { return Ok(()) };
        if render(&engine, &template, &json!({})).is_err() {
            return Ok(()); // refused at start-up: never served
        }
        let rendered = render(&engine, &template, &args);
        prop_assert!(rendered.is_ok(), "{source}\nwith {args}\n{rendered:?}");
    }

    #[test]
    fn prop_placeholders_insert_any_value_exactly(value in arg_value()) {
        let engine = bare_engine();
        let template = Template::parse(r#"{"bare": {{args.q}}, "text": "<{{ args.q }}>"}"#)
            .expect("parses");
        let rendered = render(&engine, &template, &json!({"q": value}))
            .map_err(TestCaseError::fail)?;
        prop_assert_eq!(&rendered["bare"], &value);
        prop_assert_eq!(&rendered["text"], &json!(format!("<{}>", text_of(&value))));
    }

    #[test]
    fn prop_matching_never_panics(want in arg_value(), got in arg_value()) {
        let _ = matches(&want, Some(&got));
        prop_assert!(!matches(&want, None), "an absent key never matches");
    }

    #[test]
    fn prop_the_wildcard_matches_any_present_non_null_value(got in arg_value()) {
        prop_assert_eq!(matches(&json!("*"), Some(&got)), !got.is_null());
        prop_assert!(!matches(&json!("*"), None));
        let (any_object, any_array) = (Value::Object(Map::new()), Value::Array(Vec::new()));
        if got.is_object() {
            prop_assert!(matches(&any_object, Some(&got)), "{{}} matches {}", got);
        }
        if got.is_array() {
            prop_assert!(matches(&any_array, Some(&got)), "[] matches {}", got);
        }
    }

    #[test]
    fn prop_text_rules_are_case_insensitive_equality_and_containment(
        text in tricky_string(),
        start in 0usize..8,
        len in 0usize..8,
    ) {
        let (equal, got) = (Value::String(format!("={text}")), Value::String(text.clone()));
        prop_assert!(matches(&equal, Some(&got)), "{} equals {:?}", equal, text);
        let chars: Vec<char> = text.chars().collect();
        let start = start.min(chars.len());
        let end = (start + len).min(chars.len());
        let part: String = chars[start..end].iter().collect();
        let contains = Value::String(format!("~{part}"));
        prop_assert!(matches(&contains, Some(&got)), "{:?} is part of {:?}", part, text);
        prop_assert!(!matches(&equal, Some(&Value::Null)), "null never matches text");
    }

    #[test]
    fn prop_a_value_matches_itself(value in arg_value()) {
        // Strings starting with "=" are rules about the text after it, so they are left out.
        fn plain(value: &Value) -> bool {
            match value {
                Value::String(s) => !s.starts_with('='),
                Value::Array(items) => items.iter().all(plain),
                Value::Object(map) => map.values().all(plain),
                _ => true,
            }
        }
        if plain(&value) {
            prop_assert!(matches(&value, Some(&value)), "{value}");
        }
    }
}
