//! The fixed answers (identity, tool list, widget) and a call's result, in the shape and key
//! order of the Go SDK's structs: what production's `encoding/json` writes for them; and the
//! results of the values the world keeps, written once each.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::shapes::{
    Annotations, CallToolResult, DiscoverResult, Implementation, InitializeResult, PUBLIC_UNCACHED,
    PlainHint, ServerCapabilities, TOOL_FIELDS, TextContent, Tool, ToolAnnotations,
};
use crate::engine::{CallOutput, Computed, JsonShape};
use crate::go::json::{self as go_json, Escaping};
use crate::server::WireProfile;

/// The protocol revisions `initialize` negotiates, newest first (every release: 2026-07-28
/// has no `initialize`).
const PROTOCOL_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// The revision a header that names none stands for.
pub(crate) const DEFAULT_HEADER_VERSION: &str = "2025-03-26";

/// The version answered to a client that asks for `asked`: it, when spoken, else the newest.
pub(crate) fn negotiated(asked: &str) -> &'static str {
    PROTOCOL_VERSIONS
        .iter()
        .find(|version| **version == asked)
        .copied()
        .unwrap_or(PROTOCOL_VERSIONS[0])
}

/// The `initialize` result for `version`.
pub(crate) fn initialize(name: &str, version: &str, protocol: &str, resources: bool) -> Vec<u8> {
    let result = InitializeResult {
        capabilities: ServerCapabilities::new(resources),
        protocol_version: protocol,
        server_info: Implementation { name, version },
    };
    go_json::to_vec(&result, Escaping::Envelope)
}

/// The `server/discover` result's own fields (v1.7.0's `DiscoverResult`): the cache hints, the
/// revisions offered and the capabilities. Discover is only answered per request, so its
/// `resultType` and `_meta` come with every such result (`per_request::annotate`).
pub(crate) fn discover(versions: &[&str], resources: bool) -> Vec<u8> {
    let result = DiscoverResult {
        cache: PUBLIC_UNCACHED,
        supported_versions: versions,
        capabilities: ServerCapabilities::new(resources),
    };
    go_json::to_vec(&result, Escaping::Envelope)
}

/// A list or read result (written once, as bytes) as `profile`'s release writes it: v1.7.0's
/// carry the cache hints ahead of their own fields, as Go writes an embedded struct's fields.
pub(crate) fn cacheable(result: &[u8], profile: WireProfile) -> Vec<u8> {
    match result.strip_prefix(b"{") {
        Some(rest) if profile.caches_results() => {
            let mut out = go_json::to_vec(&PUBLIC_UNCACHED, Escaping::Envelope);
            out.pop();
            if rest != b"}" {
                out.push(b',');
            }
            out.extend_from_slice(rest);
            out
        }
        _ => result.to_vec(),
    }
}

/// A tool definition as the default profile's release (v1.6.1) advertises it: the fields of the
/// SDK's `Tool` in its order, `_meta` as a Go map (keys sorted), annotations as
/// `ToolAnnotations` (its two plain booleans left out when false), the schemas as written.
#[must_use]
pub fn advertised(definition: &Map<String, Value>) -> Map<String, Value> {
    advertised_as(definition, WireProfile::default())
}

/// A tool definition as `profile`'s release advertises it: v1.7.0 sends the two plain booleans
/// of `ToolAnnotations` even when false.
#[must_use]
pub fn advertised_as(definition: &Map<String, Value>, profile: WireProfile) -> Map<String, Value> {
    match serde_json::to_value(sdk_tool(definition, profile)) {
        Ok(Value::Object(tool)) => tool,
        _ => Map::new(),
    }
}

/// The SDK's `Tool` for `definition` under `profile`, borrowing the fields it sends as written.
fn sdk_tool(definition: &Map<String, Value>, profile: WireProfile) -> Tool<'_> {
    Tool {
        meta: definition.get("_meta").map(go_json::sorted),
        annotations: definition
            .get("annotations")
            .map(|value| annotations(value, profile)),
        description: definition.get("description"),
        input_schema: definition.get("inputSchema"),
        name: definition.get("name"),
        output_schema: definition.get("outputSchema"),
        title: definition.get("title"),
        icons: definition.get("icons"),
        others: definition
            .iter()
            .filter(|(key, _)| !TOOL_FIELDS.contains(&key.as_str()))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect(),
    }
}

