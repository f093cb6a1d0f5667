//! rmcp's own client over each transport, and the calls the tests make through it.

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{Map, Value, json};

/// A connected, initialised MCP session, whatever carries it.
pub type Client = RunningService<RoleClient, ()>;

/// rmcp's client over Streamable HTTP at `url`.
pub async fn http_client(url: &str) -> Client {
    ().serve(StreamableHttpClientTransport::from_uri(url.to_string()))
        .await
        .expect("the client initializes over Streamable HTTP")
}

/// rmcp's client over legacy SSE at `url` (`…/sse`), through the transport `verify` uses.
pub async fn sse_client(url: &str) -> Client {
    careem_mcp::probe::sse(url)
        .await
        .unwrap_or_else(|error| panic!("the client initializes over SSE: {error}"))
}

/// rmcp's client over `serve --stdio` started by `command` (its stderr dropped).
pub async fn stdio_client(command: std::process::Command) -> Client {
    let (transport, _stderr) = TokioChildProcess::builder(tokio::process::Command::from(command))
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary starts");
    ().serve(transport)
        .await
        .expect("the client initializes over stdio")
}

pub fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// Dubai Marina, where every test stands.
pub fn marina() -> Value {
    json!({"latitude": 25.0866, "longitude": 55.1474})
}

/// `extra` arguments at Dubai Marina.
pub fn at_marina(extra: Value) -> Value {
    let mut args = object(marina());
    args.extend(object(extra));
    Value::Object(args)
}

/// One `tools/call`; the whole result as JSON.
pub async fn call(client: &Client, tool: &str, args: Value) -> Result<Value, ServiceError> {
    let params = CallToolRequestParams::new(tool.to_string()).with_arguments(object(args));
    let result: CallToolResult = client.call_tool(params).await?;
    Ok(serde_json::to_value(result).expect("a result serialises"))
}

/// The params of the normal call: `reverse_geocode` at Dubai Marina, as JSON-RPC sends them.
pub fn marina_call() -> Value {
    json!({"name": "reverse_geocode", "arguments": marina()})
}

/// Whether a tools/call result says `isError`, as JSON. The Go SDK leaves `isError` out when it
/// is false, so a `false` written out is a difference from production.
pub fn is_error(result: &Value) -> Value {
    assert_ne!(
        result.get("isError"),
        Some(&Value::Bool(false)),
        "isError: false is left out by production: {result}"
    );
    json!(result.get("isError") == Some(&Value::Bool(true)))
}

/// Asserts that `result` (of a tools/call) is the normal call's normal answer.
pub fn assert_marina_result(result: &Value, context: &str) {
    assert_eq!(result.get("isError"), None, "{context}: {result}");
    assert_eq!(
        result["structuredContent"]["location"]["locationUuid"], "LOC-50001",
        "{context}: {result}"
    );
}

/// A normal call gets the normal answer.
pub async fn assert_marina(client: &Client) {
    let result = call(client, "reverse_geocode", marina())
        .await
        .expect("a normal call answers");
    assert_marina_result(&result, "a normal call");
}
