//! Sessions are bounded: `--max-sessions` counts Streamable HTTP sessions and legacy SSE streams
//! together; one more ends the session idle longest, so a new client is always served, and what
//! ended sessions held is free again.

use serde_json::json;

use super::{DEADLINE, SLACK_KIB};
use crate::support::{
    Client, Project, assert_marina, http, http_client as client, rss_kib, serve_binary,
};

const ACCEPT: &str = "application/json, text/event-stream";

/// What `initialize` (or `GET /sse`) got: the status, the session it opened, the body.
struct Opened {
    status: u16,
    session: Option<String>,
    content_type: String,
    body: String,
}

async fn initialize(http: &reqwest::Client, url: &str) -> Opened {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let response = http
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

/// Ends `session`; `false` when it had ended already.
async fn delete(http: &reqwest::Client, url: &str, session: &str) -> bool {
    let response = http
        .delete(url)
        .header("mcp-session-id", session)
        .send()
        .await
        .expect("DELETE answers");
    match response.status().as_u16() {
        204 => true,
        404 => false,
        other => panic!("DELETE answered {other}"),
    }
}

async fn open_sse(base: &str) -> reqwest::Response {
    http()
        .get(format!("{base}/sse"))
        .header("accept", "text/event-stream")
        .send()
        .await
        .expect("/sse answers")
}

/// A ping in `session`: the status and the body.
async fn ping(url: &str, session: &str) -> (u16, String) {
    let response = http()
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", "2025-06-18")
        .body(json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}).to_string())
        .send()
        .await
        .expect("the server answers");
    let status = response.status().as_u16();
    (status, response.text().await.unwrap_or_default())
}

fn opened(opened: &Opened, what: &str) -> String {
    assert_eq!(
        (opened.status, opened.content_type.as_str()),
        (200, "text/event-stream"),
        "{what}: {}",
        opened.body
    );
    opened.session.clone().expect("a session id")
}

const GONE: (u16, &str) = (404, "session not found\n");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_cap_the_session_idle_longest_ends_and_every_new_client_is_served() {
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) = serve_binary(&project, &["--no-journal", "--max-sessions", "3"]);
    let http = http();
    let base = url.trim_end_matches("/mcp").to_string();
    let first = opened(&initialize(&http, &url).await, "first");
    let second = opened(&initialize(&http, &url).await, "second");
    let mut stream = open_sse(&base).await;
    assert_eq!(stream.status(), 200, "the third session: an SSE stream");
    assert_eq!(ping(&url, &second).await.0, 200, "second, touched last");

    let fourth = opened(&initialize(&http, &url).await, "a fourth initialize");
    let got = ping(&url, &first).await;
    assert_eq!(
        (got.0, got.1.as_str()),
        GONE,
        "the session idle longest ended"
    );
    assert_eq!(ping(&url, &second).await.0, 200, "the others carry on");

    let fifth = opened(&initialize(&http, &url).await, "a fifth");
    let ended = tokio::time::timeout(DEADLINE, async {
        while let Ok(Some(_)) = stream.chunk().await {}
    })
    .await;
    assert!(ended.is_ok(), "the SSE stream, idle longest now, ended");
    for (session, what) in [(&second, "second"), (&fourth, "fourth"), (&fifth, "fifth")] {
        assert_eq!(ping(&url, session).await.0, 200, "{what} carries on");
    }
    // A session ended by DELETE makes room without ending another.
    assert!(delete(&http, &url, &second).await);
    let sixth = opened(&initialize(&http, &url).await, "a sixth");
    for session in [&fourth, &fifth, &sixth] {
        assert_eq!(ping(&url, session).await.0, 200);
    }
}

/// Opens `CAP + CAP / 2` sessions, so that the cap ends a third of them, while `bystander` keeps
/// calling: a client in use is never the one idle longest.
async fn a_round_past_the_cap(
    http: &reqwest::Client,
    url: &str,
    bystander: &Client,
) -> Vec<String> {
    let mut sessions = Vec::new();
    for at in 0..CAP + CAP / 2 {
        sessions.push(opened(&initialize(http, url).await, "past the cap too"));
        if at % 100 == 0 {
            assert_marina(bystander).await;
        }
    }
    assert_marina(bystander).await;
    sessions
}

/// Ends each of `sessions` by DELETE; the number that were still open.
async fn end_each(http: &reqwest::Client, url: &str, sessions: &[String]) -> usize {
    let mut ended = 0;
    for session in sessions {
        ended += usize::from(delete(http, url, session).await);
    }
    ended
}

const CAP: usize = 1000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "measures the server's memory: .ci/run runs it with --ignored"]
async fn initialize_in_a_loop_is_capped_and_the_memory_comes_back_when_sessions_end() {
    let project = Project::copy_of_repo();
    let cap = CAP.to_string();
    let (server, url, _stderr) = serve_binary(&project, &["--no-journal", "--max-sessions", &cap]);
    let pid = server.0.id();
    let http = http();
    let bystander = client(&url).await;
    assert_marina(&bystander).await;
    let baseline = rss_kib(pid);

    let first = a_round_past_the_cap(&http, &url, &bystander).await;
    let full = rss_kib(pid);
    assert!(
        full < baseline + SLACK_KIB,
        "{CAP} sessions: {full} KiB, from {baseline} KiB"
    );
    assert_eq!(
        end_each(&http, &url, &first).await,
        CAP - 1,
        "the table held the bystander and the newest"
    );

    // What ended sessions held is free again: a second round fits in it. (Whether the freed
    // pages go back to the system at once depends on how the allocator's arenas fragment, so
    // the resident size is compared round to round, not against the first round's start.)
    let second = a_round_past_the_cap(&http, &url, &bystander).await;
    let again = rss_kib(pid);
    let grown = full.saturating_sub(baseline);
    assert!(
        again <= full + grown / 2,
        "a second round of {CAP} sessions: {again} KiB, the first: {full} KiB (from {baseline} KiB)"
    );
    assert_eq!(end_each(&http, &url, &second).await, CAP - 1);
    assert_marina(&bystander).await;
    let newcomer = client(&url).await;
    assert_marina(&newcomer).await;
}
