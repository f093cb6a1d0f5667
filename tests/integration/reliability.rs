//! Reliability and security (issue 7, `docs/RELIABILITY.md`): bad input over all three
//! transports, files broken under a running server, property tests of the parser, renderer
//! and matcher, the security rules, a bounded soak over all three transports, and graceful
//! shutdown of the real binary. Every row of the catalogue names a test here or one it cites.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use careem_mcp::engine::{
    Engine, EngineConfig, Outcome, Scenario, Template, matches, parse_tool_file,
};
use careem_mcp::server::{RunningServer, ServerOptions, start_http};
use futures::Stream;
use proptest::prelude::*;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ServiceExt, model::ErrorCode};
use serde_json::{Map, Value, json};

use crate::support::{BIN, Project, SseReader, engine};

pub(crate) type Client = RunningService<RoleClient, ()>;

const ACCEPT: &str = "application/json, text/event-stream";
const INTERNAL_ERROR: &str = "internal server error";
const PARSE_ERROR: &str =
    r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
const INVALID_REQUEST: &str =
    r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#;
const BAD_CALL_PARAMS: &str = "invalid params for tools/call: expected an object with a string `name` and an optional object `arguments`";

// ---------------------------------------------------------------------------------------------
// Scaffolding: an in-process server over a copy of the repo, raw HTTP, a hand-made SSE client,
// the real binary.

struct Fixture {
    project: Project,
    server: RunningServer,
}

impl Fixture {
    async fn start() -> Self {
        let project = Project::copy_of_repo();
        let server = start_http(
            Arc::new(engine(&project)),
            ServerOptions {
                port: 0,
                ..ServerOptions::default()
            },
        )
        .await
        .expect("the server starts");
        Self { project, server }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.server.addr)
    }

    async fn client(&self) -> Client {
        ().serve(StreamableHttpClientTransport::from_uri(self.server.url()))
            .await
            .expect("the client initializes")
    }

    /// A fresh session makes a normal call and gets the normal answer: whatever came before
    /// neither ended the process nor broke the server for anyone else.
    async fn still_answers(&self) {
        let client = self.client().await;
        assert_marina(&client).await;
        client.cancel().await.expect("the client closes");
    }
}

pub(crate) fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("an HTTP client")
}

pub(crate) fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

pub(crate) fn marina() -> Value {
    json!({"latitude": 25.0866, "longitude": 55.1474})
}

pub(crate) async fn call(client: &Client, tool: &str, args: Value) -> Result<Value, ServiceError> {
    let params = CallToolRequestParams::new(tool.to_string()).with_arguments(object(args));
    let result: CallToolResult = client.call_tool(params).await?;
    Ok(serde_json::to_value(result).expect("a result serialises"))
}

pub(crate) async fn assert_marina(client: &Client) {
    let result = call(client, "reverse_geocode", marina())
        .await
        .expect("a normal call answers");
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(
        result["structuredContent"]["location"]["locationUuid"],
        "LOC-50001"
    );
}

/// The JSON-RPC message in a response body: plain JSON, or in an SSE `data:` line.
fn jsonrpc(body: &str) -> Option<Value> {
    if let Ok(value) = serde_json::from_str::<Value>(body) {
        return Some(value);
    }
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|value| value.get("jsonrpc").is_some())
}

/// A Streamable HTTP session driven by hand, for exact statuses and bodies.
struct Raw {
    url: String,
    session: String,
    version: String,
}

impl Raw {
    async fn initialize(url: String) -> Self {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
        let response = http()
            .post(&url)
            .header("accept", ACCEPT)
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("initialize answers");
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .expect("a session id")
            .to_string();
        let answer = jsonrpc(&response.text().await.expect("a body")).expect("JSON-RPC");
        let raw = Self {
            url,
            session,
            version: answer["result"]["protocolVersion"]
                .as_str()
                .expect("a negotiated version")
                .to_string(),
        };
        let (status, _) = raw
            .post(
                Some(&raw.session),
                "application/json",
                ACCEPT,
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
                    .to_string()
                    .into_bytes(),
            )
            .await;
        assert_eq!(status, 202);
        raw
    }

    async fn post(
        &self,
        session: Option<&str>,
        content_type: &str,
        accept: &str,
        body: Vec<u8>,
    ) -> (u16, String) {
        let mut request = http()
            .post(&self.url)
            .header("accept", accept)
            .header("content-type", content_type)
            .body(body);
        if let Some(session) = session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", &self.version);
        }
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        (status, response.text().await.unwrap_or_default())
    }

    /// One JSON-RPC request on this session; the answer message.
    async fn request(&self, method: &str, params: Value) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
        let (status, text) = self
            .post(
                Some(&self.session),
                "application/json",
                ACCEPT,
                body.to_string().into_bytes(),
            )
            .await;
        assert_eq!(status, 200, "{text}");
        jsonrpc(&text).expect("a JSON-RPC answer")
    }
}

/// `{"a": {"a": … 1 … }}`, `depth` objects deep.
fn nested(depth: usize) -> String {
    format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth))
}

/// A tools/call request as text, with the arguments spliced in as given.
fn call_text(tool: &str, arguments: &str) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )
    .into_bytes()
}

/// A legacy SSE session: the stream, its POST endpoint and the next request id.
struct SseClient<S> {
    reader: SseReader<S>,
    endpoint: String,
    next_id: u64,
}

