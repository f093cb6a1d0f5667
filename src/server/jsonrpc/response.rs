//! Answers as the SDK encodes them: `jsonrpc`, `id` (left out when there is none), then
//! `result` or `error`, no spaces, Go's escaping.

use serde::Serialize;
use serde_json::Value;

use super::message::Id;
use crate::go::json::{self as go_json, Escaping};

/// A JSON-RPC error as the SDK sends it: `data` left out when empty.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct RpcError {
    pub(crate) code: i64,
    pub(crate) message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) data: Option<Value>,
}

impl RpcError {
    pub(crate) fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }
}

fn head(id: Option<&Id>, capacity: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(capacity + 48);
    out.extend_from_slice(br#"{"jsonrpc":"2.0""#);
    if let Some(id) = id {
        out.extend_from_slice(br#","id":"#);
        go_json::write(&mut out, id, Escaping::Envelope);
    }
    out
}

/// The answer to `id` whose result is `result`, already JSON as Go writes it.
pub(crate) fn result_message(id: &Id, result: &[u8]) -> Vec<u8> {
    let mut out = head(Some(id), result.len());
    out.extend_from_slice(br#","result":"#);
    out.extend_from_slice(result);
    out.push(b'}');
    out
}

/// The error answer to `id`.
pub(crate) fn error_message(id: Option<&Id>, error: &RpcError) -> Vec<u8> {
    let mut out = head(id, error.message.len() + 32);
    out.extend_from_slice(br#","error":"#);
    go_json::write(&mut out, error, Escaping::Envelope);
    out.push(b'}');
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn answers_are_encoded_as_the_sdk_encodes_them() {
        let cases = [
            (
                result_message(&Id::Number(10), b"{}"),
                r#"{"jsonrpc":"2.0","id":10,"result":{}}"#,
            ),
            (
                error_message(
                    Some(&Id::Number(15)),
                    &RpcError {
                        code: -32002,
                        message: "Resource not found".into(),
                        data: Some(json!({"uri": "ui://nope"})),
                    },
                ),
                r#"{"jsonrpc":"2.0","id":15,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"ui://nope"}}}"#,
            ),
            (
                error_message(
                    Some(&Id::Text("a".into())),
                    &RpcError::new(0, "method \"x\" <is> invalid"),
                ),
                r#"{"jsonrpc":"2.0","id":"a","error":{"code":0,"message":"method \"x\" <is> invalid"}}"#,
            ),
        ];
        for (got, want) in cases {
            assert_eq!(String::from_utf8(got).unwrap(), want);
        }
    }
}
