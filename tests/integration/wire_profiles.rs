//! `serve --wire`: choosing the Go SDK release the server answers as, what the banner says, the
//! refusal of an unknown profile, what the stateless profile does with controls that count per
//! session, and `serve -v`'s line for each refused request.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{ACCEPT, Project, RawRequest, address, raw_exchange, serve_binary};

const LIMIT: Duration = Duration::from_secs(10);

/// A POST of `message` to `/mcp` with the headers a client sends, plus `extra`; the status and
/// the body.
fn post(addr: SocketAddr, message: &Value, extra: &[(&str, &str)]) -> (u16, String) {
    let mut headers = vec![
        ("Host".to_string(), addr.to_string()),
        ("Content-Type".to_string(), "application/json".to_string()),
        ("Accept".to_string(), ACCEPT.to_string()),
    ];
    headers.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let request = RawRequest {
        method: "POST",
        path: "/mcp",
        headers,
        body: Some(message.to_string().into_bytes()),
    };
    let mut response = raw_exchange(addr, &request, LIMIT).expect("the server answers");
    let (body, _) = response.body_within(LIMIT);
    (response.status, String::from_utf8_lossy(&body).into_owned())
}

fn discover() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover"})
}

#[test]
fn an_unknown_profile_is_refused_with_the_list_of_profiles() {
    let project = Project::copy_of_repo();
    let run = project.run(&["serve", "--wire", "go-sdk-1.8.0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    for profile in ["go-sdk-1.6.1", "go-sdk-1.7.0", "go-sdk-1.7.0-stateless"] {
        assert!(run.stderr.contains(profile), "{}", run.stderr);
    }
}

#[test]
fn the_banner_names_the_profile_and_the_environment_chooses_it() {
    let project = Project::copy_of_repo();
    let (_server, _url, mut stderr) = serve_binary(&project, &[]);
    let lines = stderr.lines().join("\n");
    assert!(lines.contains("careem-mcp: wire go-sdk-1.6.1 "), "{lines}");

    let mut command = project.command();
    command
        .env("CAREEM_MCP_WIRE", "go-sdk-1.7.0")
        .args(["serve", "--port", "0"]);
    let (_server, rest, mut stderr) =
        crate::support::start_announced(command, "careem-mcp: serving ");
    let lines = stderr.lines().join("\n");
    assert!(lines.contains("careem-mcp: wire go-sdk-1.7.0 "), "{lines}");
    let url = rest
        .split_whitespace()
        .find(|word| word.ends_with("/mcp"))
        .expect("the /mcp URL");
    let (status, body) = post(address(url), &discover(), &[]);
    // A discover without `_meta` is a JSON-RPC error from v1.7.0's handler, not v1.6.1's 400,
    // in the words v1.7.0's jsonrpc2 layer gives every "method not found".
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains(r#""code":-32601,"message":"method not found: \"server/discover\"""#),
        "{body}"
    );
}

#[test]
fn serve_v_says_why_a_request_was_refused_and_is_silent_without_it() {
    let project = Project::copy_of_repo();
    let (_server, url, mut stderr) = serve_binary(&project, &["-v"]);
    let addr = address(&url);
    let (status, _) = post(addr, &discover(), &[("Mcp-Session-Id", "NOSUCHSESSION")]);
    assert_eq!(status, 404);
    let line = stderr
        .wait_for(LIMIT, |line| line.contains("refused POST /mcp"))
        .expect("a line for the refusal");
    assert!(
        line.contains("404")
            && line.contains("session not found")
            && line.contains("NOSUCHSESSION"),
        "{line}"
    );
    let (status, _) = post(addr, &discover(), &[]);
    assert_eq!(status, 400);
    let line = stderr
        .wait_for(LIMIT, |line| {
            line.contains("refused POST /mcp") && line.contains("server/discover")
        })
        .expect("a line for the discover refusal");
    assert!(
        line.contains(r#"400 Bad Request JSON RPC not handled: "server/discover" unsupported"#),
        "{line}"
    );

    let (_server, url, mut stderr) = serve_binary(&project, &[]);
    let addr = address(&url);
    assert_eq!(post(addr, &discover(), &[]).0, 400);
    // The next thing the server logs is a call's line: nothing was logged for the refusal.
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}});
    let request = RawRequest {
        method: "POST",
        path: "/mcp",
        headers: vec![
            ("Host".into(), addr.to_string()),
            ("Content-Type".into(), "application/json".into()),
            ("Accept".into(), ACCEPT.into()),
        ],
        body: Some(initialize.to_string().into_bytes()),
    };
    let mut response = raw_exchange(addr, &request, LIMIT).expect("initialize");
    let session = response
        .header("mcp-session-id")
        .expect("a session")
        .to_string();
    response.body_within(LIMIT);
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "get_user_profile", "arguments": {}}});
    post(addr, &call, &[("Mcp-Session-Id", &session)]);
    let logged = stderr
        .wait_for(LIMIT, |line| line.contains("get_user_profile"))
        .expect("the call's line");
    let before: Vec<String> = stderr.lines();
    assert!(
        !before.iter().any(|line| line.contains("refused")) && !logged.contains("refused"),
        "{before:?}"
    );
}

