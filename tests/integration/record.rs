//! `careem-mcp record` between an agent and an upstream careem-mcp that plays production: the
//! agent's journey over stdio writes its scenarios, and `serve`, started on those files with no
//! upstream, answers the same arguments with the same bytes.

use std::fs::File;
use std::process::Stdio;

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

use crate::support::{
    Client, Process, Project, call, files_under, http_client, serve_binary, start_announced,
    stdio_client,
};

const CLOCK: &str = "2026-10-05T12:00:30Z";
const TOKEN: &str = "Authorization: Bearer rec-91c2e4";
const GEOCODE: &str = "tools/location/reverse_geocode.md";

/// Production: the repository's tools with the dropped pin's title changed (so that only a
/// recording can answer with it) and `get_payment_methods` forced into its session-expired
/// error, served at a frozen time.
fn upstream() -> (Project, Process, String) {
    let upstream = Project::copy_of_repo();
    let pins = "tools/world/locations.jq";
    let text = upstream.read(pins);
    assert!(text.contains("title: \"Pinned location\""));
    upstream.write(
        pins,
        &text.replace("title: \"Pinned location\"", "title: \"Dropped pin\""),
    );
    upstream.write(
        ".run/overrides.json",
        r#"{"get_payment_methods": "session-expired"}"#,
    );
    let (process, url, _) = serve_binary(&upstream, &["--no-journal", "--clock", CLOCK]);
    (upstream, process, url)
}

/// The journey: each call and what the journal must say of it.
fn journey() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        (
            "reverse_geocode",
            json!({"latitude": 25.2, "longitude": 55.3}),
            "new",
        ),
        (
            "food_get_delivery_slots",
            json!({"restaurant_id": 30101, "latitude": 25.2, "longitude": 55.3}),
            "new",
        ),
        ("get_payment_methods", json!({}), "new"),
        (
            "reverse_geocode",
            json!({"latitude": 25.2, "longitude": 55.3}),
            "known",
        ),
    ]
}

/// `record --stdio` in `project`, its stderr kept in `log`.
async fn recorder(project: &Project, url: &str, log: &std::path::Path, extra: &[&str]) -> Client {
    let mut command = project.command();
    command
        .args([
            "--clock",
            CLOCK,
            "record",
            "--upstream",
            url,
            "--header",
            TOKEN,
        ])
        .args(["--template-times", "--stdio"])
        .args(extra);
    let (transport, _) = TokioChildProcess::builder(tokio::process::Command::from(command))
        .stderr(Stdio::from(File::create(log).expect("a log file")))
        .spawn()
        .expect("the binary starts");
    ().serve(transport).await.expect("the client initializes")
}

