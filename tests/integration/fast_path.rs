//! The fast path (`server/fast_path.rs`) must never drift from rmcp's session tasks: the same
//! requests go to a server with it and to one without, and every answer's bytes — status,
//! headers, SSE framing, priming event, event ids, JSON — must be the same, with only the
//! session id and the `Date` header masked. The served binary's own log proves the fast path
//! really answers: read from its stderr, where nothing but its one subscriber writes (in this
//! process, other tests' subscribers share tracing's level cache and can hide lines).

use std::sync::Arc;
use std::time::Duration;

use careem_mcp::engine::{Engine, EngineConfig};
use careem_mcp::server::{RunningServer, ServerOptions, start_http};
use chrono::{TimeZone, Utc};
use futures::StreamExt;
use serde_json::{Value, json};

use crate::support::{Project, serve_command, wait_until};

const ACCEPT: &str = "application/json, text/event-stream";

async fn server(project: &Project, fast_path: bool) -> RunningServer {
    let engine = Engine::load(EngineConfig {
        tools_dir: project.path().join("tools"),
        overrides: project.path().join(".run/overrides.json"),
        clock: Some(Utc.with_ymd_and_hms(2026, 3, 14, 9, 30, 0).unwrap()),
        seed: Some(7),
    })
    .expect("the tools load");
    start_http(
        Arc::new(engine),
        ServerOptions {
            port: 0,
            fast_path,
            ..ServerOptions::default()
        },
    )
    .await
    .expect("the server starts")
}

/// One client's conversation with one server, as text: each exchange's status, headers
/// (sorted, `Date` and the session id masked) and body, exactly as received.
struct Conversation {
    url: String,
    http: reqwest::Client,
    session: Option<String>,
    version: String,
    seen: Vec<String>,
}

impl Conversation {
    fn new(url: &str, version: &str) -> Self {
        Self {
            url: url.to_string(),
            http: reqwest::Client::builder()
                .no_proxy()
                .build()
                .expect("an HTTP client"),
            session: None,
            version: version.to_string(),
            seen: Vec::new(),
        }
    }

    fn request(&self, method: reqwest::Method, body: Option<&Value>) -> reqwest::RequestBuilder {
        let mut request = self
            .http
            .request(method, &self.url)
            .header("accept", ACCEPT);
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        if let Some(session) = &self.session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", &self.version);
        }
        request
    }

    /// Status and headers as text, masked.
    fn head(&mut self, response: &reqwest::Response) -> String {
        if let Some(session) = response.headers().get("mcp-session-id") {
            self.session = Some(session.to_str().expect("ASCII").to_string());
        }
        let mut headers: Vec<String> = response
            .headers()
            .iter()
            .map(|(name, value)| {
                let value = match name.as_str() {
                    "date" => "<date>",
                    "mcp-session-id" => "<session>",
                    _ => value.to_str().unwrap_or("<binary>"),
                };
                format!("{name}: {value}")
            })
            .collect();
        headers.sort();
        format!("{}\n{}", response.status(), headers.join("\n"))
    }

    async fn send(&mut self, method: reqwest::Method, body: Option<Value>) {
        let what = body.as_ref().map_or(method.to_string(), Value::to_string);
        let response = self
            .request(method, body.as_ref())
            .send()
            .await
            .expect("the server answers");
        let head = self.head(&response);
        let body = response.text().await.expect("a whole body");
        // Later requests name the version `initialize` settled on.
        let negotiated = body
            .lines()
            .filter_map(|line| line.strip_prefix("data: "))
            .filter_map(|data| serde_json::from_str::<Value>(data).ok())
            .find_map(|message| {
                message["result"]["protocolVersion"]
                    .as_str()
                    .map(str::to_string)
            });
        if let Some(version) = negotiated {
            self.version = version;
        }
        self.seen.push(format!("{what}\n{head}\n\n{body}"));
    }

    async fn post(&mut self, body: Value) {
        self.send(reqwest::Method::POST, Some(body)).await;
    }

    /// A `tools/call` of a delayed tool, cancelled by the client once its stream has begun.
    async fn cancelled_call(&mut self, id: u64) {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "get_saved_locations", "arguments": {}}});
        let response = self
            .request(reqwest::Method::POST, Some(&body))
            .send()
            .await
            .expect("the server answers");
        let head = self.head(&response);
        let mut stream = response.bytes_stream();
        let mut received = Vec::new();
        // The priming event: the call is in flight.
        while !received.ends_with(b"\n\n") {
            let chunk = stream
                .next()
                .await
                .expect("the priming event")
                .expect("bytes");
            received.extend_from_slice(&chunk);
        }
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": id, "reason": "the user gave up"}});
        self.post(cancel).await;
        while let Some(chunk) = stream.next().await {
            received.extend_from_slice(&chunk.expect("bytes"));
        }
        let received = String::from_utf8_lossy(&received);
        self.seen.push(format!("{body}\n{head}\n\n{received}"));
    }
}

