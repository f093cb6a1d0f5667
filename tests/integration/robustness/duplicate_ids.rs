//! Item 7: the same JSON-RPC request id twice at once on one session, over each transport. The
//! second is answered at once with `-32600`, as production's Go SDK words it; the first is
//! answered as usual once it ends; another id meanwhile, and the same id once answered, are
//! served as usual.

use std::process::Stdio;

use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::{DEADLINE, run_bounded};
use crate::support::{
    JournalPipe, Process, Project, Raw, StdioServer, jsonrpc, large_search, serve_binary, sse,
    wait_until_async,
};

/// One session, over one transport, driven by hand: requests go out as JSON-RPC, answers are
/// read by id.
enum Wire {
    /// Each POST answers its own request; the answers are gathered on a channel.
    Http {
        raw: Raw,
        sent: mpsc::UnboundedSender<Value>,
        answers: mpsc::UnboundedReceiver<Value>,
        _server: Process,
    },
    /// Every answer comes on the session's stream.
    Sse {
        session: sse::Session,
        _server: Process,
    },
    Stdio(StdioServer),
}

/// A [`Wire`] and the answers read but not yet asked for.
struct Client {
    wire: Wire,
    unread: Vec<Value>,
}

impl Client {
    /// A session on `transport` with a server of `project` whose journal is `journal`.
    async fn open(transport: &str, project: &Project, journal: &str) -> Self {
        let wire = match transport {
            "stdio" => {
                let mut command = project.command();
                command.args(["serve", "--stdio", "--journal", journal]);
                let mut server = StdioServer::start(command, Stdio::null());
                tokio::task::block_in_place(|| server.initialize());
                Wire::Stdio(server)
            }
            "streamable-http" => {
                let (process, url, _) = serve_binary(project, &["--journal", journal]);
                let (raw, _) = Raw::initialize(url, "2025-06-18").await;
                let (sent, answers) = mpsc::unbounded_channel();
                Wire::Http {
                    raw,
                    sent,
                    answers,
                    _server: process,
                }
            }
            "sse" => {
                let (process, url, _) = serve_binary(project, &["--journal", journal]);
                let session = sse::Session::open(&url.replace("/mcp", "/sse")).await;
                Wire::Sse {
                    session,
                    _server: process,
                }
            }
            other => panic!("no transport {other}"),
        };
        Self {
            wire,
            unread: Vec::new(),
        }
    }

    /// Sends a `tools/call` with `id`, without waiting for its answer.
    async fn call(&mut self, id: u64, tool: &str, arguments: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}))
            .await;
    }

    /// Sends `message` as it is, without waiting for an answer.
    async fn send(&mut self, message: Value) {
        match &mut self.wire {
            Wire::Http { raw, sent, .. } => {
                let raw = Raw {
                    url: raw.url.clone(),
                    session: raw.session.clone(),
                    version: raw.version.clone(),
                };
                let sent = sent.clone();
                tokio::spawn(async move {
                    let response = raw.send(&message).await;
                    let body = response.text().await.unwrap_or_default();
                    let _ = sent.send(jsonrpc(&body).unwrap_or(Value::Null));
                });
            }
            Wire::Sse { session, .. } => {
                let status = sse::post(&session.endpoint, message.to_string()).await;
                assert_eq!(status, 202, "the POST is accepted");
            }
            Wire::Stdio(server) => server.send_json(&message),
        }
    }

    /// The next answer to `id`, read within the deadline.
    async fn answer(&mut self, id: u64) -> Value {
        let read = async {
            loop {
                if let Some(at) = self.unread.iter().position(|answer| answer["id"] == id) {
                    return self.unread.remove(at);
                }
                let next = match &mut self.wire {
                    Wire::Http { answers, .. } => answers.recv().await.expect("an answer"),
                    Wire::Sse { session, .. } => session.events.next_message().await,
                    Wire::Stdio(server) => tokio::task::block_in_place(|| server.next()),
                };
                self.unread.push(next);
            }
        };
        tokio::time::timeout(DEADLINE, read)
            .await
            .unwrap_or_else(|_| panic!("no answer to id {id} within {DEADLINE:?}"))
    }
}

fn menu() -> Value {
    json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474})
}

/// An answer's start, for a failure message (the held call's answer is over 100 KB).
fn start(answer: &Value) -> String {
    answer.to_string().chars().take(300).collect()
}

