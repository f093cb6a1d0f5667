//! `careem-mcp scenario` writes each form of entry, and refuses what would force nothing.

use serde_json::{Value, json};

use crate::support::Project;

#[test]
fn scenario_writes_every_form_of_entry() {
    let project = Project::copy_of_repo();
    let file = || -> Value {
        serde_json::from_str(&project.read(".run/overrides.json")).unwrap_or(Value::Null)
    };
    let cases: [(&[&str], i32, Value); 9] = [
        (
            &["scenario", "ride_get_status", "searching", "COMPLETED"],
            0,
            json!({"ride_get_status": ["searching", "completed"]}),
        ),
        (
            &["scenario", "ride_book", "fault:http-503", "searching"],
            0,
            json!({"ride_get_status": ["searching", "completed"], "ride_book": [{"fault": "http-503"}, "searching"]}),
        ),
        (
            &[
                "scenario",
                "ride_book",
                "--delay",
                "200ms..1500ms",
                "--fault",
                "drop",
                "--rate",
                "0.2",
            ],
            0,
            json!({"ride_get_status": ["searching", "completed"], "ride_book": {"delay": "200ms..1.5s", "fault": "drop", "rate": 0.2}}),
        ),
        (
            &["scenario", "*", "--delay", "2s"],
            0,
            json!({"ride_get_status": ["searching", "completed"], "ride_book": {"delay": "200ms..1.5s", "fault": "drop", "rate": 0.2}, "*": {"delay": "2s"}}),
        ),
        (
            &["scenario", "*", "searching"],
            2,
            json!({"ride_get_status": ["searching", "completed"], "ride_book": {"delay": "200ms..1.5s", "fault": "drop", "rate": 0.2}, "*": {"delay": "2s"}}),
        ),
        (
            &["scenario", "ride_book", "fault:http-500"],
            2,
            json!({"ride_get_status": ["searching", "completed"], "ride_book": {"delay": "200ms..1.5s", "fault": "drop", "rate": 0.2}, "*": {"delay": "2s"}}),
        ),
        (
            &["scenario", "ride_book", "--rate", "0.5"],
            2,
            json!({"ride_get_status": ["searching", "completed"], "ride_book": {"delay": "200ms..1.5s", "fault": "drop", "rate": 0.2}, "*": {"delay": "2s"}}),
        ),
        (
            &["scenario", "ride_book"],
            0,
            json!({"ride_get_status": ["searching", "completed"], "*": {"delay": "2s"}}),
        ),
        (&["reset"], 0, json!({})),
    ];
    for (args, code, want) in cases {
        let run = project.run(args);
        assert_eq!(run.code, code, "{args:?}: {}", run.stderr);
        assert_eq!(file(), want, "{args:?}");
    }
}

#[test]
fn scenarios_shows_each_entry_and_the_ignored_ones() {
    let project = Project::copy_of_repo();
    project.write(
        ".run/overrides.json",
        &json!({"ride_get_status": ["searching", "gone"], "ride_book": 5}).to_string(),
    );
    let run = project.run(&["scenarios", "ride_get_status"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for want in [
        "step 1",
        "searching, then gone (the last repeats)",
        "has no scenario \"gone\"",
    ] {
        assert!(run.stdout.contains(want), "{want}: {}", run.stdout);
    }
    let all = project.run(&["scenarios"]);
    assert!(all.stdout.contains("ride_book → ignored"), "{}", all.stdout);
}
