//! The request side of every recorded probe, as the recording sent it: the same bodies,
//! headers and sessions, probe by probe (the recording holds only the answers).

use serde_json::{Value, json};

use crate::support::ACCEPT;

/// The protocol version a client asks for.
pub const VERSION: &str = "2025-11-25";

/// What a probe sends, over the transport it names.
pub enum Request {
    /// Steps on one session: the first `setup` of them open it.
    Http { setup: usize, steps: Vec<Step> },
    /// Messages POSTed, one by one, to the endpoint a `GET /sse` stream announces.
    Sse(Vec<Value>),
    /// Messages written to `serve --stdio`, one a line.
    Stdio(Vec<Value>),
}

/// A step's body.
pub enum Body {
    Json(Value),
    Text(&'static str),
}

/// Which session a step names in `Mcp-Session-Id`.
#[derive(Clone, Copy)]
pub enum Session {
    /// None.
    Without,
    /// The one the probe's first answer issued, if any.
    Probe,
    /// This one.
    Given(&'static str),
}

/// One HTTP request to `/mcp`.
pub struct Step {
    pub method: &'static str,
    pub body: Option<Body>,
    pub accept: Option<&'static str>,
    pub content_type: Option<&'static str>,
    pub session: Session,
    pub protocol_version: Option<&'static str>,
    pub extra: Vec<(&'static str, &'static str)>,
}

impl Step {
    /// A `method` request with no body, on the probe's session, as a client sends it.
    fn bare(method: &'static str, accept: Option<&'static str>) -> Self {
        Self {
            method,
            body: None,
            accept,
            content_type: None,
            session: Session::Probe,
            protocol_version: Some(VERSION),
            extra: Vec::new(),
        }
    }

    /// A POST of `body` as a client on the probe's session sends it.
    fn post(body: Body) -> Self {
        Self {
            body: Some(body),
            content_type: Some("application/json"),
            ..Self::bare("POST", Some(ACCEPT))
        }
    }

    /// The standalone stream's GET.
    fn get() -> Self {
        Self::bare("GET", Some("text/event-stream"))
    }

    fn delete() -> Self {
        Self::bare("DELETE", None)
    }

    /// Outside any session: no `Mcp-Session-Id` and no `MCP-Protocol-Version`.
    pub(super) fn fresh(self) -> Self {
        Self {
            session: Session::Without,
            protocol_version: None,
            ..self
        }
    }

    fn accept(self, accept: Option<&'static str>) -> Self {
        Self { accept, ..self }
    }

    fn content_type(self, content_type: Option<&'static str>) -> Self {
        Self {
            content_type,
            ..self
        }
    }

    pub(super) fn version(self, protocol_version: &'static str) -> Self {
        Self {
            protocol_version: Some(protocol_version),
            ..self
        }
    }

    pub(super) fn header(mut self, name: &'static str, value: &'static str) -> Self {
        self.extra.push((name, value));
        self
    }
}

pub(super) fn post(message: Value) -> Step {
    Step::post(Body::Json(message))
}

pub(super) fn rpc(id: u64, method: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method})
}

pub(super) fn rpc_with(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn initialize_as(id: u64, version: &str) -> Value {
    rpc_with(
        id,
        "initialize",
        json!({
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "probe", "version": "1"}
        }),
    )
}

pub(super) fn initialize() -> Value {
    initialize_as(1, VERSION)
}

pub(super) fn initialized() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
}

fn geo() -> Value {
    json!({"latitude": 25.0866, "longitude": 55.1474})
}

/// A probe of one request outside any session.
pub(super) fn alone(step: Step) -> Request {
    Request::Http {
        setup: 0,
        steps: vec![step],
    }
}

/// A probe that opens a session as clients do (initialize, then initialized), then sends
/// `steps` on it.
pub(super) fn on_session(steps: Vec<Step>) -> Request {
    let mut all = vec![post(initialize()).fresh(), post(initialized())];
    let setup = all.len();
    all.extend(steps);
    Request::Http { setup, steps: all }
}

fn call(id: u64, arguments: Value) -> Step {
    post(rpc_with(
        id,
        "tools/call",
        json!({"name": "reverse_geocode", "arguments": arguments}),
    ))
}

/// The `_meta` a 2026-07-28 client puts on every request.
pub(super) fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "probe", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}})
}