async fn open_sse(
    base: &str,
) -> SseClient<impl Stream<Item = reqwest::Result<impl AsRef<[u8]>>> + Unpin> {
    let response = http()
        .get(format!("{base}/sse"))
        .header("accept", "text/event-stream")
        .send()
        .await
        .expect("/sse answers");
    assert_eq!(response.status(), 200);
    let mut reader = SseReader {
        body: Box::pin(response.bytes_stream()),
        buffer: String::new(),
    };
    let (event, endpoint) = reader.next_event().await;
    assert_eq!(event, "endpoint");
    let mut client = SseClient {
        reader,
        endpoint: format!("{base}{endpoint}"),
        next_id: 1,
    };
    let init = client
        .request(
            "initialize",
            json!({"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    assert!(init["result"]["serverInfo"].is_object(), "{init}");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(client.post(initialized.to_string()).await, 202);
    client
}

impl<S, B> SseClient<S>
where
    S: Stream<Item = reqwest::Result<B>> + Unpin,
    B: AsRef<[u8]>,
{
    async fn post(&self, body: impl Into<reqwest::Body>) -> u16 {
        http()
            .post(&self.endpoint)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("/message answers")
            .status()
            .as_u16()
    }

    /// Sends a request and reads the stream until its answer.
    async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        assert_eq!(self.post(body.to_string()).await, 202);
        self.answer(id).await
    }

    async fn answer(&mut self, id: u64) -> Value {
        loop {
            let (event, data) = self.reader.next_event().await;
            if event != "message" {
                continue;
            }
            let message: Value = serde_json::from_str(&data).expect("a JSON message");
            if message["id"] == id {
                return message;
            }
        }
    }
}

/// The real binary, killed when dropped.
pub(crate) struct Process(pub(crate) Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Process {
    pub(crate) fn pid(&self) -> String {
        self.0.id().to_string()
    }

    /// The exit status, if it exits within `limit`.
    pub(crate) fn wait_for_exit(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.0.try_wait().expect("waits") {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The stderr of a process: the lines read so far, and the rest as they come.
pub(crate) struct Stderr {
    seen: Vec<String>,
    rest: std::sync::mpsc::Receiver<String>,
}

impl Stderr {
    /// Every line so far.
    pub(crate) fn lines(&mut self) -> Vec<String> {
        self.seen.extend(self.rest.try_iter());
        self.seen.clone()
    }
}

/// Starts `careem-mcp serve` with `args` in `project` and reads its stderr until the line that
/// names the URL.
pub(crate) fn serve_binary(project: &Project, args: &[&str]) -> (Process, String, Stderr) {
    let mut child = Command::new(BIN)
        .current_dir(project.path())
        .env("NO_COLOR", "1")
        .env_remove("CAREEM_MCP_LOG")
        .args(["serve", "--port", "0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stderr = child.stderr.take().expect("stderr");
    // Drained even when nobody listens any more: the server logs a line per call.
    let lines = crate::support::lines_of(stderr);
    let process = Process(child);
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        let Ok(line) = lines.recv_timeout(Duration::from_millis(100)) else {
            continue;
        };
        if let Some(rest) = line.strip_prefix("careem-mcp: serving ") {
            let url = rest
                .split_whitespace()
                .find(|word| word.starts_with("http://") && word.ends_with("/mcp"))
                .expect("the line names the /mcp URL")
                .to_string();
            seen.push(line);
            return (process, url, Stderr { seen, rest: lines });
        }
        seen.push(line);
    }
    panic!("no 'serving' line on stderr: {seen:?}");
}

pub(crate) fn kill_term(process: &Process) {
    let status = Command::new("kill")
        .args(["-TERM", &process.pid()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

// ---------------------------------------------------------------------------------------------
// 1. Bad input over Streamable HTTP: exact answers, and nobody else notices.

/// What the server must answer.
#[derive(Debug)]
enum Want {
    /// This HTTP status and exactly this body.
    Http(u16, &'static str),
    /// HTTP 200 carrying a JSON-RPC error with this code and exactly this message.
    Rpc(i64, &'static str),
    /// A tool result with `isError: true` whose text starts with this.
    ToolError(&'static str),
    /// A tool result with `isError: false`.
    ToolResult,
}

/// (what, session, Content-Type, Accept, body, answer)
type HttpRow<'a> = (&'a str, Option<&'a str>, &'a str, &'a str, Vec<u8>, Want);

#[tokio::test]
async fn bad_requests_on_streamable_http_get_exact_answers() {
    let fixture = Fixture::start().await;
    let raw = Raw::initialize(fixture.url("/mcp")).await;
    let other = Raw::initialize(fixture.url("/mcp")).await;
    let session = Some(raw.session.as_str());
    let json = "application/json";
    let message = |value: Value| value.to_string().into_bytes();
    let long = "x".repeat(1024 * 1024);
    let long_search = message(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "food_merchant_search", "arguments": {"query": long, "latitude": 25.0866, "longitude": 55.1474}}}));

    let cases: Vec<HttpRow> = vec![
        (
            "malformed JSON",
            session,
            json,
            ACCEPT,
            b"{not json".to_vec(),
            Want::Http(400, PARSE_ERROR),
        ),
        (
            "empty body",
            session,
            json,
            ACCEPT,
            Vec::new(),
            Want::Http(400, PARSE_ERROR),
        ),
        (
            "invalid UTF-8",
            session,
            json,
            ACCEPT,
            b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}"
                .to_vec(),
            Want::Http(400, PARSE_ERROR),
        ),
        (
            "arguments nested 10,000 levels",
            session,
            json,
            ACCEPT,
            call_text("reverse_geocode", &nested(10_000)),
            Want::Http(400, PARSE_ERROR),
        ),
        (
            "batch array",
            session,
            json,
            ACCEPT,
            message(
                json!([{"jsonrpc": "2.0", "id": 2, "method": "ping"}, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}]),
            ),
            Want::Http(400, INVALID_REQUEST),
        ),
        (
            "empty batch",
            session,
            json,
            ACCEPT,
            b"[]".to_vec(),
            Want::Http(400, INVALID_REQUEST),
        ),
        (
            "no jsonrpc member",
            session,
            json,
            ACCEPT,
            message(json!({"id": 2, "method": "ping"})),
            Want::Http(400, INVALID_REQUEST),
        ),
        (
            "params a string",
            session,
            json,
            ACCEPT,
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": "x"})),
            Want::Http(400, INVALID_REQUEST),
        ),
        (
            "unknown method",
            session,
            json,
            ACCEPT,
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/delete", "params": {}})),
            Want::Rpc(-32601, "tools/delete"),
        ),
        (
            "tools/call without params",
            session,
            json,
            ACCEPT,
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call"})),
            Want::Rpc(-32602, BAD_CALL_PARAMS),
        ),
        (
            "tools/call without name",
            session,
            json,
            ACCEPT,
            message(
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"arguments": {}}}),
            ),
            Want::Rpc(-32602, BAD_CALL_PARAMS),
        ),
        (
            "tools/call name a number",
            session,
            json,
            ACCEPT,
            message(
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": 5}}),
            ),
            Want::Rpc(-32602, BAD_CALL_PARAMS),
        ),
        (
            "arguments an array",
            session,
            json,
            ACCEPT,
            call_text("reverse_geocode", "[1]"),
            Want::Rpc(-32602, BAD_CALL_PARAMS),
        ),
        (
            "arguments a string",
            session,
            json,
            ACCEPT,
            call_text("reverse_geocode", r#""x""#),
            Want::Rpc(-32602, BAD_CALL_PARAMS),
        ),
        (
            "arguments a number",
            session,
            json,
            ACCEPT,
            call_text("reverse_geocode", "5"),
            Want::Rpc(-32602, BAD_CALL_PARAMS),
        ),
        (
            "arguments null (taken as {})",
            session,
            json,
            ACCEPT,
            call_text("reverse_geocode", "null"),
            Want::ToolError(
                r#"validating "arguments": validating root: required: missing properties: ["latitude" "longitude"]"#,
            ),
        ),
        (
            "resources/read without uri",
            session,
            json,
            ACCEPT,
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {}})),
            Want::Rpc(-32602, "invalid params for resources/read"),
        ),
        (
            "unknown tool",
            session,
            json,
            ACCEPT,
            call_text("does_not_exist", "{}"),
            Want::Rpc(-32602, r#"unknown tool "does_not_exist""#),
        ),
        (
            "1 MiB string argument",
            session,
            json,
            ACCEPT,
            long_search,
            Want::ToolResult,
        ),
        (
            "argument nested 120 levels",
            session,
            json,
            ACCEPT,
            call_text(
                "search_locations",
                &format!(r#"{{"query":{}}}"#, nested(120)),
            ),
            Want::ToolError(
                r#"validating "arguments": validating root: validating /properties/query: type: "#,
            ),
        ),
        (
            "Content-Type text/plain",
            session,
            "text/plain",
            ACCEPT,
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"})),
            Want::Http(
                415,
                "Unsupported Media Type: Content-Type must be application/json",
            ),
        ),
        (
            "no Content-Type parameters but form data",
            session,
            "application/x-www-form-urlencoded",
            ACCEPT,
            b"a=1".to_vec(),
            Want::Http(
                415,
                "Unsupported Media Type: Content-Type must be application/json",
            ),
        ),
        (
            "Accept without text/event-stream",
            session,
            json,
            "application/json",
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"})),
            Want::Http(
                406,
                "Not Acceptable: Client must accept both application/json and text/event-stream",
            ),
        ),
        (
            "Accept */* only",
            session,
            json,
            "*/*",
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"})),
            Want::Http(
                406,
                "Not Acceptable: Client must accept both application/json and text/event-stream",
            ),
        ),
        (
            "unknown session id",
            Some("00000000-0000-4000-8000-000000000000"),
            json,
            ACCEPT,
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"})),
            Want::Http(404, "Not Found: Session not found"),
        ),
        (
            "no session id on a request",
            None,
            json,
            ACCEPT,
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})),
            Want::Http(400, "Bad Request: Session ID is required"),
        ),
    ];

    for (what, session, content_type, accept, body, want) in cases {
        let (status, text) = raw.post(session, content_type, accept, body).await;
        match want {
            Want::Http(code, exact) => {
                assert_eq!((status, text.as_str()), (code, exact), "{what}");
            }
            Want::Rpc(code, exact) => {
                assert_eq!(status, 200, "{what}: {text}");
                let answer = jsonrpc(&text).expect("a JSON-RPC answer");
                assert_eq!(answer["error"]["code"], code, "{what}: {answer}");
                assert_eq!(answer["error"]["message"], exact, "{what}: {answer}");
            }
            Want::ToolError(prefix) => {
                assert_eq!(status, 200, "{what}: {text}");
                let answer = jsonrpc(&text).expect("a JSON-RPC answer");
                assert_eq!(answer["result"]["isError"], true, "{what}");
                let text = answer["result"]["content"][0]["text"]
                    .as_str()
                    .unwrap_or_default();
                assert!(text.starts_with(prefix), "{what}: {text}");
            }
            Want::ToolResult => {
                assert_eq!(status, 200, "{what}: {text}");
                let answer = jsonrpc(&text).expect("a JSON-RPC answer");
                assert_eq!(answer["result"]["isError"], false, "{what}");
            }
        }
        // The same session and another one carry on after every row…
        for (who, session) in [("the same session", &raw), ("another session", &other)] {
            let answer = session
                .request(
                    "tools/call",
                    json!({"name": "reverse_geocode", "arguments": marina()}),
                )
                .await;
            assert_eq!(
                answer["result"]["structuredContent"]["location"]["locationUuid"], "LOC-50001",
                "{what}: {who} still answers"
            );
        }
    }
    // …and so does a new one.
    fixture.still_answers().await;
}

#[tokio::test]
async fn oversized_streamed_bodies_and_wrong_accept_on_get_are_refused() {
    let fixture = Fixture::start().await;
    let raw = Raw::initialize(fixture.url("/mcp")).await;
    // A chunked body (no declared length) over 4 MiB is cut off while it streams; declared
    // lengths are refused up front (server.rs: bodies_over_four_mebibytes_are_refused).
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"ping","params":{{"p":"{}"}}}}"#,
        "a".repeat(4 * 1024 * 1024)
    );
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = big
        .into_bytes()
        .chunks(64 * 1024)
        .map(|chunk| Ok(chunk.to_vec()))
        .collect();
    let response = http()
        .post(fixture.url("/mcp"))
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-session-id", &raw.session)
        .header("mcp-protocol-version", &raw.version)
        .body(reqwest::Body::wrap_stream(futures::stream::iter(chunks)))
        .send()
        .await;
    // The server may close the connection before the client has sent everything.
    if let Ok(response) = response {
        assert_eq!(response.status(), 413);
        assert_eq!(
            response.text().await.unwrap_or_default(),
            "Payload Too Large"
        );
    }
    // Other methods and routes: (method, path, Accept, session, status, exact body)
    let session = raw.session.as_str();
    let unknown = "00000000-0000-4000-8000-000000000000";
    let cases = [
        (
            reqwest::Method::GET,
            "/mcp",
            "application/json",
            Some(session),
            406,
            "Not Acceptable: Client must accept text/event-stream",
        ),
        (
            reqwest::Method::GET,
            "/mcp",
            "text/event-stream",
            Some(unknown),
            404,
            "Not Found: Session not found",
        ),
        // DELETE is idempotent: an unknown or already ended session is gone either way.
        (
            reqwest::Method::DELETE,
            "/mcp",
            "*/*",
            Some(unknown),
            204,
            "",
        ),
        (
            reqwest::Method::PUT,
            "/mcp",
            "*/*",
            None,
            405,
            "Method Not Allowed",
        ),
        (reqwest::Method::GET, "/message", "*/*", None, 405, ""),
        (reqwest::Method::GET, "/nowhere", "*/*", None, 404, ""),
    ];
    for (method, path, accept, session, status, body) in cases {
        let mut request = http()
            .request(method.clone(), fixture.url(path))
            .header("accept", accept);
        if let Some(session) = session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", &raw.version);
        }
        let response = request.send().await.expect("an answer");
        let got = (
            response.status().as_u16(),
            response.text().await.unwrap_or_default(),
        );
        assert_eq!((got.0, got.1.as_str()), (status, body), "{method} {path}");
    }
    fixture.still_answers().await;
}