/// Each field of `definition` that `profile`'s SDK sends otherwise than it is written, as a
/// sentence naming the field and what the SDK sends instead: `lint` warns of them, since
/// tools/list would then differ from the file (SPEC §7.2).
#[must_use]
pub fn rewritten_fields(definition: &Map<String, Value>, profile: WireProfile) -> Vec<String> {
    let sent = advertised_as(definition, profile);
    let mut found = Vec::new();
    rewritten(
        "",
        &Value::Object(definition.clone()),
        Some(&Value::Object(sent)),
        &mut found,
    );
    found
        .into_iter()
        .map(|(field, written, sent)| {
            let sent = sent.map_or_else(|| "leaves it out".to_string(), |sent| format!("sends {sent}"));
            format!(
                "`{field}` is {written} in the file, but {} ({}) {sent}: tools/list will differ from the file",
                profile.describe(),
                profile.name()
            )
        })
        .collect()
}

/// The leaves under `path` where `written` and `sent` differ: (field, written, sent).
fn rewritten(
    path: &str,
    written: &Value,
    sent: Option<&Value>,
    found: &mut Vec<(String, Value, Option<Value>)>,
) {
    match (written, sent) {
        (Value::Object(written), Some(Value::Object(sent))) => {
            for (key, value) in written {
                let field = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                rewritten(&field, value, sent.get(key), found);
            }
        }
        (written, sent) if sent != Some(written) => {
            found.push((path.to_string(), written.clone(), sent.cloned()));
        }
        _ => {}
    }
}

/// `ToolAnnotations` from a file's `annotations`: v1.6.1 leaves a plain boolean out when it is
/// false (given or not), v1.7.0 sends it always; an empty title is left out.
fn annotations(value: &Value, profile: WireProfile) -> Annotations<'_> {
    let Value::Object(given) = value else {
        return Annotations::Written(value);
    };
    let plain = |key: &str| match given.get(key) {
        None if profile.sends_false_hints() => Some(PlainHint::Zero(false)),
        Some(Value::Bool(false)) if !profile.sends_false_hints() => None,
        hint => hint.map(PlainHint::Written),
    };
    Annotations::Go(ToolAnnotations {
        destructive_hint: given.get("destructiveHint"),
        idempotent_hint: plain("idempotentHint"),
        open_world_hint: given.get("openWorldHint"),
        read_only_hint: plain("readOnlyHint"),
        title: given
            .get("title")
            .filter(|title| title.as_str() != Some("")),
    })
}

/// `{"tools":[…]}` for `definitions` as `profile`'s release advertises them, written once at
/// start-up (the list is fixed), each straight from its definition.
pub(crate) fn tools_list<'a>(
    definitions: impl IntoIterator<Item = &'a Map<String, Value>>,
    profile: WireProfile,
) -> Vec<u8> {
    let mut out = br#"{"tools":["#.to_vec();
    for (at, definition) in definitions.into_iter().enumerate() {
        if at > 0 {
            out.push(b',');
        }
        go_json::write(&mut out, &sdk_tool(definition, profile), Escaping::Envelope);
    }
    out.extend_from_slice(b"]}");
    out
}

/// A call's result as the SDK writes a typed handler's.
fn call_result(output: &CallOutput) -> Vec<u8> {
    call_tool_result(&output.text, content(output), output.is_error)
}

/// What a tool's text is, which decides how the SDK writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Content {
    /// A message, sent as it is (an error's words).
    Text,
    /// A value's JSON that is not an object: marshalled, so HTML escaped.
    Json,
    /// An object's JSON: marshalled, and sent again as `structuredContent`.
    JsonObject,
}

