//! `--server URL`: every control subcommand run both ways — on one project's files, and through
//! the admin API of a server on a twin project — prints the same and exits the same, refusals
//! included (docs/ADMIN.md).

use std::time::Duration;

use regex::Regex;
use serde_json::json;

use crate::support::{Lines, Process, Project, Run, serve_binary, tally_project};
use crate::transcript::TIME;

const TOKEN: &str = "remote-test-token";

/// The tally world of `grade.rs`, with an expected file.
fn project() -> Project {
    let project = tally_project(10);
    project.write(
        "expected.json",
        r#"{"actions": [{"tool": "tally", "arguments": {"by": 2}}], "calls": {"max_total": 5}}"#,
    );
    // A server opens the default run's journal as it starts; the twin on files has it too.
    project.write(".run/calls.jsonl", "");
    project
}

/// The commands, in order; each runs on both twins. `true` when its output tells the real time,
/// which the two sides read a moment apart.
fn commands() -> Vec<(Vec<&'static str>, bool)> {
    let steps: [(&[&str], bool); 43] = [
        (&["scenario", "tally", "too-many"], false),
        (&["scenario", "tally", "aded"], false),
        (&["scenario", "taly", "added"], false),
        (&["scenario", "*", "--delay", "1ms"], false),
        (&["scenario", "*", "too-many"], false),
        (&["scenarios"], false),
        (&["scenarios", "tally"], false),
        (&["scenarios", "nope"], false),
        (&["scenario", "tally"], false),
        (
            &[
                "--run", "t1", "scenario", "tally", "added", "too-many", "--delay", "2ms",
            ],
            false,
        ),
        (&["--run", "t1", "scenarios"], false),
        (
            &["--run", "t1", "clock", "set", "2026-10-05T12:00:00Z"],
            false,
        ),
        (&["--run", "t1", "clock", "advance", "90m"], false),
        (&["--run", "t1", "clock", "advance", "soon"], false),
        (&["--run", "t1", "clock"], false),
        (&["--run", "nosuch", "clock"], false),
        (&["--run", "nosuch", "clock", "real"], false),
        (
            &["--run", "t1", "--stateful", "call", "tally", r#"{"by": 2}"#],
            false,
        ),
        (
            &["--run", "t1", "--stateful", "call", "tally", r#"{"by": 3}"#],
            false,
        ),
        (&["--run", "t1", "calls"], false),
        (&["--run", "t1", "calls", "--json"], false),
        (&["--run", "t1", "calls", "--json", "--last", "1"], false),
        (&["--run", "t1", "calls", "--json", "--tool", "nope"], false),
        (&["calls"], false),
        (&["calls", "--all-runs", "--json"], false),
        (&["--run", "nosuch", "calls"], false),
        (&["--run", "t1", "world"], false),
        (&["--run", "t1", "world", "--json"], false),
        (&["--run", "nosuch", "world"], false),
        (&["--run", "t1", "grade", "expected.json"], false),
        (
            &["--run", "t1", "grade", "--format", "json", "expected.json"],
            false,
        ),
        (
            &["--run", "t1", "grade", "--format", "junit", "expected.json"],
            false,
        ),
        (&["grade", "--runs", "t*", "expected.json"], false),
        (&["--run", "t1", "grade", "missing.json"], false),
        (&["--run", "nosuch", "grade", "expected.json"], false),
        (&["--run", "t1", "calls", "--clear"], false),
        (&["--run", "t1", "calls", "--json"], false),
        (&["--run", "t1", "reset"], false),
        (&["--run", "t1", "clock"], true),
        (&["reset", "--remove"], false),
        (&["--run", "t1", "reset", "--remove"], false),
        (&["--run", "t1", "reset", "--remove"], false),
        (&["world", "--json"], true),
    ];
    steps
        .iter()
        .map(|(args, real)| (args.to_vec(), *real))
        .collect()
}

/// What a run printed, with what differs between the twins and between moments left out: the
/// project's folder, journal times, durations, and (where the real time shows) every instant.
fn seen(run: &Run, project: &Project, instants: bool) -> (i32, String, String) {
    let folder = project.path().display().to_string();
    let clean = |text: &str| {
        let text = text.replace(&folder, "[PROJECT]");
        let text = Regex::new(TIME).unwrap().replace_all(&text, "[TIME]");
        let text = Regex::new(r#""micros": \d+"#)
            .unwrap()
            .replace_all(&text, r#""micros": 0"#);
        if instants {
            let instant = Regex::new(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z").unwrap();
            instant.replace_all(&text, "[INSTANT]").into_owned()
        } else {
            text.into_owned()
        }
    };
    (run.code, clean(&run.stdout), clean(&run.stderr))
}

/// `serve --stateful --admin` on `project`, with a token; its admin URL.
fn server(project: &Project) -> (Process, String) {
    project.write("token", TOKEN);
    let (process, _mcp, mut stderr): (Process, String, Lines) = serve_binary(
        project,
        &["--stateful", "--admin", "0", "--admin-token-file", "token"],
    );
    let prefix = "careem-mcp: admin API at ";
    let line = stderr
        .wait_for(Duration::from_secs(5), |line| line.starts_with(prefix))
        .expect("the admin line");
    let url = line[prefix.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    (process, url)
}

#[test]
fn every_control_prints_the_same_through_the_server_as_on_files() {
    let local = project();
    let twin = project();
    let (_server, url) = server(&twin);
    for (args, instants) in commands() {
        let here = local.run(&args);
        let mut command = twin.command();
        command
            .env("CAREEM_MCP_SERVER", &url)
            .env("CAREEM_MCP_ADMIN_TOKEN", TOKEN)
            .args(&args);
        let there = Run::from(command.output().expect("the binary runs"));
        assert_eq!(
            seen(&there, &twin, instants),
            seen(&here, &local, instants),
            "careem-mcp {} (through the server, then on files)",
            args.join(" ")
        );
    }
    // Every control above went through the API: the twin's files changed as the local ones did.
    assert_eq!(
        twin.read(".run/overrides.json"),
        local.read(".run/overrides.json")
    );
}

#[test]
fn without_the_token_the_server_refuses_and_nothing_changes() {
    let twin = project();
    let (_server, url) = server(&twin);
    for token in [None, Some("wrong")] {
        let mut command = twin.command();
        command.args(["--server", &url, "scenario", "tally", "too-many"]);
        if let Some(token) = token {
            command.env("CAREEM_MCP_ADMIN_TOKEN", token);
        }
        let run = Run::from(command.output().expect("runs"));
        assert_eq!(run.code, 2, "{token:?}: {}", run.stdout);
        assert!(
            run.stderr.starts_with("error: ") && run.stderr.contains("token"),
            "{}",
            run.stderr
        );
    }
    assert_eq!(twin.read(".run/overrides.json"), "");
    let unreachable = twin.run(&["--server", "http://127.0.0.1:9", "scenarios"]);
    assert_eq!(unreachable.code, 2);
    assert!(
        unreachable
            .stderr
            .starts_with("error: cannot reach the admin API at http://127.0.0.1:9"),
        "{}",
        unreachable.stderr
    );
}

#[test]
fn calls_follow_through_the_server_prints_each_new_call() {
    let twin = project();
    let (_server, url) = server(&twin);
    assert_eq!(twin.run(&["call", "tally", r#"{"by": 1}"#]).code, 0);
    let mut command = twin.command();
    command
        .env("CAREEM_MCP_ADMIN_TOKEN", TOKEN)
        .args(["--server", &url, "calls", "--follow"]);
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("starts");
    let mut lines = Lines::of(child.stdout.take().expect("stdout"));
    let _follower = Process(child);
    lines
        .wait_for(Duration::from_secs(30), |line| line.contains(r#"{"by":1}"#))
        .expect("the table holds the call made before");
    assert_eq!(
        twin.run(&["call", "tally", &json!({"by": 7}).to_string()])
            .code,
        0
    );
    let row = lines
        .wait_for(Duration::from_secs(30), |line| line.contains(r#"{"by":7}"#))
        .expect("a row for the new call");
    assert!(row.contains("tally") && row.contains("added"), "{row}");
}
