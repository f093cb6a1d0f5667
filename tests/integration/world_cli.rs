//! What the CLI shows of a run, pinned as whole transcripts: `world` lists the orders and rides
//! the agent's tools answer for, the seed world's among them; a `--run` that names no run is
//! refused alike by every command that reads one; a duration is written one way everywhere;
//! `serve` says whether the world remembers and where.

use regex::Regex;
use serde_json::{Value, json};

use crate::support::{Project, Run, serve_binary, tally_project};
use crate::transcript::{assert_run_matches, assert_transcript};

/// `call` with `--stateful`, which must answer without an error.
fn call(project: &Project, tool: &str, args: &Value) -> Value {
    let run = project.run(&["--stateful", "call", tool, &args.to_string()]);
    assert_eq!(run.code, 0, "{tool}: {}{}", run.stdout, run.stderr);
    run.json()["structuredContent"].clone()
}

#[test]
fn world_lists_what_the_agents_tools_answer_and_who_made_it() {
    let project = Project::copy_of_repo();
    for args in [&["reset"][..], &["clock", "set", "2026-12-05T08:30:00Z"]] {
        assert_eq!(project.run(args).code, 0, "{args:?}");
    }
    assert_transcript(&project, "world-seed", &["world"]);

    // An order, a ride, and a seed ride cancelled: each id from the answer before.
    let basket = call(&project, "cart_get_basket", &json!({}))["basket"]["id"].clone();
    let place = json!({"basket_id": basket, "payment_method_id": "PM-9001",
                       "delivery_location_uuid": "LOC-50001"});
    call(&project, "food_place_order", &place);
    let book = json!({"productId": 1101, "pickupLatitude": 25.0805, "pickupLongitude": 55.1403,
                      "dropoffLatitude": 25.1972, "dropoffLongitude": 55.2797});
    call(&project, "ride_book", &book);
    let seed_ride =
        call(&project, "ride_get_status", &json!({"rideId": "5001001"}))["ride"]["rideId"].clone();
    call(&project, "ride_cancel", &json!({"rideId": seed_ride}));
    assert_eq!(project.run(&["clock", "advance", "90m"]).code, 0);
    assert_transcript(&project, "world-after-calls", &["world"]);
}

/// Every instant of a run on the real clock, which moves from one run to the next.
fn instants_redacted(mut run: Run) -> Run {
    let instant = Regex::new(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ").expect("a pattern");
    run.stdout = instant.replace_all(&run.stdout, "[INSTANT]").into_owned();
    run
}

#[test]
fn a_duration_is_written_one_way_in_every_output() {
    let project = tally_project(10);
    for (name, args) in [
        ("clock-advance", &["clock", "advance", "90m"][..]),
        ("clock-show", &["clock"]),
        ("world-offset", &["world"]),
    ] {
        let run = instants_redacted(project.run(args));
        assert_run_matches(
            &project,
            name,
            &format!("careem-mcp {}", args.join(" ")),
            &run,
        );
    }
}

#[test]
fn a_run_that_does_not_exist_is_refused_naming_the_runs_that_do() {
    let project = tally_project(10);
    for run in ["b", "a"] {
        assert_eq!(project.run(&["--run", run, "call", "tally"]).code, 0);
    }
    project.write("expected.json", r#"{"actions": []}"#);
    let cases: [(&str, &[&str]); 6] = [
        ("missing-run-world", &["--run", "nope", "world"]),
        ("missing-run-clock", &["--run", "nope", "clock"]),
        (
            "missing-run-clock-real",
            &["--run", "nope", "clock", "real"],
        ),
        ("missing-run-calls", &["--run", "nope", "calls"]),
        (
            "missing-run-calls-clear",
            &["--run", "nope", "calls", "--clear"],
        ),
        (
            "missing-run-grade",
            &["--run", "nope", "grade", "expected.json"],
        ),
    ];
    for (name, args) in cases {
        assert_transcript(&project, name, args);
    }
    // The default run always exists; setting a run's clock prepares the run.
    assert_eq!(project.run(&["world"]).code, 0);
    let prepared = project.run(&["--run", "next", "clock", "set", "2026-12-05T08:30:00Z"]);
    assert_eq!(prepared.code, 0, "{}", prepared.stderr);
    assert_eq!(project.run(&["--run", "next", "world"]).code, 0);
}

#[test]
fn serve_says_whether_the_world_remembers_and_where() {
    let project = Project::copy_of_repo();
    let address = Regex::new(r"127\.0\.0\.1:\d+").expect("a pattern");
    for (name, args) in [
        ("serve-banner", &[][..]),
        ("serve-banner-stateful", &["--stateful"]),
    ] {
        let mut command = vec!["serve", "--port", "0"];
        command.extend(args);
        let (_server, _url, mut stderr) = serve_binary(&project, args);
        let banner: Vec<String> = stderr
            .lines()
            .into_iter()
            .take_while(|line| !line.starts_with("careem-mcp: serving "))
            .chain(
                stderr
                    .lines()
                    .into_iter()
                    .find(|l| l.starts_with("careem-mcp: serving ")),
            )
            .collect();
        let run = Run {
            code: 0,
            stdout: String::new(),
            stderr: address
                .replace_all(&banner.join("\n"), "[ADDRESS]")
                .into_owned()
                + "\n",
        };
        assert_run_matches(
            &project,
            name,
            &format!("careem-mcp {}", command.join(" ")),
            &run,
        );
    }
}
