//! Protocol 2026-07-28's requests, as v1.7.0 reads them: each carries its own protocol version,
//! client and capabilities in `_meta`, with no `initialize` before it; its result names the
//! server in `_meta` and says `resultType`.

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::go::json::{self as go_json, Escaping};
use crate::server::jsonrpc::codes::UNSUPPORTED_PROTOCOL_VERSION;
use crate::server::jsonrpc::{INVALID_PARAMS, RpcError};
use crate::server::profile::PROTOCOL_2026;

pub(crate) const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub(crate) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// How a request asks to be served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Protocol {
    /// The session's protocol, negotiated by `initialize` (or none yet).
    Session,
    /// 2026-07-28 or later, per request: the version and the client as `name/version`.
    PerRequest {
        version: String,
        client: Option<String>,
    },
}

/// `params._meta` as an object, when `params` is an object that has one.
fn meta(params: Option<&RawValue>) -> Option<Map<String, Value>> {
    #[derive(serde::Deserialize)]
    struct WithMeta {
        #[serde(default, rename = "_meta")]
        meta: Option<Map<String, Value>>,
    }
    serde_json::from_str::<WithMeta>(params?.get()).ok()?.meta
}

/// The protocol version a request's `_meta` names, if it names one.
pub(crate) fn meta_version(params: Option<&RawValue>) -> Option<String> {
    match meta(params)?.get(META_PROTOCOL_VERSION)? {
        Value::String(version) => Some(version.clone()),
        _ => None,
    }
}

/// SDK v1.7.0's `validateRequestMeta`: a request whose `_meta` names 2026-07-28 or later is
/// served per request, and must then say its capabilities (its client is optional, but must be
/// an object when given).
pub(crate) fn protocol(params: Option<&RawValue>) -> Result<Protocol, RpcError> {
    let Some(meta) = meta(params) else {
        return Ok(Protocol::Session);
    };
    let Some(Value::String(version)) = meta.get(META_PROTOCOL_VERSION) else {
        return Ok(Protocol::Session);
    };
    if version.as_str() < PROTOCOL_2026 {
        return Ok(Protocol::Session);
    }
    let client = match meta.get(META_CLIENT_INFO) {
        None => None,
        Some(Value::Object(info)) => {
            let field = |key: &str| info.get(key).and_then(Value::as_str).unwrap_or_default();
            Some(format!("{}/{}", field("name"), field("version")))
        }
        Some(_) => {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!("invalid _meta field \"{META_CLIENT_INFO}\""),
            ));
        }
    };
    if !matches!(meta.get(META_CLIENT_CAPABILITIES), Some(Value::Object(_))) {
        return Err(RpcError::new(
            INVALID_PARAMS,
            format!("missing or invalid _meta field \"{META_CLIENT_CAPABILITIES}\""),
        ));
    }
    Ok(Protocol::PerRequest {
        version: version.clone(),
        client,
    })
}

/// The refusal of a per-request version the release does not speak.
pub(crate) fn unsupported_version(requested: &str, supported: &[&str]) -> RpcError {
    RpcError {
        code: UNSUPPORTED_PROTOCOL_VERSION,
        message: "unsupported protocol version".into(),
        data: Some(json!({"supported": supported, "requested": requested})),
    }
}

/// Where a result type puts `resultType`: first (the list and discover results embed it first)
/// or last (tool and resource results add it after their own fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ResultShape {
    TypeFirst,
    TypeLast,
}

/// `result` (a JSON object as Go wrote it) as a 2026-07-28 result: `resultType` "complete" and
/// the server named in `_meta`.
pub(crate) fn annotate(result: &[u8], shape: ResultShape, name: &str, version: &str) -> Vec<u8> {
    let server = json!({ META_SERVER_INFO: {"name": name, "version": version} });
    let mut meta = br#""_meta":"#.to_vec();
    go_json::write(&mut meta, &server, Escaping::Envelope);
    let inner = result
        .strip_prefix(b"{")
        .and_then(|rest| rest.strip_suffix(b"}"))
        .unwrap_or_default();
    let mut out = Vec::with_capacity(result.len() + meta.len() + 32);
    out.push(b'{');
    if shape == ResultShape::TypeFirst {
        out.extend_from_slice(br#""resultType":"complete","#);
    }
    out.extend_from_slice(&meta);
    if !inner.is_empty() {
        out.push(b',');
        out.extend_from_slice(inner);
    }
    if shape == ResultShape::TypeLast {
        out.extend_from_slice(br#","resultType":"complete""#);
    }
    out.push(b'}');
    out
}

/// A JSON-RPC answer as a 2026-07-28 answer: its result annotated, an error left as it is.
pub(crate) fn annotate_message(
    message: &[u8],
    shape: ResultShape,
    name: &str,
    version: &str,
) -> Vec<u8> {
    const RESULT: &[u8] = br#","result":"#;
    let Some(at) = message
        .windows(RESULT.len())
        .position(|window| window == RESULT)
    else {
        return message.to_vec();
    };
    let start = at + RESULT.len();
    let Some(result) = message
        .get(start..message.len().saturating_sub(1))
        .filter(|result| result.first() == Some(&b'{'))
    else {
        return message.to_vec();
    };
    let mut out = message[..start].to_vec();
    out.extend_from_slice(&annotate(result, shape, name, version));
    out.push(b'}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_string()).unwrap()
    }

    #[test]
    fn requests_are_read_as_v1_7_0_reads_their_meta() {
        let meta = |extra: &str| {
            raw(&format!(
                r#"{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28"{extra}}}}}"#
            ))
        };
        let cases = [
            (raw("{}"), Ok(Protocol::Session)),
            (raw(r#"{"_meta":null}"#), Ok(Protocol::Session)),
            (
                raw(r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}"#),
                Ok(Protocol::Session),
            ),
            (
                meta(""),
                Err(
                    r#"missing or invalid _meta field "io.modelcontextprotocol/clientCapabilities""#,
                ),
            ),
            (
                meta(
                    r#","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":"x""#,
                ),
                Err(r#"invalid _meta field "io.modelcontextprotocol/clientInfo""#),
            ),
            (
                meta(r#","io.modelcontextprotocol/clientCapabilities":{}"#),
                Ok(Protocol::PerRequest {
                    version: PROTOCOL_2026.into(),
                    client: None,
                }),
            ),
        ];
        for (params, want) in cases {
            let got = protocol(Some(&params)).map_err(|error| error.message);
            assert_eq!(got, want.map_err(str::to_string), "{}", params.get());
        }
    }

    #[test]
    fn results_name_the_server_where_the_sdk_puts_it() {
        let first = annotate(br#"{"tools":[]}"#, ResultShape::TypeFirst, "s", "v1");
        assert_eq!(
            String::from_utf8(first).unwrap(),
            r#"{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"v1"}},"tools":[]}"#
        );
        let last = annotate(br#"{"content":[]}"#, ResultShape::TypeLast, "s", "v1");
        assert_eq!(
            String::from_utf8(last).unwrap(),
            r#"{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"v1"}},"content":[],"resultType":"complete"}"#
        );
    }
}
