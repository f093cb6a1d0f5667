//! Programs are bounded (docs/FORMAT.md, "Bounds"): a tool file's jq program that loops,
//! recurses, allocates or crawls answers its call `internal server error` within the call's
//! deadline, with the tool, the scenario and the program's line on stderr, while `/health`,
//! other sessions, the run's lock (`reset`, the run's other writes) and SIGTERM carry on; one
//! that names `halt` or `halt_error` does not load. On both modes, and under `lint`.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{DEADLINE, run_bounded};
use crate::support::{
    Client, Lines, Process, Project, assert_marina, call, http, http_client, serve_binary,
    terminate_cleanly, wait_until,
};

/// The `--jq-deadline` of these servers, in seconds.
const JQ_DEADLINE: u64 = 3;

/// What a call may take past its deadline on a loaded machine before the test calls it stuck:
/// far more than a loaded machine adds (13 s were seen at a load of 11), far less than never.
const SLACK: Duration = Duration::from_secs(30);

/// The runaway programs: each scenario's name (its `how`) and its `jq response`.
const RUNAWAYS: [(&str, &str); 7] = [
    ("loops", "def f: f; f"),
    ("whiles", "[0 | while(true; . + 1)] | {count: length}"),
    ("untils", "0 | until(false; . + 1)"),
    ("allocates", "[range(1e9)] | {count: length}"),
    ("recurses", "def f: 1 + f; f"),
    ("nests", "reduce range(1e6) as $i (null; [.])"),
    // Few steps, each slow: only the deadline stops it.
    ("crawls", "[range(1000)] | until(false; tojson | fromjson)"),
];

