//! Bad input over all three transports: exact answers to every malformed request, and the
//! session that sent it, another session and a new one all carry on.

use std::process::Stdio;
use std::time::Duration;

use careem_mcp::engine::{CallRequest, Origin};
use serde_json::{Value, json};

use super::{INTERNAL_ERROR, call_text, nested};
use crate::support::{
    ACCEPT, Fixture, Project, Raw, StdioServer, assert_marina, assert_marina_result, call, engine,
    http, jsonrpc, marina_call, sse,
};

/// What the server must answer.
#[derive(Debug)]
enum Want<'a> {
    /// This HTTP status and exactly this body.
    Http(u16, &'a str),
    /// HTTP 200 carrying a JSON-RPC error with this code and exactly this message.
    Rpc(i64, &'a str),
    /// HTTP 200 carrying a JSON-RPC error with this code and a message starting so.
    RpcPrefix(i64, &'a str),
    /// HTTP 200 carrying a JSON-RPC result.
    Result,
    /// A tool result with `isError: true` whose text starts with this.
    ToolError(&'a str),
    /// A tool result without `isError`.
    ToolResult,
}

/// One request of the Streamable HTTP table and the answer it must get.
struct HttpRow<'a> {
    what: &'a str,
    /// The `Mcp-Session-Id` header, if any.
    session: Option<&'a str>,
    content_type: &'a str,
    accept: &'a str,
    body: Vec<u8>,
    want: Want<'a>,
}

#[tokio::test]
async fn bad_requests_on_streamable_http_get_exact_answers() {
    let fixture = Fixture::start().await;
    let raw = Raw::initialize(fixture.url("/mcp"), "2025-06-18").await.0;
    let other = Raw::initialize(fixture.url("/mcp"), "2025-06-18").await.0;
    let session = Some(raw.session.as_str());
    let json = "application/json";
    let message = |value: Value| value.to_string().into_bytes();
    let long = "x".repeat(1024 * 1024);
    let long_search = message(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "food_merchant_search", "arguments": {"query": long, "latitude": 25.0866, "longitude": 55.1474}}}));

    let call_error = "handling 'tools/call': unmarshaling ";
    let not_an_object = |kind: &str| {
        format!(
            "validating \"arguments\": unmarshaling arguments: json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"
        )
    };
    let (array, string, number) = (
        not_an_object("array"),
        not_an_object("string"),
        not_an_object("number"),
    );
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    // Each row is a request as this session's client sends it (JSON, accepting JSON and a
    // stream), but for what the row changes.
    let row = |what, body, want| HttpRow {
        what,
        session,
        content_type: json,
        accept: ACCEPT,
        body,
        want,
    };
    // Production's Go SDK's answers (docs/MCP_SERVER.md).
    let cases = [
        row(
            "malformed JSON",
            b"{not json".to_vec(),
            Want::Http(
                400,
                "malformed payload: unmarshaling jsonrpc message: invalid character 'n' looking for beginning of object key string\n",
            ),
        ),
        row(
            "empty body",
            Vec::new(),
            Want::Http(400, "POST requires a non-empty body\n"),
        ),
        row(
            "invalid UTF-8, read as U+FFFD",
            b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}"
                .to_vec(),
            Want::Result,
        ),
        row(
            "arguments nested 10,000 levels",
            call_text("reverse_geocode", &nested(10_000)),
            Want::ToolError("validating \"arguments\": unmarshaling arguments: exceeded max depth"),
        ),
        row(
            "batch array",
            message(
                json!([{"jsonrpc": "2.0", "id": 2, "method": "ping"}, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}]),
            ),
            Want::Http(
                400,
                "JSON-RPC batching is not supported in 2025-06-18 and later (request version: 2025-06-18)\n",
            ),
        ),
        row(
            "empty batch",
            b"[]".to_vec(),
            Want::Http(400, "malformed payload: empty batch\n"),
        ),
        row(
            "no jsonrpc member",
            message(json!({"id": 2, "method": "ping"})),
            Want::Http(
                400,
                "malformed payload: invalid message version tag \"\"; expected \"2.0\"\n",
            ),
        ),
        row(
            "params a string",
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": "x"})),
            Want::RpcPrefix(0, call_error),
        ),
        row(
            "unknown method",
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/delete", "params": {}})),
            Want::Http(400, "JSON RPC not handled: \"tools/delete\" unsupported\n"),
        ),
        row(
            "tools/call without params",
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call"})),
            Want::Http(400, "invalid request: missing required \"params\"\n"),
        ),
        row(
            "tools/call without name",
            message(
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"arguments": {}}}),
            ),
            Want::Rpc(-32602, "unknown tool \"\""),
        ),
        row(
            "tools/call name a number",
            message(
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": 5}}),
            ),
            Want::RpcPrefix(0, call_error),
        ),
        row(
            "arguments an array",
            call_text("reverse_geocode", "[1]"),
            Want::ToolError(&array),
        ),
        row(
            "arguments a string",
            call_text("reverse_geocode", r#""x""#),
            Want::ToolError(&string),
        ),
        row(
            "arguments a number",
            call_text("reverse_geocode", "5"),
            Want::ToolError(&number),
        ),
        row(
            "arguments null (taken as {})",
            call_text("reverse_geocode", "null"),
            Want::ToolError(
                r#"validating "arguments": validating root: required: missing properties: ["latitude" "longitude"]"#,
            ),
        ),
        row(
            "resources/read without uri",
            message(json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {}})),
            Want::Rpc(-32002, "Resource not found"),
        ),
        row(
            "unknown tool",
            call_text("does_not_exist", "{}"),
            Want::Rpc(-32602, r#"unknown tool "does_not_exist""#),
        ),
        row("1 MiB string argument", long_search, Want::ToolResult),
        row(
            "argument nested 120 levels",
            call_text(
                "search_locations",
                &format!(r#"{{"query":{}}}"#, nested(120)),
            ),
            Want::ToolError(
                r#"validating "arguments": validating root: validating /properties/query: type: "#,
            ),
        ),
        HttpRow {
            content_type: "text/plain",
            ..row(
                "Content-Type text/plain",
                message(ping.clone()),
                Want::Http(415, "Content-Type must be 'application/json'\n"),
            )
        },
        HttpRow {
            content_type: "application/x-www-form-urlencoded",
            ..row(
                "no Content-Type parameters but form data",
                b"a=1".to_vec(),
                Want::Http(415, "Content-Type must be 'application/json'\n"),
            )
        },
        HttpRow {
            accept: "application/json",
            ..row(
                "Accept without text/event-stream",
                message(ping.clone()),
                Want::Http(
                    400,
                    "Accept must contain both 'application/json' and 'text/event-stream'\n",
                ),
            )
        },
        HttpRow {
            accept: "*/*",
            ..row("Accept */* only", message(ping.clone()), Want::Result)
        },
        HttpRow {
            session: Some("ZZZZUNKNOWNSESSIONZZZZZZZZ"),
            ..row(
                "unknown session id",
                message(ping),
                Want::Http(404, "session not found\n"),
            )
        },
        HttpRow {
            session: None,
            ..row(
                "no session id on a request",
                message(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})),
                Want::Rpc(
                    0,
                    "method \"tools/list\" is invalid during session initialization",
                ),
            )
        },
    ];

    for case in cases {
        let what = case.what;
        let (status, text) = raw
            .post(case.session, case.content_type, case.accept, case.body)
            .await;
        match case.want {
            Want::Http(code, exact) => {
                assert_eq!((status, text.as_str()), (code, exact), "{what}");
            }
            Want::Rpc(code, exact) => {
                assert_eq!(status, 200, "{what}: {text}");
                let answer = jsonrpc(&text).expect("a JSON-RPC answer");
                assert_eq!(answer["error"]["code"], code, "{what}: {answer}");
                assert_eq!(answer["error"]["message"], exact, "{what}: {answer}");
            }
            Want::RpcPrefix(code, prefix) => {
                assert_eq!(status, 200, "{what}: {text}");
                let answer = jsonrpc(&text).expect("a JSON-RPC answer");
                assert_eq!(answer["error"]["code"], code, "{what}: {answer}");
                let message = answer["error"]["message"].as_str().unwrap_or_default();
                assert!(message.starts_with(prefix), "{what}: {answer}");
            }
            Want::Result => {
                assert_eq!(status, 200, "{what}: {text}");
                let answer = jsonrpc(&text).expect("a JSON-RPC answer");
                assert!(answer.get("result").is_some(), "{what}: {answer}");
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
                assert_eq!(answer["result"].get("isError"), None, "{what}");
            }
        }
        // The same session and another one carry on after every row…
        for (who, session) in [("the same session", &raw), ("another session", &other)] {
            let (answer, _) = session.request(7, "tools/call", marina_call()).await;
            assert_marina_result(&answer["result"], &format!("{what}: {who} still answers"));
        }
    }
    // …and so does a new one.
    fixture.still_answers().await;
}

