//! Graceful shutdown of the real binary: on SIGTERM a call in flight (held in its journal
//! write by a pipe) gets its answer, no new connection is taken, and the process exits 0.

use std::process::Stdio;
use std::time::Duration;

use serde_json::json;

use crate::support::{
    JournalPipe, Project, StdioServer, call, http, http_client, kill_term, large_search,
    serve_binary, wait_until_async,
};

#[tokio::test]
async fn sigterm_lets_in_flight_calls_finish_then_exits_zero() {
    let project = Project::copy_of_repo();
    let mut pipe = JournalPipe::new(&project);
    let journal = pipe.path.to_string_lossy().into_owned();
    let (mut server, url, mut stderr) = serve_binary(&project, &["--journal", &journal]);
    let client = http_client(&url).await;

    let in_flight = tokio::spawn(async move {
        let answer = call(&client, "food_merchant_search", large_search()).await;
        (client, answer)
    });
    let pipe = tokio::task::spawn_blocking(move || {
        pipe.wait_for_a_call();
        pipe
    })
    .await
    .expect("the pipe");
    kill_term(&server);
    // No new connections once shutting down, while the held call keeps the process alive.
    let health = url.replace("/mcp", "/health");
    let health = &health;
    wait_until_async(Duration::from_secs(20), move || async move {
        http().get(health).send().await.is_err().then_some(())
    })
    .await
    .expect("no longer accepting connections");
    assert!(
        server.0.try_wait().expect("waits").is_none(),
        "still running: a call is in flight"
    );
    pipe.drain();
    let (client, answer) = tokio::time::timeout(Duration::from_secs(10), in_flight)
        .await
        .expect("the call finishes")
        .expect("the task ran");
    let answer = answer.expect("the in-flight call gets its answer");
    assert_eq!(answer.get("isError"), None, "{answer}");
    drop(client);

    let status = server.wait_for_exit(Duration::from_secs(10));
    let stderr = stderr.lines();
    assert!(
        status.is_some_and(|s| s.code() == Some(0)),
        "exits 0 after SIGTERM: {status:?}\n{stderr:?}"
    );
}

#[test]
fn sigterm_on_stdio_lets_the_call_in_flight_answer_then_exits_zero() {
    let project = Project::copy_of_repo();
    let mut pipe = JournalPipe::new(&project);
    let mut command = project.command();
    command
        .args(["serve", "--stdio", "--journal"])
        .arg(&pipe.path);
    let mut server = StdioServer::start(command, Stdio::null());
    server.initialize();

    server.send_json(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "food_merchant_search", "arguments": large_search()}}));
    pipe.wait_for_a_call();
    kill_term(&server.process);
    assert!(
        server.lines.try_recv().is_err(),
        "no answer while the call is held"
    );
    pipe.drain();

    let answer = server.next();
    assert_eq!(answer["id"], 2);
    assert_eq!(answer["result"].get("isError"), None, "{answer}");
    let status = server.process.wait_for_exit(Duration::from_secs(10));
    assert!(
        status.is_some_and(|s| s.code() == Some(0)),
        "exits 0 after SIGTERM: {status:?}"
    );
}

/// A call cut by a shutdown while it waits its delay is answered `-32603` and journalled with
/// the outcome `cancelled`, as a `hang` cut the same way is journalled.
#[test]
fn sigterm_during_a_delayed_call_journals_it_as_cancelled() {
    let project = Project::copy_of_repo();
    let forced = project.run(&["scenario", "reverse_geocode", "--delay", "60s"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    let mut command = project.command();
    command.args(["serve", "--stdio"]);
    let mut server = StdioServer::start(command, Stdio::null());
    server.initialize();
    server.send_json(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "reverse_geocode", "arguments": {"latitude": 25.0866, "longitude": 55.1474}}}));
    // Read in order: once the ping is answered, the call was taken in and waits its delay.
    server.send_json(&json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}));
    assert_eq!(server.next()["id"], 3);
    kill_term(&server.process);

    let answer = server.next();
    assert_eq!(answer["id"], 2);
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    let status = server.process.wait_for_exit(Duration::from_secs(30));
    assert!(
        status.is_some_and(|s| s.code() == Some(0)),
        "exits 0 after SIGTERM: {status:?}"
    );
    let calls = project.run(&["calls", "--json"]);
    let entries: Vec<serde_json::Value> =
        serde_json::from_str(&calls.stdout).expect("calls --json");
    assert_eq!(entries.len(), 1, "{}", calls.stdout);
    assert_eq!(entries[0]["tool"], "reverse_geocode");
    assert_eq!(entries[0]["outcome"], "cancelled", "{}", calls.stdout);
    assert_eq!(entries[0]["delayMs"], 60_000);
}