/// `runaway`: a scenario per program of `programs`, reached by `how` (and by a sample, for the
/// honesty check), and a default that adds one to a count in the run's state. Each program's
/// line comes with it.
fn runaway_tool(programs: &[(&'static str, &str)]) -> (String, Vec<(&'static str, usize)>) {
    let mut text = String::from(
        r#"---
tool: runaway
---
## Definition

```json tool
{"name": "runaway", "description": "Runs away.", "inputSchema": {"type": "object", "properties": {"how": {"type": "string"}}, "additionalProperties": false}, "outputSchema": {"type": "object", "properties": {"count": {"type": "integer"}}, "additionalProperties": false}}
```
"#,
    );
    let mut lines = Vec::new();
    for &(how, program) in programs {
        text.push_str(&format!(
            "\n## Scenario: {how}\n\n```json sample\n{{\"how\": \"{how}\"}}\n```\n\n```jq when\n.args.how == \"{how}\"\n```\n\n```jq response\n"
        ));
        lines.push((how, text.lines().count() + 1));
        text.push_str(&format!("{program}\n```\n"));
    }
    text.push_str(
        "\n## Scenario: adds\n\n```jq update\n.state | .runaway_count += 1\n```\n\n```jq response\n{count: .state.runaway_count}\n```\n",
    );
    (text, lines)
}

/// A copy of the repository with the `runaway` tool and its count in the seed state.
fn runaway_project() -> (Project, Vec<(&'static str, usize)>) {
    let project = Project::copy_of_repo();
    let (tool, lines) = runaway_tool(&RUNAWAYS);
    project.write("tools/runaway.md", &tool);
    project.write("tools/world/state/runaway.json", "{\"runaway_count\": 0}\n");
    (project, lines)
}

async fn runaway(client: &Client, how: &str) -> Value {
    call(client, "runaway", json!({"how": how}))
        .await
        .expect("the call answers")
}

fn assert_internal_error(result: &Value, how: &str) {
    assert_eq!(
        (&result["isError"], &result["content"][0]["text"]),
        (&json!(true), &json!("internal server error")),
        "{how}: {result}"
    );
}

/// Whether a thread of the process `pid` is a program thread: one is running a program, or
/// has.
fn has_program_thread(pid: u32) -> bool {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|task| {
            std::fs::read_to_string(task.path().join("comm")).is_ok_and(|name| name.trim() == "jq")
        })
}

/// Crawling calls fill the program threads (and, stateful, hold the run's lock) while the
/// server's other work carries on; then every runaway answers `internal server error` within
/// its deadline and is logged; then SIGTERM ends the server while a program still runs.
async fn bounded(stateful: bool) {
    let (project, lines) = runaway_project();
    let deadline = JQ_DEADLINE.to_string();
    let mut args = vec!["--jq-deadline", deadline.as_str()];
    if stateful {
        args.push("--stateful");
    }
    let (server, url, mut stderr) = serve_binary(&project, &args);
    let pid = server.0.id();
    let (a, b) = (http_client(&url).await, http_client(&url).await);
    let a = std::sync::Arc::new(a);

    let started = Instant::now();
    let crawling: Vec<_> = (0..4)
        .map(|_| {
            let a = std::sync::Arc::clone(&a);
            tokio::spawn(async move { runaway(&a, "crawls").await })
        })
        .collect();
    wait_until(DEADLINE, || has_program_thread(pid).then_some(())).expect("a program runs");
    let health = http()
        .get(url.replace("/mcp", "/health"))
        .send()
        .await
        .expect("/health answers");
    assert_eq!(health.status(), 200);
    assert_marina(&b).await;
    let limit = Duration::from_secs(JQ_DEADLINE) + SLACK;
    if stateful {
        let reset = run_bounded(&project, &["reset"]);
        assert_eq!(reset.code, 0, "reset: {}", reset.stderr);
        assert!(started.elapsed() < limit, "reset: {:?}", started.elapsed());
    }
    // A write of the same run answers behind the crawling calls: when they hold the run's
    // lock, `internal server error` at its own deadline.
    call(&b, "runaway", json!({"how": "adds"}))
        .await
        .expect("a write answers");
    for crawl in crawling {
        assert_internal_error(&crawl.await.expect("the task ran"), "crawls");
    }
    assert!(started.elapsed() < limit, "{:?}", started.elapsed());
    let added = call(&b, "runaway", json!({"how": "adds"}))
        .await
        .expect("a write answers");
    assert_eq!(added["isError"], Value::Null, "{added}");

    for (how, line) in &lines {
        let started = Instant::now();
        assert_internal_error(&runaway(&a, how).await, how);
        assert!(started.elapsed() < limit, "{how}: {:?}", started.elapsed());
        assert_logged(&mut stderr, how, *line);
    }
    assert_marina(&b).await;

    let last = tokio::spawn(async move { runaway(&a, "crawls").await });
    wait_until(DEADLINE, || has_program_thread(pid).then_some(())).expect("a program runs");
    terminate(server);
    drop(last);
}

/// The call's log line names the tool, the tool file, the scenario and the program's line.
fn assert_logged(stderr: &mut Lines, how: &str, line: usize) {
    let said = format!("scenario \"{how}\", jq program at line {line}: ");
    let logged = stderr.wait_for(DEADLINE, |l| l.contains(&said));
    let logged = logged.unwrap_or_else(|| panic!("{said}: {:?}", stderr.lines()));
    assert!(
        logged.contains("tool=runaway") && logged.contains("path=tools/runaway.md"),
        "{logged}"
    );
}

fn terminate(server: Process) {
    terminate_cleanly(server, SLACK + Duration::from_secs(JQ_DEADLINE));
}

#[tokio::test(flavor = "multi_thread")]
async fn runaway_programs_answer_internal_server_error_and_the_server_carries_on() {
    bounded(false).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn runaway_programs_in_a_stateful_run_hold_neither_its_lock_nor_the_server() {
    bounded(true).await;
}

#[test]
fn lint_names_each_runaway_program_and_refuses_halt() {
    let (project, lines) = runaway_project();
    let linted = run_bounded(
        &project,
        &["lint", "--format", "short", "--jq-deadline", "1"],
    );
    assert_eq!(linted.code, 1, "{}", linted.stdout);
    for (how, line) in lines {
        let said = format!("scenario \"{how}\", jq program at line {line}: ");
        assert!(linted.stdout.contains(&said), "{said}\n{}", linted.stdout);
    }

    for (program, name) in [
        ("{} | halt", "halt"),
        ("\"no\" | halt_error(1)", "halt_error"),
    ] {
        let project = Project::copy_of_repo();
        let (tool, lines) = runaway_tool(&[("halts", program)]);
        project.write("tools/runaway.md", &tool);
        let want = format!(
            "tools/runaway.md:{}: scenario \"halts\": jq: line 1: undefined filter `{name}`: a program cannot stop the server",
            lines[0].1
        );
        let linted = run_bounded(&project, &["lint", "--format", "short"]);
        assert_eq!(linted.code, 1, "{}", linted.stdout);
        assert!(linted.stdout.contains(&want), "{want}\n{}", linted.stdout);
        let served = run_bounded(&project, &["serve", "--port", "0"]);
        assert_eq!(served.code, 2, "{}", served.stderr);
        assert!(served.stderr.contains(&want), "{}", served.stderr);
    }
}
