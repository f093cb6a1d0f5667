//! Shutdown always ends. A call still running when the grace period is over (or
//! one that never ends, a `hang` fault) is answered `-32603 internal error`, and the process
//! exits 0 within a bounded time even when a call is stuck in a write no shutdown can interrupt.

use rmcp::ServiceError;
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use super::{DEADLINE, run_bounded};
use crate::support::{
    JournalPipe, Lines, Process, call, http_client, kill_term, large_search, marina, serve_binary,
};

/// SIGTERM, then: the pending call answers `-32603`, and the process exits 0.
async fn sigterm_cuts_the_call_and_exits(
    mut server: Process,
    mut stderr: Lines,
    pending: JoinHandle<Result<Value, ServiceError>>,
) {
    kill_term(&server);
    let answer = tokio::time::timeout(DEADLINE, pending)
        .await
        .unwrap_or_else(|_| panic!("the call still unanswered after {DEADLINE:?}"))
        .expect("the call's task");
    match answer {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code.0, -32603, "{error:?}");
            assert_eq!(error.message, "internal error");
        }
        other => panic!("want -32603 internal error: {other:?}"),
    }
    let status = tokio::task::block_in_place(|| server.wait_for_exit(DEADLINE));
    assert!(
        status.is_some_and(|s| s.code() == Some(0)),
        "exits 0 after SIGTERM: {status:?}\n{:?}",
        stderr.lines()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_stuck_in_a_write_is_answered_after_the_grace_period_and_the_process_exits() {
    let project = crate::support::Project::copy_of_repo();
    // The journal is a pipe nobody drains: the call's journal write never returns.
    let mut pipe = JournalPipe::new(&project);
    let journal = pipe.path.to_string_lossy().into_owned();
    let (server, url, stderr) = serve_binary(&project, &["--journal", &journal]);
    let client = http_client(&url).await;
    let pending = tokio::spawn(async move {
        let answer = call(&client, "food_merchant_search", large_search()).await;
        drop(client);
        answer
    });
    let pipe = tokio::task::spawn_blocking(move || {
        pipe.wait_for_a_call();
        pipe
    })
    .await
    .expect("the call is inside its journal write");
    sigterm_cuts_the_call_and_exits(server, stderr, pending).await;
    drop(pipe);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_call_is_answered_at_shutdown_and_others_are_served_until_then() {
    let project = crate::support::Project::copy_of_repo();
    let forced = run_bounded(
        &project,
        &["scenario", "reverse_geocode", "--fault", "hang"],
    );
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    let (server, url, mut stderr) = serve_binary(&project, &["--no-journal"]);
    let (hanging, bystander) = (http_client(&url).await, http_client(&url).await);
    let pending = tokio::spawn(async move {
        let answer = call(&hanging, "reverse_geocode", marina()).await;
        drop(hanging);
        answer
    });
    let started = tokio::task::block_in_place(|| {
        stderr.wait_for(DEADLINE, |line| line.contains("scenario=<fault hang>"))
    });
    assert!(started.is_some(), "the hanging call's log line");
    let menu = json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474});
    let served = call(&bystander, "food_get_restaurant_menu", menu)
        .await
        .expect("another call answers meanwhile");
    assert_eq!(served.get("isError"), None, "{served}");
    sigterm_cuts_the_call_and_exits(server, stderr, pending).await;
}