#[tokio::test]
async fn oversized_streamed_bodies_and_wrong_accept_on_get_are_refused() {
    let fixture = Fixture::start().await;
    let raw = Raw::initialize(fixture.url("/mcp"), "2025-06-18").await.0;
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
            "request body exceeds 4194304 bytes\n"
        );
    }
    // Other methods and routes: (method, path, Accept, session, status, exact body)
    let session = raw.session.as_str();
    let unknown = "ZZZZUNKNOWNSESSIONZZZZZZZZ";
    let cases = [
        (
            reqwest::Method::GET,
            "/mcp",
            "application/json",
            Some(session),
            400,
            "Accept must contain 'text/event-stream' for GET requests\n",
        ),
        (
            reqwest::Method::GET,
            "/mcp",
            "text/event-stream",
            Some(unknown),
            404,
            "session not found\n",
        ),
        (
            reqwest::Method::DELETE,
            "/mcp",
            "*/*",
            Some(unknown),
            404,
            "session not found\n",
        ),
        (
            reqwest::Method::PUT,
            "/mcp",
            "*/*",
            None,
            405,
            "Method Not Allowed\n",
        ),
        (
            reqwest::Method::PUT,
            "/sse",
            "*/*",
            None,
            405,
            "Method Not Allowed\n",
        ),
        (
            reqwest::Method::GET,
            "/nowhere",
            "*/*",
            None,
            404,
            "404 page not found\n",
        ),
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
        let output = engine.answer(&CallRequest::new(Origin::Cli, "t", args));
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
    let output = engine.answer(&CallRequest::new(
        Origin::Cli,
        "t",
        json!({"q": 1}).as_object().cloned(),
    ));
    assert_eq!(output.text, r#"{"v":{"w":1}}"#);
}

#[tokio::test]
async fn bad_messages_on_legacy_sse_are_refused_and_the_session_carries_on() {
    let fixture = Fixture::start().await;
    let base = fixture.url("");
    let mut sse = sse::Session::open(&fixture.url("/sse")).await;
    let ping = json!({"jsonrpc": "2.0", "id": 90, "method": "ping"}).to_string();
    let unparsable = "failed to parse body\n";

    // Refused before they reach the session, as the Go SDK's SSE handler refuses them:
    // (what, URL, body, status, exact body)
    let unknown = format!("{base}/sse?sessionid=ZZZZUNKNOWNSESSIONZZZZZZZZ");
    let endpoint = sse.endpoint.clone();
    let refused: [(&str, &str, Vec<u8>, u16, &str); 7] = [
        (
            "no sessionid",
            &format!("{base}/sse"),
            ping.clone().into_bytes(),
            400,
            "sessionid must be provided\n",
        ),
        (
            "unknown sessionid",
            &unknown,
            ping.clone().into_bytes(),
            404,
            "session not found\n",
        ),
        (
            "malformed JSON",
            &endpoint,
            b"{not json".to_vec(),
            400,
            unparsable,
        ),
        ("empty body", &endpoint, Vec::new(), 400, unparsable),
        (
            "batch array",
            &endpoint,
            format!("[{ping}]").into_bytes(),
            400,
            unparsable,
        ),
        (
            "no jsonrpc member",
            &endpoint,
            json!({"id": 2, "method": "ping"}).to_string().into_bytes(),
            400,
            unparsable,
        ),
        (
            "unknown method",
            &endpoint,
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/delete", "params": {}})
                .to_string()
                .into_bytes(),
            400,
            "JSON RPC not handled: \"tools/delete\" unsupported\n",
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
        (
            "tools/call",
            json!({"arguments": {}}),
            -32602,
            r#"unknown tool """#,
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
    let answer = sse.request("tools/call", marina_call()).await;
    assert_marina_result(&answer["result"], "the SSE session still answers");
    fixture.still_answers().await;
}

/// (line, the id and error code of its answer, `null` for a result; `None` when it is skipped)
type StdioRow<'a> = (&'a [u8], Option<(Value, Value)>);

#[test]
fn bad_lines_on_stdio_are_skipped_or_refused_and_the_session_carries_on() {
    let project = Project::copy_of_repo();
    let mut command = project.command();
    command.args(["serve", "--stdio", "--no-journal"]);
    let mut server = StdioServer::start(command, Stdio::null());
    server.initialize();

    // (line, the answer it gets: None = skipped, as every MCP SDK skips unparsable input)
    let deep = call_text("reverse_geocode", &nested(10_000));
    // What is answered is answered as the Go SDK answers it; a batch with an array.
    let cases: [StdioRow; 8] = [
        (b"{not json", None),
        (b"\xff\xfe not UTF-8", None),
        (&deep, Some((json!(5), Value::Null))),
        (
            br#"[{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
            Some((json!(2), Value::Null)),
        ),
        (br#"{"foo":1}"#, None),
        (
            br#"{"jsonrpc":"2.0","id":3,"method":"tools/delete","params":{}}"#,
            Some((json!(3), json!(0))),
        ),
        (
            br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}"#,
            Some((json!(4), json!(-32602))),
        ),
        (
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"/etc/passwd"}}"#,
            Some((json!(5), json!(-32602))),
        ),
    ];
    for (index, (line, answer)) in cases.into_iter().enumerate() {
        server.send(line);
        // A ping after every line. Requests are answered concurrently, so collect until both
        // the ping's answer and the line's (if any) are in: anything else is an answer that
        // should not exist.
        let ping_id = json!(100 + index);
        server.send_json(&json!({"jsonrpc": "2.0", "id": ping_id, "method": "ping"}));
        let shown = String::from_utf8_lossy(line);
        let mut expected: Vec<(Value, Value)> = vec![(ping_id, Value::Null)];
        expected.extend(answer);
        let mut unread = Vec::new();
        while !expected.is_empty() {
            let message = match unread.pop() {
                Some(message) => message,
                None => match server.next() {
                    Value::Array(batch) => {
                        unread.extend(batch);
                        continue;
                    }
                    message => message,
                },
            };
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
    server.send_json(
        &json!({"jsonrpc": "2.0", "id": 50, "method": "tools/call", "params": marina_call()}),
    );
    assert_marina_result(&server.next()["result"], "the stdio session still answers");
    assert_eq!(
        server.lines.try_iter().count(),
        0,
        "no answer to a skipped line"
    );
    server.close_stdin();
    let status = server.process.wait_for_exit(Duration::from_secs(10));
    assert!(
        status.is_some_and(|s| s.success()),
        "exits 0 when stdin closes: {status:?}"
    );
}
