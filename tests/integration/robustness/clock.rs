//! The run's clock at its edges: a `clock.json` outside the years a clock tells, `clock set` and
//! `clock advance` past them, and many processes moving it at once.

use chrono::{DateTime, Datelike, Utc};
use serde_json::Value;

use super::run_bounded;
use crate::support::{BIN, Project, tally_project};

/// The time `call tally` answers with in `project`.
fn tally_at(project: &Project) -> String {
    let run = run_bounded(project, &["call", "tally", "--no-journal"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let answer: Value = serde_json::from_str(&run.stdout).expect("a JSON answer");
    answer["structuredContent"]["at"]
        .as_str()
        .unwrap_or_else(|| panic!("no time in {answer}"))
        .to_string()
}

#[test]
fn a_clock_file_outside_its_years_is_a_warning_and_the_real_time() {
    let project = tally_project(1000);
    let year = Utc::now().year().to_string();
    for broken in [
        r#"{"offset": 9000000000000}"#,
        r#"{"offset": -9000000000000}"#,
        r#"{"offset": 9223372036854775807}"#,
        r#"{"offset": 320000000000}"#,
        r#"{"frozen": "0000-06-01T00:00:00Z"}"#,
    ] {
        project.write(".run/clock.json", broken);
        let clock = run_bounded(&project, &["clock"]);
        assert_eq!(clock.code, 0, "{broken}: {}", clock.stderr);
        assert!(
            clock.stdout.starts_with(&format!("clock: {year}-"))
                && clock.stdout.contains("(real time)"),
            "{broken}: {}",
            clock.stdout
        );
        assert!(
            clock.stderr.contains("outside the years 0001 to 9999")
                && clock.stderr.contains("clock.json"),
            "{broken}: {}",
            clock.stderr
        );
        let world = run_bounded(&project, &["world", "--json"]);
        assert_eq!(world.code, 0, "{broken}: {}", world.stderr);
        assert!(
            world.stdout.contains(&format!("\"{year}-")),
            "{broken}: {}",
            world.stdout
        );
        assert!(tally_at(&project).starts_with(&year), "{broken}");
    }
}

#[test]
fn the_clock_is_refused_past_its_years_and_stays_where_it_was() {
    let project = tally_project(1000);
    let latest = "9999-12-01T00:00:00Z";
    let set = run_bounded(&project, &["clock", "set", latest]);
    assert_eq!(set.code, 0, "{}", set.stderr);
    assert_eq!(tally_at(&project), latest);
    // A running clock at the same time.
    let end: DateTime<Utc> = latest.parse().expect("a time");
    // A second more than the whole seconds to go, so that the clock reads on or after `end`
    // whatever fraction of a second the real time is at.
    let offset = (end - Utc::now()).num_seconds() + 1;
    let cases = [
        (
            vec!["clock", "set", "0000-06-01T00:00:00Z"],
            "the years a clock tells are 0001 to 9999",
        ),
        (
            vec!["--clock", "0000-06-01T00:00:00Z", "clock"],
            "the years a clock tells are 0001 to 9999",
        ),
        (
            vec!["clock", "advance", "31d"],
            "cannot advance the clock by 31d: it would pass 9999-12-31T23:59:59Z",
        ),
    ];
    for (setting, say) in [
        (format!(r#"{{"frozen": "{latest}"}}"#), latest),
        (format!(r#"{{"offset": {offset}}}"#), "9999-12-01T00:0"),
    ] {
        project.write(".run/clock.json", &setting);
        for (args, why) in &cases {
            let refused = run_bounded(&project, args);
            assert_eq!(refused.code, 2, "{args:?}: {}", refused.stderr);
            assert!(refused.stderr.contains(why), "{args:?}: {}", refused.stderr);
            assert_eq!(project.read(".run/clock.json"), setting, "{args:?}");
            assert!(tally_at(&project).starts_with(say), "{args:?}");
        }
    }
}

#[test]
fn twenty_processes_advancing_at_once_move_the_clock_twenty_minutes() {
    const PROCESSES: usize = 20;
    let project = tally_project(1000);
    let set = run_bounded(&project, &["clock", "set", "2026-10-05T12:00:00Z"]);
    assert_eq!(set.code, 0, "{}", set.stderr);
    let children: Vec<_> = (0..PROCESSES)
        .map(|_| {
            std::process::Command::new(BIN)
                .current_dir(project.path())
                .args(["clock", "advance", "1m"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("the binary starts")
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().expect("it ends");
        assert!(output.status.success(), "{output:?}");
    }
    assert_eq!(tally_at(&project), "2026-10-05T12:20:00Z");
}
