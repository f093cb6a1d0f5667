//! A held `subscriptions/listen` (v1.7.0) through the binary: the stream stays open after its
//! acknowledgement and ends as each end comes: its cancellation (the result, then the end),
//! its session's end, its client leaving, a newer stream displacing it, the server's shutdown.

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{
    ACCEPT, Project, RawRequest, RawResponse, StdioServer, address, kill_term, raw_exchange,
    serve_binary, sse, wait_until,
};

const LISTEN_META: &str = "2026-07-28";

/// How long an answer may take to arrive, or to end; only a server that never gets there
/// waits it out.
const DEADLINE: Duration = Duration::from_secs(30);

/// A POST of `message` to `/mcp`, on `session` when given, under `version`'s header.
fn post(addr: SocketAddr, message: &Value, session: Option<&str>, version: &str) -> RawResponse {
    let mut headers = vec![
        ("Host".to_string(), addr.to_string()),
        ("Content-Type".to_string(), "application/json".to_string()),
        ("Accept".to_string(), ACCEPT.to_string()),
        ("MCP-Protocol-Version".to_string(), version.to_string()),
    ];
    if let Some(session) = session {
        headers.push(("Mcp-Session-Id".to_string(), session.to_string()));
    }
    if let Some(method) = message["method"].as_str() {
        headers.push(("Mcp-Method".to_string(), method.to_string()));
    }
    let request = RawRequest {
        method: "POST",
        path: "/mcp",
        headers,
        body: Some(message.to_string().into_bytes()),
    };
    raw_exchange(addr, &request, DEADLINE).expect("the server answers")
}

/// A session of the stateful server, opened as clients open one.
fn open_session(addr: SocketAddr) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "listener", "version": "1"}}});
    let mut opened = post(addr, &initialize, None, "2025-11-25");
    let session = opened
        .header("mcp-session-id")
        .expect("initialize issues a session")
        .to_string();
    opened.body_within(DEADLINE);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    post(addr, &initialized, Some(&session), "2025-11-25").body_within(DEADLINE);
    session
}

/// `subscriptions/listen` for the tools' list changes, which the server holds open; under
/// protocol 2026-07-28 when there is no session.
fn listen(id: u64, per_request: bool) -> Value {
    let mut params = json!({"notifications": {"toolsListChanged": true}});
    if per_request {
        params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": LISTEN_META,
            "io.modelcontextprotocol/clientCapabilities": {}});
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": params})
}

/// A held listen's answer, read up to its acknowledgement.
fn held(addr: SocketAddr, id: u64, session: Option<&str>) -> RawResponse {
    let version = if session.is_some() {
        "2025-11-25"
    } else {
        LISTEN_META
    };
    let mut answer = post(addr, &listen(id, session.is_none()), session, version);
    if answer.status != 200 {
        let (bytes, _) = answer.body_within(DEADLINE);
        panic!("{}: {}", answer.status, String::from_utf8_lossy(&bytes));
    }
    assert_eq!(answer.header("content-type"), Some("text/event-stream"));
    let mut bytes = Vec::new();
    let acknowledged = answer.body_into(&mut bytes, DEADLINE, |bytes| {
        String::from_utf8_lossy(bytes).contains("\n\n")
    });
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        acknowledged && text.contains("notifications/subscriptions/acknowledged"),
        "{text}"
    );
    answer
}

/// The rest of a held answer, once it ends: its messages, and how it ended.
fn rest(answer: &mut RawResponse) -> (Vec<Value>, io::Result<()>) {
    let (bytes, ended) = answer.body_to_end(DEADLINE);
    let messages = String::from_utf8_lossy(&bytes)
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).expect("each event's data is JSON"))
        .collect();
    (messages, ended)
}

#[test]
fn a_held_listen_ends_with_its_result_when_cancelled_and_without_one_with_its_session() {
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) =
        serve_binary(&project, &["--no-journal", "--wire", "go-sdk-1.7.0"]);
    let addr = address(&url);
    let session = open_session(addr);

    let mut cancelled = held(addr, 5, Some(&session));
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 5}});
    let accepted = post(addr, &cancel, Some(&session), "2025-11-25");
    assert_eq!(accepted.status, 202);
    let (messages, ended) = rest(&mut cancelled);
    assert_eq!(
        messages,
        [json!({"jsonrpc": "2.0", "id": 5,
            "result": {"_meta": {"io.modelcontextprotocol/subscriptionId": 5}}})]
    );
    assert!(ended.is_ok(), "the stream ends whole: {ended:?}");

    let mut deleted = held(addr, 6, Some(&session));
    let delete = RawRequest {
        method: "DELETE",
        path: "/mcp",
        headers: vec![
            ("Host".into(), addr.to_string()),
            ("Mcp-Session-Id".into(), session.clone()),
        ],
        body: None,
    };
    let gone = raw_exchange(addr, &delete, DEADLINE).expect("DELETE is answered");
    assert_eq!(gone.status, 204);
    let (messages, ended) = rest(&mut deleted);
    assert_eq!(
        messages,
        Vec::<Value>::new(),
        "nothing follows the session's end"
    );
    assert!(ended.is_ok(), "the stream ends whole: {ended:?}");
}

