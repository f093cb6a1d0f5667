//! The one place that shapes an engine answer as MCP's `tools/call` result: the server sends
//! it (as rmcp's result, or written from its text on the direct path), and `careem-mcp call`
//! prints it, so they can never disagree.

use rmcp::model::{CallToolResult, ContentBlock, RequestId};
use serde_json::Value;

use crate::engine::CallOutput;

/// The result as the handler hands it to rmcp.
pub fn call_result(output: CallOutput) -> CallToolResult {
    // Moved, not copied: the value is as large as the answer.
    let structured = match output.value {
        Some(Value::Object(object)) => Some(Value::Object(object)),
        _ => None,
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(output.text)]);
    result.structured_content = structured;
    result.is_error = Some(output.is_error);
    result
}

/// The result as a client that negotiated production's protocol version receives it: rmcp
/// drops `resultType` for such clients, so it is dropped here too.
pub fn call_result_json(output: CallOutput) -> Value {
    let mut result = call_result(output);
    result.result_type = None;
    serde_json::to_value(result).expect("a tool result always serialises")
}

/// The JSON-RPC answer to `tools/call` `id` as rmcp's service serialises it for a client that
/// negotiated production's protocol version, written from the answer's text alone: the text
/// goes in once escaped as the text content and, when the value is an object, once as it stands
/// as `structuredContent` (it is that value's compact JSON), so that no value is built, copied
/// or serialised. A unit test holds it to rmcp's bytes.
pub(crate) fn call_answer_json(
    id: &RequestId,
    text: &str,
    structured: bool,
    is_error: bool,
) -> Vec<u8> {
    let mut json = Vec::with_capacity(2 * text.len() + 128);
    json.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    serde_json::to_writer(&mut json, id).expect("a request id serialises");
    json.extend_from_slice(br#","result":{"content":[{"type":"text","text":"#);
    serde_json::to_writer(&mut json, text).expect("a string serialises");
    json.extend_from_slice(b"}]");
    if structured {
        json.extend_from_slice(br#","structuredContent":"#);
        json.extend_from_slice(text.as_bytes());
    }
    json.extend_from_slice(br#","isError":"#);
    json.extend_from_slice(if is_error { b"true" } else { b"false" });
    json.extend_from_slice(b"}}");
    json
}

#[cfg(test)]
mod tests {
    use rmcp::model::{ServerJsonRpcMessage, ServerResult};
    use serde_json::json;

    use super::*;
    use crate::engine::{Decision, JsonShape};

    fn output(value: Option<Value>, text: &str, is_error: bool) -> CallOutput {
        let json = value.as_ref().map(|value| match value {
            Value::Object(_) => JsonShape::Object,
            _ => JsonShape::Other,
        });
        CallOutput {
            tool: "t".into(),
            received: json!({}),
            arguments: json!({}),
            decision: Decision::InvalidArguments,
            value,
            json,
            text: text.to_string(),
            is_error,
            micros: 0,
            step: None,
            delay_ms: 0,
        }
    }

    #[test]
    fn the_answer_written_from_its_text_is_rmcps_to_the_byte() {
        let object = json!({"a": "é \"q\" \\ 🍣 \n\u{7}", "n": [1, 2.5, null], "o": {"t": true}});
        let cases = [
            (
                RequestId::Number(7),
                output(Some(object.clone()), &object.to_string(), false),
            ),
            (
                RequestId::String("a\"b".into()),
                output(Some(object.clone()), &object.to_string(), true),
            ),
            (
                RequestId::Number(-1),
                output(Some(json!([1, {"b": 2}])), "[1,{\"b\":2}]", false),
            ),
            (
                RequestId::Number(0),
                output(Some(json!("text")), "\"text\"", false),
            ),
            (
                RequestId::Number(3),
                output(None, "validating \"arguments\": bad \n value", true),
            ),
        ];
        for (id, output) in cases {
            let written = call_answer_json(
                &id,
                &output.text,
                output.json == Some(JsonShape::Object),
                output.is_error,
            );
            let mut result = call_result(output);
            result.result_type = None;
            let rmcps = ServerJsonRpcMessage::response(ServerResult::CallToolResult(result), id);
            assert_eq!(
                String::from_utf8(written).unwrap(),
                serde_json::to_string(&rmcps).unwrap()
            );
        }
    }
}
