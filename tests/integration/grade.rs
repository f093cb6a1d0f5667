//! `careem-mcp grade` through the real binary, on runs an MCP client made: a world of a count
//! and booked rides, agents that take the right path, another right path, a wrong amount and
//! an extra booking, each graded by end state with its exit code and report.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{
    Project, call, http_client, serve_binary, start_announced, tally_project, terminate_cleanly,
};

const BOOK: &str = r#"---
tool: book
---
## Definition

```json tool
{"name": "book", "description": "Books a ride.", "inputSchema": {"type": "object", "properties": {"product": {"type": "string"}}, "required": ["product"], "additionalProperties": false}}
```

## Scenario: booked

```jq update
. as $d | .state | .rides = [{rideId: ("R" + (.nextRideId | tostring)), product: {name: $d.args.product}, createdAt: ($d.now | iso)}] + .rides | .nextRideId += 1
```

```jq response
{ride: .state.rides[0]}
```
"#;

fn project() -> Project {
    let project = tally_project(10);
    project.write("tools/book.md", BOOK);
    project.write(
        "tools/world/state/rides.json",
        r#"{"rides": [], "nextRideId": 1}"#,
    );
    project.write(
        "expected.json",
        r#"{"actions": [
            {"tool": "tally", "arguments": {"by": 2}},
            {"tool": "tally", "arguments": {"by": {{results.0.count}}}}
        ], "calls": {"never": ["book"], "max_total": 5}}"#,
    );
    project
}

/// Each run's agent: the calls it makes over MCP at `/mcp/<run>`.
fn agents() -> Vec<(&'static str, Vec<(&'static str, Value)>)> {
    vec![
        (
            "try1",
            vec![("tally", json!({"by": 2})), ("tally", json!({"by": 2}))],
        ),
        (
            "try2",
            vec![("tally", json!({"by": 1})), ("tally", json!({"by": 3}))],
        ),
        (
            "try3",
            vec![("tally", json!({"by": 2})), ("tally", json!({"by": 3}))],
        ),
        (
            "try4",
            vec![
                ("tally", json!({"by": 4})),
                ("book", json!({"product": "Comfort"})),
            ],
        ),
    ]
}

#[tokio::test(flavor = "multi_thread")]
async fn runs_are_graded_by_their_end_state() {
    let project = project();
    let (server, url, _stderr) = serve_binary(&project, &["--stateful"]);
    for (run, calls) in agents() {
        let client = http_client(&format!("{url}/{run}")).await;
        for (tool, args) in calls {
            call(&client, tool, args).await.expect("the call answers");
        }
        drop(client);
    }
    terminate_cleanly(server, Duration::from_secs(30));

    let cases = [
        ("try1", 0, vec![]),
        ("try2", 0, vec![]),
        ("try3", 1, vec!["count: expected 4, got 5"]),
        (
            "try4",
            1,
            vec![
                "rides: 1 ride (Comfort) that the expected actions do not make",
                "calls: book called 1 time; expected never",
            ],
        ),
    ];
    for (run, code, lines) in cases {
        let graded = project.run(&["grade", "--run", run, "expected.json"]);
        assert_eq!(
            graded.code, code,
            "{run}: {}{}",
            graded.stdout, graded.stderr
        );
        for line in &lines {
            assert!(graded.stdout.contains(line), "{run}: {}", graded.stdout);
        }
        let json = project.run(&["grade", "--run", run, "--format", "json", "expected.json"]);
        assert_eq!(json.json()["passed"], code == 0, "{run}");
        assert_eq!(json.json()["verdicts"][0]["calls"], 2, "{run}");
        let junit = project.run(&["grade", "--run", run, "--format", "junit", "expected.json"]);
        assert!(junit.stdout.starts_with("<?xml"), "{}", junit.stdout);
        assert_eq!(
            junit.stdout.contains("<failure"),
            code != 0,
            "{}",
            junit.stdout
        );
        assert!(
            junit
                .stdout
                .contains(&format!("<property name=\"run\" value=\"{run}\"/>")),
            "{}",
            junit.stdout
        );
    }

    let all = project.run(&["grade", "--runs", "try*", "expected.json"]);
    assert_eq!(all.code, 1);
    assert!(
        all.stdout.contains("pass rate 2/4 (50%), pass^4: false"),
        "{}",
        all.stdout
    );

    dashboard_shows_the_verdicts(&project).await;

    // Grading changes no run.
    let world = project.run(&["--run", "try3", "world", "--json"]);
    assert_eq!(world.json()["state"]["count"], 5);
}

