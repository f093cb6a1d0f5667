//! Load and soak: 16 clients over the three transports while files change under them. Every
//! answer is a tool's answer or a deliberate error, calls keep being answered after the
//! warm-up, and memory stays flat (`CAREEM_MCP_SOAK_SECS` makes it longer).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::INTERNAL_ERROR;
use crate::support::{
    Project, call, command_in, engine, http_client, marina, rss_kib, serve_binary, sse_client,
    stdio_client,
};

/// Every answer must be a tool's answer valid against its output schema, or a deliberate
/// error: a `json error` scenario (`isError` with the error object) or an argument error.
fn check_answer(
    validators: &Validators,
    tool: &str,
    deliberate: bool,
    result: &Value,
) -> Result<(), String> {
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    if text == INTERNAL_ERROR {
        return Err(format!("{tool}: internal server error"));
    }
    if deliberate {
        return if result["isError"] == true && text.starts_with(r#"validating "arguments": "#) {
            Ok(())
        } else {
            Err(format!("{tool}: expected an argument error, got {result}"))
        };
    }
    let structured = &result["structuredContent"];
    if result["isError"] == true {
        // A `json error` scenario: the error object, also as structured content.
        return if structured["error"].is_string() {
            Ok(())
        } else {
            Err(format!("{tool}: isError without an error object: {result}"))
        };
    }
    let validator = validators
        .get(tool)
        .ok_or_else(|| format!("{tool}: no schema"))?;
    if !validator.is_valid(structured) {
        return Err(format!("{tool}: does not match its outputSchema: {result}"));
    }
    if serde_json::from_str::<Value>(text).ok().as_ref() != Some(structured) {
        return Err(format!(
            "{tool}: the text is not the structured content: {result}"
        ));
    }
    Ok(())
}

type Validators = std::collections::HashMap<String, jsonschema::Validator>;

fn output_validators(project: &Project) -> Validators {
    engine(project)
        .tools()
        .map(|tool| {
            let schema = tool
                .definition
                .get("outputSchema")
                .expect("every tool has one");
            let validator = jsonschema::draft202012::new(schema).expect("a valid schema");
            (tool.name.clone(), validator)
        })
        .collect()
}

/// The mix every client cycles through: (tool, arguments, deliberate argument error).
fn mixed_calls() -> Vec<(&'static str, Value, bool)> {
    vec![
        ("reverse_geocode", marina(), false),
        (
            "food_get_restaurant_menu",
            json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474}),
            false,
        ),
        (
            "food_merchant_search",
            json!({"query": "sushi", "latitude": 25.0866, "longitude": 55.1474}),
            false,
        ),
        ("get_user_profile", json!({}), false),
        (
            "food_get_restaurant_menu",
            json!({"restaurant_id": 1, "latitude": 25.0866, "longitude": 55.1474}),
            false,
        ),
        (
            "reverse_geocode",
            json!({"latitude": 91, "longitude": 55}),
            false,
        ),
        ("food_merchant_search", json!({"query": "sushi"}), true),
        ("ride_get_status", json!({"rideId": "RIDE-1"}), false),
    ]
}