/// A 2026-07-28 request outside any session: `params` with `_meta`, the version header and
/// the `Mcp-Method` (and, with a `name`, `Mcp-Name`) headers, as such a client sends it.
fn request_2026(method: &'static str, name: Option<&'static str>, mut params: Value) -> Request {
    params["_meta"] = meta_2026();
    as_2026(rpc_with(7, method, params), method, name)
}

/// A 2026-07-28 `message` outside any session, with the headers such a client sends.
pub(super) fn as_2026(message: Value, method: &'static str, name: Option<&'static str>) -> Request {
    let mut step: Step = post(message)
        .fresh()
        .version("2026-07-28")
        .header("Mcp-Method", method);
    if let Some(name) = name {
        step = step.header("Mcp-Name", name);
    }
    alone(step)
}

/// The probes of protocol 2026-07-28 (recorded from the stateless server only).
fn table_2026() -> Vec<(&'static str, Request)> {
    vec![
        (
            "2026: server/discover",
            request_2026("server/discover", None, json!({})),
        ),
        (
            "2026: tools/call",
            request_2026(
                "tools/call",
                Some("reverse_geocode"),
                json!({"name": "reverse_geocode", "arguments": geo()}),
            ),
        ),
        (
            "2026: tools/call unknown tool",
            request_2026(
                "tools/call",
                Some("no_such_tool"),
                json!({"name": "no_such_tool", "arguments": {}}),
            ),
        ),
        (
            "2026: resources/read unknown",
            request_2026("resources/read", None, json!({"uri": "ui://nope"})),
        ),
        (
            "2026: unknown method",
            request_2026("foo/bar", None, json!({})),
        ),
        (
            "2026: Mcp-Method header missing",
            alone(
                post(rpc_with(9, "tools/list", json!({"_meta": null})))
                    .fresh()
                    .version("2026-07-28"),
            ),
        ),
        (
            "2026: legacy initialize to a stateless server",
            alone(post(initialize()).fresh()),
        ),
    ]
}

/// Every probe the recordings hold, by name.
pub fn table() -> Vec<(&'static str, Request)> {
    let mut table = table_v1();
    table.extend(table_2026());
    table.extend(super::silent::table());
    table
}