#[tokio::test]
async fn arguments_of_every_wrong_type_are_validation_errors() {
    let fixture = Fixture::start().await;
    let client = fixture.client().await;
    let base = json!({"query": "sushi", "latitude": 25.0866, "longitude": 55.1474});
    // (key, wrong value): food_merchant_search takes a string, two numbers and an integer 1..=50.
    let cases = [
        ("query", json!(5)),
        ("query", json!(true)),
        ("query", json!(null)),
        ("query", json!(["sushi"])),
        ("query", json!({"q": "sushi"})),
        ("latitude", json!("25.0866")),
        ("latitude", json!(false)),
        ("latitude", json!(null)),
        ("latitude", json!([25.0866])),
        ("latitude", json!({"value": 25.0866})),
        ("limit", json!(1.5)),
        ("limit", json!("5")),
        ("limit", json!(0)),
        ("limit", json!(51)),
        ("limit", json!(1e300)),
        ("unexpected", json!(1)),
    ];
    for (key, value) in cases {
        let mut args = base.clone();
        args[key] = value.clone();
        let result = call(&client, "food_merchant_search", args)
            .await
            .expect("a result, not a protocol error");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        assert_eq!(result["isError"], true, "{key} = {value}");
        assert!(
            text.starts_with(r#"validating "arguments": "#),
            "{key} = {value}: {text}"
        );
        assert!(result.get("structuredContent").is_none(), "{key} = {value}");
    }
    // A missing required key, and none at all.
    for args in [json!({"query": "sushi", "latitude": 25.0866}), json!({})] {
        let result = call(&client, "food_merchant_search", args)
            .await
            .expect("a result");
        assert_eq!(result["isError"], true);
    }
    assert_marina(&client).await;
    client.cancel().await.expect("the client closes");
    fixture.still_answers().await;
}

// ---------------------------------------------------------------------------------------------
// Bad input over legacy SSE and stdio.

#[test]
fn deeply_nested_arguments_render_or_fail_cleanly() {
    // A free-form property (no `type`) lets any value through validation into a template.
    let project = Project::empty();
    project.write(
        "tools/t.md",
        &format!(
            "---\ntool: t\n---\n\n## Definition\n\n```json tool\n{}\n```\n\n## Scenario: echo\n\n```json response\n{{\"v\": {{\"w\": {{{{args.q}}}}}}}}\n```\n",
            json!({"name": "t", "inputSchema": {"type": "object", "properties": {"q": {}}}})
        ),
    );
    let engine = engine(&project);
    let deep = |depth: usize| -> Value { serde_json::from_str(&nested(depth)).expect("JSON") };
    // Up to 100 levels (deeper than any request can carry them to a tool and back) the value
    // comes back as sent; past serde_json's limit of 128 levels in the rendered response the
    // call is an internal error, as any render failure is, and the engine carries on.
    // (depth, answered as sent)
    for (depth, answered) in [(1, true), (60, true), (100, true), (126, false)] {
        let args = json!({"q": deep(depth)}).as_object().cloned();
        let output = engine.call("t", args).expect("a known tool");
        if answered {
            assert!(!output.is_error, "{depth}: {}", output.text);
            assert_eq!(
                output.value.expect("a value")["v"]["w"],
                deep(depth),
                "{depth}"
            );
        } else {
            assert_eq!(
                (output.is_error, output.text.as_str()),
                (true, INTERNAL_ERROR),
                "{depth}"
            );
        }
    }
    let output = engine
        .call("t", json!({"q": 1}).as_object().cloned())
        .expect("known");
    assert_eq!(output.text, r#"{"v":{"w":1}}"#);
}

#[tokio::test]
async fn bad_messages_on_legacy_sse_are_refused_and_the_session_carries_on() {
    let fixture = Fixture::start().await;
    let base = fixture.url("");
    let mut sse = open_sse(&base).await;
    let ping = json!({"jsonrpc": "2.0", "id": 90, "method": "ping"}).to_string();
    let invalid_message = "Bad Request: invalid JSON-RPC message";

    // Refused before they reach the session: (what, URL, body, status, exact body)
    let unknown = format!("{base}/message?sessionId=00000000-0000-4000-8000-000000000000");
    let endpoint = sse.endpoint.clone();
    let refused: [(&str, &str, Vec<u8>, u16, &str); 9] = [
        (
            "no sessionId",
            &format!("{base}/message"),
            ping.clone().into_bytes(),
            400,
            "Bad Request: missing sessionId",
        ),
        (
            "unknown sessionId",
            &unknown,
            ping.clone().into_bytes(),
            404,
            "Not Found: unknown session",
        ),
        (
            "malformed JSON",
            &endpoint,
            b"{not json".to_vec(),
            400,
            invalid_message,
        ),
        ("empty body", &endpoint, Vec::new(), 400, invalid_message),
        (
            "invalid UTF-8",
            &endpoint,
            b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"x\":\"\xff\"}".to_vec(),
            400,
            invalid_message,
        ),
        (
            "batch array",
            &endpoint,
            format!("[{ping}]").into_bytes(),
            400,
            invalid_message,
        ),
        (
            "arguments nested 10,000 levels",
            &endpoint,
            call_text("reverse_geocode", &nested(10_000)),
            400,
            invalid_message,
        ),
        (
            "params a string",
            &endpoint,
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": "x"})
                .to_string()
                .into_bytes(),
            400,
            invalid_message,
        ),
        (
            "no jsonrpc member",
            &endpoint,
            json!({"id": 2, "method": "ping"}).to_string().into_bytes(),
            400,
            invalid_message,
        ),
    ];
    for (what, url, body, status, exact) in refused {
        let response = http()
            .post(url)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("an answer");
        let got = (
            response.status().as_u16(),
            response.text().await.unwrap_or_default(),
        );
        assert_eq!((got.0, got.1.as_str()), (status, exact), "{what}");
    }

    // Accepted, then answered with a JSON-RPC error on the stream: (method, params, code, message)
    let answered = [
        ("tools/delete", json!({}), -32601, "tools/delete"),
        (
            "tools/call",
            json!({"arguments": {}}),
            -32602,
            BAD_CALL_PARAMS,
        ),
        (
            "tools/call",
            json!({"name": "../tools/location/reverse_geocode"}),
            -32602,
            r#"unknown tool "../tools/location/reverse_geocode""#,
        ),
    ];
    for (method, params, code, exact) in answered {
        let answer = sse.request(method, params.clone()).await;
        assert_eq!(answer["error"]["code"], code, "{method} {params}: {answer}");
        assert_eq!(answer["error"]["message"], exact, "{method} {params}");
    }
    let answer = sse
        .request(
            "tools/call",
            json!({"name": "reverse_geocode", "arguments": marina()}),
        )
        .await;
    assert_eq!(
        answer["result"]["structuredContent"]["location"]["locationUuid"], "LOC-50001",
        "the SSE session still answers"
    );
    fixture.still_answers().await;
}

/// (line, the id and error code of its answer; `None` when it is skipped)
type StdioRow<'a> = (&'a [u8], Option<(Value, i64)>);

#[test]
fn bad_lines_on_stdio_are_skipped_or_refused_and_the_session_carries_on() {
    let project = Project::copy_of_repo();
    let mut child = Command::new(BIN)
        .current_dir(project.path())
        .env("NO_COLOR", "1")
        .args(["serve", "--stdio", "--no-journal"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut stdin = child.stdin.take().expect("stdin");
    let process = Process(child);
    let (lines_tx, lines) = std::sync::mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let message = serde_json::from_str(&line).expect("stdout carries JSON-RPC only");
            if lines_tx.send(message).is_err() {
                break;
            }
        }
    });
    let mut send = |bytes: &[u8]| {
        stdin.write_all(bytes).expect("writes");
        stdin.write_all(b"\n").expect("writes");
        stdin.flush().expect("flushes");
    };
    let next = || {
        lines
            .recv_timeout(Duration::from_secs(10))
            .expect("an answer in time")
    };
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
    .to_string()
    .as_bytes());
    assert_eq!(next()["id"], 1);
    send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

    // (line, the answer it gets: None = skipped, as every MCP SDK skips unparsable input)
    let deep = call_text("reverse_geocode", &nested(10_000));
    let cases: [StdioRow; 8] = [
        (b"{not json", None),
        (b"\xff\xfe not UTF-8", None),
        (&deep, None),
        (
            br#"[{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
            Some((Value::Null, -32600)),
        ),
        (br#"{"foo":1}"#, Some((Value::Null, -32600))),
        (
            br#"{"jsonrpc":"2.0","id":3,"method":"tools/delete","params":{}}"#,
            Some((json!(3), -32601)),
        ),
        (
            br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}"#,
            Some((json!(4), -32602)),
        ),
        (
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"/etc/passwd"}}"#,
            Some((json!(5), -32602)),
        ),
    ];
    for (index, (line, answer)) in cases.into_iter().enumerate() {
        send(line);
        // A ping after every line. Requests are answered concurrently, so collect until both
        // the ping's answer and the line's (if any) are in: anything else is an answer that
        // should not exist.
        let ping_id = json!(100 + index);
        send(
            json!({"jsonrpc": "2.0", "id": ping_id, "method": "ping"})
                .to_string()
                .as_bytes(),
        );
        let shown = String::from_utf8_lossy(line);
        let mut expected: Vec<(Value, Value)> = vec![(ping_id, Value::Null)];
        if let Some((id, code)) = answer {
            expected.push((id, json!(code)));
        }
        while !expected.is_empty() {
            let message = next();
            // A missing `id` member is not `"id": null`: JSON-RPC wants the member.
            let id = message
                .get("id")
                .cloned()
                .unwrap_or(json!("<no id member>"));
            let got = (id, message["error"]["code"].clone());
            let Some(at) = expected.iter().position(|want| *want == got) else {
                panic!("{shown}: unexpected {message}, waiting for {expected:?}");
            };
            expected.remove(at);
        }
    }
    send(
        json!({"jsonrpc": "2.0", "id": 50, "method": "tools/call",
        "params": {"name": "reverse_geocode", "arguments": marina()}})
        .to_string()
        .as_bytes(),
    );
    let answer = next();
    assert_eq!(
        answer["result"]["structuredContent"]["location"]["locationUuid"],
        "LOC-50001"
    );
    assert_eq!(lines.try_iter().count(), 0, "no answer to a skipped line");
    drop(stdin);
    let mut process = process;
    let status = process.wait_for_exit(Duration::from_secs(10));
    assert!(
        status.is_some_and(|s| s.success()),
        "exits 0 when stdin closes: {status:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Files that change under a running server.

fn replace_with_directory(path: &Path) {
    std::fs::remove_file(path).expect("remove");
    std::fs::create_dir(path).expect("a directory in its place");
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

#[tokio::test]
async fn tool_files_broken_mid_run_answer_internal_server_error_and_mend() {
    let fixture = Fixture::start().await;
    let (broken_client, other_client) = (fixture.client().await, fixture.client().await);
    let relative = "tools/location/reverse_geocode.md";
    let path = fixture.project.path().join(relative);
    let original = fixture.project.read(relative);
    let broken_json =
        original.replacen("\"locationUuid\": \"LOC-50001\",", "\"locationUuid\": ,", 1);
    assert_ne!(broken_json, original);

    type Break = Box<dyn Fn(&Path)>;
    let write = |text: String| -> Break {
        Box::new(move |path: &Path| std::fs::write(path, &text).expect("write"))
    };
    // (what, how the file breaks)
    let mut cases: Vec<(&str, Break)> = vec![
        ("invalid JSON in a response", write(broken_json)),
        ("empty", write(String::new())),
        (
            "frontmatter only",
            write("---\ntool: reverse_geocode\n---\n".to_string()),
        ),
        (
            "names another tool",
            write(original.replacen("tool: reverse_geocode", "tool: other", 1)),
        ),
        (
            "not UTF-8",
            write(String::from_utf8_lossy(b"\xff\xfe\x00garbage").into_owned()),
        ),
        (
            "deleted",
            Box::new(|path: &Path| std::fs::remove_file(path).expect("remove")),
        ),
        ("a directory in its place", Box::new(replace_with_directory)),
    ];
    if !running_as_root() {
        // As root (CI, this machine) permissions do not stop a read: the directory row covers
        // the same path (the read fails).
        use std::os::unix::fs::PermissionsExt;
        cases.push((
            "unreadable (chmod 000)",
            Box::new(|path: &Path| {
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o000))
                    .expect("chmod")
            }),
        ));
    }
    for (what, break_it) in cases {
        break_it(&path);
        let result = call(&broken_client, "reverse_geocode", marina())
            .await
            .expect("a result, not a protocol error");
        assert_eq!(
            (&result["isError"], &result["content"]),
            (
                &json!(true),
                &json!([{"type": "text", "text": INTERNAL_ERROR}])
            ),
            "{what}"
        );
        assert!(result.get("structuredContent").is_none(), "{what}");
        // Other tools, on another session, are untouched.
        let menu = call(
            &other_client,
            "food_get_restaurant_menu",
            json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474}),
        )
        .await
        .expect("a result");
        assert_eq!(
            menu["structuredContent"]["restaurant"]["id"], 30104,
            "{what}"
        );
        // Mended, the next call is normal again.
        if path.is_dir() {
            std::fs::remove_dir(&path).expect("remove the directory");
        }
        if path.exists() {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        }
        std::fs::write(&path, &original).expect("restore");
        assert_marina(&broken_client).await;
    }
    broken_client.cancel().await.expect("closes");
    other_client.cancel().await.expect("closes");
    fixture.still_answers().await;
}

