//! JSON-RPC messages as the Go SDK's `jsonrpc2` reads and writes them. Read: the same
//! envelope rules, the same refusals in the same words; params stay raw text until a method
//! reads them. Written: `jsonrpc`, `id` (left out when there is none), then `result` or
//! `error`, no spaces, Go's escaping.
//!
//! Lone UTF-16 surrogates in `\u` escapes are read as Go's decoder reads them: a high surrogate
//! not followed by its low half, or a low one on its own, is U+FFFD. serde refuses such a
//! string outright (JavaScript's `JSON.stringify` writes one for a cut-off emoji), so each is
//! rewritten to `\ufffd` before serde reads the text ([`mend`]); the text keeps its length, and
//! so do the places any later complaint names.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::go::json::{self as go_json, Escaping};

/// A request id: Go's decoder keeps numbers as whole numbers (a fraction is cut off) and
/// strings as they are.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Id {
    Number(i64),
    Text(String),
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Number(number) => serializer.serialize_i64(*number),
            Self::Text(text) => serializer.serialize_str(text),
        }
    }
}

impl fmt::Display for Id {
    /// As Go's `%v` prints the id inside its refusals: `{7}`'s value, a string quoted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(number) => write!(f, "{number}"),
            Self::Text(text) => write!(f, "{}", serde_json::Value::from(text.as_str())),
        }
    }
}

/// One message from the client.
#[derive(Debug)]
pub(crate) enum Message {
    /// A call (with an id) or a notification (without).
    Request(Request),
    /// A response to something the server asked; the server asks nothing, so it is dropped.
    Response,
}

#[derive(Debug)]
pub(crate) struct Request {
    pub(crate) id: Option<Id>,
    pub(crate) method: String,
    /// `None` when the message has no `params` at all; `null` is kept as the text `null`.
    pub(crate) params: Option<Box<RawValue>>,
}

impl Request {
    pub(crate) fn is_call(&self) -> bool {
        self.id.is_some()
    }
}

/// Why a body is not a message, in the SDK's words (after its `malformed payload: `).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum DecodeError {
    #[error("unmarshaling jsonrpc message: {0}")]
    Syntax(String),
    #[error("invalid message version tag {0}; expected \"2.0\"")]
    Version(String),
    #[error("parse error: invalid ID type {0}")]
    IdType(&'static str),
    #[error("invalid request")]
    Invalid,
    #[error("empty batch")]
    EmptyBatch,
}

#[derive(Deserialize)]
struct Wire<'a> {
    #[serde(default, borrow)]
    jsonrpc: Option<&'a RawValue>,
    #[serde(default, borrow)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default, borrow, deserialize_with = "present")]
    params: Option<&'a RawValue>,
}

/// A field that is present, `null` included (plain `Option` would read `null` as absent).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

/// One message, as `jsonrpc2.DecodeMessage` reads it.
pub(crate) fn decode(text: &[u8]) -> Result<Message, DecodeError> {
    decode_mended(&mend(text))
}

/// [`decode`] of a text whose lone surrogates are mended already.
fn decode_mended(text: &[u8]) -> Result<Message, DecodeError> {
    // Go's decoder reads the first value and leaves what follows it, and takes invalid UTF-8
    // as U+FFFD.
    let mut reader = serde_json::Deserializer::from_slice(text);
    let wire = match Wire::deserialize(&mut reader) {
        Ok(wire) => wire,
        Err(error) => {
            if let Err(invalid) = std::str::from_utf8(text) {
                tracing::debug!("a message that is not UTF-8: {invalid}");
                let mended = String::from_utf8_lossy(text).into_owned();
                return decode_mended(mended.as_bytes());
            }
            return Err(DecodeError::Syntax(syntax(text, &error)));
        }
    };
    let version = match wire.jsonrpc {
        None => String::new(),
        Some(raw) => match serde_json::from_str::<Option<String>>(raw.get()) {
            Ok(tag) => tag.unwrap_or_default(),
            Err(_) => {
                return Err(DecodeError::Syntax(format!(
                    "json: cannot unmarshal {} into Go struct field wireCombined.jsonrpc of type string",
                    kind(raw.get())
                )));
            }
        },
    };
    if version != "2.0" {
        return Err(DecodeError::Version(
            serde_json::Value::from(version).to_string(),
        ));
    }
    let id = match wire.id {
        None => None,
        Some(raw) => id(raw.get())?,
    };
    match wire.method.filter(|method| !method.is_empty()) {
        Some(method) => Ok(Message::Request(Request {
            id,
            method,
            params: wire.params.map(RawValue::to_owned),
        })),
        None if id.is_none() => Err(DecodeError::Invalid),
        None => Ok(Message::Response),
    }
}

/// A body's messages and whether it was a batch, as the SDK's `readBatch` reads them: an array
/// is a batch (empty: refused), anything else one message.
pub(crate) fn read_batch(body: &[u8]) -> Result<(Vec<Message>, bool), DecodeError> {
    let body = mend(body);
    if let Ok(batch) = serde_json::from_slice::<Vec<&RawValue>>(&body) {
        if batch.is_empty() {
            return Err(DecodeError::EmptyBatch);
        }
        let messages = batch
            .iter()
            .map(|raw| decode_mended(raw.get().as_bytes()))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok((messages, true));
    }
    decode_mended(&body).map(|message| (vec![message], false))
}