/// The bytes of a `CallToolResult` with one `TextContent`. A value's text is its JSON as
/// `json.Marshal` writes it (HTML escaped), and the text item is itself marshalled so, as the
/// SDK's `TextContent` is.
fn call_tool_result(text: &str, content: Content, is_error: bool) -> Vec<u8> {
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

/// What an answer's text is, as the SDK writes a result of it.
fn content(output: &CallOutput) -> Content {
    match output.json {
        None => Content::Text,
        Some(JsonShape::Other) => Content::Json,
        Some(JsonShape::Object) => Content::JsonObject,
    }
}

/// The MCP result a client reads for an answer, as data: what `careem-mcp call` and the
/// dashboard show.
pub(crate) fn result_json(output: &CallOutput) -> Value {
    serde_json::from_slice(&call_result(output)).unwrap_or(Value::Null)
}

/// How many kept values' results are kept; one more lets them all go, as the world lets its
/// values go.
const KEPT_RESULTS: usize = 64;

/// The results of the values the world keeps ([`CallOutput::kept`]), written once per value
/// and `isError` and shared by the calls it answers: escaping the text into a result is most of
/// what a kept answer costs. A value is known by its address, which the `Weak` beside its bytes
/// holds, so that no other value takes that address while they are kept.
#[derive(Debug, Default)]
pub(crate) struct KeptResults {
    written: Mutex<Written>,
}

/// The results kept, under a value's address and `isError`.
type Written = HashMap<(usize, bool), (Weak<Computed>, Arc<[u8]>)>;

/// A call's result: written for this call, or shared with the other calls of a kept value.
#[derive(Debug)]
pub(crate) enum CallResult {
    Written(Vec<u8>),
    Kept(Arc<[u8]>),
}

impl CallResult {
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Self::Written(bytes) => bytes,
            Self::Kept(bytes) => bytes,
        }
    }
}

impl KeptResults {
    /// A call's result as the SDK writes a typed handler's: a kept value's as written for an
    /// earlier call, when its text is the call's.
    pub(crate) fn call_result(&self, output: &CallOutput) -> CallResult {
        // A value the world keeps is held by its answers too; one only this call holds (a
        // write's, a draw's) answers no other call, and keeping its bytes would only push out
        // those of values that do.
        let Some(kept) = output.kept.as_ref().filter(|kept| {
            Arc::strong_count(kept) > 1 && output.json.is_some() && kept.text() == output.text
        }) else {
            return CallResult::Written(call_result(output));
        };
        let key = (Arc::as_ptr(kept).addr(), output.is_error);
        if let Some((_, bytes)) = self.written().get(&key) {
            return CallResult::Kept(Arc::clone(bytes));
        }
        let bytes: Arc<[u8]> = call_result(output).into();
        let mut written = self.written();
        if written.len() >= KEPT_RESULTS {
            written.retain(|_, (value, _)| value.strong_count() > 0);
        }
        if written.len() >= KEPT_RESULTS {
            written.clear();
        }
        written.insert(key, (Arc::downgrade(kept), Arc::clone(&bytes)));
        CallResult::Kept(bytes)
    }

