//! The server layer as clients see it: rmcp's client over Streamable HTTP and stdio, raw HTTP
//! for what a client library hides (exact JSON, status codes, headers), and the tests' SSE
//! client for legacy SSE. Servers run in process on port 0 over a copy of the repo's tools.

use std::time::Duration;

use careem_mcp::http::BindError;
use careem_mcp::server::{ServerError, ServerOptions, start_http};
use rmcp::model::{ErrorCode, ReadResourceRequestParams};
use rmcp::service::ServiceError;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{
    ACCEPT, Fixture, Project, Raw, StdioServer, assert_marina_result, at_marina, call, engine,
    files_under, http, marina_call, sse, stdio_client, wait_until_async,
};

const WIDGET_DOMAIN: &str = "https://careem-mcp-app.pages.dev";
/// Words that would tell a client it is not talking to production (SPEC §7 test 12).
const GIVEAWAYS: [&str; 6] = ["mock", "sandbox", "sbx", "fake", "dummy", "example.com"];

/// The definition each tool file advertises, read straight from the file (not via the engine)
/// and as written: under the default profile, tools/list is the files (SPEC §7.2).
fn file_definitions(project: &Project) -> Vec<Value> {
    let mut definitions: Vec<Value> = files_under(&project.path().join("tools"))
        .into_iter()
        .filter(|path| path.extension().is_some_and(|e| e == "md") && !path.ends_with("README.md"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable");
            let start =
                text.find("```json tool\n").expect("a json tool block") + "```json tool\n".len();
            let end = start + text[start..].find("\n```").expect("the block ends");
            let definition =
                serde_json::from_str(&text[start..end]).expect("the definition is JSON");
            Value::Object(definition)
        })
        .collect();
    definitions.sort_by_key(|d: &Value| d["name"].as_str().unwrap_or_default().to_string());
    definitions
}

// ---------------------------------------------------------------------------------------------
// initialize

#[tokio::test]
async fn initialize_answers_with_production_identity_and_nothing_else() {
    let fixture = Fixture::start().await;
    for (requested, negotiated) in [
        ("2025-06-18", "2025-06-18"),
        ("2024-11-05", "2024-11-05"),
        ("2026-07-28", "2025-11-25"),
    ] {
        let (_, message) = Raw::initialize(fixture.url("/mcp"), requested).await;
        let result = &message["result"];
        assert_eq!(
            result["serverInfo"],
            json!({"name": "careem-mcp-service", "version": "v1.0.0"}),
            "{message}"
        );
        assert_eq!(
            result["protocolVersion"], negotiated,
            "requested {requested}"
        );
        assert!(
            result.get("instructions").is_none(),
            "no instructions: {result}"
        );
        let capabilities = result["capabilities"].as_object().expect("capabilities");
        assert!(
            capabilities.contains_key("tools") && capabilities.contains_key("resources"),
            "{capabilities:?}"
        );
        for absent in ["prompts", "completions"] {
            assert!(
                !capabilities.contains_key(absent),
                "no {absent}: {capabilities:?}"
            );
        }
    }

    let client = fixture.client().await;
    let info =
        serde_json::to_value(client.peer_info().expect("peer info").as_ref()).expect("serialises");
    assert_eq!(
        info["serverInfo"],
        json!({"name": "careem-mcp-service", "version": "v1.0.0"})
    );
    client.cancel().await.expect("the client closes");
}

#[tokio::test]
async fn the_identity_is_configurable() {
    let options = ServerOptions {
        server_name: "careem".into(),
        server_version: "v2.3.4".into(),
        ..Default::default()
    };
    let fixture = Fixture::with(options).await;
    let (_, message) = Raw::initialize(fixture.url("/mcp"), "2025-06-18").await;
    assert_eq!(
        message["result"]["serverInfo"],
        json!({"name": "careem", "version": "v2.3.4"})
    );
}

// ---------------------------------------------------------------------------------------------
// tools/list and resources