/// Writes the overrides file in place (a reader may see half of it) and the tool file
/// atomically (as editors and the CLI do), over and over until told to stop.
fn churn_files(project: &Path, stop: &AtomicBool) -> usize {
    let overrides = project.join(".run/overrides.json");
    let tool = project.join("tools/location/reverse_geocode.md");
    let original = std::fs::read_to_string(&tool).expect("the tool file");
    let contents = [
        "{}".to_string(),
        json!({"get_user_profile": "session-expired", "food_get_restaurant_menu": "upstream-unavailable"}).to_string(),
        json!({"reverse_geocode": "upstream-unavailable", "no_such_tool": "x"}).to_string(),
        r#"{"get_user_profile": "session-exp"#.to_string(),
    ];
    let mut rounds = 0;
    while !stop.load(Ordering::Relaxed) {
        std::fs::write(&overrides, &contents[rounds % contents.len()]).expect("overrides");
        let edited = format!("{original}\n<!-- edit {rounds} -->\n");
        let temp = tool.with_extension("md.tmp");
        std::fs::write(&temp, if rounds % 2 == 0 { &edited } else { &original }).expect("temp");
        std::fs::rename(&temp, &tool).expect("rename");
        rounds += 1;
        // Pacing, not waiting for anything: a few hundred rewrites a second is churn enough,
        // and leaves the two cores to the server and its clients.
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::write(&tool, original).expect("restore");
    rounds
}

#[derive(Default)]
struct Tally {
    calls: AtomicUsize,
    failures: std::sync::Mutex<Vec<String>>,
}

impl Tally {
    fn record(&self, outcome: Result<(), String>) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        if let Err(failure) = outcome {
            self.failures
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(failure);
        }
    }
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "a soak of several seconds that measures memory: .ci/run runs it with --ignored"]
async fn sixteen_clients_over_three_transports_while_files_change() {
    let seconds: u64 = std::env::var("CAREEM_MCP_SOAK_SECS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(6);
    let project = Project::copy_of_repo();
    std::fs::create_dir_all(project.path().join(".run")).expect("the run folder");
    let validators = Arc::new(output_validators(&project));
    let (server, url, _stderr) = serve_binary(&project, &["--no-journal"]);
    let pid = server.0.id();
    let tally = Arc::new(Tally::default());
    let calls = Arc::new(mixed_calls());
    let warm_up = Duration::from_millis(1500);
    let started = Instant::now();
    let deadline = started + warm_up + Duration::from_secs(seconds);

    let stop = Arc::new(AtomicBool::new(false));
    let churn = std::thread::spawn({
        let (stop, path) = (Arc::clone(&stop), project.path().to_path_buf());
        move || churn_files(&path, &stop)
    });

    // 8 over Streamable HTTP and 4 over legacy SSE to the one server, and 4 over stdio, each
    // its own process on the same files.
    let kinds = ["HTTP"; 8]
        .into_iter()
        .chain(["SSE"; 4])
        .chain(["stdio"; 4]);
    let mut clients = Vec::new();
    for (index, kind) in kinds.enumerate() {
        let (url, path, tally, calls, validators) = (
            url.clone(),
            project.path().to_path_buf(),
            Arc::clone(&tally),
            Arc::clone(&calls),
            Arc::clone(&validators),
        );
        clients.push(tokio::spawn(async move {
            let client = match kind {
                "HTTP" => http_client(&url).await,
                "SSE" => sse_client(&url.replace("/mcp", "/sse")).await,
                _ => {
                    let mut command = command_in(&path);
                    command.args(["serve", "--stdio", "--no-journal"]);
                    stdio_client(command).await
                }
            };
            let mut turn = index;
            while Instant::now() < deadline {
                let (tool, args, deliberate) = &calls[turn % calls.len()];
                turn += 1;
                let outcome = match call(&client, tool, args.clone()).await {
                    Ok(result) => check_answer(&validators, tool, *deliberate, &result),
                    Err(error) => Err(format!("{kind} {tool}: {error}")),
                };
                tally.record(outcome);
            }
            client.cancel().await.expect("closes");
        }));
    }

    tokio::time::sleep_until((started + warm_up).into()).await;
    let warm_rss = rss_kib(pid);
    let warm_calls = tally.calls.load(Ordering::Relaxed);
    for client in clients {
        client.await.expect("a client ran to the end");
    }
    stop.store(true, Ordering::Relaxed);
    let rounds = churn.join().expect("the file writer");
    let end_rss = rss_kib(pid);
    let total = tally.calls.load(Ordering::Relaxed);
    let failures = tally.failures.lock().expect("tally").clone();

    assert!(
        failures.is_empty(),
        "{} of {total} calls failed: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    // Progress, not speed (speed is `cargo bench`'s): calls kept being answered after warm-up.
    assert!(
        total > warm_calls,
        "no call answered after the warm-up ({total} in all)"
    );
    assert!(rounds >= 10, "the files changed only {rounds} times");
    // Flat: allocator caches and buffers settle during the warm-up; growth after it would be
    // a leak per call (thousands of them), so allow generous slack but not a trend.
    assert!(warm_rss > 0, "VmRSS is readable");
    assert!(
        end_rss <= warm_rss + warm_rss / 2 + 16 * 1024,
        "RSS grew from {warm_rss} KiB to {end_rss} KiB over {} calls",
        total - warm_calls
    );
    eprintln!(
        "soak: {total} calls ({} after warm-up) in {seconds} s, {rounds} file rewrites, RSS {warm_rss} -> {end_rss} KiB",
        total - warm_calls
    );
    drop(server);
}
