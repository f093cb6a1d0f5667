//! A tool call's result as the Go SDK writes a typed handler's (`CallToolResult` with one
//! `TextContent`): the bytes the server sends, and the same JSON as data for `careem-mcp call`
//! and the dashboard, which show what a client would read.

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::json::{self as go_json, Escaping};

/// What a tool's text is, which decides how the SDK writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content {
    /// A message, sent as it is (an error's words).
    Text,
    /// A value's JSON that is not an object: marshalled, so HTML escaped.
    Json,
    /// An object's JSON: marshalled, and sent again as `structuredContent`.
    JsonObject,
}

/// `CallToolResult`: one text item, `structuredContent` (the same JSON, as it is) when the
/// value is an object, `isError` only when true.
#[derive(Serialize)]
struct CallToolResult<'a> {
    content: [TextContent<'a>; 1],
    #[serde(rename = "structuredContent", skip_serializing_if = "Option::is_none")]
    structured_content: Option<&'a RawValue>,
    #[serde(rename = "isError", skip_serializing_if = "std::ops::Not::not")]
    is_error: bool,
}

/// `TextContent`: `{"type":"text","text":…}`.
#[derive(Serialize)]
struct TextContent<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    text: &'a str,
}

/// The result's bytes. A value's text is its JSON as `json.Marshal` writes it (HTML escaped),
/// and the text item is itself marshalled so, as the SDK's `TextContent` is.
pub(crate) fn write(text: &str, content: Content, is_error: bool) -> Vec<u8> {
    let text = match content {
        Content::Text => std::borrow::Cow::Borrowed(text),
        Content::Json | Content::JsonObject => go_json::html_escaped(text),
    };
    let structured = match content {
        Content::JsonObject => serde_json::from_str::<&RawValue>(&text).ok(),
        Content::Text | Content::Json => None,
    };
    let result = CallToolResult {
        content: [TextContent {
            kind: "text",
            text: &text,
        }],
        structured_content: structured,
        is_error,
    };
    let mut out = Vec::with_capacity(2 * text.len() + 96);
    go_json::write(&mut out, &result, Escaping::Html);
    out
}

/// The result as data: the same JSON the client reads.
#[must_use]
pub fn to_value(text: &str, content: Content, is_error: bool) -> Value {
    serde_json::from_slice(&write(text, content, is_error)).unwrap_or(Value::Null)
}
