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

/// A normal call gets the normal answer.
pub async fn assert_marina(client: &Client) {
    let result = call(client, "reverse_geocode", marina())
        .await
        .expect("a normal call answers");
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(
        result["structuredContent"]["location"]["locationUuid"],
        "LOC-50001"
    );
}