#[tokio::test]
async fn broken_overrides_files_mean_no_overrides() {
    let fixture = Fixture::start().await;
    let client = fixture.client().await;
    let overrides = fixture.project.path().join(".run/overrides.json");
    std::fs::create_dir_all(overrides.parent().expect("a parent")).expect("the folder");
    let menu = json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474});
    let normal = "Morning Syrniki Café";
    let forced = "upstream-unavailable";
    // (what, file content or None for a directory, forced?)
    let cases: [(&str, Option<&str>, bool); 13] = [
        (
            "partial (cut off mid-write)",
            Some(r#"{"food_get_restaurant_menu": "upstream-unav"#),
            false,
        ),
        (
            "an array",
            Some(r#"["food_get_restaurant_menu", "upstream-unavailable"]"#),
            false,
        ),
        ("a string", Some(r#""upstream-unavailable""#), false),
        ("a number", Some("42"), false),
        ("null", Some("null"), false),
        ("empty", Some(""), false),
        (
            "a value that is not a string",
            Some(r#"{"food_get_restaurant_menu": 1}"#),
            false,
        ),
        (
            "a nested object",
            Some(r#"{"food_get_restaurant_menu": {"name": "upstream-unavailable"}}"#),
            false,
        ),
        (
            "only unknown tools",
            Some(r#"{"no_such_tool": "upstream-unavailable", "../etc": "x"}"#),
            false,
        ),
        (
            "an unknown scenario",
            Some(r#"{"food_get_restaurant_menu": "no-such-scenario"}"#),
            false,
        ),
        ("a directory in its place", None, false),
        (
            "unknown tools beside a good entry",
            Some(r#"{"no_such_tool": "x", "food_get_restaurant_menu": "UPSTREAM-UNAVAILABLE"}"#),
            true,
        ),
        (
            "valid again",
            Some(r#"{"food_get_restaurant_menu": "upstream-unavailable"}"#),
            true,
        ),
    ];
    for (what, content, is_forced) in cases {
        if overrides.is_dir() {
            std::fs::remove_dir(&overrides).expect("remove the directory");
        }
        match content {
            Some(text) => std::fs::write(&overrides, text).expect("write"),
            None => {
                let _ = std::fs::remove_file(&overrides);
                std::fs::create_dir(&overrides).expect("a directory");
            }
        }
        let result = call(&client, "food_get_restaurant_menu", menu.clone())
            .await
            .expect("a result");
        assert_eq!(result["isError"], false, "{what}");
        if is_forced {
            assert_eq!(
                result["structuredContent"]["error"],
                "failed to get restaurant menu: unexpected response status 503",
                "{what}: {forced}"
            );
        } else {
            assert_eq!(
                result["structuredContent"]["restaurant"]["name"]["value"], normal,
                "{what}"
            );
        }
    }
    client.cancel().await.expect("closes");
    fixture.still_answers().await;
}

// ---------------------------------------------------------------------------------------------
// 3. Property tests (cargo fuzz needs nightly; see fuzz/README.md). `fuzz/run.sh` runs the
//    `prop_` tests with a large PROPTEST_CASES. Failing inputs stay below as fixed cases.

/// PROPTEST_CASES applies; failures are kept as fixed regression cases in this file rather
/// than in a `proptest-regressions/` folder.
fn proptest_config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// An engine with no tools, for rendering templates directly.
fn bare_engine() -> Engine {
    Engine::from_tools(
        EngineConfig {
            tools_dir: "tools".into(),
            overrides: ".run/overrides.json".into(),
            clock: None,
            seed: Some(1),
        },
        std::collections::BTreeMap::new(),
    )
}

fn render(engine: &Engine, template: &Template, args: &Value) -> Result<Value, String> {
    let scenario = Scenario {
        name: "s".to_string(),
        line: 1,
        rule: None,
        outcome: Outcome::Response,
        template: template.clone(),
    };
    engine
        .render(&scenario, args)
        .map_err(|error| error.to_string())
}

/// Characters that break naive escaping or case folding, mixed with anything at all.
fn tricky_string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => any::<char>().prop_map(String::from),
        4 => "[a-zA-Z0-9 ]{1,4}",
        1 => Just("\"".to_string()),
        1 => Just("\\".to_string()),
        1 => Just("\\\"".to_string()),
        1 => Just("\u{0}".to_string()),
        1 => Just("\u{1f}\u{7f}".to_string()),
        1 => Just("\n\r\t".to_string()),
        1 => Just("\u{2028}\u{2029}".to_string()),
        1 => Just("🍣👨‍👩‍👧".to_string()),
        1 => Just("مرحبا".to_string()),
        1 => Just("ΑΣ σς İi ß".to_string()),
        1 => Just("{{args.q}}".to_string()),
        1 => Just("}}{{".to_string()),
        1 => Just("*".to_string()),
        1 => Just("~".to_string()),
        1 => Just("=".to_string()),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|pieces| pieces.concat())
}

/// Any JSON value, nested a few levels, with tricky strings as keys and values.
fn arg_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        tricky_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((tricky_string(), inner), 0..5)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// The arguments of a call: the keys templates below refer to, and maybe some others.
fn arguments() -> impl Strategy<Value = Value> {
    (arg_value(), arg_value(), arg_value(), arg_value()).prop_map(|(q, a, list, other)| {
        json!({"q": q, "a": {"b": a}, "list": [list, {"x": other}], "other": other})
    })
}

fn placeholder_expr() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just("args.q"),
        2 => Just("args.a.b"),
        2 => Just("args.list.0"),
        1 => Just("args.list.1.x"),
        1 => Just("args.q.0.missing"),
        1 => Just("args.nothing"),
        1 => Just("now"),
        1 => Just("now+2h@20m|hhmm"),
        1 => Just("unix-30m"),
        1 => Just("unixms"),
        1 => Just("uuid"),
        1 => Just("rand:0-9"),
    ]
    .prop_flat_map(|expr| {
        prop_oneof![
            Just(format!("{{{{{expr}}}}}")),
            Just(format!("{{{{ {expr} }}}}"))
        ]
    })
}

/// A JSON string literal as a template writes it: text, escapes and placeholders.
fn template_string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => "[a-zA-Z0-9 _.:/-]{1,6}",
        1 => Just(r#"\""#.to_string()),
        1 => Just(r"\\".to_string()),
        1 => Just(r"\n\t".to_string()),
        1 => Just(r"\u00e9\ud83c\udf63".to_string()),
        1 => Just("Café 🍣 – مرحبا".to_string()),
        1 => Just("}}".to_string()),
        3 => placeholder_expr(),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|pieces| format!("\"{}\"", pieces.concat()))
}

/// Templates shaped like the ones in tool files: objects, arrays, literals, strings with
/// placeholders inside, and bare placeholders as values.
fn template_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        1 => Just("null".to_string()),
        1 => Just("true".to_string()),
        1 => "-?[0-9]{1,4}(\\.[0-9]{1,2})?",
        3 => template_string(),
        3 => placeholder_expr(),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5)
                .prop_map(|items| format!("[{}]", items.join(", "))),
            prop::collection::vec((template_string(), inner), 0..5).prop_map(|entries| {
                let entries: Vec<String> = entries
                    .into_iter()
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect();
                format!("{{\n  {}\n}}", entries.join(",\n  "))
            }),
        ]
    })
}