fn assert_served(answer: &Value, id: u64) {
    assert_eq!(answer["id"], id, "{}", start(answer));
    assert_eq!(answer["result"].get("isError"), None, "{}", start(answer));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_request_id_twice_at_once_on_a_session_gets_invalid_request() {
    for transport in ["streamable-http", "sse", "stdio"] {
        let project = Project::copy_of_repo();
        let mut pipe = JournalPipe::new(&project);
        let journal = pipe.path.to_string_lossy().into_owned();
        let mut client = Client::open(transport, &project, &journal).await;
        // The tool's first call parses its file; id 7 is its second, which Streamable HTTP
        // answers before rmcp (`server/direct.rs`), its journal write on a thread of its own.
        let small = json!({"query": "x", "latitude": 25.0866, "longitude": 55.1474});
        client.call(6, "food_merchant_search", small).await;
        let mut pipe = tokio::task::spawn_blocking(move || {
            pipe.read_line();
            pipe
        })
        .await
        .expect("id 6's journal line");
        assert_served(&client.answer(6).await, 6);

        // Id 7 held in its journal write until the test drains the pipe: pending meanwhile.
        client.call(7, "food_merchant_search", large_search()).await;
        pipe = tokio::task::spawn_blocking(move || {
            pipe.wait_for_a_call();
            pipe
        })
        .await
        .expect("id 7 is inside its journal write");
        client.call(8, "food_get_restaurant_menu", menu()).await;
        client.call(7, "food_get_restaurant_menu", menu()).await;
        assert_eq!(
            client.answer(7).await,
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32600,
                "message": "invalid request: request ID 7 already in use"}}),
            "{transport}: the second id 7, while the first is still held"
        );

        pipe.drain();
        let first = client.answer(7).await;
        assert_served(&first, 7);
        assert!(
            first["result"].to_string().contains("xxxxxxxxxx"),
            "{transport}: the first id 7 gets its own answer (its query echoed): {}",
            start(&first)
        );
        assert_served(&client.answer(8).await, 8);
        // Answered, id 7 is free again.
        client.call(7, "food_get_restaurant_menu", menu()).await;
        assert_served(&client.answer(7).await, 7);
    }
}

/// The id of a call cancelled while it still runs (a `hang` fault) is free at once, and the next
/// request with it gets its own answer, never the cancelled call's. (Over Streamable HTTP an id
/// is tied to its POST, which the client ends to cancel.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_request_id_is_free_again_at_once() {
    for transport in ["sse", "stdio"] {
        let project = Project::copy_of_repo();
        let forced = run_bounded(
            &project,
            &["scenario", "reverse_geocode", "--fault", "hang"],
        );
        assert_eq!(forced.code, 0, "{}", forced.stderr);
        let journal = project.path().join("calls.jsonl");
        let mut client = Client::open(transport, &project, &journal.to_string_lossy()).await;

        client
            .call(7, "reverse_geocode", crate::support::marina())
            .await;
        client.call(7, "food_get_restaurant_menu", menu()).await;
        assert_eq!(
            client.answer(7).await["error"]["code"],
            -32600,
            "{transport}: id 7 is pending"
        );
        client
            .send(
                json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 7, "reason": "timed out"}}),
            )
            .await;
        client.call(7, "food_get_restaurant_menu", menu()).await;
        let answer = client.answer(7).await;
        assert_served(&answer, 7);
        assert!(
            answer["result"].to_string().contains("30104"),
            "{transport}: the menu's own answer: {}",
            start(&answer)
        );
    }
}

/// Over Streamable HTTP a call belongs to its POST: a `hang` whose POST the client drops ends
/// with it, so abandoned calls do not pile up until their session ends, and its id is free
/// again on the session at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_call_ends_when_its_post_is_dropped() {
    let project = Project::copy_of_repo();
    let forced = run_bounded(
        &project,
        &["scenario", "reverse_geocode", "--fault", "hang"],
    );
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    let journal = project.path().join("calls.jsonl");
    let (_server, url, _) = serve_binary(&project, &["--journal", &journal.to_string_lossy()]);
    let (raw, _) = Raw::initialize(url, "2025-06-18").await;
    let copy = || Raw {
        url: raw.url.clone(),
        session: raw.session.clone(),
        version: raw.version.clone(),
    };
    let menu_as_7 = || async {
        let (answer, _) = raw
            .request(
                7,
                "tools/call",
                json!({"name": "food_get_restaurant_menu", "arguments": menu()}),
            )
            .await;
        answer
    };
    let hanging = {
        let raw = copy();
        tokio::spawn(async move {
            raw.send(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                "params": {"name": "reverse_geocode", "arguments": crate::support::marina()}}))
                .await
        })
    };
    // The hanging call is journalled before it hangs: from then on it holds id 7.
    let arrived = wait_until_async(DEADLINE, || async {
        let entries = careem_mcp::engine::journal::read(&journal).unwrap_or_default();
        entries
            .iter()
            .any(|entry| entry.tool == "reverse_geocode")
            .then_some(())
    });
    assert!(arrived.await.is_some(), "the hanging call arrives");
    assert_eq!(
        menu_as_7().await["error"]["code"],
        -32600,
        "the hanging call holds id 7"
    );

    hanging.abort();
    let _ = hanging.await;
    let freed = wait_until_async(DEADLINE, || async {
        let answer = menu_as_7().await;
        (answer["error"]["code"] != -32600).then_some(answer)
    });
    let answer = freed
        .await
        .expect("the dropped POST's call ends and frees id 7");
    assert_served(&answer, 7);
}
