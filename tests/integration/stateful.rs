//! The world that remembers, as a mechanism (docs/FORMAT.md, "Computed answers"): a project
//! with one small computed tool, `tally`, whose every call adds to a count in the run's state.
//! Served by the real binary over each transport, with several processes at once, across
//! restarts and runs, with broken files; the tools of `tools/` walk their own journeys.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{
    Client, Lines, Project, call, http_client, serve_binary, stdio_client, tally_project,
    tally_tool, terminate_cleanly,
};

fn count(result: &Value) -> i64 {
    result["structuredContent"]["count"]
        .as_i64()
        .unwrap_or_else(|| panic!("no count in {result}"))
}

async fn tally(client: &Client) -> Value {
    call(client, "tally", json!({}))
        .await
        .expect("tally answers")
}

fn stdio(project: &Project, args: &[&str]) -> std::process::Command {
    let mut command = project.command();
    command.args(["serve", "--stdio"]).args(args);
    command
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_remembers_across_transports_processes_and_restarts_until_reset() {
    let project = tally_project(1000);
    let (server, url, _stderr) = serve_binary(&project, &["--stateful"]);
    let http = http_client(&url).await;
    assert_eq!(count(&tally(&http).await), 1);
    assert_eq!(count(&tally(&http).await), 2);
    // Another session of the same run, and a stdio process serving it, share its world.
    let again = http_client(&url).await;
    assert_eq!(count(&tally(&again).await), 3);
    let stdio_client_ = stdio_client(stdio(&project, &["--stateful"])).await;
    assert_eq!(count(&tally(&stdio_client_).await), 4);
    // Another run has a world of its own.
    let other = http_client(&format!("{url}/other")).await;
    assert_eq!(count(&tally(&other).await), 1);
    assert_eq!(count(&tally(&http).await), 5);
    drop((http, again, other, stdio_client_));
    terminate_cleanly(server, Duration::from_secs(30));

    let (server, url, _stderr) = serve_binary(&project, &["--stateful"]);
    let http = http_client(&url).await;
    assert_eq!(
        count(&tally(&http).await),
        6,
        "the world survives a restart"
    );
    let reset = project.run(&["reset"]);
    assert_eq!(reset.code, 0, "{}", reset.stderr);
    assert_eq!(count(&tally(&http).await), 1, "reset restores the seed");
    let other = http_client(&format!("{url}/other")).await;
    assert_eq!(
        count(&tally(&other).await),
        2,
        "reset leaves other runs alone"
    );
    drop((http, other));
    terminate_cleanly(server, Duration::from_secs(30));
}

#[test]
fn static_mode_computes_the_change_and_forgets_it() {
    let project = tally_project(1000);
    for _ in 0..2 {
        let run = project.run(&["call", "tally", "{\"by\": 2}"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            run.json()["structuredContent"]["count"],
            2,
            "{}",
            run.stdout
        );
        assert_eq!(run.json()["structuredContent"]["was"], 0);
    }
    assert!(!project.path().join(".run/world.json").exists());
}

#[test]
fn processes_adding_at_once_lose_no_update() {
    let project = tally_project(1000);
    const EACH: usize = 12;
    let adders: Vec<_> = (0..3)
        .map(|_| {
            let mut command = project.command();
            command.args(["--stateful", "call", "tally", "--no-journal"]);
            std::thread::spawn(move || {
                for _ in 0..EACH {
                    let output = command.output().expect("the binary runs");
                    assert!(output.status.success(), "{output:?}");
                }
            })
        })
        .collect();
    for adder in adders {
        adder.join().expect("an adder finishes");
    }
    let world = project.run(&["world", "--json"]);
    assert_eq!(world.code, 0, "{}", world.stderr);
    assert_eq!(world.json()["state"]["count"], json!(3 * EACH));
}

#[test]
fn the_clock_is_the_runs_and_moves_as_told() {
    let project = tally_project(1000);
    let cases = [
        (
            vec!["clock", "set", "2026-10-05T12:00:00Z"],
            "2026-10-05T12:00:00Z",
        ),
        (vec!["clock", "advance", "90m"], "2026-10-05T13:30:00Z"),
        (vec!["clock", "advance", "1d2h"], "2026-10-06T15:30:00Z"),
    ];
    for (args, want) in cases {
        let moved = project.run(&args);
        assert_eq!(moved.code, 0, "{}", moved.stderr);
        assert!(moved.stdout.contains(want), "{}", moved.stdout);
        let answer = project.run(&["call", "tally"]);
        assert_eq!(answer.json()["structuredContent"]["at"], want);
    }
    // Another run keeps the real time.
    let other = project.run(&["--run", "b", "call", "tally"]);
    assert_ne!(
        other.json()["structuredContent"]["at"],
        "2026-10-06T15:30:00Z"
    );
    // `--clock` wins over the file.
    let fixed = project.run(&["--clock", "2030-01-01T00:00:00Z", "call", "tally"]);
    assert_eq!(
        fixed.json()["structuredContent"]["at"],
        "2030-01-01T00:00:00Z"
    );
    for (args, why) in [
        (vec!["clock", "advance", "-5m"], "negative"),
        (vec!["clock", "advance", "soon"], "not a duration"),
        (vec!["clock", "set", "tomorrow"], "RFC 3339"),
    ] {
        let refused = project.run(&args);
        assert_eq!(refused.code, 2, "{args:?}");
        assert!(refused.stderr.contains(why), "{args:?}: {}", refused.stderr);
    }
    let real = project.run(&["clock", "real"]);
    assert!(real.stdout.contains("(real time)"), "{}", real.stdout);
}

#[test]
fn a_broken_world_file_starts_the_run_from_its_seed_with_one_warning() {
    let project = tally_project(1000);
    let broken = "{\"version\": 1, \"state\": ";
    project.write(".run/world.json", broken);
    let run = project.run(&["--stateful", "call", "tally", "--no-journal"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["structuredContent"]["was"], 0);
    assert_eq!(
        run.stderr.matches("cannot be used").count(),
        1,
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("world.json"), "{}", run.stderr);
    assert_eq!(
        project.read(".run/world.json.unusable"),
        broken,
        "nothing is lost"
    );
    let run = project.run(&["--stateful", "call", "tally", "--no-journal"]);
    assert_eq!(run.json()["structuredContent"]["was"], 1);
    assert!(!run.stderr.contains("cannot be used"), "{}", run.stderr);
}

#[test]
fn broken_programs_and_data_are_named_at_start_and_answer_internal_server_error_later() {
    let project = tally_project(1000);
    project.write(
        "tools/world/tally.jq",
        "# The count after adding n.\ndef tally_add($n): .state | .count += ;\n",
    );
    let serve = project.run(&["serve", "--stdio"]);
    assert_eq!(serve.code, 2, "{}", serve.stderr);
    assert!(serve.stderr.contains("tally.jq:2"), "{}", serve.stderr);
    let lint = project.run(&["lint", "--format", "short"]);
    assert_ne!(lint.code, 0);
    assert!(lint.stdout.contains("world"), "{}", lint.stdout);

    let project = tally_project(1000);
    project.write(
        "tools/tally.md",
        &tally_tool(1000).replace("tally_add(.args.by)", ".state | .count += nosuch"),
    );
    let lint = project.run(&["lint", "--format", "short"]);
    assert!(
        lint.stdout.contains("tally.md:") && lint.stdout.contains("nosuch"),
        "{}",
        lint.stdout
    );

    let project = tally_project(1000);
    project.write("tools/world/state/tally.json", "{\"count\": \"many\"}\n");
    let run = project.run(&["call", "tally"]);
    assert_eq!(
        run.json()["content"][0]["text"],
        "internal server error",
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("line"), "{}", run.stderr);
    project.write("tools/world/state/tally.json", "{\"count\": ");
    let run = project.run(&["call", "tally"]);
    assert_eq!(
        run.code, 2,
        "a broken data file stops the CLI at load: {}",
        run.stderr
    );
    assert!(run.stderr.contains("tally.json"), "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_data_file_broken_while_serving_answers_internal_server_error_and_serving_goes_on() {
    let project = tally_project(1000);
    let (server, url, stderr) = serve_binary(&project, &["--stateful"]);
    let client = http_client(&url).await;
    assert_eq!(count(&tally(&client).await), 1);
    project.write("tools/world/state/tally.json", "{\"count\": ");
    let broken = tally(&client).await;
    assert_eq!(broken["isError"], true, "{broken}");
    assert_eq!(broken["content"][0]["text"], "internal server error");
    let mut stderr: Lines = stderr;
    assert!(
        stderr
            .wait_for(Duration::from_secs(20), |line| line.contains("tally.json"))
            .is_some(),
        "the reason is logged: {:?}",
        stderr.lines()
    );
    project.write("tools/world/state/tally.json", "{\"count\": 0}\n");
    assert_eq!(count(&tally(&client).await), 2, "mended, the run goes on");
    drop(client);
    terminate_cleanly(server, Duration::from_secs(30));
}

#[test]
fn a_data_file_that_breaks_its_schema_is_named_by_file_line_and_field() {
    let project = tally_project(1000);
    project.write(
        "tools/world/schema/limits.json",
        r#"{"type": "object", "properties": {"steps": {"type": "array", "items": {"type": "object", "properties": {"max": {"type": "integer"}}, "required": ["max"]}}}}"#,
    );
    project.write(
        "tools/world/limits.json",
        "{\n  \"steps\": [\n    {\"max\": 3},\n    {\"max\": \"ten\"}\n  ]\n}\n",
    );
    let lint = project.run(&["lint", "--format", "short"]);
    assert_ne!(lint.code, 0);
    assert!(
        lint.stdout
            .contains(r#"tools/world/limits.json:4: steps[1].max: "ten" is not an integer"#),
        "{}",
        lint.stdout
    );
    let serve = project.run(&["serve", "--stdio"]);
    assert_eq!(serve.code, 2);
    assert!(serve.stderr.contains("limits.json:4"), "{}", serve.stderr);
    project.write(
        "tools/world/limits.json",
        "{\n  \"steps\": [\n    {\"max\": 3},\n    {\"max\": 10}\n  ]\n}\n",
    );
    let lint = project.run(&["lint", "--format", "short"]);
    assert!(!lint.stdout.contains("limits.json"), "{}", lint.stdout);
}

/// A tool of `tally_project` that reads the world and shows the keys of its document: `now`
/// and `random` are there when the program names them.
fn reader(name: &str, response: &str) -> String {
    format!(
        r#"---
tool: {name}
---
## Definition

```json tool
{{"name": "{name}", "description": "Reads the world.", "inputSchema": {{"type": "object", "properties": {{}}, "additionalProperties": false}}}}
```

## Scenario: read

```jq response
{response}
```
"#
    )
}

/// Answers computed once are kept for the calls that would compute them again (docs/FORMAT.md,
/// "Computed answers"): a read still sees every change of the state, whoever made it, the
/// run's clock as it moves, and a fresh `.random` on every call.
#[tokio::test(flavor = "multi_thread")]
async fn a_kept_answer_is_the_answer_the_world_gives_now() {
    let project = tally_project(1000);
    project.write(
        "tools/peek.md",
        &reader(
            "peek",
            "{count: .state.count, at: (.now | iso), keys: keys}",
        ),
    );
    project.write(
        "tools/draw.md",
        &reader("draw", "{draw: .random, keys: keys}"),
    );
    project.write("tools/plain.md", &reader("plain", "{keys: keys}"));
    let set = project.run(&["clock", "set", "2026-10-05T12:00:00Z"]);
    assert_eq!(set.code, 0, "{}", set.stderr);
    let (_server, url, _stderr) = serve_binary(&project, &["--stateful", "--seed", "7"]);
    let http = http_client(&url).await;
    let read = |tool: &'static str| {
        let http = &http;
        async move {
            call(http, tool, json!({})).await.expect("it answers")["structuredContent"].clone()
        }
    };
    let peeked = json!({"count": 0, "at": "2026-10-05T12:00:00Z",
        "keys": ["args", "data", "now", "state", "stateful"]});
    assert_eq!(read("peek").await, peeked);
    assert_eq!(read("peek").await, peeked, "asked again");

    assert_eq!(count(&tally(&http).await), 1);
    assert_eq!(read("peek").await["count"], 1, "after this server's change");
    let elsewhere = project.run(&["--stateful", "call", "tally", "--no-journal"]);
    assert_eq!(elsewhere.code, 0, "{}", elsewhere.stderr);
    assert_eq!(read("peek").await["count"], 2, "after another process's");
    let moved = project.run(&["clock", "advance", "90m"]);
    assert_eq!(moved.code, 0, "{}", moved.stderr);
    assert_eq!(read("peek").await["at"], "2026-10-05T13:30:00Z");
    let reset = project.run(&["reset"]);
    assert_eq!(reset.code, 0, "{}", reset.stderr);
    assert_eq!(read("peek").await["count"], 0, "after reset");

    let (first, second) = (read("draw").await, read("draw").await);
    assert_ne!(first["draw"], second["draw"], "a fresh number each call");
    assert_eq!(
        first["keys"],
        json!(["args", "data", "random", "state", "stateful"])
    );
    assert_eq!(
        read("plain").await,
        json!({"keys": ["args", "data", "state", "stateful"]})
    );
}

/// The scenarios whose programs ran for one call of the real binary (its debug log says each
/// run), in order, and the scenario that answered.
fn programs_run(project: &Project, tool: &str, args: &str) -> (Vec<String>, String) {
    let (ran, answered) = programs_and_steps(project, tool, args);
    (
        ran.into_iter().map(|(scenario, _)| scenario).collect(),
        answered,
    )
}

/// As [`programs_run`], with the steps each program took (the debug log's count).
fn programs_and_steps(project: &Project, tool: &str, args: &str) -> (Vec<(String, u64)>, String) {
    let output = project
        .command()
        .env("CAREEM_MCP_LOG", "careem_mcp::engine::world=debug")
        .args(["--stateful", "call", tool, args, "--no-journal"])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{tool}: {stderr}");
    let field = |line: &str, name: &str| {
        let value = line.split(name).nth(1).expect(name);
        value.split(' ').next().unwrap_or_default().to_string()
    };
    let mut ran: Vec<(String, u64)> = Vec::new();
    for line in stderr.lines() {
        if line.contains("a jq program runs") {
            ran.push((field(line, "scenario="), 0));
        } else if line.contains("a jq program took its steps")
            && let Some(last) = ran.last_mut()
        {
            last.1 = field(line, "steps=").parse().expect("a count of steps");
        }
    }
    let answered = stderr
        .lines()
        .find_map(|line| line.strip_prefix("scenario: "))
        .unwrap_or_default()
        .to_string();
    (ran, answered)
}

#[test]
fn a_refusal_computes_its_rule_once() {
    // Each refusal of the shipped writes, on a run's seed world: the condition computes the
    // refusal, and the answer reads what it gave (`.when`) instead of computing it again, so
    // it takes a few steps where the condition takes many.
    let cases = [
        (
            "cart_add_item",
            r#"{"restaurant_id": 30101, "item_id": 1, "quantity": 1}"#,
            "refused",
        ),
        (
            "cart_update_item",
            r#"{"basket_item_id": 1, "quantity": 3}"#,
            "refused",
        ),
        (
            "food_place_order",
            r#"{"basket_id": 1, "payment_method_id": "PM-9001", "delivery_location_uuid": "LOC-50001"}"#,
            "refused",
        ),
        (
            "ride_book",
            r#"{"productId": 1102, "pickupLatitude": 25.0866, "pickupLongitude": 55.1474, "dropoffLatitude": -3.5, "dropoffLongitude": 55.2}"#,
            "not-bookable",
        ),
    ];
    for (tool, args, refused) in cases {
        let (ran, answered) = programs_and_steps(&Project::copy_of_repo(), tool, args);
        assert_eq!(answered, refused, "{tool}");
        let [(condition, computed), (answer, read)] = ran.as_slice() else {
            panic!("{tool}: two programs run, the condition and the answer: {ran:?}");
        };
        assert_eq!(
            (condition.as_str(), answer.as_str()),
            (refused, refused),
            "{tool}"
        );
        assert!(
            read * 4 < *computed,
            "{tool}: the answer took {read} steps, the condition {computed}: the refusal ran twice"
        );
    }
}

#[test]
fn a_write_computes_its_state_and_its_answer_in_one_program() {
    // Each write of the shipped tools, on a run's seed world: the programs that ran are the
    // conditions checked on the way, then the change.
    let cases: [(&str, &str, &[&str]); 6] = [
        (
            "cart_add_item",
            r#"{"restaurant_id": 30101, "item_id": 3010101, "quantity": 2, "option_ids": [301010112]}"#,
            &["refused", "added"],
        ),
        (
            "cart_update_item",
            r#"{"basket_item_id": 990001, "quantity": 3}"#,
            &["refused", "updated"],
        ),
        (
            "food_place_order",
            r#"{"basket_id": 880001, "payment_method_id": "PM-9001", "delivery_location_uuid": "LOC-50001"}"#,
            &["refused", "placed"],
        ),
        ("cart_clear", "{}", &["already-empty", "cleared"]),
        (
            "ride_book",
            r#"{"productId": 1102, "pickupLatitude": 25.0866, "pickupLongitude": 55.1474, "dropoffLatitude": 25.2528, "dropoffLongitude": 55.3644}"#,
            &[
                "not-bookable",
                "unknown-product",
                "payment-declined",
                "searching",
            ],
        ),
        (
            "ride_cancel",
            r#"{"rideId": "5001003"}"#,
            &[
                "already-completed",
                "on-trip",
                "cancellation-fee",
                "cancellation-fee",
            ],
        ),
    ];
    for (tool, args, want) in cases {
        let (ran, answered) = programs_run(&Project::copy_of_repo(), tool, args);
        assert_eq!(ran, want, "{tool}: the programs that ran, by scenario");
        assert_eq!(Some(answered.as_str()), want.last().copied(), "{tool}");
    }
}

/// `tally` whose `added` scenario is `blocks` (a `jq change`, say) in place of its update and
/// response.
fn tally_with(blocks: &str) -> Project {
    let project = tally_project(1000);
    let tool = tally_tool(1000);
    let added = tool.find("## Scenario: added").expect("the added scenario");
    project.write(
        "tools/tally.md",
        &format!("{}## Scenario: added\n\n{blocks}", &tool[..added]),
    );
    project
}

#[test]
fn a_change_gives_the_new_state_and_the_response_together() {
    let change = "```jq change\n{state: tally_add(.args.by),\n response: {count: (.state.count + .args.by), was: .state.count}}\n```\n";
    let project = tally_with(change);
    for (count, was) in [(2, 0), (4, 2)] {
        let run = project.run(&["--stateful", "call", "tally", "{\"by\": 2}", "--compact"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            run.json()["structuredContent"],
            json!({"count": count, "was": was})
        );
    }
    let lint = project.run(&["lint", "--format", "short"]);
    assert_eq!(lint.code, 0, "{}", lint.stdout);

    // A change that leaves the state out changes nothing; one that gives something else than
    // `state` and `response` fails at the call, named in the log.
    let cases = [
        ("{response: {count: .state.count}}", Ok(json!({"count": 0}))),
        (
            "{state: .state}",
            Err("jq program at line 23: the change gave no `response`"),
        ),
        (
            "{state: 1, response: {}}",
            Err("the change gave a state that is not an object: 1"),
        ),
        (
            "{answer: 1, response: {}}",
            Err("the change gave a key `answer`: it gives only `state` and `response`"),
        ),
    ];
    for (program, want) in cases {
        let project = tally_with(&format!("```jq change\n{program}\n```\n"));
        let run = project.run(&["--stateful", "call", "tally", "--compact"]);
        match want {
            Ok(value) => assert_eq!(run.json()["structuredContent"], value, "{program}"),
            Err(why) => {
                assert_eq!(run.json()["content"][0]["text"], "internal server error");
                assert!(run.stderr.contains(why), "{program}: {}", run.stderr);
            }
        }
        let world = project.run(&["world", "--json"]);
        assert_eq!(world.json()["state"]["count"], json!(0), "{program}");
    }

    // `.forced` says whether the call forced the scenario, when the conditions before it in the
    // file were not checked.
    let project = tally_with("```jq change\n{response: {forced: .forced}}\n```\n");
    for (forcing, forced) in [(&[][..], false), (&["--scenario", "added"][..], true)] {
        let run = project.run(&[&["call", "tally", "--compact"][..], forcing].concat());
        assert_eq!(run.json()["structuredContent"], json!({"forced": forced}));
    }

    // Lint compiles the change, and refuses an update beside it.
    let cases = [
        (
            "```jq change\n{state: .state,\n response: nosuch}\n```\n",
            "tally.md:23: scenario \"added\": jq: line 2: undefined filter `nosuch`",
        ),
        (
            &format!("{change}\n```jq update\n.state\n```\n"),
            "tally.md:27: scenario \"added\": a ```jq update block beside a ```jq change block: the change gives the state",
        ),
    ];
    for (blocks, want) in cases {
        let lint = tally_with(blocks).run(&["lint", "--format", "short"]);
        assert_ne!(lint.code, 0);
        assert!(lint.stdout.contains(want), "{}", lint.stdout);
    }
}