#[tokio::test]
async fn tools_list_is_every_file_definition_as_the_go_sdk_writes_it() {
    let fixture = Fixture::start().await;
    let files = file_definitions(&fixture.project);
    assert_eq!(files.len(), 20);

    // On the wire: same JSON, same key order, sorted by name as production lists them.
    let (raw, _) = Raw::initialize(fixture.url("/mcp"), "2025-06-18").await;
    let (message, _) = raw.request(2, "tools/list", json!({})).await;
    let listed = message["result"]["tools"]
        .as_array()
        .expect("tools")
        .clone();
    assert_eq!(listed.len(), files.len());
    for (listed, file) in listed.iter().zip(&files) {
        assert_eq!(listed, file, "{}", file["name"]);
        let in_sdk_order = careem_mcp::server::advertised(file.as_object().expect("an object"));
        assert_eq!(
            listed.to_string(),
            Value::Object(in_sdk_order).to_string(),
            "{}: key order",
            file["name"]
        );
    }
    assert!(message["result"].get("nextCursor").is_none());

    // Through rmcp's client too.
    let client = fixture.client().await;
    let tools = client.list_all_tools().await.expect("tools/list");
    let tools: Vec<Value> = tools
        .iter()
        .map(|t| serde_json::to_value(t).expect("serialises"))
        .collect();
    assert_eq!(tools, files);
    client.cancel().await.expect("the client closes");
}