/// Token soup: most of it is not JSON, some of it is, and some of that passes the start-up
/// check in ways a hand-written template would not (quotes and backslashes around
/// placeholders), which is what the string-context scanner has to get right.
fn template_soup() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("{"),
        Just("}"),
        Just("["),
        Just("]"),
        Just(","),
        Just(":"),
        Just("\""),
        Just("\\"),
        Just("\\\""),
        Just("\"k\""),
        Just("1"),
        Just("null"),
        Just(" "),
        Just("{{args.q}}"),
        Just("{{ args.a.b }}"),
        Just("{{now}}"),
    ];
    prop::collection::vec(token, 0..14).prop_map(|tokens| tokens.concat())
}

/// A compact JSON encoding of a value, as inside-a-string placeholders insert it.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Regression cases for the properties below, kept as fixed tests (see the catalogue).
#[test]
fn fixed_cases_from_property_testing() {
    // "~" and "=" rules compare case-insensitively character by character: a final sigma
    // ("ΑΣ" lowercases to "ας" as a word, but "Σ" alone to "σ") still contains "Σ".
    let cases = [
        (json!("~Σ"), json!("ΑΣ"), true),
        (json!("=ΑΣ"), json!("ας"), true),
        (json!("~σ"), json!("ΟΔΟΣ"), true),
        (json!("~i̇"), json!("İ"), true),
    ];
    for (want, got, expected) in cases {
        assert_eq!(matches(&want, Some(&got)), expected, "{want} vs {got}");
    }
}