fn id(raw: &str) -> Result<Option<Id>, DecodeError> {
    match raw.as_bytes().first() {
        Some(b'n') => Ok(None),
        Some(b'"') => serde_json::from_str(raw)
            .map(|text| Some(Id::Text(text)))
            .map_err(|_| DecodeError::IdType("string")),
        Some(b'-' | b'0'..=b'9') => {
            // Go reads the number as a float64 and keeps its whole part.
            let number: f64 = raw.parse().map_err(|_| DecodeError::IdType("float64"))?;
            #[allow(clippy::cast_possible_truncation)]
            Ok(Some(Id::Number(number as i64)))
        }
        Some(b't' | b'f') => Err(DecodeError::IdType("bool")),
        Some(b'[') => Err(DecodeError::IdType("[]interface {}")),
        _ => Err(DecodeError::IdType("map[string]interface {}")),
    }
}

/// What Go calls a JSON value's kind in its type errors.
pub(crate) fn kind(raw: &str) -> &'static str {
    match raw.trim_start().as_bytes().first() {
        Some(b'"') => "string",
        Some(b't' | b'f') => "bool",
        Some(b'[') => "array",
        Some(b'{') => "object",
        _ => "number",
    }
}

/// serde's complaint about `text` as Go's decoder words it.
fn syntax(text: &[u8], error: &serde_json::Error) -> String {
    if error.classify() != serde_json::error::Category::Data {
        return crate::go::syntax::complaint(text);
    }
    let kind = kind(&String::from_utf8_lossy(text));
    format!("json: cannot unmarshal {kind} into Go value of type jsonrpc2.wireCombined")
}

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

/// `text` with every lone surrogate escape replaced by `\ufffd`; borrowed when it has none.
pub(crate) fn mend(text: &[u8]) -> Cow<'_, [u8]> {
    let mut mended: Option<Vec<u8>> = None;
    let mut at = 0;
    while let Some(offset) = text[at..].iter().position(|&byte| byte == b'\\') {
        at += offset;
        let Some(unit) = escape(text, at) else {
            // `\\`, `\"` and the like: skip the escaped character with the backslash.
            at += 2;
            continue;
        };
        if !is_surrogate(unit) {
            at += 6;
            continue;
        }
        let paired = (0xD800..0xDC00).contains(&unit)
            && escape(text, at + 6).is_some_and(|low| (0xDC00..0xE000).contains(&low));
        if paired {
            at += 12;
            continue;
        }
        mended.get_or_insert_with(|| text.to_vec())[at..at + 6].copy_from_slice(br"\ufffd");
        at += 6;
    }
    mended.map_or(Cow::Borrowed(text), Cow::Owned)
}

/// The code unit of the `\uXXXX` escape at `at`, if there is one.
fn escape(text: &[u8], at: usize) -> Option<u16> {
    let hex = text.get(at..at + 6)?.strip_prefix(br"\u")?;
    u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
}

fn is_surrogate(unit: u16) -> bool {
    (0xD800..0xE000).contains(&unit)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn bodies_are_read_or_refused_in_the_sdks_words() {
        let refused = [
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"#,
                "unmarshaling jsonrpc message: unexpected EOF",
            ),
            (
                r#"{"id":31,"method":"ping"}"#,
                r#"invalid message version tag ""; expected "2.0""#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
                "parse error: invalid ID type bool",
            ),
            (r#"{"jsonrpc":"2.0"}"#, "invalid request"),
            ("[]", "empty batch"),
        ];
        for (body, want) in refused {
            let error = read_batch(body.as_bytes()).expect_err(body);
            assert_eq!(error.to_string(), want, "{body}");
        }
    }

    #[test]
    fn ids_params_and_batches_read_as_go_reads_them() {
        let (messages, batch) =
            read_batch(br#"[{"jsonrpc":"2.0","id":1.5,"method":"ping","params":null},{"jsonrpc":"2.0","method":"n"}]"#)
                .unwrap();
        assert!(batch);
        let [Message::Request(first), Message::Request(second)] = &messages[..] else {
            panic!("two requests: {messages:?}");
        };
        assert_eq!(first.id, Some(Id::Number(1)));
        assert_eq!(first.params.as_ref().map(|raw| raw.get()), Some("null"));
        assert_eq!((second.id.as_ref(), second.params.is_none()), (None, true));
        let (messages, batch) = read_batch(br#"{"jsonrpc":"2.0","id":"a","result":{}}"#).unwrap();
        assert!(!batch && matches!(messages[..], [Message::Response]));
    }

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

    #[test]
    fn lone_surrogates_become_the_replacement_character_and_pairs_stay() {
        let cases = [
            (r#""sushi \ud83d""#, r#""sushi \ufffd""#),
            (r#""\ude00 x""#, r#""\ufffd x""#),
            (r#""\ud83d\ude00""#, r#""\ud83d\ude00""#),
            (r#""\ud83d\ud83d\ude00""#, r#""\ufffd\ud83d\ude00""#),
            (r#""\ud83d\u0041""#, r#""\ufffd\u0041""#),
            (r#""\\ud83d""#, r#""\\ud83d""#),
            (r#""\\\ud83d""#, r#""\\\ufffd""#),
            (r#""plain \u00e9 \n""#, r#""plain \u00e9 \n""#),
            (r#""\ud83"#, r#""\ud83"#),
        ];
        for (text, want) in cases {
            assert_eq!(mend(text.as_bytes()).as_ref(), want.as_bytes(), "{text}");
        }
        assert!(matches!(mend(br#""\ud83d\ude00""#), Cow::Borrowed(_)));
    }
}
