//! The one place that shapes an engine answer as MCP's `tools/call` result: the server sends
//! it, and `careem-mcp call` prints it, so the two can never disagree.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

use crate::engine::CallOutput;

/// The result as the handler hands it to rmcp.
pub fn call_result(output: CallOutput) -> CallToolResult {
    // Moved, not copied: the value is as large as the answer (`CallOutput::structured`).
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
