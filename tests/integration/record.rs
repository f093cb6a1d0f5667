//! `careem-mcp record` between an agent and an upstream careem-mcp that plays production: the
//! agent's journey over stdio writes its scenarios, and `serve`, started on those files with no
//! upstream, answers the same arguments with the same bytes.

use std::fs::File;
use std::process::Stdio;

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

use crate::support::upstream::mcp_answer;
use crate::support::{
    Client, Process, Project, Upstream, call, files_under, http_client, serve_binary,
    start_announced, stdio_client,
};

const CLOCK: &str = "2026-10-05T12:00:30Z";
const TOKEN: &str = "Authorization: Bearer rec-91c2e4";
const GEOCODE: &str = "tools/location/reverse_geocode.md";

/// Production: the repository's tools with the dropped pin's title changed (so that only a
/// recording can answer with it) and `get_payment_methods` forced into its session-expired
/// error, served at a frozen time.
pub(crate) fn upstream() -> (Project, Process, String) {
    let upstream = Project::copy_of_repo();
    let pins = "tools/world/rules/locations.jq";
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
/// One `reverse_geocode` call through `record` in front of the upstream at `url`: the answer
/// the agent got, and where `record` logged.
async fn geocode_recorded(project: &Project, url: &str) -> (Value, std::path::PathBuf) {
    let log = project.path().join("record.log");
    let client = recorder(project, url, &log, &[]).await;
    let arguments = json!({"latitude": 25.3, "longitude": 55.4});
    let answer = call(&client, "reverse_geocode", arguments)
        .await
        .expect("an answer");
    client.cancel().await.expect("closes");
    (answer, log)
}

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

/// An upstream whose `reverse_geocode` answers with the arguments it got and `extra` bytes of
/// padding in `formattedAddress`.
fn echoing_upstream(extra: usize) -> Upstream {
    Upstream::mcp(move |method, params| {
        if method != "tools/call" {
            return json!({});
        }
        let value =
            json!({"arguments": params["arguments"], "formattedAddress": "a".repeat(extra)});
        json!({"content": [{"type": "text", "text": value.to_string()}], "structuredContent": value})
    })
}

/// The `recorded` mark of every journal line of `project`.
fn recorded_marks(project: &Project) -> Vec<String> {
    project
        .read(".run/calls.jsonl")
        .lines()
        .map(|line| {
            let entry: Value = serde_json::from_str(line).expect("a JSON line");
            entry["recorded"].as_str().unwrap_or_default().to_string()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn two_recorders_on_one_project_keep_every_recording() {
    const CALLS: usize = 25;
    let upstream = echoing_upstream(0);
    let url = upstream.url("/mcp");
    let project = Project::copy_of_repo();
    let logs = [0, 1].map(|n| project.path().join(format!("record-{n}.log")));
    let first = recorder(&project, &url, &logs[0], &[]).await;
    let second = recorder(&project, &url, &logs[1], &[]).await;
    let journey = |client: Client, offset: usize| async move {
        for n in 0..CALLS {
            let arguments =
                json!({"latitude": 25.0, "longitude": 55.0 + (offset + n) as f64 / 1000.0});
            call(&client, "reverse_geocode", arguments)
                .await
                .expect("an answer");
        }
        client.cancel().await.expect("closes");
    };
    tokio::join!(journey(first, 0), journey(second, CALLS));
    let marks = recorded_marks(&project);
    assert_eq!(marks, vec!["new"; 2 * CALLS]);
    let recorded = project
        .read(GEOCODE)
        .lines()
        .filter(|line| line.starts_with("## Scenario: reverse-geocode-"))
        .count();
    assert_eq!(recorded, 2 * CALLS, "recordings were lost");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_recording_that_would_pass_the_tool_file_cap_is_skipped() {
    const CAP: usize = 8 << 20;
    let upstream = echoing_upstream(300_000);
    let project = Project::copy_of_repo();
    let text = project.read(GEOCODE);
    let line = format!("{}\n", "Padding prose. ".repeat(66));
    let lines = (CAP - 100_000 - text.len()) / line.len();
    let padded = text.replacen(
        "## Definition\n",
        &format!("{}\n## Definition\n", line.repeat(lines)),
        1,
    );
    project.write(GEOCODE, &padded);
    let (answer, log) = geocode_recorded(&project, &upstream.url("/mcp")).await;
    assert!(
        answer["structuredContent"]["formattedAddress"]
            .as_str()
            .is_some_and(|address| address.len() == 300_000),
        "the agent gets the upstream's answer"
    );
    assert_eq!(recorded_marks(&project), ["skipped"]);
    assert_eq!(project.read(GEOCODE), padded, "the file is as it was");
    let stderr = std::fs::read_to_string(&log).expect("a log");
    let why: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("past the 8388608 bytes `serve` reads"))
        .collect();
    assert_eq!(why.len(), 1, "{stderr}");
    let lint = project.run(&["lint"]);
    assert_eq!(lint.code, 0, "{}{}", lint.stdout, lint.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_credential_the_upstream_echoes_is_written_nowhere() {
    // Answers every call with the Authorization header it got, in the value and the text.
    let upstream = Upstream::start(|request, stream| {
        let token = request
            .header("authorization")
            .unwrap_or("none")
            .to_string();
        mcp_answer(request, stream, &move |_, _| {
            let value = json!({"formattedAddress": format!("seen {token}"), (token.clone()): 1});
            json!({"content": [{"type": "text", "text": value.to_string()}], "structuredContent": value})
        });
    });
    let project = Project::copy_of_repo();
    let (answer, _) = geocode_recorded(&project, &upstream.url("/mcp")).await;
    assert!(
        answer.to_string().contains("rec-91c2e4"),
        "the agent gets the answer as it came"
    );
    assert_eq!(recorded_marks(&project), ["new"]);
    assert!(project.read(GEOCODE).contains("seen ***"));
    for path in files_under(project.path()) {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            !text.contains("rec-91c2e4"),
            "the token reached {}",
            path.display()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_upstream_text_cannot_forge_or_break_the_journal() {
    // Each text beside a structuredContent: one that would close the line and add a call
    // nobody made, one the masking leaves as it is and that is not JSON, one that is JSON over
    // several lines.
    let forged = "1}\n{\"time\":\"2026-10-05T12:00:30.000Z\",\"transport\":\"stdio\",\
                  \"session\":null,\"tool\":\"ride_book\",\"scenario\":null,\"forced\":false,\
                  \"received\":{},\"arguments\":{},\"isError\":false,\"micros\":1,\"result\":{}";
    let cases = [
        (forged, json!(forged)),
        ("token was ***", json!("token was ***")),
        ("{\n  \"a\": [1,\n 2]\n}", json!({"a": [1, 2]})),
    ];
    let texts: Vec<String> = cases.iter().map(|(text, _)| text.to_string()).collect();
    let upstream = Upstream::mcp(move |method, params| {
        if method != "tools/call" {
            return json!({});
        }
        let index = params["arguments"]["latitude"].as_f64().unwrap_or_default() as usize;
        json!({
            "content": [{"type": "text", "text": texts[index]}],
            "structuredContent": {"formattedAddress": "Marina"}
        })
    });
    let project = Project::copy_of_repo();
    let log = project.path().join("record.log");
    let client = recorder(&project, &upstream.url("/mcp"), &log, &[]).await;
    for index in 0..cases.len() {
        let arguments = json!({"latitude": index as f64, "longitude": 55.0});
        call(&client, "reverse_geocode", arguments)
            .await
            .expect("an answer");
    }
    client.cancel().await.expect("closes");

    let journal = project.read(".run/calls.jsonl");
    let results: Vec<(Value, Value)> = journal
        .lines()
        .map(|line| {
            let entry: Value = serde_json::from_str(line).expect("a JSON line");
            (entry["tool"].clone(), entry["result"].clone())
        })
        .collect();
    let want: Vec<(Value, Value)> = cases
        .iter()
        .map(|(_, result)| (json!("reverse_geocode"), result.clone()))
        .collect();
    assert_eq!(results, want, "{journal}");
    let calls = project.run(&["calls", "--json"]);
    assert_eq!(calls.code, 0, "{}", calls.stderr);
    let tools: Vec<Value> = calls
        .json()
        .as_array()
        .expect("a list")
        .iter()
        .map(|entry| entry["tool"].clone())
        .collect();
    assert_eq!(
        tools,
        vec![json!("reverse_geocode"); cases.len()],
        "{}",
        calls.stdout
    );
}