/// The probes every release's recording holds.
fn table_v1() -> Vec<(&'static str, Request)> {
    let init = || post(initialize()).fresh();
    let discover_meta = json!({"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "probe", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}}});
    vec![
        ("initialize 2025-11-25", alone(init())),
        (
            "initialize 2025-06-18",
            alone(post(initialize_as(1, "2025-06-18")).fresh()),
        ),
        (
            "initialize 2024-11-05",
            alone(post(initialize_as(1, "2024-11-05")).fresh()),
        ),
        (
            "initialize 2026-07-28",
            alone(post(initialize_as(1, "2026-07-28")).fresh()),
        ),
        (
            "accept json only",
            alone(init().accept(Some("application/json"))),
        ),
        ("accept missing", alone(init().accept(None))),
        ("accept */*", alone(init().accept(Some("*/*")))),
        (
            "content-type text/plain",
            alone(init().content_type(Some("text/plain"))),
        ),
        (
            "content-type with charset",
            alone(init().content_type(Some("application/json; charset=utf-8"))),
        ),
        (
            "tools/list without a session",
            alone(post(rpc(2, "tools/list")).fresh()),
        ),
        (
            "ping without a session",
            alone(post(rpc(2, "ping")).fresh()),
        ),
        (
            "unknown session",
            alone(Step {
                session: Session::Given("ZZZZUNKNOWNSESSIONZZZZZZZZ"),
                ..post(rpc(2, "tools/list"))
            }),
        ),
        (
            "malformed JSON",
            alone(Step::post(Body::Text(r#"{"jsonrpc":"2.0","id":1,"method":"#)).fresh()),
        ),
        (
            "batch of one initialize",
            alone(post(json!([initialize()])).fresh()),
        ),
        ("GET without a session", alone(Step::get().fresh())),
        (
            "PUT",
            alone(
                Step {
                    method: "PUT",
                    ..Step::post(Body::Text("{}"))
                }
                .fresh(),
            ),
        ),
        (
            "Host evil.example.com",
            alone(init().header("Host", "evil.example.com")),
        ),
        (
            "Origin https://chatgpt.com",
            alone(init().header("Origin", "https://chatgpt.com")),
        ),
        (
            "server/discover 2026-07-28",
            alone(
                post(rpc_with(1, "server/discover", discover_meta))
                    .fresh()
                    .version("2026-07-28")
                    .header("Mcp-Method", "server/discover"),
            ),
        ),
        ("session: ping", on_session(vec![post(rpc(10, "ping"))])),
        (
            "session: tools/list envelope",
            on_session(vec![post(rpc(11, "tools/list"))]),
        ),
        (
            "session: resources/list",
            on_session(vec![post(rpc(12, "resources/list"))]),
        ),
        (
            "session: resources/read unknown",
            on_session(vec![post(rpc_with(
                15,
                "resources/read",
                json!({"uri": "ui://nope"}),
            ))]),
        ),
        (
            "session: prompts/list",
            on_session(vec![post(rpc(17, "prompts/list"))]),
        ),
        (
            "session: prompts/get unknown",
            on_session(vec![post(rpc_with(
                18,
                "prompts/get",
                json!({"name": "x"}),
            ))]),
        ),
        (
            "session: logging/setLevel",
            on_session(vec![post(rpc_with(
                19,
                "logging/setLevel",
                json!({"level": "debug"}),
            ))]),
        ),
        (
            "session: completion/complete",
            on_session(vec![post(rpc_with(
                20,
                "completion/complete",
                json!({
                    "ref": {"type": "ref/prompt", "name": "x"},
                    "argument": {"name": "a", "value": "b"}
                }),
            ))]),
        ),
        (
            "session: unknown method",
            on_session(vec![post(rpc(21, "foo/bar"))]),
        ),
        (
            "session: unknown tool",
            on_session(vec![post(rpc_with(
                22,
                "tools/call",
                json!({"name": "no_such_tool", "arguments": {}}),
            ))]),
        ),
        (
            "session: tools/call without params",
            on_session(vec![post(rpc(29, "tools/call"))]),
        ),
        (
            "session: tool result envelope",
            on_session(vec![call(23, geo())]),
        ),
        (
            "session: argument of the wrong type",
            on_session(vec![call(
                24,
                json!({"latitude": "north", "longitude": 55.1474}),
            )]),
        ),
        (
            "session: required argument missing",
            on_session(vec![call(25, json!({"latitude": 25.0866}))]),
        ),
        (
            "session: unexpected argument",
            on_session(vec![call(
                26,
                json!({"latitude": 25.0866, "longitude": 55.1474, "zoom": 3}),
            )]),
        ),
        (
            "session: initialize again",
            on_session(vec![post(initialize_as(30, VERSION))]),
        ),
        (
            "session: id null",
            on_session(vec![post(
                json!({"jsonrpc": "2.0", "id": null, "method": "ping"}),
            )]),
        ),
        (
            "session: no jsonrpc field",
            on_session(vec![post(json!({"id": 31, "method": "ping"}))]),
        ),
        (
            "session: batch",
            on_session(vec![post(json!([rpc(34, "ping"), rpc(35, "tools/list")]))]),
        ),
        (
            "session: unknown notification",
            on_session(vec![post(
                json!({"jsonrpc": "2.0", "method": "notifications/whatever"}),
            )]),
        ),
        (
            "session: bad MCP-Protocol-Version",
            on_session(vec![post(rpc(43, "ping")).version("1999-01-01")]),
        ),
        (
            "session: DELETE twice",
            on_session(vec![Step::delete(), Step::delete()]),
        ),
        ("session: GET stream", on_session(vec![Step::get()])),
        (
            "sse: endpoint and ping",
            Request::Sse(vec![initialize(), initialized(), rpc(2, "ping")]),
        ),
        (
            "sse: unknown method",
            Request::Sse(vec![initialize(), initialized(), rpc(3, "foo/bar")]),
        ),
        (
            "stdio: request before initialize",
            Request::Stdio(vec![rpc(1, "tools/list")]),
        ),
        (
            "stdio: initialize and ping",
            Request::Stdio(vec![initialize(), initialized(), rpc(2, "ping")]),
        ),
        (
            "stdio: unknown method",
            Request::Stdio(vec![initialize(), initialized(), rpc(3, "foo/bar")]),
        ),
    ]
}