fn call(id: impl Into<Value>, name: &str, arguments: Value) -> Value {
    let id = id.into();
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}})
}

fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Every request kind the fast path answers, with those rmcp keeps interleaved (so the
/// streams' numbering is shared), errors of each kind, a cancelled call, and the session's end.
async fn converse(url: &str, version: &str) -> Vec<String> {
    let mut client = Conversation::new(url, version);
    let menu = json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474});
    client
        .post(request(
            1,
            "initialize",
            json!({"protocolVersion": version,
            "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        ))
        .await;
    // Before `notifications/initialized`: rmcp's, on both servers.
    client.post(request(2, "tools/list", json!({}))).await;
    client
        .post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    let requests = [
        request(3, "tools/list", json!({})),
        request(4, "ping", json!({})),
        request(5, "resources/list", json!({})),
        request(6, "resources/read", json!({"uri": "ui://careem-mcp-app"})),
        request(7, "resources/read", json!({"uri": "ui://nothing-here"})),
        call(8, "food_get_restaurant_menu", menu.clone()),
        request(9, "prompts/list", json!({})),
        call(10, "no_such_tool", json!({})),
        call(
            11,
            "food_get_restaurant_menu",
            json!({"restaurant_id": "thirty"}),
        ),
        request(12, "tools/call", json!({"arguments": {}})),
        request(13, "resources/templates/list", json!({})),
        call(
            "fourteen",
            "reverse_geocode",
            json!({"latitude": 25.0866, "longitude": 55.1474}),
        ),
        json!({"jsonrpc": "2.0", "id": 15, "method": "tools/call", "params": {
            "name": "food_get_restaurant_menu", "arguments": menu,
            "_meta": {"progressToken": "p-15"}}}),
        request(16, "ping", json!(null)),
    ];
    for body in requests {
        client.post(body).await;
    }
    client.cancelled_call(17).await;
    client.post(request(18, "ping", json!({}))).await;
    client.send(reqwest::Method::DELETE, None).await;
    client.post(request(19, "tools/list", json!({}))).await;
    client.seen
}

/// A project whose `get_saved_locations` answers after 30 s: the call `converse` cancels.
fn project_with_a_slow_tool() -> Project {
    let project = Project::copy_of_repo();
    project.write(
        ".run/overrides.json",
        &json!({"get_saved_locations": {"delay": "30s"}}).to_string(),
    );
    project
}

#[tokio::test]
async fn the_fast_path_answers_byte_for_byte_as_rmcps_session_tasks() {
    let project = project_with_a_slow_tool();
    let (fast, slow) = (server(&project, true).await, server(&project, false).await);
    for version in ["2025-06-18", "2025-03-26", "2025-11-25"] {
        let through_fast =
            tokio::time::timeout(Duration::from_secs(60), converse(&fast.url(), version))
                .await
                .expect("the fast server answers");
        let through_rmcp =
            tokio::time::timeout(Duration::from_secs(60), converse(&slow.url(), version))
                .await
                .expect("the other server answers");
        assert_eq!(through_fast.len(), through_rmcp.len());
        for (fast, rmcp) in through_fast.iter().zip(&through_rmcp) {
            assert_eq!(
                fast, rmcp,
                "protocol {version}: the fast path differs from rmcp's"
            );
        }
    }
}

/// The request ids a served binary's debug log says `path` answered, in order.
fn answered_by(lines: &[String], path: &str) -> Vec<String> {
    lines
        .iter()
        .filter(|line| line.contains(path))
        .filter_map(|line| line.split(" id=").nth(1)?.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn the_served_binary_answers_a_sessions_hot_requests_in_place() {
    let project = project_with_a_slow_tool();
    let mut command = project.command();
    command.env("CAREEM_MCP_LOG", "careem_mcp=debug");
    let (_server, url, mut stderr) = serve_command(command, &[]);
    tokio::time::timeout(Duration::from_secs(60), converse(&url, "2025-06-18"))
        .await
        .expect("the server answers");
    // Not 2 (before `initialized`), 9 and 13 (other methods), 12 (no tool name: rmcp's custom
    // request) or 19 (after DELETE). 8 and 14 (a tool's first call, which parses its file), 10
    // (an unknown tool) and 17 (a delayed call) go on to the session's fast path; the others
    // are answered before rmcp. Each line is written before its answer, so all are on their way
    // once the conversation has ended.
    let direct = ["3", "4", "5", "6", "7", "11", "15", "16", "18"];
    let fast = ["8", "10", "fourteen", "17"];
    let seen = wait_until(Duration::from_secs(30), || {
        let lines = stderr.lines();
        let seen = (
            answered_by(&lines, "answered in place, before rmcp"),
            answered_by(&lines, "answered on the fast path"),
        );
        (seen.0.len() + seen.1.len() >= direct.len() + fast.len()).then_some(seen)
    });
    assert_eq!(
        seen,
        Some((
            direct.map(str::to_string).to_vec(),
            fast.map(str::to_string).to_vec()
        )),
        "{:#?}",
        stderr.lines()
    );
}