/// `dashboard --expected DIR` grades the run the page shows against `DIR/<run>.json`, as
/// `careem-mcp grade` does; a run without a file, or with a broken one, says so.
async fn dashboard_shows_the_verdicts(project: &Project) {
    let expected = project.read("expected.json");
    for run in ["try1", "try3", "try4"] {
        project.write(&format!("expected/{run}.json"), &expected);
    }
    project.write("expected/try2.json", r#"{"actions": ["#);
    let mut command = project.command();
    command.args(["dashboard", "--port", "0", "--expected", "expected"]);
    let (_dashboard, url, _stderr) = start_announced(command, "careem-mcp: dashboard at ");
    let verdict = |run: &str| {
        let url = format!("{url}api/runs/{run}/verdict");
        async move {
            let response = reqwest::get(&url).await.expect("GET the verdict");
            assert!(
                response.status().is_success(),
                "{url}: {}",
                response.status()
            );
            response.json::<Value>().await.expect("JSON")
        }
    };
    let cases = [
        ("try1", "graded", Some(true), vec![]),
        (
            "try3",
            "graded",
            Some(false),
            vec!["count: expected 4, got 5"],
        ),
        (
            "try4",
            "graded",
            Some(false),
            vec![
                "rides: 1 ride (Comfort) that the expected actions do not make",
                "calls: book called 1 time; expected never",
            ],
        ),
        ("try2", "cannot-grade", None, vec![]),
        ("default", "no-expected-file", None, vec![]),
    ];
    for (query, status, passed, lines) in cases {
        let shown = verdict(query).await;
        assert_eq!(shown["status"], status, "{query}: {shown}");
        assert_eq!(shown["passed"].as_bool(), passed, "{query}: {shown}");
        let said: Vec<&str> = ["differences", "broken_checks"]
            .iter()
            .flat_map(|key| shown[key].as_array().into_iter().flatten())
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(said, lines, "{query}: {shown}");
    }
    let default = verdict("default").await;
    assert_eq!(default["expected"], "expected/default.json");

    let missing = project.run(&["dashboard", "--port", "0", "--expected", "nowhere"]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    assert!(
        missing.stderr.contains("--expected nowhere: not a folder"),
        "{}",
        missing.stderr
    );
}

#[test]
fn grading_that_cannot_run_exits_2_with_one_line() {
    let project = project();
    let agent = project.run(&["--stateful", "--run", "one", "call", "tally"]);
    assert_eq!(agent.code, 0, "{}", agent.stderr);
    let cases = [
        (
            "{\"actions\": [",
            "bad.json: not valid JSON after rendering",
        ),
        (
            r#"{"actions": [{"tool": "tally", "arguments": {"by": {{results.0.count}}}}]}"#,
            "bad.json: action 0: results.0.count points past the actions done so far",
        ),
        (
            r#"{"actions": [{"tool": "tally"}, {"tool": "tally", "arguments": {"by": {{results.0.total}}}}]}"#,
            "bad.json: action 1: results.0.total is not a field",
        ),
        (
            r#"{"actions": [{"tool": "nosuch"}]}"#,
            "bad.json: action 0: unknown tool \"nosuch\"",
        ),
        (
            r#"{"actions": [{"tool": "tally", "arguments": {"by": "two"}}]}"#,
            "bad.json: action 0: tally: validating \"arguments\"",
        ),
        (
            r#"{"actions": [{"tool": "tally", "arguments": {"by": 11}}]}"#,
            "bad.json: action 0: tally: the world refuses it: too many",
        ),
    ];
    for (text, want) in cases {
        project.write("bad.json", text);
        let graded = project.run(&["grade", "--run", "one", "bad.json"]);
        assert_eq!(graded.code, 2, "{text}: {}", graded.stdout);
        assert!(graded.stderr.contains(want), "{text}: {}", graded.stderr);
        assert_eq!(graded.stderr.trim().lines().count(), 1, "{}", graded.stderr);
    }
    let unknown = project.run(&["grade", "--run", "nope", "expected.json"]);
    assert_eq!(unknown.code, 2);
    assert!(unknown.stderr.contains("no run nope"), "{}", unknown.stderr);
    let world = project.run(&["--run", "one", "world", "--json"]);
    assert_eq!(world.json()["state"]["count"], 1, "no run changed");
}
