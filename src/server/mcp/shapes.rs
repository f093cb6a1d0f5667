//! The Go SDK's result structs (`mcp/protocol.go`) that careem-mcp writes, as serde structs:
//! fields in Go's declaration order, which is the order `encoding/json` writes them, and
//! `omitempty` as `skip_serializing_if`. Fields the SDK leaves empty for production's server
//! (`instructions`, `_meta` on most results) are not listed. What a release writes differently
//! is decided where a shape is made from the `WireProfile`, so a struct says what the wire
//! carries.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// `InitializeResult`.
#[derive(Serialize)]
pub(super) struct InitializeResult<'a> {
    pub capabilities: ServerCapabilities,
    #[serde(rename = "protocolVersion")]
    pub protocol_version: &'a str,
    #[serde(rename = "serverInfo")]
    pub server_info: Implementation<'a>,
}

/// `Implementation`: the server's name and version.
#[derive(Serialize)]
pub(super) struct Implementation<'a> {
    pub name: &'a str,
    pub version: &'a str,
}

/// `ServerCapabilities`: logging always, resources when the widget is served, tools always.
#[derive(Serialize)]
pub(super) struct ServerCapabilities {
    pub logging: LoggingCapabilities,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<ListChanged>,
    pub tools: ListChanged,
}

impl ServerCapabilities {
    pub(super) fn new(resources: bool) -> Self {
        Self {
            logging: LoggingCapabilities {},
            resources: resources.then_some(ListChanged { list_changed: true }),
            tools: ListChanged { list_changed: true },
        }
    }
}

/// `LoggingCapabilities`, an empty struct: `{}`.
#[derive(Serialize)]
pub(super) struct LoggingCapabilities {}

/// `ToolCapabilities` and `ResourceCapabilities` as this server fills them (`subscribe` is
/// `omitempty` and never set).
#[derive(Serialize)]
pub(super) struct ListChanged {
    #[serde(rename = "listChanged")]
    pub list_changed: bool,
}

/// v1.7.0's cache hints, the first fields of `DiscoverResult` and of every list and read
/// result it writes.
#[derive(Serialize)]
pub(super) struct CacheHints {
    #[serde(rename = "ttlMs")]
    pub ttl_ms: u64,
    #[serde(rename = "cacheScope")]
    pub cache_scope: &'static str,
}

/// What v1.7.0 sends: no caching time, shareable by anyone.
pub(super) const PUBLIC_UNCACHED: CacheHints = CacheHints {
    ttl_ms: 0,
    cache_scope: "public",
};

/// v1.7.0's `DiscoverResult` without the `resultType` and `_meta` that every per-request
/// result carries (`per_request::annotate`).
#[derive(Serialize)]
pub(super) struct DiscoverResult<'a> {
    #[serde(flatten)]
    pub cache: CacheHints,
    #[serde(rename = "supportedVersions")]
    pub supported_versions: &'a [&'a str],
    pub capabilities: ServerCapabilities,
}

/// `Tool`, as a release advertises a definition from a tool file. Its values are the file's
/// (`_meta` as a Go map, its keys sorted); fields the SDK's struct lacks come last, as written.
#[derive(Serialize)]
pub(super) struct Tool<'a> {
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<&'a Value>,
    #[serde(rename = "inputSchema", skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<&'a Value>,
    #[serde(rename = "outputSchema", skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icons: Option<&'a Value>,
    #[serde(flatten)]
    pub others: Map<String, Value>,
}

/// The names of `Tool`'s fields on the wire, for telling the file's other fields apart.
pub(super) const TOOL_FIELDS: [&str; 8] = [
    "_meta",
    "annotations",
    "description",
    "inputSchema",
    "name",
    "outputSchema",
    "title",
    "icons",
];

/// A tool's `annotations`: `ToolAnnotations` when the file gives an object, else the value
/// as written.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum Annotations<'a> {
    Go(ToolAnnotations<'a>),
    Written(&'a Value),
}

/// `ToolAnnotations`. `destructiveHint` and `openWorldHint` are `*bool` (sent when given);
/// `idempotentHint` and `readOnlyHint` are plain `bool`s, `omitempty` in v1.6.1 and always
/// sent by v1.7.0; `title` is an `omitempty` string.
#[derive(Serialize)]
pub(super) struct ToolAnnotations<'a> {
    #[serde(rename = "destructiveHint", skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<&'a Value>,
    #[serde(rename = "idempotentHint", skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<PlainHint<'a>>,
    #[serde(rename = "openWorldHint", skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<&'a Value>,
    #[serde(rename = "readOnlyHint", skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<PlainHint<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'a Value>,
}

/// One of `ToolAnnotations`' plain booleans: as written, or the `false` a Go zero value sends.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum PlainHint<'a> {
    Written(&'a Value),
    Zero(bool),
}

/// `CallToolResult` as a typed handler's: one text item, `structuredContent` (the same JSON,
/// as it is) when the value is an object, `isError` only when true.
#[derive(Serialize)]
pub(super) struct CallToolResult<'a> {
    pub content: [TextContent<'a>; 1],
    #[serde(rename = "structuredContent", skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<&'a RawValue>,
    #[serde(rename = "isError", skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

/// `TextContent`: `{"type":"text","text":…}`.
#[derive(Serialize)]
pub(super) struct TextContent<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub text: &'a str,
}