async fn answers(client: &Client) -> Vec<String> {
    let mut out = Vec::new();
    for (tool, args, _) in journey() {
        let result = call(client, tool, args).await.expect("an answer");
        out.push(result.to_string());
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn a_recorded_journey_is_served_again_byte_for_byte() {
    let (_upstream, _server, url) = upstream();
    let project = Project::copy_of_repo();
    let log = project.path().join("record.log");
    let client = recorder(&project, &url, &log, &[]).await;
    let recorded = answers(&client).await;
    client.cancel().await.expect("closes");

    assert!(recorded[0].contains("Dropped pin"), "{}", recorded[0]);
    assert!(recorded[2].contains("\"isError\":true"), "{}", recorded[2]);
    let journal = project.read(".run/calls.jsonl");
    let marks: Vec<(String, String)> = journal
        .lines()
        .map(|line| {
            let entry: Value = serde_json::from_str(line).expect("a JSON line");
            let text = |key: &str| entry[key].as_str().unwrap_or_default().to_string();
            (text("tool"), text("recorded"))
        })
        .collect();
    let want: Vec<(String, String)> = journey()
        .into_iter()
        .map(|(tool, _, mark)| (tool.to_string(), mark.to_string()))
        .collect();
    assert_eq!(marks, want, "{journal}");

    let geocode = project.read(GEOCODE);
    let name = "## Scenario: reverse-geocode-25-2-55-3\n";
    assert_eq!(geocode.matches(name).count(), 1, "recorded once");
    assert!(geocode.contains("```json match\n{\"latitude\":25.2,\"longitude\":55.3}\n```"));
    let slots = project.read("tools/food/food_get_delivery_slots.md");
    for placeholder in ["\"{{now+30m}}\"", "\"{{now+59m30s}}\""] {
        assert!(
            slots.contains(placeholder),
            "times became placeholders: {placeholder}"
        );
    }
    let payments = project.read("tools/account/get_payment_methods.md");
    assert!(
        payments.contains("```json error\n"),
        "an isError answer is a json error"
    );
    // The recordings are honest: every answer fits its outputSchema.
    let lint = project.run(&["lint", "--write-source"]);
    assert_eq!(lint.code, 0, "{}{}", lint.stdout, lint.stderr);

    for path in files_under(project.path()) {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            !text.contains("rec-91c2e4"),
            "the token reached {}",
            path.display()
        );
    }

    let mut serve = project.command();
    serve.args(["--clock", CLOCK, "serve", "--stdio", "--no-journal"]);
    let replay = stdio_client(serve).await;
    let replayed = answers(&replay).await;
    replay.cancel().await.expect("closes");
    // The repeated call was not recorded again: it answers as the first did.
    assert_eq!(replayed[..3], recorded[..3]);
    assert_eq!(replayed[3], recorded[0]);
}

#[tokio::test(flavor = "multi_thread")]
async fn into_keeps_the_recordings_apart_and_redacts() {
    let (_upstream, _server, url) = upstream();
    let project = Project::copy_of_repo();
    let before = project.read(GEOCODE);
    let log = project.path().join("record.log");
    let client = recorder(
        &project,
        &url,
        &log,
        &["--into", "recorded", "--redact", "title,formattedAddress"],
    )
    .await;
    let result = call(
        &client,
        "reverse_geocode",
        json!({"latitude": 25.2, "longitude": 55.3}),
    )
    .await
    .expect("an answer");
    client.cancel().await.expect("closes");
    assert!(
        result.to_string().contains("Dropped pin"),
        "the agent gets the upstream's answer"
    );
    assert_eq!(
        project.read(GEOCODE),
        before,
        "the project's file is untouched"
    );
    let copy = project.read("recorded/location/reverse_geocode.md");
    assert!(copy.starts_with(&before[..before.find("## Scenario").expect("scenarios")]));
    assert!(copy.contains("\"title\": \"[redacted]\""), "{copy}");
    assert!(!copy.contains("Dropped pin"), "{copy}");
}

#[tokio::test(flavor = "multi_thread")]
async fn record_serves_over_http_as_serve_does() {
    let (_upstream, _server, upstream_url) = upstream();
    let project = Project::copy_of_repo();
    let mut command = project.command();
    command.args(["record", "--upstream", &upstream_url, "--port", "0"]);
    let (_record, rest, _stderr) = start_announced(command, "careem-mcp: serving ");
    let url = rest
        .split_whitespace()
        .find(|word| word.starts_with("http://") && word.ends_with("/mcp"))
        .expect("the line names the /mcp URL")
        .to_string();
    let client = http_client(&url).await;
    let args = json!({"latitude": 24.4539, "longitude": 54.3773});
    for _ in 0..2 {
        let result = call(&client, "reverse_geocode", args.clone())
            .await
            .expect("an answer");
        assert!(result.to_string().contains("Dropped pin"), "{result}");
    }
    client.cancel().await.expect("closes");
    let marks: Vec<(String, String)> = project
        .read(".run/calls.jsonl")
        .lines()
        .map(|line| {
            let entry: Value = serde_json::from_str(line).expect("a JSON line");
            let text = |key: &str| entry[key].as_str().unwrap_or_default().to_string();
            (text("transport"), text("recorded"))
        })
        .collect();
    let want = [("http", "new"), ("http", "known")].map(|(a, b)| (a.to_string(), b.to_string()));
    assert_eq!(marks, want);
    assert!(
        project
            .read(GEOCODE)
            .contains("## Scenario: reverse-geocode-24-4539-54-3773\n")
    );
}
