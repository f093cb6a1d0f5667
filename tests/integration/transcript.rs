//! What the CLI prints, pinned as whole transcripts (`tests/integration/transcripts/*.txt`), so
//! that a changed table, message or `--help` shows up in review. `SNAPSHOTS=overwrite cargo
//! test transcript` rewrites them; `[PROJECT]` stands for the
//! project's folder and `[TIME]` for a journal timestamp.

use std::path::Path;

use snapbox::{Assert, Data, Redactions};

use crate::support::{Project, Run, broken_project, repo};

/// A journal timestamp, the one thing in a transcript that changes from run to run.
pub const TIME: &str = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z";

/// A run of the binary as one text: the command, its exit code, stdout and stderr.
fn transcript(command: &str, run: &Run) -> String {
    format!(
        "$ {command}\n? {}\n--- stdout\n{}--- stderr\n{}",
        run.code, run.stdout, run.stderr
    )
}

pub fn assert_transcript(project: &Project, name: &str, args: &[&str]) {
    // A fixed width, so that `--help` wraps the same on every machine.
    let output = project.command().env("COLUMNS", "100").args(args).output();
    let run = Run::from(output.expect("the binary runs"));
    let command = format!("careem-mcp {}", args.join(" "));
    assert_run_matches(project, name, &command, &run);
}

/// `run`, shown as `command`, equals the transcript `name`.
pub fn assert_run_matches(project: &Project, name: &str, command: &str, run: &Run) {
    let mut redactions = Redactions::new();
    redactions
        .insert("[PROJECT]", project.path().to_path_buf())
        .expect("a redaction");
    redactions
        .insert("[TIME]", regex::Regex::new(TIME).expect("a pattern"))
        .expect("a redaction");
    let expected = repo()
        .join("tests/integration/transcripts")
        .join(format!("{name}.txt"));
    // Escapes (`\u{1b}`) are what some transcripts are about: backslashes are not paths here.
    Assert::new()
        .action_env("SNAPSHOTS")
        .normalize_paths(false)
        .redact_with(redactions)
        .eq(
            transcript(command, run),
            Data::read_from(Path::new(&expected), None),
        );
}

#[test]
fn lint_transcripts() {
    let clean = Project::copy_of_repo();
    assert_transcript(&clean, "lint-clean", &["lint"]);
    let broken = broken_project();
    let cases: [(&str, &[&str]); 3] = [
        ("lint-broken-short", &["lint"]),
        ("lint-broken-full", &["lint", "--format", "full"]),
        ("lint-broken-json", &["lint", "--format", "json"]),
    ];
    for (name, args) in cases {
        assert_transcript(&broken, name, args);
    }
}

#[test]
fn forcing_transcripts() {
    let project = Project::copy_of_repo();
    let steps: [(&str, &[&str]); 7] = [
        (
            "scenario-force",
            &[
                "scenario",
                "food_get_restaurant_menu",
                "upstream-unavailable",
            ],
        ),
        (
            "scenario-typo",
            &[
                "scenario",
                "food_get_restaurant_menu",
                "upstream-unavailble",
            ],
        ),
        (
            "scenarios-one-tool",
            &["scenarios", "food_get_restaurant_menu"],
        ),
        ("scenario-clear", &["scenario", "food_get_restaurant_menu"]),
        ("reset", &["reset"]),
        ("scenarios-after-reset", &["scenarios", "ride_cancel"]),
        ("scenarios-jq-when", &["scenarios", "food_place_order"]),
    ];
    for (name, args) in steps {
        assert_transcript(&project, name, args);
    }
}

#[test]
fn controls_transcripts() {
    let project = Project::copy_of_repo();
    let steps: [(&str, &[&str]); 5] = [
        (
            "scenario-sequence",
            &[
                "scenario",
                "ride_get_status",
                "searching",
                "driver-assigned",
                "fault:http-503",
                "completed",
            ],
        ),
        (
            "scenario-default-delay",
            &["scenario", "*", "--delay", "200ms..1500ms"],
        ),
        (
            "scenario-fault-rate",
            &[
                "scenario",
                "ride_book",
                "--fault",
                "http-503",
                "--rate",
                "0.2",
            ],
        ),
        (
            "scenario-bad-delay",
            &["scenario", "ride_book", "--delay", "soon"],
        ),
        ("scenarios-controls", &["scenarios", "ride_get_status"]),
    ];
    for (name, args) in steps {
        assert_transcript(&project, name, args);
    }
}

#[test]
fn calls_transcripts() {
    let project = Project::copy_of_repo();
    // No journal at all is not an empty one.
    assert_transcript(&project, "calls-no-journal", &["calls"]);
    let geocode = r#"{"latitude":25.0866,"longitude":55.1474}"#;
    // One answer and one refusal (the menu wants a location), so that both kinds show.
    let calls: [(&[&str], i32); 2] = [
        (&["call", "reverse_geocode", geocode], 0),
        (
            &[
                "call",
                "food_get_restaurant_menu",
                r#"{"restaurant_id":30104}"#,
            ],
            1,
        ),
    ];
    for (args, code) in calls {
        let run = project.run(args);
        assert_eq!(run.code, code, "{args:?}: {}{}", run.stdout, run.stderr);
    }
    assert_transcript(&project, "calls-two", &["calls"]);
    assert_transcript(
        &project,
        "calls-last-tool",
        &["calls", "--tool", "reverse_geocode", "--last", "1"],
    );
    assert_transcript(&project, "calls-clear", &["calls", "--clear"]);
    assert_transcript(&project, "calls-empty", &["calls"]);
}

#[test]
fn runs_transcripts() {
    let project = Project::copy_of_repo();
    let ride = r#"{"rideId":"5001002"}"#;
    for args in [
        &["--run", "a", "call", "ride_get_status", ride][..],
        &["--run", "b", "call", "ride_get_status", ride],
        &["call", "ride_get_status", ride],
    ] {
        let run = project.run(args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    }
    let steps: [(&str, &[&str]); 9] = [
        (
            "runs-scenario",
            &["--run", "a", "scenario", "ride_cancel", "cancellation-fee"],
        ),
        (
            "runs-scenarios",
            &["--run", "a", "scenarios", "ride_cancel"],
        ),
        ("runs-calls", &["--run", "b", "calls"]),
        ("runs-calls-all", &["calls", "--all-runs"]),
        ("runs-remove", &["--run", "a", "reset", "--remove"]),
        ("runs-remove-again", &["--run", "a", "reset", "--remove"]),
        ("runs-remove-no-run", &["reset", "--remove"]),
        ("runs-bad-name", &["--run", "../a", "calls"]),
        (
            "runs-with-overrides",
            &["--run", "a", "--overrides", "o.json", "scenarios"],
        ),
    ];
    for (name, args) in steps {
        assert_transcript(&project, name, args);
    }
}

#[test]
fn help_transcripts() {
    let project = Project::empty();
    let commands = [
        "",
        "serve",
        "call",
        "scenario",
        "scenarios",
        "reset",
        "lint",
        "verify",
        "drift",
        "record",
        "calls",
        "dashboard",
        "completions",
    ];
    for command in commands {
        let mut args: Vec<&str> = command.split_whitespace().collect();
        args.push("--help");
        let name = format!(
            "help-{}",
            if command.is_empty() {
                "careem-mcp"
            } else {
                command
            }
        );
        assert_transcript(&project, &name, &args);
    }
}