#[tokio::test]
async fn resources_list_and_read_the_widget() {
    let fixture = Fixture::start().await;
    let client = fixture.client().await;
    let meta = json!({
        "ui": {"csp": {"connectDomains": [WIDGET_DOMAIN], "resourceDomains": [WIDGET_DOMAIN]}, "domain": WIDGET_DOMAIN, "prefersBorder": true},
        "openai/widgetDomain": WIDGET_DOMAIN,
        "openai/widgetCSP": {"connect_domains": [WIDGET_DOMAIN], "resource_domains": [WIDGET_DOMAIN]},
        "openai/widgetPrefersBorder": true,
    });

    let resources = client.list_all_resources().await.expect("resources/list");
    let resources = serde_json::to_value(resources).expect("serialises");
    assert_eq!(resources.as_array().map(Vec::len), Some(1), "{resources}");
    let resource = &resources[0];
    assert_eq!(resource["uri"], "ui://careem-mcp-app");
    assert_eq!(resource["name"], "careem-mcp-app");
    assert_eq!(resource["title"], "Careem");
    assert_eq!(resource["mimeType"], "text/html;profile=mcp-app");
    assert!(
        resource["description"]
            .as_str()
            .is_some_and(|d| d.starts_with("The Careem widget"))
    );
    let mut expected_meta = meta.clone();
    expected_meta["openai/widgetDescription"] =
        resource["_meta"]["openai/widgetDescription"].clone();
    assert!(expected_meta["openai/widgetDescription"].is_string());
    assert_eq!(resource["_meta"], expected_meta);

    let read = client
        .read_resource(ReadResourceRequestParams::new("ui://careem-mcp-app"))
        .await
        .expect("resources/read");
    let read = serde_json::to_value(read).expect("serialises");
    let contents = read["contents"].as_array().expect("contents");
    assert_eq!(contents.len(), 1);
    assert_eq!(contents[0]["uri"], "ui://careem-mcp-app");
    assert_eq!(contents[0]["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(contents[0]["_meta"], expected_meta);
    let html = contents[0]["text"].as_str().expect("HTML");
    for needle in [
        r#"<div id="root">"#.to_string(),
        format!(r#"href="{WIDGET_DOMAIN}/assets/index.css""#),
        format!(r#"<script type="module" src="{WIDGET_DOMAIN}/assets/index.js""#),
    ] {
        assert!(html.contains(&needle), "{needle} in {html}");
    }
    let observable = format!("{resources}{read}").to_lowercase();
    for word in GIVEAWAYS {
        assert!(!observable.contains(word), "{word}");
    }

    let missing = client
        .read_resource(ReadResourceRequestParams::new("ui://elsewhere"))
        .await;
    match missing {
        Err(ServiceError::McpError(error)) => assert_eq!(error.code, ErrorCode::RESOURCE_NOT_FOUND),
        other => panic!("expected resource-not-found, got {other:?}"),
    }
    client.cancel().await.expect("the client closes");
}

#[tokio::test]
async fn options_drop_output_schemas_meta_and_the_widget() {
    let options = ServerOptions {
        no_output_schema: true,
        no_meta: true,
        widget_domain: "https://widgets.careem.test".into(),
        ..Default::default()
    };
    let fixture = Fixture::with(options).await;
    let client = fixture.client().await;
    let tools = client.list_all_tools().await.expect("tools/list");
    for (tool, mut file) in tools.iter().zip(file_definitions(&fixture.project)) {
        let file = file.as_object_mut().expect("an object");
        file.shift_remove("outputSchema");
        file.shift_remove("_meta");
        assert_eq!(
            serde_json::to_value(tool).expect("serialises"),
            Value::Object(file.clone())
        );
    }
    assert!(
        client
            .list_all_resources()
            .await
            .expect("resources/list")
            .is_empty()
    );
    let read = client
        .read_resource(ReadResourceRequestParams::new("ui://careem-mcp-app"))
        .await;
    assert!(
        matches!(read, Err(ServiceError::McpError(ref e)) if e.code == ErrorCode::RESOURCE_NOT_FOUND),
        "{read:?}"
    );
    client.cancel().await.expect("the client closes");
}

#[tokio::test]
async fn the_widget_domain_is_configurable() {
    let domain = "https://widgets.careem.test";
    let fixture = Fixture::with(ServerOptions {
        widget_domain: format!("{domain}/"),
        ..Default::default()
    })
    .await;
    let client = fixture.client().await;
    let read = client
        .read_resource(ReadResourceRequestParams::new("ui://careem-mcp-app"))
        .await
        .expect("read");
    let read = serde_json::to_value(read).expect("serialises");
    assert_eq!(read["contents"][0]["_meta"]["openai/widgetDomain"], domain);
    assert!(
        read["contents"][0]["text"]
            .as_str()
            .is_some_and(|html| html.contains(&format!("{domain}/assets/index.js")))
    );
    client.cancel().await.expect("the client closes");
}

// ---------------------------------------------------------------------------------------------
// tools/call

#[tokio::test]
async fn calls_answer_in_production_shape() {
    let fixture = Fixture::start().await;
    let client = fixture.client().await;
    // (tool, arguments, isError, a path into structuredContent, its value)
    let cases: Vec<(&str, Value, bool, &str, Value)> = vec![
        (
            "food_get_restaurant_menu",
            at_marina(json!({"restaurant_id": 30104})),
            false,
            "/restaurant/name/value",
            json!("Morning Syrniki Café"),
        ),
        (
            "food_get_restaurant_menu",
            at_marina(json!({"restaurant_id": 30101})),
            false,
            "/restaurant/name/value",
            json!("Shawarma Station"),
        ),
        (
            "food_get_restaurant_menu",
            at_marina(json!({"restaurant_id": 1})),
            false,
            "/error",
            json!("failed to get restaurant menu: unexpected response status 404"),
        ),
        (
            "food_merchant_search",
            at_marina(json!({"query": "sushi"})),
            false,
            "/restaurants/0/id",
            json!(30102),
        ),
        (
            "food_merchant_search",
            at_marina(json!({"query": "NOPE"})),
            false,
            "/restaurants",
            json!([]),
        ),
        (
            "reverse_geocode",
            at_marina(json!({})),
            false,
            "/location/locationUuid",
            json!("LOC-50001"),
        ),
    ];
    for (tool, args, is_error, pointer, expected) in cases {
        let result = call(&client, tool, args.clone()).await.expect("a result");
        assert_eq!(
            crate::support::is_error(&result),
            json!(is_error),
            "{tool} {args}: isError only when true"
        );
        let structured = &result["structuredContent"];
        assert_eq!(
            structured.pointer(pointer),
            Some(&expected),
            "{tool} {args}: {result}"
        );
        let content = result["content"].as_array().expect("content");
        assert_eq!(content.len(), 1);
        assert_eq!(content[0]["type"], "text");
        let text: Value = serde_json::from_str(content[0]["text"].as_str().expect("text"))
            .expect("the text is JSON");
        assert_eq!(&text, structured, "the text is the value");
    }

    // Invalid arguments: isError with the Go SDK's prefix, and no structured content.
    let invalid = [at_marina(json!({"restaurant_id": "x"})), json!({})];
    for args in invalid {
        let result = call(&client, "food_get_restaurant_menu", args.clone())
            .await
            .expect("a result");
        assert_eq!(result["isError"], true, "{args}");
        let text = result["content"][0]["text"].as_str().expect("text");
        assert!(
            text.starts_with("validating \"arguments\""),
            "{args}: {text}"
        );
        assert!(result.get("structuredContent").is_none());
    }
    let no_latitude = call(
        &client,
        "food_merchant_search",
        json!({"query": "sushi", "longitude": 55.1474}),
    )
    .await
    .expect("a result");
    assert_eq!(no_latitude["isError"], true);

    client.cancel().await.expect("the client closes");
}

#[tokio::test]
async fn an_unknown_tool_is_a_jsonrpc_error() {
    let fixture = Fixture::start().await;
    let client = fixture.client().await;
    match call(&client, "does_not_exist", json!({})).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
            assert!(
                error.message.contains(r#"unknown tool "does_not_exist""#),
                "{}",
                error.message
            );
        }
        other => panic!("expected -32602, got {other:?}"),
    }
    client.cancel().await.expect("the client closes");
}

#[tokio::test]
async fn overrides_force_scenarios_between_two_calls() {
    let fixture = Fixture::start().await;
    let client = fixture.client().await;
    let menu = at_marina(json!({"restaurant_id": 30104}));

    fixture.force(&json!({"food_get_restaurant_menu": "upstream-unavailable"}));
    let forced = call(&client, "food_get_restaurant_menu", menu.clone())
        .await
        .expect("a result");
    assert_eq!(forced.get("isError"), None);
    assert!(forced["structuredContent"]["error"].is_string(), "{forced}");

    fixture.force(&json!({}));
    let normal = call(&client, "food_get_restaurant_menu", menu)
        .await
        .expect("a result");
    assert_eq!(normal["structuredContent"]["restaurant"]["id"], 30104);

    // A `json error` scenario: isError, with the value as structured content too.
    fixture.force(&json!({"get_user_profile": "session-expired"}));
    let expired = call(&client, "get_user_profile", json!({}))
        .await
        .expect("a result");
    assert_eq!(expired["isError"], true);
    assert_eq!(
        expired["structuredContent"]["error"],
        "unauthorized: careem session expired, reconnect your Careem account"
    );
    client.cancel().await.expect("the client closes");
}

#[tokio::test]
async fn a_tool_file_broken_after_start_answers_internal_server_error() {
    let fixture = Fixture::start().await;
    let client = fixture.client().await;
    fixture.project.write(
        "tools/location/reverse_geocode.md",
        "---\ntool: reverse_geocode\n---\nno sections\n",
    );
    let result = call(&client, "reverse_geocode", at_marina(json!({})))
        .await
        .expect("a result");
    assert_eq!(result["isError"], true);
    assert_eq!(result["content"][0]["text"], "internal server error");
    client.cancel().await.expect("the client closes");
}

// ---------------------------------------------------------------------------------------------
// HTTP: health, guard, limits, sessions

#[tokio::test]
async fn health_counts_the_tools() {
    let fixture = Fixture::start().await;
    let response = http()
        .get(fixture.url("/health"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.expect("JSON"),
        json!({"status": "ok", "tools": 20})
    );
}

/// Hosts are checked on every route (DNS rebinding); Origin is accepted as production accepts
/// it: a cross-site page cannot send JSON without a CORS preflight, which is never granted
/// (tests/browser/mcp-origin.test.mjs).
#[tokio::test]
async fn foreign_hosts_are_refused_on_every_route_and_origins_are_accepted() {
    let fixture = Fixture::with(ServerOptions {
        allowed_hosts: vec!["tunnel.careem.test".into()],
        ..Default::default()
    })
    .await;
    let http = http();
    let routes = [
        (reqwest::Method::POST, "/mcp"),
        (reqwest::Method::GET, "/sse"),
        (reqwest::Method::POST, "/sse?sessionid=x"),
        (reqwest::Method::GET, "/health"),
    ];
    // (Host, Origin, admitted)
    let cases = [
        ("evil.test", None, false),
        ("evil.test:8787", None, false),
        ("127.0.0.1", Some("https://evil.test"), true),
        ("localhost", Some("null"), true),
        ("tunnel.careem.test", None, true),
        ("localhost:1", Some("http://localhost:6274"), true),
        ("[::1]:8787", Some("https://tunnel.careem.test"), true),
    ];
    for (method, path) in routes {
        for (host, origin, admitted) in cases {
            let mut request = http
                .request(method.clone(), fixture.url(path))
                .header("host", host);
            if let Some(origin) = origin {
                request = request.header("origin", origin);
            }
            let status = request.send().await.expect("an answer").status();
            assert_eq!(
                status == 403,
                !admitted,
                "{method} {path} Host {host} Origin {origin:?}: {status}"
            );
        }
    }
}

/// Sends a request head declaring `length` bytes of body, and reads the status line.
async fn declare_body(fixture: &Fixture, path: &str, length: usize) -> String {
    let mut socket = tokio::net::TcpStream::connect(fixture.server.addr)
        .await
        .expect("connects");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: {ACCEPT}\r\nContent-Length: {length}\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).await.expect("writes");
    let mut answer = vec![0; 512];
    let read = tokio::time::timeout(Duration::from_secs(5), socket.read(&mut answer))
        .await
        .expect("in time")
        .expect("reads");
    String::from_utf8_lossy(&answer[..read])
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn bodies_over_four_mebibytes_are_refused() {
    let fixture = Fixture::start().await;
    for path in ["/mcp", "/sse?sessionid=x"] {
        let status = declare_body(&fixture, path, 4 * 1024 * 1024 + 1).await;
        assert!(status.contains(" 413 "), "{path}: {status}");
    }

    // A chunked body (no declared length) is cut off while it streams.
    let (sse, endpoint) = sse::open(&fixture.url("/sse")).await;
    let big = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{{\"p\":\"{}\"}}}}",
        "a".repeat(4 * 1024 * 1024)
    );
    let chunks = futures::stream::iter(
        big.into_bytes()
            .chunks(64 * 1024)
            .map(|c| Ok::<_, std::io::Error>(c.to_vec()))
            .collect::<Vec<_>>(),
    );
    let response = http()
        .post(&endpoint)
        .header("content-type", "application/json")
        .body(reqwest::Body::wrap_stream(chunks))
        .send()
        .await;
    // The server may close the connection before the client has sent everything.
    if let Ok(response) = response {
        assert_eq!(response.status(), 413);
    }
    drop(sse);
}

#[tokio::test]
async fn delete_ends_a_session_with_204() {
    let fixture = Fixture::start().await;
    let (raw, _) = Raw::initialize(fixture.url("/mcp"), "2025-06-18").await;
    let response = raw
        .on_session(http().delete(fixture.url("/mcp")))
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status(), 204, "DELETE answers 204 No Content");

    // The session is gone.
    let after = raw
        .send(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {}}))
        .await;
    assert_eq!(after.status(), 404);
}

#[tokio::test]
async fn idle_sessions_expire() {
    let options = ServerOptions {
        session_idle: Duration::from_millis(200),
        ..Default::default()
    };
    let fixture = Fixture::with(options).await;
    let (raw, _) = Raw::initialize(fixture.url("/mcp"), "2025-06-18").await;
    raw.request(2, "tools/list", json!({})).await;
    // The session's own stream (GET) ends when the session does: wait for that, idle, since
    // any look at the session would start its idle time again.
    let stream = raw
        .on_session(http().get(fixture.url("/mcp")))
        .header("accept", "text/event-stream")
        .send()
        .await
        .expect("the session's stream opens");
    assert_eq!(stream.status(), 200);
    assert!(
        sse::Events::of(stream)
            .ended_within(Duration::from_secs(20))
            .await,
        "the idle session ended"
    );
    let after = raw
        .send(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}}))
        .await;
    assert_eq!(after.status(), 404, "the idle session is gone");
}