/// Without sessions, a sequence steps through every stateless call of the run: the first call
/// answers the first step, the next call (a POST of its own) the second.
#[test]
fn stateless_sequences_are_run_scoped() {
    let project = Project::copy_of_repo();
    let set = project.run(&[
        "scenario",
        "get_user_profile",
        "no-subscription",
        "careem-plus-member",
    ]);
    assert_eq!(set.code, 0, "{}", set.stderr);
    let (_server, url, _stderr) = serve_binary(&project, &["--wire", "go-sdk-1.7.0-stateless"]);
    let addr = address(&url);
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "get_user_profile", "arguments": {}}});
    let actives: Vec<bool> = (0..2)
        .map(|_| {
            let (status, body) = post(addr, &call, &[]);
            assert_eq!(status, 200, "{body}");
            assert!(!body.contains("mcp-session-id"), "{body}");
            body.contains(r#"\"active\":true"#)
        })
        .collect();
    assert_eq!(actives, [false, true]);
}

/// A 2026-07-28 request whose header disagrees with its `_meta` is refused as v1.7.0 refuses
/// it: -32020, as JSON with 400.
#[test]
fn stateless_refuses_a_header_that_disagrees_with_meta() {
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) = serve_binary(&project, &["--wire", "go-sdk-1.7.0-stateless"]);
    let message = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}}});
    let (status, body) = post(
        address(&url),
        &message,
        &[
            ("MCP-Protocol-Version", "2025-11-25"),
            ("Mcp-Method", "tools/list"),
        ],
    );
    assert_eq!(status, 400, "{body}");
    let answer: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(answer["error"]["code"], -32020, "{body}");
    let (status, body) = post(
        address(&url),
        &message,
        &[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ],
    );
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains(r#""resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo""#),
        "{body}"
    );
    assert!(
        body.contains(r#""ttlMs":0,"cacheScope":"public","tools":["#),
        "{body}"
    );
}

/// `server/discover` under 2026-07-28 is v1.7.0's `DiscoverResult`, byte for byte: each field
/// once, in the struct's order (a recording read as JSON would not see a field written twice).
#[test]
fn discover_is_written_as_v1_7_0_writes_it() {
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) = serve_binary(&project, &["--wire", "go-sdk-1.7.0-stateless"]);
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}}});
    let (status, body) = post(
        address(&url),
        &message,
        &[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "server/discover"),
        ],
    );
    assert_eq!(status, 200, "{body}");
    let want = concat!(
        r#"data: {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","#,
        r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"careem-mcp-service","version":"v1.0.0"}},"#,
        r#""ttlMs":0,"cacheScope":"public","#,
        r#""supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"#,
        r#""capabilities":{"logging":{},"resources":{"listChanged":true},"tools":{"listChanged":true}}}}"#
    );
    assert!(body.contains(want), "{body}");
}
