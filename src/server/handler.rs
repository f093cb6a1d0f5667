//! The one MCP handler, written by hand because the tools are data: identity, tool list,
//! widget resource and `tools/call`, each answered the way production answers it.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

use super::widget::Widget;
use super::{ServerError, ServerOptions};
use crate::engine::{self, CallOutput, Engine, INTERNAL_ERROR};

/// Cheap to clone: every session (HTTP, SSE, stdio) gets its own copy of the same state,
/// labelled with where its calls come from, for the call journal.
#[derive(Debug, Clone)]
pub(crate) struct Handler {
    inner: Arc<Inner>,
    transport: &'static str,
    /// The session of every call through this copy; Streamable HTTP reads it per request.
    session: Option<Arc<str>>,
}

#[derive(Debug)]
struct Inner {
    engine: Arc<Engine>,
    info: ServerConfig,
    /// Built once at start-up: the tool list is fixed (SPEC §2).
    tools: Vec<Tool>,
    widget: Option<Widget>,
}

impl Handler {
    pub(crate) fn new(engine: Arc<Engine>, options: &ServerOptions) -> Result<Self, ServerError> {
        let tools = engine
            .tools()
            .map(|tool| advertised(tool, options))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            inner: Arc::new(Inner {
                info: info(options),
                tools,
                widget: (!options.no_meta).then(|| Widget::new(&options.widget_domain)),
                engine,
            }),
            transport: "http",
            session: None,
        })
    }

    /// The same handler, journalling its calls as coming from `transport` and `session`.
    pub(crate) fn labelled(&self, transport: &'static str, session: Option<&str>) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            transport,
            session: session.map(Arc::from),
        }
    }

    /// The session a call belongs to: this copy's, or the Streamable HTTP request's header.
    fn session_of(&self, context: &RequestContext<RoleServer>) -> Option<String> {
        if let Some(session) = &self.session {
            return Some(session.to_string());
        }
        let parts = context.extensions.get::<axum::http::request::Parts>()?;
        let header = parts.headers.get("mcp-session-id")?;
        header.to_str().ok().map(str::to_string)
    }

    pub(crate) fn tool_count(&self) -> usize {
        self.inner.tools.len()
    }
}

/// Production's `initialize` answer: its name and version and nothing else (no title, icons,
/// website or instructions). rmcp would otherwise report its own crate name.
fn info(options: &ServerOptions) -> ServerConfig {
    // `listChanged` as the Go SDK production runs on advertises it; the list never changes.
    let mut capabilities = ServerCapabilities::builder()
        .enable_tools()
        .enable_resources()
        .build();
    if let Some(tools) = capabilities.tools.as_mut() {
        tools.list_changed = Some(true);
    }
    if let Some(resources) = capabilities.resources.as_mut() {
        resources.list_changed = Some(true);
    }
    ServerConfig::new(capabilities)
        .with_server_info(Implementation::new(
            &options.server_name,
            &options.server_version,
        ))
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
}

/// The file's `json tool` block as rmcp's `Tool`, checked to serialise back to the same JSON.
fn advertised(tool: &engine::Tool, options: &ServerOptions) -> Result<Tool, ServerError> {
    let mut definition = tool.definition.clone();
    if options.no_output_schema {
        definition.shift_remove("outputSchema");
    }
    if options.no_meta {
        definition.shift_remove("_meta");
    }
    let refused = |detail: String| ServerError::Definition {
        tool: tool.name.clone(),
        detail,
    };
    let wire = Value::Object(definition);
    let parsed: Tool =
        serde_json::from_value(wire.clone()).map_err(|error| refused(error.to_string()))?;
    let back = serde_json::to_value(&parsed).map_err(|error| refused(error.to_string()))?;
    if back != wire {
        return Err(refused(difference(&wire, &back)));
    }
    Ok(parsed)
}

/// Names the top-level keys that would not survive the trip through rmcp's `Tool`.
fn difference(file: &Value, wire: &Value) -> String {
    let empty = Map::new();
    let file = file.as_object().unwrap_or(&empty);
    let wire = wire.as_object().unwrap_or(&empty);
    let mut keys: Vec<String> = Vec::new();
    for (key, value) in file {
        match wire.get(key) {
            None => keys.push(format!("`{key}` would be dropped")),
            Some(other) if other != value => keys.push(format!("`{key}` would change")),
            Some(_) => {}
        }
    }
    for key in wire.keys().filter(|key| !file.contains_key(*key)) {
        keys.push(format!("`{key}` would be added"));
    }
    keys.join(", ")
}

/// The engine's answer in production's shape: one text item, `structuredContent` when the value
/// is an object, and `isError` always present.
fn call_result(output: &CallOutput) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(output.text.clone())]);
    result.structured_content = output
        .structured()
        .map(|object| Value::Object(object.clone()));
    result.is_error = Some(output.is_error);
    result
}

fn internal_error() -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(INTERNAL_ERROR)])
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        self.inner.info.clone()
    }

    /// Only the revisions with an `initialize` handshake: production is stateful, and newer
    /// clients that probe the stateless revision first fall back to these.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(
            &ProtocolVersion::LATEST_WITH_INITIALIZE,
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.inner.tools.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let engine = Arc::clone(&self.inner.engine);
        let name = request.name.into_owned();
        let tool = name.clone();
        let (transport, session) = (self.transport, self.session_of(&context));
        // The engine reads files; keep it off the async workers. The journal line is written
        // there too, so a slow disk never holds up the runtime.
        let answered = tokio::task::spawn_blocking(move || {
            let arguments = request.arguments;
            let answer = engine.call(&tool, arguments.clone());
            match &answer {
                Ok(output) => engine.record(transport, session.as_deref(), output),
                Err(_) => engine.record_unknown(transport, session.as_deref(), &tool, arguments),
            }
            answer
        })
        .await;
        match answered {
            Ok(Ok(output)) => Ok(call_result(&output).into()),
            Ok(Err(unknown)) => Err(McpError::invalid_params(unknown.to_string(), None)),
            Err(error) => {
                tracing::error!(tool = %name, "the call failed: {error}");
                Ok(internal_error().into())
            }
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let resources = self.inner.widget.iter().map(Widget::resource).collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        match &self.inner.widget {
            Some(widget) if request.uri == super::widget::URI => Ok(widget.read().into()),
            // The Go SDK's answer, code -32002.
            _ => Err(McpError::resource_not_found(
                "Resource not found",
                Some(json!({"uri": request.uri})),
            )),
        }
    }
}
