//! Connections are bounded. Half-sent headers, stalled bodies and idle kept-alive
//! connections are closed after their timeout; at most `--max-connections` are open, and at the
//! cap a new client displaces a half-open one, so a flood cannot keep a normal client out. SSE
//! streams and slow answers outlive every timeout.

use std::net::TcpStream;

use serde_json::json;

use super::{DEADLINE, run_bounded};
use crate::support::{
    Project, address, assert_marina, call, closed_by_server, connect, http_client, marina,
    read_until_closed, serve_binary, sockets, sse, terminate_cleanly, wait_until_async,
};

const HALF_HEADER: &[u8] = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_half_open_connections_is_capped_and_normal_clients_are_still_served() {
    const CAP: usize = 8;
    const FLOOD: usize = 200;
    let project = Project::copy_of_repo();
    let (server, url, _stderr) =
        serve_binary(&project, &["--no-journal", "--max-connections", "8"]);
    let pid = server.0.id();
    let without_connections = sockets(pid);
    // A session from before the flood, with its stream open and a kept-alive connection idle.
    let before = http_client(&url).await;
    assert_marina(&before).await;

    let addr = address(&url);
    let flood: Vec<TcpStream> = (0..FLOOD).map(|_| connect(addr, HALF_HEADER)).collect();
    // Every flood connection gets in, displacing an older half-open one: all but those the cap
    // holds end up closed. Never more than the cap are open meanwhile: the session's stream and
    // its idle connection, the last flood connections, and at most one accepted connection
    // waiting for a slot.
    let settled = wait_until_async(DEADLINE, || {
        let held = sockets(pid) - without_connections;
        assert!(held <= CAP + 1, "{held} connections open, cap {CAP}");
        let open = flood.iter().filter(|s| !closed_by_server(s)).count();
        std::future::ready((open <= CAP).then_some(()))
    })
    .await;
    assert!(
        settled.is_some(),
        "the half-open connections are still open"
    );

    let fresh = http_client(&url).await;
    assert_marina(&fresh).await;
    assert_marina(&before).await;
    drop(flood);
    terminate_cleanly(server, DEADLINE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_headers_bodies_and_idle_connections_are_closed_but_streams_are_not() {
    let project = Project::copy_of_repo();
    // Each reverse_geocode answer takes longer than both timeouts.
    let delayed = run_bounded(&project, &["scenario", "reverse_geocode", "--delay", "3s"]);
    assert_eq!(delayed.code, 0, "{}", delayed.stderr);
    let (server, url, _stderr) = serve_binary(
        &project,
        &[
            "--no-journal",
            "--header-timeout",
            "1",
            "--body-timeout",
            "1",
        ],
    );
    let addr = address(&url);
    let base = format!("http://{addr}");
    let streamable = http_client(&url).await;
    // A legacy SSE session whose stream stays open all along.
    let mut legacy = sse::Session::open(&format!("{base}/sse")).await;
    let geocode = json!({"jsonrpc": "2.0", "id": 99, "method": "tools/call",
        "params": {"name": "reverse_geocode", "arguments": marina()}});
    assert_eq!(sse::post(&legacy.endpoint, geocode.to_string()).await, 202);

    let raw = tokio::task::spawn_blocking(move || {
        let half = connect(addr, HALF_HEADER);
        let after_half = read_until_closed(half, DEADLINE, "half-sent headers");
        let health = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        let idle = read_until_closed(
            connect(addr, health),
            DEADLINE,
            "an idle kept-alive connection",
        );
        let stalled = [
            HALF_HEADER,
            b"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n",
            b"Content-Length: 1000\r\n\r\n{\"jsonrpc\":",
        ]
        .concat();
        let after_stall = read_until_closed(connect(addr, &stalled), DEADLINE, "a stalled body");
        (after_half, idle, after_stall)
    });
    // A Streamable HTTP answer, on the POST's stream, arriving after both timeouts.
    let (answered, raw) = tokio::join!(call(&streamable, "reverse_geocode", marina()), raw);
    let (after_half, idle, after_stall) = raw.expect("the raw connections");
    assert_eq!(after_half, "", "closed without an answer");
    assert!(idle.starts_with("HTTP/1.1 200 OK"), "{idle}");
    assert!(idle.contains(r#""status":"ok""#), "{idle}");
    assert!(
        after_stall.starts_with("HTTP/1.1 408 Request Timeout"),
        "{after_stall}"
    );
    assert!(after_stall.ends_with("Request Timeout"), "{after_stall}");
    let answered = answered.expect("the slow call answers");
    assert_eq!(
        answered["structuredContent"]["location"]["locationUuid"],
        "LOC-50001"
    );
    // The legacy SSE stream, open all along, carries its slow answer.
    let message = legacy.events.next_message().await;
    assert_eq!(message["id"], 99, "{message}");
    assert_eq!(
        message["result"]["structuredContent"]["location"]["locationUuid"],
        "LOC-50001"
    );
    terminate_cleanly(server, DEADLINE);
}