proptest! {
    #![proptest_config(proptest_config())]

    #[test]
    fn prop_tool_file_parsing_never_panics(text in any::<String>()) {
        let _ = parse_tool_file(Path::new("tools/t.md"), &text);
    }

    #[test]
    fn prop_tool_file_parsing_never_panics_on_near_misses(
        pieces in prop::collection::vec(prop_oneof![
            Just("---\n"), Just("tool: t\n"), Just("tool: \"t\" # c\n"), Just("domain: 'x'\n"),
            Just("## Definition\n"), Just("## Scenario: a\n"), Just("## Scenario: A\n"),
            Just("## Scenario:\n"), Just("```json tool\n"), Just("```json match\n"),
            Just("```json response\n"), Just("```json error\n"), Just("```\n"), Just("```text\n"),
            Just(r#"{"name": "t", "inputSchema": {"type": "object"}}"#), Just("{\"q\": \"~x\"}\n"),
            Just("{\"v\": \"{{args.q}}\"}\n"), Just("{{now+99999999999999999999h@7ms}}"),
            Just("{{rand:18446744073709551615-18446744073709551615}}"), Just("{{"), Just("}}"),
            Just("\n"), Just("é🍣"), Just("\r\n"), Just("\u{0}"),
        ], 0..40),
    ) {
        let text = pieces.concat();
        let parsed = parse_tool_file(Path::new("tools/t.md"), &text);
        // A file fit to serve renders every scenario with empty arguments (the start-up check).
        if parsed.diagnostics.is_empty() {
            let engine = bare_engine();
            for scenario in &parsed.file.scenarios {
                prop_assert!(engine.render(scenario, &json!({})).is_ok(), "{}", scenario.name);
            }
        }
    }

    #[test]
    fn prop_a_template_that_passes_start_up_renders_valid_json_for_any_arguments(
        source in prop_oneof![template_value(), template_soup()],
        args in arguments(),
    ) {
        let engine = bare_engine();
        let Ok(template) = Template::parse(&source) else { return Ok(()) };
        if render(&engine, &template, &json!({})).is_err() {
            return Ok(()); // refused at start-up: never served
        }
        let rendered = render(&engine, &template, &args);
        prop_assert!(rendered.is_ok(), "{source}\nwith {args}\n{rendered:?}");
    }

    #[test]
    fn prop_placeholders_insert_any_value_exactly(value in arg_value()) {
        let engine = bare_engine();
        let template = Template::parse(r#"{"bare": {{args.q}}, "text": "<{{ args.q }}>"}"#)
            .expect("parses");
        let rendered = render(&engine, &template, &json!({"q": value}))
            .map_err(TestCaseError::fail)?;
        prop_assert_eq!(&rendered["bare"], &value);
        prop_assert_eq!(&rendered["text"], &json!(format!("<{}>", text_of(&value))));
    }

    #[test]
    fn prop_matching_never_panics(want in arg_value(), got in arg_value()) {
        let _ = matches(&want, Some(&got));
        prop_assert!(!matches(&want, None), "an absent key never matches");
    }

    #[test]
    fn prop_the_wildcard_matches_any_present_non_null_value(got in arg_value()) {
        prop_assert_eq!(matches(&json!("*"), Some(&got)), !got.is_null());
        prop_assert!(!matches(&json!("*"), None));
        let (any_object, any_array) = (Value::Object(Map::new()), Value::Array(Vec::new()));
        if got.is_object() {
            prop_assert!(matches(&any_object, Some(&got)), "{{}} matches {}", got);
        }
        if got.is_array() {
            prop_assert!(matches(&any_array, Some(&got)), "[] matches {}", got);
        }
    }

    #[test]
    fn prop_text_rules_are_case_insensitive_equality_and_containment(
        text in tricky_string(),
        start in 0usize..8,
        len in 0usize..8,
    ) {
        let (equal, got) = (Value::String(format!("={text}")), Value::String(text.clone()));
        prop_assert!(matches(&equal, Some(&got)), "{} equals {:?}", equal, text);
        let chars: Vec<char> = text.chars().collect();
        let start = start.min(chars.len());
        let end = (start + len).min(chars.len());
        let part: String = chars[start..end].iter().collect();
        let contains = Value::String(format!("~{part}"));
        prop_assert!(matches(&contains, Some(&got)), "{:?} is part of {:?}", part, text);
        prop_assert!(!matches(&equal, Some(&Value::Null)), "null never matches text");
    }

    #[test]
    fn prop_a_value_matches_itself(value in arg_value()) {
        // Strings starting with "=" are rules about the text after it, so they are left out.
        fn plain(value: &Value) -> bool {
            match value {
                Value::String(s) => !s.starts_with('='),
                Value::Array(items) => items.iter().all(plain),
                Value::Object(map) => map.values().all(plain),
                _ => true,
            }
        }
        if plain(&value) {
            prop_assert!(matches(&value, Some(&value)), "{value}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Security.

#[tokio::test]
async fn the_server_binds_loopback_by_default() {
    assert_eq!(ServerOptions::default().host, "127.0.0.1");
    let fixture = Fixture::start().await;
    assert!(
        fixture.server.addr.ip().is_loopback(),
        "{}",
        fixture.server.addr
    );
}

#[test]
fn serve_binds_loopback_by_default_and_warns_when_told_otherwise() {
    let project = Project::copy_of_repo();
    // (extra arguments, host in the URL, warned)
    let cases: [(&[&str], &str, bool); 3] = [
        (&[], "127.0.0.1", false),
        (&["--host", "localhost"], "127.0.0.1", false),
        (&["--host", "0.0.0.0"], "0.0.0.0", true),
    ];
    for (args, host, warned) in cases {
        let (mut process, url, mut stderr) = serve_binary(&project, args);
        assert!(
            url.starts_with(&format!("http://{host}:")),
            "{args:?}: {url}"
        );
        kill_term(&process);
        assert!(process.wait_for_exit(Duration::from_secs(10)).is_some());
        let stderr = stderr.lines();
        let warning = stderr.iter().any(|line| {
            line.contains("WARN")
                && line.contains("anyone who can reach this address can use the server")
        });
        assert_eq!(warning, warned, "{args:?}: {stderr:?}");
    }
}

#[tokio::test]
async fn no_file_outside_the_tools_folder_is_read_because_of_a_client() {
    let fixture = Fixture::start().await;
    // A valid tool file outside the tools folder: nothing a client sends can make it served.
    fixture.project.write(
        "outside.md",
        &crate::support::tool_file(
            "outside",
            "## Scenario: ok\n\n```json response\n{\"v\": \"leaked\"}\n```\n",
        ),
    );
    let tools = fixture.project.path().join("tools");
    let absolute = fixture
        .project
        .path()
        .join("outside.md")
        .display()
        .to_string();
    let client = fixture.client().await;
    let names = [
        "outside",
        "../outside",
        "../outside.md",
        absolute.as_str(),
        "location/reverse_geocode",
        "location/reverse_geocode.md",
        "tools/location/reverse_geocode.md",
        "./reverse_geocode",
        "reverse_geocode/../../outside",
        "README",
        "/etc/passwd",
        "reverse_geocode\0",
        "REVERSE_GEOCODE",
    ];
    for name in names {
        match call(&client, name, json!({})).await {
            Err(ServiceError::McpError(error)) => {
                assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{name:?}");
                assert_eq!(error.message, format!("unknown tool {name:?}"), "{name:?}");
            }
            other => panic!("{name:?}: expected unknown tool, got {other:?}"),
        }
    }
    // Argument values are data, never paths.
    let result = call(
        &client,
        "search_locations",
        json!({"query": "../../outside.md"}),
    )
    .await
    .expect("a result");
    assert!(!result.to_string().contains("leaked"));
    // Resources: the widget and nothing else.
    let read = client
        .read_resource(rmcp::model::ReadResourceRequestParams::new(format!(
            "file://{}",
            tools.join("location/reverse_geocode.md").display()
        )))
        .await;
    match read {
        Err(ServiceError::McpError(error)) => assert_eq!(error.code, ErrorCode::RESOURCE_NOT_FOUND),
        other => panic!("expected resource not found, got {other:?}"),
    }
    client.cancel().await.expect("closes");
}

#[tokio::test]
async fn error_texts_to_clients_carry_no_paths_or_parse_details() {
    let fixture = Fixture::start().await;
    let client = fixture.client().await;
    let relative = "tools/location/reverse_geocode.md";
    let original = fixture.project.read(relative);
    let root = fixture.project.path().display().to_string();
    // Each break would make a detailed diagnostic (file, line, serde's message) in the log.
    let broken = [
        original.replacen("\"locationUuid\": \"LOC-50001\",", "\"locationUuid\": ,", 1),
        original.replacen("{{", "{{ tomorrow ", 1) + "\n{{ unknown }}\n",
        "---\ntool: reverse_geocode\n---\n## Definition\n".to_string(),
    ];
    for text in broken {
        fixture.project.write(relative, &text);
        let result = call(&client, "reverse_geocode", marina())
            .await
            .expect("a result");
        let wire = result.to_string();
        assert_eq!(result["content"][0]["text"], INTERNAL_ERROR, "{wire}");
        for secret in [
            root.as_str(),
            "tools/",
            ".md",
            "line",
            "column",
            "expected",
            "panicked",
        ] {
            assert!(!wire.contains(secret), "{secret:?} in {wire}");
        }
    }
    fixture.project.write(relative, &original);
    assert_marina(&client).await;
    client.cancel().await.expect("closes");

    // A body the server cannot read gets JSON-RPC's fixed text, not the parser's.
    let raw = Raw::initialize(fixture.url("/mcp")).await;
    for body in [
        &b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": }"[..],
        b"[1, 2",
        b"\"x\"",
    ] {
        let (_, text) = raw
            .post(
                Some(&raw.session),
                "application/json",
                ACCEPT,
                body.to_vec(),
            )
            .await;
        assert!(text == PARSE_ERROR || text == INVALID_REQUEST, "{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Load and soak: 16 clients over the three transports while files change under them.

/// Every answer must be a tool's answer valid against its output schema, or a deliberate
/// error: a `json error` scenario (`isError` with the error object) or an argument error.
fn check_answer(
    validators: &Validators,
    tool: &str,
    deliberate: bool,
    result: &Value,
) -> Result<(), String> {
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    if text == INTERNAL_ERROR {
        return Err(format!("{tool}: internal server error"));
    }
    if deliberate {
        return if result["isError"] == true && text.starts_with(r#"validating "arguments": "#) {
            Ok(())
        } else {
            Err(format!("{tool}: expected an argument error, got {result}"))
        };
    }
    let structured = &result["structuredContent"];
    if result["isError"] == true {
        // A `json error` scenario: the error object, also as structured content.
        return if structured["error"].is_string() {
            Ok(())
        } else {
            Err(format!("{tool}: isError without an error object: {result}"))
        };
    }
    let validator = validators
        .get(tool)
        .ok_or_else(|| format!("{tool}: no schema"))?;
    if !validator.is_valid(structured) {
        return Err(format!("{tool}: does not match its outputSchema: {result}"));
    }
    if serde_json::from_str::<Value>(text).ok().as_ref() != Some(structured) {
        return Err(format!(
            "{tool}: the text is not the structured content: {result}"
        ));
    }
    Ok(())
}

type Validators = std::collections::HashMap<String, jsonschema::Validator>;

fn output_validators(project: &Project) -> Validators {
    engine(project)
        .tools()
        .map(|tool| {
            let schema = tool
                .definition
                .get("outputSchema")
                .expect("every tool has one");
            let validator = jsonschema::draft202012::new(schema).expect("a valid schema");
            (tool.name.clone(), validator)
        })
        .collect()
}

/// The mix every client cycles through: (tool, arguments, deliberate argument error).
fn mixed_calls() -> Vec<(&'static str, Value, bool)> {
    vec![
        ("reverse_geocode", marina(), false),
        (
            "food_get_restaurant_menu",
            json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474}),
            false,
        ),
        (
            "food_merchant_search",
            json!({"query": "sushi", "latitude": 25.0866, "longitude": 55.1474}),
            false,
        ),
        ("get_user_profile", json!({}), false),
        (
            "food_get_restaurant_menu",
            json!({"restaurant_id": 1, "latitude": 25.0866, "longitude": 55.1474}),
            false,
        ),
        (
            "reverse_geocode",
            json!({"latitude": 91, "longitude": 55}),
            false,
        ),
        ("food_merchant_search", json!({"query": "sushi"}), true),
        ("ride_get_status", json!({"rideId": "RIDE-1"}), false),
    ]
}

/// Writes the overrides file in place (a reader may see half of it) and the tool file
/// atomically (as editors and the CLI do), over and over until told to stop.
fn churn_files(project: &Path, stop: &AtomicBool) -> usize {
    let overrides = project.join(".run/overrides.json");
    let tool = project.join("tools/location/reverse_geocode.md");
    let original = std::fs::read_to_string(&tool).expect("the tool file");
    let contents = [
        "{}".to_string(),
        json!({"get_user_profile": "session-expired", "food_get_restaurant_menu": "upstream-unavailable"}).to_string(),
        json!({"reverse_geocode": "upstream-unavailable", "no_such_tool": "x"}).to_string(),
        r#"{"get_user_profile": "session-exp"#.to_string(),
    ];
    let mut rounds = 0;
    while !stop.load(Ordering::Relaxed) {
        std::fs::write(&overrides, &contents[rounds % contents.len()]).expect("overrides");
        let edited = format!("{original}\n<!-- edit {rounds} -->\n");
        let temp = tool.with_extension("md.tmp");
        std::fs::write(&temp, if rounds % 2 == 0 { &edited } else { &original }).expect("temp");
        std::fs::rename(&temp, &tool).expect("rename");
        rounds += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::write(&tool, original).expect("restore");
    rounds
}

pub(crate) fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[derive(Default)]
struct Tally {
    calls: AtomicUsize,
    failures: std::sync::Mutex<Vec<String>>,
}

impl Tally {
    fn record(&self, outcome: Result<(), String>) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        if let Err(failure) = outcome {
            self.failures
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(failure);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_clients_over_three_transports_while_files_change() {
    let seconds: u64 = std::env::var("CAREEM_MCP_SOAK_SECS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(6);
    let project = Project::copy_of_repo();
    std::fs::create_dir_all(project.path().join(".run")).expect("the run folder");
    let validators = Arc::new(output_validators(&project));
    let (server, url, _stderr) = serve_binary(&project, &["--no-journal"]);
    let base = url.trim_end_matches("/mcp").to_string();
    let pid = server.0.id();
    let tally = Arc::new(Tally::default());
    let calls = Arc::new(mixed_calls());
    let warm_up = Duration::from_millis(1500);
    let started = Instant::now();
    let deadline = started + warm_up + Duration::from_secs(seconds);

    let stop = Arc::new(AtomicBool::new(false));
    let churn = std::thread::spawn({
        let (stop, path) = (Arc::clone(&stop), project.path().to_path_buf());
        move || churn_files(&path, &stop)
    });

    let mut clients = Vec::new();
    // 8 over Streamable HTTP, with rmcp's client.
    for index in 0..8 {
        let (url, tally, calls, validators) = (
            url.clone(),
            Arc::clone(&tally),
            Arc::clone(&calls),
            Arc::clone(&validators),
        );
        clients.push(tokio::spawn(async move {
            let client =
                ().serve(StreamableHttpClientTransport::from_uri(url))
                    .await
                    .expect("HTTP client");
            let mut turn = index;
            while Instant::now() < deadline {
                let (tool, args, deliberate) = &calls[turn % calls.len()];
                turn += 1;
                let outcome = match call(&client, tool, args.clone()).await {
                    Ok(result) => check_answer(&validators, tool, *deliberate, &result),
                    Err(error) => Err(format!("HTTP {tool}: {error}")),
                };
                tally.record(outcome);
            }
            client.cancel().await.expect("closes");
        }));
    }
    // 4 over legacy SSE, by hand.
    for index in 0..4 {
        let (base, tally, calls, validators) = (
            base.clone(),
            Arc::clone(&tally),
            Arc::clone(&calls),
            Arc::clone(&validators),
        );
        clients.push(tokio::spawn(async move {
            let mut sse = open_sse(&base).await;
            let mut turn = index;
            while Instant::now() < deadline {
                let (tool, args, deliberate) = &calls[turn % calls.len()];
                turn += 1;
                let answer = sse
                    .request("tools/call", json!({"name": tool, "arguments": args}))
                    .await;
                let outcome = match answer.get("result") {
                    Some(result) => check_answer(&validators, tool, *deliberate, result),
                    None => Err(format!("SSE {tool}: {answer}")),
                };
                tally.record(outcome);
            }
        }));
    }
    // 4 over stdio, each its own process on the same files.
    for index in 0..4 {
        let (path, tally, calls, validators) = (
            project.path().to_path_buf(),
            Arc::clone(&tally),
            Arc::clone(&calls),
            Arc::clone(&validators),
        );
        clients.push(tokio::spawn(async move {
            use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
            let command = tokio::process::Command::new(BIN).configure(|command| {
                command.current_dir(&path).env("NO_COLOR", "1").args([
                    "serve",
                    "--stdio",
                    "--no-journal",
                ]);
            });
            let (transport, _) = TokioChildProcess::builder(command)
                .stderr(Stdio::null())
                .spawn()
                .expect("the binary starts");
            let client = ().serve(transport).await.expect("stdio client");
            let mut turn = index;
            while Instant::now() < deadline {
                let (tool, args, deliberate) = &calls[turn % calls.len()];
                turn += 1;
                let outcome = match call(&client, tool, args.clone()).await {
                    Ok(result) => check_answer(&validators, tool, *deliberate, &result),
                    Err(error) => Err(format!("stdio {tool}: {error}")),
                };
                tally.record(outcome);
            }
            client.cancel().await.expect("closes");
        }));
    }

    tokio::time::sleep_until((started + warm_up).into()).await;
    let warm_rss = rss_kib(pid);
    let warm_calls = tally.calls.load(Ordering::Relaxed);
    for client in clients {
        client.await.expect("a client ran to the end");
    }
    stop.store(true, Ordering::Relaxed);
    let rounds = churn.join().expect("the file writer");
    let end_rss = rss_kib(pid);
    let total = tally.calls.load(Ordering::Relaxed);
    let failures = tally.failures.lock().expect("tally").clone();

    assert!(
        failures.is_empty(),
        "{} of {total} calls failed: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    // Progress, not speed (speed is `cargo bench`'s): calls kept being answered after warm-up.
    assert!(
        total > warm_calls,
        "no call answered after the warm-up ({total} in all)"
    );
    assert!(rounds >= 10, "the files changed only {rounds} times");
    // Flat: allocator caches and buffers settle during the warm-up; growth after it would be
    // a leak per call (thousands of them), so allow generous slack but not a trend.
    assert!(warm_rss > 0, "VmRSS is readable");
    assert!(
        end_rss <= warm_rss + warm_rss / 2 + 16 * 1024,
        "RSS grew from {warm_rss} KiB to {end_rss} KiB over {} calls",
        total - warm_calls
    );
    eprintln!(
        "soak: {total} calls ({} after warm-up) in {seconds} s, {rounds} file rewrites, RSS {warm_rss} -> {end_rss} KiB",
        total - warm_calls
    );
    drop(server);
}

// ---------------------------------------------------------------------------------------------
// 6. Graceful shutdown of the real binary.

/// A journal that is a pipe the test reads from, to hold a call in flight for as long as the
/// test needs: the server journals each call before answering it, and a call whose journal line
/// is larger than the pipe holds (64 KiB) waits in that write until the test drains the pipe.
/// Tool files cannot hold a call any more (they are read without blocking).
pub(crate) struct JournalPipe {
    pub(crate) path: std::path::PathBuf,
    reader: std::fs::File,
}

impl JournalPipe {
    pub(crate) fn new(project: &Project) -> Self {
        use std::os::unix::fs::OpenOptionsExt;
        let path = project.path().join("calls.pipe");
        let made = Command::new("mkfifo")
            .arg(&path)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        // Read and write: opening a FIFO so never blocks (Linux), and the server's open for
        // writing then finds a reader at once.
        let reader = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(0)
            .open(&path)
            .expect("the pipe opens");
        Self { path, reader }
    }

    /// Waits until a journal line has started to arrive: a call is inside its journal write.
    pub(crate) fn wait_for_a_call(&mut self) {
        use std::io::Read;
        let mut byte = [0u8; 1];
        self.reader
            .read_exact(&mut byte)
            .expect("a journal line starts");
        assert_eq!(byte[0], b'{');
    }

    /// Drains the pipe from now on, so that every held call completes.
    pub(crate) fn drain(self) {
        let mut reader = self.reader;
        std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    }
}

/// Arguments whose journal line is far larger than a pipe's 64 KiB.
pub(crate) fn large_search() -> Value {
    json!({"query": "x".repeat(100_000), "latitude": 25.0866, "longitude": 55.1474})
}

#[tokio::test]
async fn sigterm_lets_in_flight_calls_finish_then_exits_zero() {
    let project = Project::copy_of_repo();
    let mut pipe = JournalPipe::new(&project);
    let journal = pipe.path.to_string_lossy().into_owned();
    let (mut server, url, mut stderr) = serve_binary(&project, &["--journal", &journal]);
    let client =
        ().serve(StreamableHttpClientTransport::from_uri(url.clone()))
            .await
            .expect("client");

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
    let deadline = Instant::now() + Duration::from_secs(20);
    while http().get(&health).send().await.is_ok() {
        assert!(Instant::now() < deadline, "still accepting connections");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
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
    assert_eq!(answer["isError"], false, "{answer}");
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
    let mut child = Command::new(BIN)
        .current_dir(project.path())
        .env("NO_COLOR", "1")
        .args(["serve", "--stdio", "--journal"])
        .arg(&pipe.path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut process = Process(child);
    let (lines_tx, lines) = std::sync::mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines_tx
                .send(serde_json::from_str(&line).expect("JSON-RPC"))
                .is_err()
            {
                break;
            }
        }
    });
    let mut send = |message: Value| writeln!(stdin, "{message}").expect("writes");
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
    );
    assert_eq!(
        lines
            .recv_timeout(Duration::from_secs(10))
            .expect("initialized")["id"],
        1
    );
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "food_merchant_search", "arguments": large_search()}}));
    pipe.wait_for_a_call();
    kill_term(&process);
    assert!(
        lines.recv_timeout(Duration::from_millis(0)).is_err(),
        "no answer while the call is held"
    );
    pipe.drain();

    let answer = lines
        .recv_timeout(Duration::from_secs(10))
        .expect("the in-flight call answers");
    assert_eq!(answer["id"], 2);
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    let status = process.wait_for_exit(Duration::from_secs(10));
    assert!(
        status.is_some_and(|s| s.code() == Some(0)),
        "exits 0 after SIGTERM: {status:?}"
    );
}
