//! Streams are bounded: idle legacy SSE streams past their cap end oldest first, so `/health`
//! and `initialize` always find a connection, and a stream whose client stops reading ends its
//! session once its queue is full, so the server's memory stays flat.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use serde_json::json;

use super::{DEADLINE, SLACK_KIB};
use crate::support::{Project, address, http, rss_kib, serve_binary, sse, wait_until_async};

/// `GET /sse` on a connection of its own that the test never reads from.
fn idle_stream(addr: SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect(addr).expect("the server accepts");
    write!(
        stream,
        "GET /sse HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .expect("the request goes out");
    stream
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sse_streams_past_their_cap_never_lock_out_health_or_initialize() {
    const CONNECTIONS: usize = 16;
    let project = Project::copy_of_repo();
    let cap = CONNECTIONS.to_string();
    let (_server, url, _stderr) =
        serve_binary(&project, &["--no-journal", "--max-connections", &cap]);
    let addr = address(&url);
    let base = url.trim_end_matches("/mcp");

    // Far more idle streams than connections: with streams never displaced, the first 16 would
    // hold every connection for ever.
    let mut streams: Vec<TcpStream> = (0..CONNECTIONS * 4).map(|_| idle_stream(addr)).collect();
    for _ in 0..3 {
        let health = tokio::time::timeout(DEADLINE, http().get(format!("{base}/health")).send())
            .await
            .expect("/health answers while idle streams are open")
            .expect("/health answers");
        assert_eq!(health.status(), 200);
        let client = tokio::time::timeout(DEADLINE, crate::support::http_client(&url))
            .await
            .expect("initialize answers while idle streams are open");
        crate::support::assert_marina(&client).await;
        streams.push(idle_stream(addr));
    }
    // The oldest stream was ended to make room (or, still unread at the connection cap, its
    // connection displaced): it reaches its end instead of holding its place for ever.
    tokio::task::block_in_place(|| read_to_the_end(streams.remove(0)));
}

/// Reads a stream's connection until its response ends (the last chunk of a chunked body, or
/// the connection closed or reset); a read that waits past the deadline fails the test.
fn read_to_the_end(mut stream: TcpStream) {
    stream
        .set_read_timeout(Some(DEADLINE))
        .expect("a read timeout");
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !seen.ends_with(b"\r\n0\r\n\r\n") {
        let read = match stream.read(&mut buffer) {
            Ok(read) => read,
            // The server closed the connection with the stream.
            Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => 0,
            Err(error) => panic!("the stream ends, not times out: {error}"),
        };
        if read == 0 {
            break;
        }
        seen.extend_from_slice(&buffer[..read]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "measures the server's memory: .ci/run runs it with --ignored"]
async fn a_legacy_sse_client_that_stops_reading_loses_its_session_not_the_servers_memory() {
    const POSTS: usize = 20_000;
    let project = Project::copy_of_repo();
    let (server, url, _stderr) = serve_binary(&project, &["--no-journal"]);
    let pid = server.0.id();
    let mut session = sse::Session::open(&url.replace("/mcp", "/sse")).await;
    let baseline = rss_kib(pid);

    // Each answer is a 12 KB menu, never read from the stream: past the 8 MiB queue and what
    // the sockets hold, the session ends.
    let mut ended_after = None;
    for posted in 1..=POSTS {
        let call = json!({"jsonrpc": "2.0", "id": posted, "method": "tools/call", "params": {
            "name": "food_get_restaurant_menu",
            "arguments": {"restaurant_id": 30101, "latitude": 25.0866, "longitude": 55.1474}}});
        let status = sse::post(&session.endpoint, call.to_string()).await;
        if status == 404 {
            ended_after = Some(posted);
            break;
        }
        assert_eq!(status, 202, "POST {posted}");
        if posted % 100 == 0 {
            let rss = rss_kib(pid);
            assert!(
                rss < baseline + SLACK_KIB,
                "after {posted} unread answers: {rss} KiB, from {baseline} KiB"
            );
        }
    }
    let ended_after = ended_after.unwrap_or_else(|| {
        panic!("{POSTS} answers of 12 KB queued for a client that reads nothing, and its session lives on")
    });
    // What production answers for a gone session, and the stream is over.
    let gone = http()
        .post(&session.endpoint)
        .header("content-type", "application/json")
        .body(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}).to_string())
        .send()
        .await
        .expect("the endpoint answers");
    assert_eq!(gone.status(), 404, "after {ended_after} POSTs");
    assert_eq!(gone.text().await.unwrap_or_default(), "session not found\n");
    assert!(
        session.events.ended_within(DEADLINE).await,
        "the stream ends"
    );
    // The memory the queue held goes back.
    let released = wait_until_async(DEADLINE, || async {
        (rss_kib(pid) < baseline + SLACK_KIB / 2).then_some(())
    });
    assert!(
        released.await.is_some(),
        "{} KiB after the session ended, from {baseline} KiB",
        rss_kib(pid)
    );
    let again = crate::support::http_client(&url).await;
    crate::support::assert_marina(&again).await;
}
