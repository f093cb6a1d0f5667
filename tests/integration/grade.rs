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

/// The fenced block of `doc` that follows the paragraph ending in `after`.
fn block_after(doc: &str, after: &str) -> String {
    let rest = &doc[doc
        .find(after)
        .unwrap_or_else(|| panic!("{after:?} in the doc"))..];
    let open = rest.find("```").expect("a block after it");
    let body = &rest[open..];
    let body = &body[body.find('\n').expect("the fence's line") + 1..];
    body[..body.find("```").expect("the block's end")].to_string()
}

/// GRADING.md's expected file, and its sample report: an agent that orders three salmon nigiri
/// where two were asked for, and books a ride on the way, each id from the answer before.
#[tokio::test(flavor = "multi_thread")]
async fn the_sample_output_of_grading_md_is_the_real_one() {
    let doc = std::fs::read_to_string(crate::support::repo().join("docs/GRADING.md"))
        .expect("docs/GRADING.md");
    let project = Project::copy_of_repo();
    project.write(
        "expected/task7.json",
        &block_after(&doc, "placeholder syntax:"),
    );
    let run = "task7-try2";
    let clock = project.run(&["--run", run, "clock", "set", "2026-10-05T12:00:00Z"]);
    assert_eq!(clock.code, 0, "{}", clock.stderr);
    let (server, url, _stderr) = serve_binary(&project, &["--stateful"]);
    let agent = http_client(&format!("{url}/{run}")).await;
    let answer = |tool: &'static str, args: Value| {
        let agent = &agent;
        async move {
            let result = call(agent, tool, args).await.expect("the call answers");
            assert_ne!(result["isError"], true, "{tool}: {result}");
            let content = result["structuredContent"].clone();
            assert!(content.get("error").is_none(), "{tool}: {content}");
            content
        }
    };
    let home = answer("get_saved_locations", json!({})).await["savedLocations"]
        .as_array()
        .expect("saved locations")
        .iter()
        .find(|saved| saved["type"] == "HOME")
        .expect("a home")["location"]
        .clone();
    let near = json!({"latitude": home["latitude"], "longitude": home["longitude"]});
    let found = answer("food_merchant_search", with(&near, "query", json!("sushi"))).await;
    let restaurant = found["restaurants"][0]["id"].clone();
    let menu = answer(
        "food_get_restaurant_menu",
        with(&near, "restaurant_id", restaurant.clone()),
    )
    .await;
    let nigiri = menu["restaurant"]["menu"]["categories"]
        .as_array()
        .expect("categories")
        .iter()
        .flat_map(|category| category["items"].as_array().expect("items"))
        .find(|item| {
            item["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("Salmon Nigiri"))
        })
        .expect("salmon nigiri on the menu")["id"]
        .clone();
    answer("cart_get_basket", json!({})).await;
    answer("cart_clear", json!({})).await;
    let added = answer(
        "cart_add_item",
        json!({"restaurant_id": restaurant, "item_id": nigiri, "quantity": 3}),
    )
    .await;
    let card = answer("get_payment_methods", json!({})).await["paymentMethods"][0]["id"].clone();
    answer(
        "food_place_order",
        json!({"basket_id": added["basket"]["id"], "payment_method_id": card,
               "delivery_location_uuid": home["locationUuid"]}),
    )
    .await;
    let comfort = json!({"productId": 1102, "pickupLatitude": home["latitude"],
        "pickupLongitude": home["longitude"], "dropoffLatitude": 25.1972, "dropoffLongitude": 55.2797});
    answer("ride_book", comfort).await;
    drop(agent);
    terminate_cleanly(server, Duration::from_secs(30));

    let graded = project.run(&["grade", "--run", run, "expected/task7.json"]);
    assert_eq!(graded.code, 1, "{}{}", graded.stdout, graded.stderr);
    assert_eq!(
        graded.stdout,
        block_after(&doc, "A difference reads as a person would say it")
    );
}

/// `args` with `key` set to `value`.
fn with(args: &Value, key: &str, value: Value) -> Value {
    let mut args = args.clone();
    args[key] = value;
    args
}

/// What `grade` and `calls` read is a regular file within a bound: an expected file or a run's
/// journal that is a FIFO, a device or too large is refused at once, exit 2, saying which and
/// why; nothing waits on a pipe or reads for ever.
#[test]
fn inputs_that_are_not_regular_files_or_too_large_are_refused() {
    let project = tally_project(10);
    project.write("expected.json", r#"{"actions": []}"#);
    assert_eq!(project.run(&["--run", "one", "call", "tally"]).code, 0);
    let journal = project.path().join(".run/runs/one/calls.jsonl");
    let at = |name: &str| project.path().join(name);
    let cases = [
        (
            "an expected FIFO",
            Put::Fifo(at("pipe.json")),
            vec!["grade", "pipe.json"],
            "pipe.json: cannot read\n  caused by: not a regular file (a FIFO)",
        ),
        (
            "an expected device",
            Put::Nothing,
            vec!["grade", "/dev/zero"],
            "/dev/zero: cannot read\n  caused by: not a regular file (a character device)",
        ),
        (
            "an expected file past 16 MiB",
            Put::Sparse(at("big.json"), 17 * 1024 * 1024),
            vec!["grade", "big.json"],
            "big.json: cannot read\n  caused by: larger than 16 MiB",
        ),
        (
            "a journal FIFO, graded",
            Put::Fifo(journal.clone()),
            vec!["--run", "one", "grade", "expected.json"],
            "calls.jsonl cannot be read: not a regular file (a FIFO)",
        ),
        (
            "a journal FIFO, listed",
            Put::Fifo(journal.clone()),
            vec!["--run", "one", "calls"],
            "calls.jsonl\n  caused by: not a regular file (a FIFO)",
        ),
        (
            "a journal past 256 MiB, graded",
            Put::Sparse(journal.clone(), 257 * 1024 * 1024),
            vec!["--run", "one", "grade", "expected.json"],
            "calls.jsonl cannot be read: larger than 256 MiB",
        ),
    ];
    for (what, put, args, want) in cases {
        put.make();
        let mut command = project.command();
        command
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        let mut process = crate::support::Process(command.spawn().expect("the binary starts"));
        let status = process.wait_for_exit(Duration::from_secs(30));
        assert_eq!(
            status.and_then(|s| s.code()),
            Some(2),
            "{what}: waited or passed"
        );
        let mut stderr = String::new();
        std::io::Read::read_to_string(process.0.stderr.as_mut().expect("stderr"), &mut stderr)
            .expect("stderr reads");
        assert!(stderr.contains(want), "{what}: {stderr}");
    }
}

/// A file a case puts in place first.
enum Put {
    Nothing,
    Fifo(std::path::PathBuf),
    /// A sparse file of this many bytes.
    Sparse(std::path::PathBuf, u64),
}

impl Put {
    fn make(&self) {
        match self {
            Self::Nothing => {}
            Self::Fifo(path) => {
                let _ = std::fs::remove_file(path);
                crate::support::make_fifo(path);
            }
            Self::Sparse(path, bytes) => {
                let _ = std::fs::remove_file(path);
                std::fs::File::create(path)
                    .and_then(|file| file.set_len(*bytes))
                    .expect("a sparse file");
            }
        }
    }
}