    fn written(&self) -> MutexGuard<'_, Written> {
        self.written.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The result of a call that failed inside (`internal server error`, `isError`).
pub(crate) fn internal_error_result() -> Vec<u8> {
    error_result(crate::engine::INTERNAL_ERROR)
}

/// A result with `isError` and `text` as its one text item, as the SDK's `SetError` writes it.
pub(crate) fn error_result(text: &str) -> Vec<u8> {
    call_tool_result(text, Content::Text, true)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::engine::{Decision, JsonShape};

    fn output(text: &str, json: Option<JsonShape>, is_error: bool) -> CallOutput {
        CallOutput {
            tool: "t".into(),
            received: json!({}),
            arguments: json!({}),
            decision: Decision::InvalidArguments,
            value: None,
            json,
            text: text.to_string(),
            kept: None,
            is_error,
            micros: 0,
            step: None,
            delay_ms: 0,
        }
    }

    #[test]
    fn results_are_written_as_a_typed_go_handler_writes_them() {
        let cases = [
            (
                output(
                    r#"{"location":{"title":"Dubai Marina Walk & Co <x>"}}"#,
                    Some(JsonShape::Object),
                    false,
                ),
                r#"{"content":[{"type":"text","text":"{\"location\":{\"title\":\"Dubai Marina Walk \\u0026 Co \\u003cx\\u003e\"}}"}],"structuredContent":{"location":{"title":"Dubai Marina Walk \u0026 Co \u003cx\u003e"}}}"#,
            ),
            (
                output(r#"["a"]"#, Some(JsonShape::Other), false),
                r#"{"content":[{"type":"text","text":"[\"a\"]"}]}"#,
            ),
            (
                output(
                    r#"validating "arguments": unexpected additional properties ["<z>"]"#,
                    None,
                    true,
                ),
                r#"{"content":[{"type":"text","text":"validating \"arguments\": unexpected additional properties [\"\u003cz\u003e\"]"}],"isError":true}"#,
            ),
        ];
        for (output, want) in cases {
            assert_eq!(String::from_utf8(call_result(&output)).unwrap(), want);
        }
    }

    #[test]
    fn a_kept_value_answers_with_the_bytes_its_text_would_written_once() {
        let results = KeptResults::default();
        for value in [
            json!({"title": "Marina <Walk> & Co", "n": [1, 2.5, null]}),
            json!(["a", "<b>"]),
        ] {
            let kept = Computed::new(value.clone());
            let shape = if value.is_object() {
                JsonShape::Object
            } else {
                JsonShape::Other
            };
            for is_error in [false, true] {
                let mut answer = output(&value.to_string(), Some(shape), is_error);
                let written = call_result(&answer);
                answer.kept = Some(Arc::clone(&kept));
                let first = results.call_result(&answer);
                assert_eq!(first.bytes(), written, "{value} {is_error}");
                let again = results.call_result(&answer);
                assert_eq!(
                    again.bytes().as_ptr(),
                    first.bytes().as_ptr(),
                    "written once: {value}"
                );
                answer.text = r#"{"other":1}"#.into();
                assert_eq!(
                    results.call_result(&answer).bytes(),
                    call_result(&output(&answer.text, Some(shape), is_error)),
                    "a text that is not the kept value's is written afresh"
                );
            }
        }
    }

    #[test]
    fn a_value_only_its_call_holds_is_written_not_kept() {
        let results = KeptResults::default();
        let value = json!({"n": 1});
        let mut answer = output(&value.to_string(), Some(JsonShape::Object), false);
        answer.kept = Some(Computed::new(value));
        let result = results.call_result(&answer);
        assert!(matches!(result, CallResult::Written(_)), "{result:?}");
        assert_eq!(result.bytes(), call_result(&answer));
        assert!(results.written().is_empty());
    }

    #[test]
    fn a_failed_call_is_internal_server_error() {
        assert_eq!(
            String::from_utf8(internal_error_result()).unwrap(),
            r#"{"content":[{"type":"text","text":"internal server error"}],"isError":true}"#
        );
    }

    #[test]
    fn fields_the_sdk_rewrites_are_named_with_what_it_sends() {
        let file = json!({"name": "t", "annotations": {"title": "T", "readOnlyHint": false,
                          "idempotentHint": true}});
        let Value::Object(file) = file else { panic!() };
        let found = rewritten_fields(&file, WireProfile::GoSdk161);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .starts_with("`annotations.readOnlyHint` is false in the file, but Go SDK v1.6.1")
        );
        assert!(found[0].contains("leaves it out"));
        let written = json!({"name": "t", "annotations": {"title": "T", "idempotentHint": true}});
        let Value::Object(written) = written else {
            panic!()
        };
        assert!(rewritten_fields(&written, WireProfile::GoSdk161).is_empty());
    }

    #[test]
    fn definitions_are_advertised_in_the_sdks_order() {
        let file = json!({
            "name": "t", "title": "T", "description": "d",
            "inputSchema": {"type": "object", "properties": {}},
            "annotations": {"title": "T", "readOnlyHint": false, "destructiveHint": false,
                            "idempotentHint": true, "openWorldHint": false},
            "_meta": {"ui": {"resourceUri": "u"}, "openai/widgetAccessible": true}
        });
        let Value::Object(file) = file else { panic!() };
        let advertised = Value::Object(advertised(&file));
        assert_eq!(
            advertised.to_string(),
            r#"{"_meta":{"openai/widgetAccessible":true,"ui":{"resourceUri":"u"}},"annotations":{"destructiveHint":false,"idempotentHint":true,"openWorldHint":false,"title":"T"},"description":"d","inputSchema":{"type":"object","properties":{}},"name":"t","title":"T"}"#
        );
    }
}