#[tokio::test]
async fn a_port_in_use_is_a_clear_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
    let port = taken.local_addr().expect("an address").port();
    let project = Project::copy_of_repo();
    let error = start_http(
        std::sync::Arc::new(engine(&project)),
        ServerOptions {
            port,
            ..Default::default()
        },
    )
    .await
    .expect_err("in use");
    assert!(
        matches!(error, ServerError::Listen(BindError::AddrInUse { .. })),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .starts_with(&format!("127.0.0.1:{port} is already in use")),
        "{error}"
    );
}

#[tokio::test]
async fn shutdown_ends_open_streams_and_stops_listening() {
    let fixture = Fixture::start().await;
    let client = fixture.client().await;
    let _sse = sse::open(&fixture.url("/sse")).await;
    let addr = fixture.server.addr;
    let Fixture {
        server,
        project: _project,
    } = fixture;
    tokio::time::timeout(Duration::from_secs(3), server.shutdown())
        .await
        .expect("shuts down promptly");
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "no longer listening"
    );
    drop(client);
}

// ---------------------------------------------------------------------------------------------
// Legacy SSE, by hand

#[tokio::test]
async fn legacy_sse_serves_a_session_per_stream() {
    let fixture = Fixture::start().await;
    let (mut sse, messages) = sse::open(&fixture.url("/sse")).await;

    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    assert_eq!(sse::post(&messages, initialize.to_string()).await, 202);
    let answer = sse.next_message().await;
    assert_eq!(answer["id"], 1);
    assert_eq!(
        answer["result"]["serverInfo"],
        json!({"name": "careem-mcp-service", "version": "v1.0.0"})
    );
    assert_eq!(answer["result"]["protocolVersion"], "2024-11-05");
    assert!(answer["result"].get("instructions").is_none());
    assert_eq!(
        sse::post(
            &messages,
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string()
        )
        .await,
        202
    );

    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}});
    assert_eq!(sse::post(&messages, list.to_string()).await, 202);
    let tools = sse.next_message().await;
    assert_eq!(tools["result"]["tools"].as_array().map(Vec::len), Some(20));

    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": marina_call()});
    assert_eq!(sse::post(&messages, call.to_string()).await, 202);
    let result = sse.next_message().await;
    assert_eq!(result["id"], 3);
    assert_marina_result(&result["result"], "over legacy SSE");

    // (URL, body, status)
    let unknown = fixture.url("/sse?sessionid=ZZZZUNKNOWNSESSIONZZZZZZZZ");
    let refusals = [
        (unknown.as_str(), list.to_string(), 404),
        (&fixture.url("/sse"), list.to_string(), 400),
        (messages.as_str(), "{not json".to_string(), 400),
        (messages.as_str(), json!({"no": "method"}).to_string(), 400),
    ];
    for (url, body, status) in refusals {
        assert_eq!(sse::post(url, body.clone()).await, status, "{url} {body}");
    }

    // The client goes away: its session ends and its endpoint is gone.
    drop(sse);
    let ping = json!({"jsonrpc": "2.0", "id": 4, "method": "ping"}).to_string();
    let (messages, ping) = (&messages, &ping);
    wait_until_async(Duration::from_secs(20), move || async move {
        (sse::post(messages, ping.clone()).await == 404).then_some(())
    })
    .await
    .expect("the session ends with its stream");
}

