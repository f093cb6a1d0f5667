//! Item 7: the same JSON-RPC request id twice at once on one Streamable HTTP session. The
//! second is answered at once with `-32600`, as production's Go SDK words it; the first stays
//! pending; other ids, and the same id once answered, are served as usual.

use serde_json::{Value, json};

use super::{DEADLINE, run_bounded};
use crate::support::{Project, Raw, marina, serve_binary};

fn geocode() -> Value {
    json!({"name": "reverse_geocode", "arguments": marina()})
}

fn menu() -> Value {
    json!({"name": "food_get_restaurant_menu",
        "arguments": {"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_request_id_twice_at_once_on_a_session_gets_invalid_request() {
    let project = Project::copy_of_repo();
    // reverse_geocode never answers: its request id stays pending.
    let forced = run_bounded(
        &project,
        &["scenario", "reverse_geocode", "--fault", "hang"],
    );
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    let (_server, url, mut stderr) = serve_binary(&project, &["--no-journal"]);
    let (raw, _) = Raw::initialize(url, "2025-06-18").await;
    let first = Raw {
        url: raw.url.clone(),
        session: raw.session.clone(),
        version: raw.version.clone(),
    };
    let pending = tokio::spawn(async move {
        let message =
            json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": geocode()});
        first.send(&message).await
    });
    let started = tokio::task::block_in_place(|| {
        stderr.wait_for(DEADLINE, |line| line.contains("scenario=<fault hang>"))
    });
    assert!(started.is_some(), "the first call's log line");

    let within = |what: &'static str| move |_| panic!("{what}: no answer within {DEADLINE:?}");
    let (second, _) = tokio::time::timeout(DEADLINE, raw.request(7, "tools/call", geocode()))
        .await
        .unwrap_or_else(within("the second request with id 7"));
    assert_eq!(
        second,
        json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32600,
            "message": "invalid request: request ID 7 already in use"}})
    );
    // Another id on the same session, twice in turn: the id is free once answered.
    for _ in 0..2 {
        let (answer, _) = tokio::time::timeout(DEADLINE, raw.request(8, "tools/call", menu()))
            .await
            .unwrap_or_else(within("a request with id 8"));
        assert_eq!(answer["id"], 8, "{answer}");
        assert_eq!(answer["result"]["isError"], false, "{answer}");
    }
    pending.abort();
}
