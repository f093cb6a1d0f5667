//! Sessions are bounded: `--max-sessions` counts Streamable HTTP sessions and legacy SSE streams
//! together; one more is refused with the ingress's 503 while the open ones carry on, and a
//! place comes back (with its memory) as soon as a session ends.

use serde_json::json;

use super::{DEADLINE, SLACK_KIB};
use crate::support::{
    Project, assert_marina, http, http_client as client, rss_kib, serve_binary, wait_until_async,
};

const ACCEPT: &str = "application/json, text/event-stream";

/// What `initialize` (or `GET /sse`) got: the status, the session it opened, the body.
struct Opened {
    status: u16,
    session: Option<String>,
    content_type: String,
    body: String,
}

async fn initialize(url: &str) -> Opened {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let response = http()
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("the server answers");
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_string)
    };
    Opened {
        status: response.status().as_u16(),
        session: header("mcp-session-id"),
        content_type: header("content-type").unwrap_or_default(),
        body: response.text().await.unwrap_or_default(),
    }
}

async fn delete(url: &str, session: &str) {
    let response = http()
        .delete(url)
        .header("mcp-session-id", session)
        .send()
        .await
        .expect("DELETE answers");
    assert_eq!(response.status(), 204);
}

async fn open_sse(base: &str) -> reqwest::Response {
    http()
        .get(format!("{base}/sse"))
        .header("accept", "text/event-stream")
        .send()
        .await
        .expect("/sse answers")
}

fn assert_refused(opened: &Opened, what: &str) {
    assert_eq!(
        (
            opened.status,
            opened.body.as_str(),
            opened.content_type.as_str()
        ),
        (503, "no healthy upstream", "text/plain"),
        "{what}"
    );
    assert_eq!(opened.session, None, "{what}: no session");
}

/// Polls `initialize` until it opens a session (a place is given back asynchronously, when the
/// server notices the session ended), failing at the deadline.
async fn initialize_once_a_place_is_free(url: &str) -> String {
    let opened = wait_until_async(DEADLINE, || async {
        let opened = initialize(url).await;
        if opened.session.is_none() {
            assert_refused(&opened, "while waiting for a place");
        }
        opened.session
    })
    .await;
    opened.expect("a place came back")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_past_the_cap_are_refused_with_503_and_open_ones_carry_on() {
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) = serve_binary(&project, &["--no-journal", "--max-sessions", "3"]);
    let base = url.trim_end_matches("/mcp").to_string();
    let (first, second) = (client(&url).await, client(&url).await);
    let stream = open_sse(&base).await;
    assert_eq!(stream.status(), 200, "the third session: an SSE stream");

    assert_refused(&initialize(&url).await, "a fourth initialize");
    let refused = open_sse(&base).await;
    let opened = Opened {
        status: refused.status().as_u16(),
        session: None,
        content_type: refused
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_string(),
        body: refused.text().await.unwrap_or_default(),
    };
    assert_refused(&opened, "a fourth session over SSE");
    assert_marina(&first).await;
    assert_marina(&second).await;

    // The SSE stream ends: its place comes back.
    drop(stream);
    let session = initialize_once_a_place_is_free(&url).await;
    assert_refused(&initialize(&url).await, "full again");
    // A session ended by DELETE gives its place back too.
    delete(&url, &session).await;
    let third = client(&url).await;
    assert_marina(&third).await;
    assert_marina(&first).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_in_a_loop_is_capped_and_the_memory_comes_back_when_sessions_end() {
    const CAP: usize = 1000;
    let project = Project::copy_of_repo();
    let cap = CAP.to_string();
    let (server, url, _stderr) = serve_binary(&project, &["--no-journal", "--max-sessions", &cap]);
    let pid = server.0.id();
    let bystander = client(&url).await;
    assert_marina(&bystander).await;
    let baseline = rss_kib(pid);

    let mut sessions = Vec::new();
    for _ in 0..CAP + CAP / 2 {
        let opened = initialize(&url).await;
        match opened.session {
            Some(session) => sessions.push(session),
            None => assert_refused(&opened, "past the cap"),
        }
    }
    assert_eq!(sessions.len(), CAP - 1, "the bystander holds one place");
    assert_marina(&bystander).await;
    let full = rss_kib(pid);
    assert!(
        full < baseline + SLACK_KIB,
        "{CAP} sessions: {full} KiB, from {baseline} KiB"
    );

    for session in &sessions {
        delete(&url, session).await;
    }
    // Given back soon after the sessions end, not at the next periodic trim (30 min here).
    let halfway = baseline + full.saturating_sub(baseline) / 2;
    let released = wait_until_async(DEADLINE, || async {
        (rss_kib(pid) <= halfway).then_some(())
    });
    assert!(
        released.await.is_some(),
        "memory still {} KiB after the sessions ended (open: {full}, before: {baseline})",
        rss_kib(pid)
    );
    assert_marina(&bystander).await;
    let again = client(&url).await;
    assert_marina(&again).await;
}