#[tokio::test]
async fn sse_sessions_are_independent() {
    let fixture = Fixture::start().await;
    let (mut first, first_endpoint) = sse::open(&fixture.url("/sse")).await;
    let (mut second, second_endpoint) = sse::open(&fixture.url("/sse")).await;
    assert_ne!(first_endpoint, second_endpoint);
    for (id, endpoint) in [(1, &first_endpoint), (2, &second_endpoint)] {
        let initialize = json!({"jsonrpc": "2.0", "id": id, "method": "initialize",
            "params": {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
        assert_eq!(sse::post(endpoint, initialize.to_string()).await, 202);
    }
    assert_eq!(first.next_message().await["id"], 1);
    assert_eq!(second.next_message().await["id"], 2);
}

// ---------------------------------------------------------------------------------------------
// stdio, through the real binary

/// `serve --stdio` in `project`, its tools and overrides file named on the command line.
fn stdio_command(project: &Project) -> std::process::Command {
    let mut command = project.command();
    command
        .arg("--tools")
        .arg(project.path().join("tools"))
        .arg("--overrides")
        .arg(project.path().join(".run/overrides.json"))
        .args(["serve", "--stdio"]);
    command
}

#[tokio::test]
async fn stdio_serves_the_same_answers() {
    let project = Project::copy_of_repo();
    let client = stdio_client(stdio_command(&project)).await;

    let info =
        serde_json::to_value(client.peer_info().expect("peer info").as_ref()).expect("serialises");
    assert_eq!(
        info["serverInfo"],
        json!({"name": "careem-mcp-service", "version": "v1.0.0"})
    );
    assert!(info.get("instructions").is_none());

    let tools: Vec<Value> = client
        .list_all_tools()
        .await
        .expect("tools/list")
        .iter()
        .map(|t| serde_json::to_value(t).expect("serialises"))
        .collect();
    assert_eq!(tools, file_definitions(&project));

    let result = call(
        &client,
        "food_get_restaurant_menu",
        at_marina(json!({"restaurant_id": 30104})),
    )
    .await
    .expect("a result");
    assert_eq!(result.get("isError"), None);
    assert_eq!(result["structuredContent"]["restaurant"]["id"], 30104);

    project.write(
        ".run/overrides.json",
        r#"{"food_get_restaurant_menu": "upstream-unavailable"}"#,
    );
    let forced = call(
        &client,
        "food_get_restaurant_menu",
        at_marina(json!({"restaurant_id": 30104})),
    )
    .await
    .expect("a result");
    assert!(forced["structuredContent"]["error"].is_string(), "{forced}");

    client.cancel().await.expect("the client closes");
}

#[test]
fn stdout_of_stdio_carries_protocol_messages_only() {
    let project = Project::copy_of_repo();
    let stderr = std::fs::File::create(project.path().join("stderr.log")).expect("a log file");
    let mut server = StdioServer::start(stdio_command(&project), stderr);

    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": marina_call()}),
    ];
    for message in &messages {
        server.send_json(message);
    }
    let lines_rx = &server.lines;
    let mut lines = Vec::new();
    while lines.len() < 2 {
        match lines_rx.recv_timeout(Duration::from_secs(10)) {
            Ok(line) if line.trim().is_empty() => {}
            Ok(line) => lines.push(line),
            Err(_) => break,
        }
    }
    // Closing stdin ends the session, and the process with it.
    server.close_stdin();
    let status = server.process.wait_for_exit(Duration::from_secs(10));
    lines.extend(server.lines.try_iter().filter(|l| !l.trim().is_empty()));
    let log = project.read("stderr.log");

    assert_eq!(lines.len(), 2, "stdout: {lines:?}\nstderr: {log}");
    for line in &lines {
        let message: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON-RPC ({e}): {line}"));
        assert_eq!(message["jsonrpc"], "2.0");
    }
    let answer: Value = serde_json::from_str(&lines[1]).expect("JSON");
    assert_marina_result(&answer["result"], "over stdio");
    assert!(
        status.is_some_and(|s| s.success()),
        "exits cleanly when stdin closes: {status:?}\nstderr: {log}"
    );
}
