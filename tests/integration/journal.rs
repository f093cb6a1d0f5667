//! The call journal: every call over a real transport lands as one whole JSON line, and
//! `careem-mcp calls` reads it back.

use std::sync::Arc;

use careem_mcp::engine::{Engine, EngineConfig, journal};
use careem_mcp::server::{ServerOptions, start_http};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{Map, Value, json};

use crate::support::{BIN, Lines, Project};

fn object(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

async fn serve(project: &Project) -> careem_mcp::server::RunningServer {
    let engine = Engine::load(EngineConfig {
        tools_dir: project.path().join("tools"),
        overrides: project.path().join(".run/overrides.json"),
        clock: None,
        seed: None,
        stateful: false,
    })
    .expect("the tools load")
    .with_journal(
        journal::Journal::open(&project.path().join(".run/calls.jsonl")).expect("journal"),
    );
    start_http(
        Arc::new(engine),
        ServerOptions {
            port: 0,
            ..ServerOptions::default()
        },
    )
    .await
    .expect("the server starts")
}

#[tokio::test]
async fn every_field_of_a_journalled_http_call() {
    let project = Project::copy_of_repo();
    project.write(
        ".run/overrides.json",
        r#"{"get_user_profile": "no-subscription"}"#,
    );
    let server = serve(&project).await;
    let client =
        ().serve(StreamableHttpClientTransport::from_uri(server.url()))
            .await
            .expect("client");
    let calls = [
        (
            "food_merchant_search",
            json!({"query": "sushi", "latitude": 25.0866, "longitude": 55.1474}),
        ),
        ("get_user_profile", json!({})),
        ("reverse_geocode", json!({"latitude": "north"})),
        ("no_such_tool", json!({"a": 1})),
    ];
    for (tool, args) in &calls {
        let _ = client
            .call_tool(
                CallToolRequestParams::new(tool.to_string()).with_arguments(object(args.clone())),
            )
            .await;
    }
    client.cancel().await.expect("client closes");
    server.shutdown().await;

    let entries = journal::read(&project.path().join(".run/calls.jsonl")).expect("journal");
    assert_eq!(entries.len(), 4, "{entries:?}");
    let session = entries[0].session.clone();
    assert!(
        session.as_deref().is_some_and(|s| !s.is_empty()),
        "the Mcp-Session-Id is recorded"
    );
    // (tool, scenario, forced, isError, arguments after defaults)
    let expected = [
        (
            "food_merchant_search",
            Some("sushi"),
            false,
            false,
            json!({"query": "sushi", "latitude": 25.0866, "longitude": 55.1474, "limit": 10}),
        ),
        (
            "get_user_profile",
            Some("no-subscription"),
            true,
            false,
            json!({}),
        ),
        (
            "reverse_geocode",
            None,
            false,
            true,
            json!({"latitude": "north"}),
        ),
        ("no_such_tool", None, false, true, json!({"a": 1})),
    ];
    for (entry, (tool, scenario, forced, is_error, arguments)) in entries.iter().zip(expected) {
        assert_eq!(
            (
                entry.tool.as_str(),
                entry.scenario.as_deref(),
                entry.forced,
                entry.is_error,
                &entry.arguments
            ),
            (tool, scenario, forced, is_error, &arguments)
        );
        assert_eq!(entry.transport, "http");
        assert_eq!(entry.session, session, "one client, one session");
        assert!(chrono::DateTime::parse_from_rfc3339(&entry.time).is_ok());
    }
    assert_eq!(
        entries[0].received,
        json!({"query": "sushi", "latitude": 25.0866, "longitude": 55.1474})
    );
    assert_eq!(entries[0].result["restaurants"][0]["id"], json!(30102));
    assert!(entries[0].micros > 0);
    assert!(
        entries[2]
            .result
            .as_str()
            .is_some_and(|t| t.starts_with("validating \"arguments\""))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_sessions_never_tear_or_lose_a_line() {
    let project = Project::copy_of_repo();
    let server = serve(&project).await;
    let (sessions, per_session) = (8, 25);
    let mut tasks = Vec::new();
    for n in 0..sessions {
        let url = server.url();
        tasks.push(tokio::spawn(async move {
            let client =
                ().serve(StreamableHttpClientTransport::from_uri(url))
                    .await
                    .expect("client");
            for i in 0..per_session {
                let notes = format!("session {n} call {i} \"quoted\" \\ {}", "x".repeat(2_000));
                let args = json!({"restaurant_id": 30101, "item_id": 3010101, "notes": notes});
                client
                    .call_tool(
                        CallToolRequestParams::new("cart_add_item").with_arguments(object(args)),
                    )
                    .await
                    .expect("call");
            }
            client.cancel().await.expect("close");
        }));
    }
    for task in tasks {
        task.await.expect("session task");
    }
    server.shutdown().await;
    let text = std::fs::read_to_string(project.path().join(".run/calls.jsonl")).expect("journal");
    let entries: Vec<journal::Entry> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a whole JSON line"))
        .collect();
    assert_eq!(entries.len(), sessions * per_session);
    let distinct: std::collections::BTreeSet<_> =
        entries.iter().filter_map(|e| e.session.clone()).collect();
    assert_eq!(distinct.len(), sessions);
}

#[tokio::test]
async fn stdio_calls_are_journalled_and_the_cli_reads_them_back() {
    let project = Project::copy_of_repo();
    let mut command = tokio::process::Command::new(BIN);
    command
        .current_dir(project.path())
        .args(["serve", "--stdio"])
        .stderr(std::process::Stdio::null());
    let client = ().serve(TokioChildProcess::new(command).expect("spawn")).await.expect("client");
    for (tool, args) in [
        ("cart_clear", json!({})),
        ("ride_get_status", json!({"rideId": "5001004"})),
        ("cart_clear", json!({})),
    ] {
        client
            .call_tool(CallToolRequestParams::new(tool).with_arguments(object(args)))
            .await
            .expect("call");
    }
    client.cancel().await.expect("close");

    let entries = journal::read(&project.path().join(".run/calls.jsonl")).expect("journal");
    assert_eq!(
        entries
            .iter()
            .map(|e| (e.transport.as_str(), e.tool.as_str()))
            .collect::<Vec<_>>(),
        [
            ("stdio", "cart_clear"),
            ("stdio", "ride_get_status"),
            ("stdio", "cart_clear")
        ]
    );

    let as_json = |args: &[&str]| -> Vec<Value> {
        serde_json::from_str(&project.run(args).stdout).expect("JSON array")
    };
    assert_eq!(as_json(&["calls", "--json"]).len(), 3);
    assert_eq!(
        as_json(&["calls", "--json", "--tool", "cart_clear"]).len(),
        2
    );
    let last = as_json(&["calls", "--json", "--last", "1"]);
    assert_eq!(last[0]["tool"], "cart_clear");
    let table = project.run(&["calls"]).stdout;
    assert!(
        table.contains("ride_get_status") && table.contains("ride-5001004-on-trip"),
        "{table}"
    );
    assert_eq!(project.run(&["calls", "--clear"]).code, 0);
    assert_eq!(as_json(&["calls", "--json"]).len(), 0);
}

#[test]
fn calls_follow_prints_new_calls_as_they_are_journalled() {
    let project = Project::copy_of_repo();
    let mut follower = project
        .command()
        .args(["calls", "--follow"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("calls --follow starts");
    let stdout = follower.stdout.take().expect("piped stdout");
    let mut received = Lines::of(stdout);
    // The table of what is there already (nothing) comes first: once it has ended, the
    // follower is past the end of the journal and follows every call from then on.
    let limit = std::time::Duration::from_secs(60);
    received
        .wait_for(limit, |line| line.starts_with('└'))
        .expect("the table of the calls so far");
    let args = r#"{"pickupLatitude": 25.0866, "pickupLongitude": 55.1474, "dropoffLatitude": 25.2528, "dropoffLongitude": 55.3644}"#;
    assert_eq!(project.run(&["call", "ride_get_estimates", args]).code, 0);
    let row = received.wait_for(limit, |line| line.contains("ride_get_estimates"));
    let _ = follower.kill();
    let _ = follower.wait();
    let row = row.unwrap_or_else(|| panic!("no row followed: {:?}", received.lines()));
    assert!(row.contains("airport-fixed-fares"), "{row}");
}
