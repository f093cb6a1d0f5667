//! The engine through its library interface: live edits, broken files mid-run, the parse
//! cache, and the journal.

use serde_json::{Map, Value, json};

use careem_mcp::engine::{CallRequest, INTERNAL_ERROR, Origin};

use crate::support::{Project, engine, tool_file};

fn args(value: Value) -> Option<Map<String, Value>> {
    value.as_object().cloned()
}

fn scenario(value: &str) -> String {
    format!("## Scenario: ok\n\n```json response\n{{\"v\": \"{value}\"}}\n```\n")
}

#[test]
fn edits_apply_on_the_next_call_and_a_broken_file_only_breaks_its_own_calls() {
    let project = Project::empty();
    project.write("tools/t.md", &tool_file("t", &scenario("one")));
    project.write("tools/u.md", &tool_file("u", &scenario("steady")));
    let engine = engine(&project);
    let text = |tool: &str| {
        engine
            .answer(&CallRequest::new(Origin::Cli, tool, None))
            .text
    };

    assert_eq!(text("t"), r#"{"v":"one"}"#);
    project.write("tools/t.md", &tool_file("t", &scenario("two")));
    assert_eq!(text("t"), r#"{"v":"two"}"#);

    let cases = [
        (
            "invalid JSON",
            tool_file("t", "## Scenario: ok\n\n```json response\n{\"v\": \n```\n"),
        ),
        ("empty", String::new()),
        (
            "no default",
            tool_file(
                "t",
                "## Scenario: m\n\n```json match\n{\"q\": \"x\"}\n```\n```json response\n{}\n```\n",
            ),
        ),
        ("renamed tool", tool_file("other", &scenario("x"))),
    ];
    for (what, broken) in cases {
        project.write("tools/t.md", &broken);
        let output = engine.answer(&CallRequest::new(Origin::Cli, "t", None));
        assert_eq!(
            (
                output.text.as_str(),
                output.is_error,
                output.value.is_none()
            ),
            (INTERNAL_ERROR, true, true),
            "{what}"
        );
        assert_eq!(
            text("u"),
            r#"{"v":"steady"}"#,
            "{what}: other tools keep working"
        );
    }
    std::fs::remove_file(project.path().join("tools/t.md")).expect("remove");
    assert_eq!(text("t"), INTERNAL_ERROR, "deleted");
    project.write("tools/t.md", &tool_file("t", &scenario("back")));
    assert_eq!(text("t"), r#"{"v":"back"}"#, "mended");
}

#[test]
fn the_cache_never_serves_stale_content_even_within_the_same_second() {
    let project = Project::empty();
    project.write("tools/t.md", &tool_file("t", &scenario("aaaa")));
    let engine = engine(&project);
    for value in ["bbbb", "cccc", "aaaa", "dddd"] {
        project.write("tools/t.md", &tool_file("t", &scenario(value)));
        assert_eq!(
            engine
                .answer(&CallRequest::new(Origin::Cli, "t", None))
                .text,
            format!(r#"{{"v":"{value}"}}"#)
        );
    }
}

#[test]
fn forced_scenarios_follow_the_overrides_file_between_calls() {
    let project = Project::empty();
    let scenarios = "## Scenario: normal\n\n```json response\n{\"v\": \"normal\"}\n```\n\n## Scenario: outage\n\n```json response\n{\"error\": \"failed to get t: unexpected response status 503\"}\n```\n";
    project.write("tools/t.md", &tool_file("t", scenarios));
    let engine = engine(&project);
    let cases = [
        (None, "normal", false),
        (Some(r#"{"t": "OUTAGE"}"#), "outage", true),
        (Some(r#"{"t": "gone"}"#), "normal", false),
        (Some("not json"), "normal", false),
        (Some(r#"{"t": 5}"#), "normal", false),
        (Some("{}"), "normal", false),
    ];
    for (file, name, forced) in cases {
        if let Some(text) = file {
            project.write(".run/overrides.json", text);
        }
        let output = engine.answer(&CallRequest::new(Origin::Cli, "t", args(json!({}))));
        assert_eq!(output.scenario(), Some((name, forced)), "{file:?}");
    }
}
