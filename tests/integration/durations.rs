//! One duration grammar everywhere (docs/FORMAT.md, "Durations"): a placeholder takes days, the
//! clock and the duration options take milliseconds where they make whole seconds, and refuse
//! what is finer than they keep with the same clear error.

use serde_json::json;

use crate::support::{Project, tool_file};

const CLOCK: &str = "2026-10-05T12:00:00Z";

#[test]
fn a_placeholder_takes_days() {
    let project = Project::empty();
    let scenario = "## Scenario: later\n\n```json response\n\
                    {\"v\": \"{{now+2d}}\", \"error\": \"{{now+1d12h|date}}\"}\n```\n";
    project.write("tools/test/later.md", &tool_file("later", scenario));
    let run = project.run(&["--clock", CLOCK, "call", "later", "{}"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.json()["structuredContent"],
        json!({"v": "2026-10-07T12:00:00Z", "error": "2026-10-07"})
    );
}

#[test]
fn the_clock_and_the_options_take_the_grammar_in_whole_seconds() {
    let cases: [(&[&str], i32, &str); 5] = [
        (
            &["clock", "advance", "90000ms"],
            0,
            "clock: 2026-10-05T12:01:30Z (frozen)",
        ),
        (
            &["clock", "advance", "1.5h"],
            0,
            "clock: 2026-10-05T13:30:00Z (frozen)",
        ),
        (
            &["clock", "advance", "500ms"],
            2,
            "\"500ms\" is finer than the clock keeps: it counts whole seconds",
        ),
        (
            &["--jq-deadline", "2s", "clock"],
            0,
            "clock: 2026-10-05T12:00:00Z (frozen)",
        ),
        (
            &["--jq-deadline", "1500ms", "clock"],
            2,
            "\"1500ms\" is finer than this option keeps: it counts whole seconds",
        ),
    ];
    for (args, code, said) in cases {
        let project = Project::empty();
        assert_eq!(project.run(&["clock", "set", CLOCK]).code, 0);
        let run = project.run(args);
        assert_eq!(run.code, code, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains(said) || run.stderr.contains(said),
            "{args:?}: {}{}",
            run.stdout,
            run.stderr
        );
    }
}