#[test]
fn a_held_listen_gives_its_request_id_back_when_its_client_leaves() {
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) =
        serve_binary(&project, &["--no-journal", "--wire", "go-sdk-1.7.0"]);
    let addr = address(&url);
    let session = open_session(addr);
    let ping = json!({"jsonrpc": "2.0", "id": 5, "method": "ping"});
    let answer_to_ping = || {
        let (bytes, _) = post(addr, &ping, Some(&session), "2025-11-25").body_within(DEADLINE);
        String::from_utf8_lossy(&bytes).into_owned()
    };

    let listening = held(addr, 5, Some(&session));
    assert!(
        answer_to_ping().contains("request ID 5 already in use"),
        "the held listen has its id"
    );
    drop(listening);
    // Nothing tells the client that the server saw it go: ask until the id is free again.
    let freed = wait_until(DEADLINE, || {
        answer_to_ping().contains(r#""result":{}"#).then_some(())
    });
    assert!(freed.is_some(), "the listen's id is never given back");
}

#[test]
fn held_listens_count_against_the_stream_cap_and_the_oldest_makes_room() {
    let project = Project::copy_of_repo();
    // 4 connections: 2 long-lived streams.
    let args = [
        "--no-journal",
        "--wire",
        "go-sdk-1.7.0-stateless",
        "--max-connections",
        "4",
    ];
    let (_server, url, _stderr) = serve_binary(&project, &args);
    let addr = address(&url);
    let mut oldest = held(addr, 1, None);
    let _second = held(addr, 2, None);
    let _third = held(addr, 3, None);
    let (messages, ended) = rest(&mut oldest);
    assert_eq!(messages, Vec::<Value>::new());
    let cut = ended.expect_err("a displaced stream is cut off, not ended whole");
    assert_ne!(
        cut.kind(),
        io::ErrorKind::WouldBlock,
        "cut off, not timed out"
    );
    assert_ne!(
        cut.kind(),
        io::ErrorKind::TimedOut,
        "cut off, not timed out"
    );
}

#[cfg(unix)]
#[test]
fn a_held_listen_ends_whole_when_the_server_shuts_down() {
    let project = Project::copy_of_repo();
    let args = ["--no-journal", "--wire", "go-sdk-1.7.0-stateless"];
    let (mut server, url, _stderr) = serve_binary(&project, &args);
    let mut listening = held(address(&url), 7, None);
    kill_term(&server);
    let (messages, ended) = rest(&mut listening);
    assert_eq!(
        messages,
        Vec::<Value>::new(),
        "nothing follows the acknowledgement"
    );
    assert!(ended.is_ok(), "the stream ends whole: {ended:?}");
    let status = server.wait_for_exit(Duration::from_secs(10));
    assert!(status.is_some_and(|s| s.success()), "exits 0: {status:?}");
}

/// The acknowledgement of listen `id` for the tools' list changes, and its result.
fn acknowledgement_and_result(id: u64) -> (Value, Value) {
    let meta = json!({"io.modelcontextprotocol/subscriptionId": id});
    (
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": meta, "notifications": {"toolsListChanged": true}}}),
        json!({"jsonrpc": "2.0", "id": id, "result": {"_meta": meta}}),
    )
}

fn cancel(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}})
}

#[test]
fn over_stdio_a_held_listen_waits_for_its_cancellation_and_stdins_close_ends_it() {
    let project = Project::copy_of_repo();
    let mut command = project.command();
    command.args(["serve", "--stdio", "--wire", "go-sdk-1.7.0", "--no-journal"]);
    let mut server = StdioServer::start(command, std::process::Stdio::null());
    server.initialize();
    let (acknowledged, result) = acknowledgement_and_result(4);
    server.send_json(&listen(4, false));
    assert_eq!(server.next(), acknowledged);
    server.send_json(&json!({"jsonrpc": "2.0", "id": 5, "method": "ping"}));
    assert_eq!(
        server.next(),
        json!({"jsonrpc": "2.0", "id": 5, "result": {}})
    );
    server.send_json(&cancel(4));
    assert_eq!(server.next(), result);

    server.send_json(&listen(6, false));
    assert_eq!(server.next(), acknowledgement_and_result(6).0);
    server.close_stdin();
    let status = server.process.wait_for_exit(DEADLINE);
    assert!(status.is_some_and(|s| s.success()), "exits 0: {status:?}");
    let after: Vec<String> = server.lines.iter().collect();
    assert_eq!(
        after,
        Vec::<String>::new(),
        "nothing follows the session's end"
    );
}

#[tokio::test]
async fn over_legacy_sse_a_held_listen_waits_for_its_cancellation() {
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) =
        serve_binary(&project, &["--no-journal", "--wire", "go-sdk-1.7.0"]);
    let mut session = sse::Session::open(&url.replace("/mcp", "/sse")).await;
    let (acknowledged, result) = acknowledgement_and_result(40);
    assert_eq!(
        sse::post(&session.endpoint, listen(40, false).to_string()).await,
        202
    );
    assert_eq!(session.events.next_message().await, acknowledged);
    let ping = session.request("ping", json!({})).await;
    assert_eq!(
        ping["result"],
        json!({}),
        "the held listen holds nothing else up"
    );
    assert_eq!(
        sse::post(&session.endpoint, cancel(40).to_string()).await,
        202
    );
    assert_eq!(session.events.next_message().await, result);
}
