//! The one MCP handler, written by hand because the tools are data: identity, tool list,
//! widget resource and `tools/call`, each answered the way production answers it.

use std::borrow::Cow;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, Implementation, InitializeRequestParams, InitializeResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::call_result::call_result;
use super::fast_path::PeerSlot;
use super::faults::{self, Planned};
use super::widget::Widget;
use super::{Forwarded, Forwarder, ServerError, ServerOptions};
use crate::engine::{
    self, CallOutput, Change, Engine, Fault, INTERNAL_ERROR, Plan, Rendering, UnknownTool,
};

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
    in_flight: InFlight,
    forwarder: Option<Arc<dyn Forwarder>>,
}

/// The calls being answered right now, over every transport, so that a shutdown can let them
/// finish before it ends the sessions they belong to.
/// After the grace period a shutdown cuts the calls still running: each answers `-32603` at
/// once, whatever it was waiting for (a delay, a `hang` fault, a journal write that does not
/// return), so that no client waits on a server that is going away.
#[derive(Debug, Clone)]
pub(crate) struct InFlight {
    count: Arc<watch::Sender<usize>>,
    cut: CancellationToken,
}

impl InFlight {
    fn new() -> Self {
        Self {
            count: Arc::new(watch::Sender::new(0)),
            cut: CancellationToken::new(),
        }
    }

    /// Counts a call until the guard is dropped (answered, cancelled or panicked).
    fn enter(&self) -> InFlightGuard {
        self.count.send_modify(|count| *count += 1);
        InFlightGuard(self.clone())
    }

    /// Resolves once no call is running.
    pub(crate) async fn drained(&self) {
        let mut count = self.count.subscribe();
        // The sender lives as long as `self`, so waiting cannot fail.
        let _ = count.wait_for(|count| *count == 0).await;
    }

    /// Answers every call still running, and every call from now on, with `-32603`.
    pub(crate) fn cut(&self) {
        self.cut.cancel();
    }

    /// Whether the calls were cut: every call from now on answers `-32603`.
    fn is_cut(&self) -> bool {
        self.cut.is_cancelled()
    }

    /// Resolves once the calls are cut.
    async fn cut_off(&self) {
        self.cut.cancelled().await;
    }
}

pub(crate) struct InFlightGuard(InFlight);

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        self.0
            .count
            .send_modify(|count| *count = count.saturating_sub(1));
    }
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
                in_flight: InFlight::new(),
                forwarder: options.forwarder.clone(),
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
        let header = parts.headers.get(super::sessions::SESSION_ID)?;
        header.to_str().ok().map(str::to_string)
    }

    pub(crate) fn tool_count(&self) -> usize {
        self.inner.tools.len()
    }

    /// Whether an upstream answers the calls (`careem-mcp record`), not the engine.
    pub(crate) fn forwards(&self) -> bool {
        self.inner.forwarder.is_some()
    }

    pub(crate) fn in_flight(&self) -> InFlight {
        self.inner.in_flight.clone()
    }

    /// Whether a shutdown has cut the calls: a call answered outside rmcp's dispatch must then
    /// go through it, to be answered `-32603`.
    pub(crate) fn calls_cut(&self) -> bool {
        self.inner.in_flight.is_cut()
    }

    /// Counts a call answered outside rmcp's dispatch (`direct.rs`) as in flight, until the
    /// guard drops.
    pub(crate) fn enter_call(&self) -> InFlightGuard {
        self.inner.in_flight.enter()
    }

    /// A call's journal line, written as a call through rmcp's dispatch has it written (in
    /// place when that cannot block, when this is ready at its first poll): the call's outcome
    /// (`Err` says why the answer is an internal error), or `None` when a shutdown cut the call
    /// first, which is then a JSON-RPC error.
    pub(crate) async fn journal_call(
        &self,
        session: Option<String>,
        output: CallOutput,
    ) -> Option<Result<CallOutput, String>> {
        let engine = self.engine();
        tokio::select! {
            // An answer written in place never waits on the cut.
            biased;
            answered = journalled(engine, self.transport, session, output) => {
                Some(answered.and_then(|answered| answered.map_err(|unknown| unknown.to_string())))
            }
            () = self.inner.in_flight.cut_off() => {
                tracing::warn!("a call still running at shutdown: answering it with an error");
                None
            }
        }
    }

    pub(crate) fn engine(&self) -> Arc<Engine> {
        Arc::clone(&self.inner.engine)
    }

    /// The call's plan: made where the request arrived (HTTP, SSE), else here (stdio).
    fn plan_of(
        &self,
        tool: &str,
        session: Option<&str>,
        context: &RequestContext<RoleServer>,
    ) -> Plan {
        let carried = context.extensions.get::<Planned>().or_else(|| {
            context
                .extensions
                .get::<axum::http::request::Parts>()
                .and_then(|parts| parts.extensions.get::<Planned>())
        });
        match carried {
            Some(Planned(plan)) => plan.clone(),
            None => faults::plan(&self.inner.engine, tool, session).unwrap_or_default(),
        }
    }

    /// A `tools/call`: the controls' delay and fault, then the engine's answer.
    async fn answer_call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        in_flight: InFlightGuard,
    ) -> Result<CallToolResponse, McpError> {
        let engine = Arc::clone(&self.inner.engine);
        let name = request.name.to_string();
        let (transport, session) = (self.transport, self.session_of(&context));
        if let Some(forwarder) = &self.inner.forwarder {
            let call = Forwarded {
                tool: name,
                arguments: request.arguments,
                transport,
                session,
            };
            let answer = forwarder.forward(call).await;
            drop(in_flight);
            return answer.map(Into::into);
        }
        let plan = self.plan_of(&name, session.as_deref(), &context);
        // The delay runs in this call's own task: other calls and sessions go on meanwhile.
        if !faults::wait(plan.delay, &context.ct).await {
            return Err(faults::internal_error());
        }
        if let Some(fault) = plan.fault {
            let error = self
                .fire(
                    fault,
                    request,
                    session.as_deref(),
                    &plan,
                    &context,
                    in_flight,
                )
                .await;
            return Err(error);
        }
        let mut arguments = request.arguments;
        // Warm (the tool's file parsed as it is on disk now), a call is a file read without
        // blocking and a render: answered here, in the request's own task. After an edit the
        // file is parsed again on a blocking thread.
        let warm = panic::catch_unwind(AssertUnwindSafe(|| {
            engine.call_planned_warm(&name, &mut arguments, &plan, Rendering::Value)
        }));
        let answered = match warm {
            Ok(Some(Ok(output))) => journalled(engine, transport, session, output).await,
            Err(_) => Err(PANICKED.to_string()),
            Ok(_) => {
                let tool = name.clone();
                tokio::task::spawn_blocking(move || {
                    let answer = engine.call_planned(&tool, arguments.clone(), &plan);
                    match &answer {
                        Ok(output) => engine.record(transport, session.as_deref(), output),
                        Err(_) => {
                            engine.record_unknown(transport, session.as_deref(), &tool, arguments);
                        }
                    }
                    answer
                })
                .await
                .map_err(|error| error.to_string())
            }
        };
        drop(in_flight);
        respond(&name, answered)
    }

    /// Fires a fault that the MCP layer answers: after the journal line, the client gets
    /// `-32603`, nothing at all (`hang`), or, over stdio, a process that ends.
    async fn fire(
        &self,
        fault: Fault,
        request: CallToolRequestParams,
        session: Option<&str>,
        plan: &Plan,
        context: &RequestContext<RoleServer>,
        in_flight: InFlightGuard,
    ) -> McpError {
        let call = faults::ToolCall {
            name: request.name.into_owned(),
            arguments: request.arguments,
        };
        let engine = &self.inner.engine;
        faults::record(engine, self.transport, session, call, plan, fault).await;
        let stdio = self.transport == "stdio";
        match fault {
            Fault::Hang => {
                // A call that never ends must not hold up a shutdown, which cuts it (answers it
                // `-32603`) once the others are done.
                drop(in_flight);
                context.ct.cancelled().await;
            }
            Fault::Drop if stdio => {
                tracing::error!("the overrides file's drop fault: exiting as a crashed server");
                std::process::exit(CRASH_STATUS);
            }
            Fault::SessionExpired if stdio => {
                tracing::warn!("the overrides file's session-expired fault: ending the session");
                std::process::exit(0);
            }
            _ => {}
        }
        faults::internal_error()
    }
}

/// The call's journal line, written before the answer goes out: in place when the write cannot
/// block ([`Engine::record_now`]), else on a blocking thread, so that a journal that is a pipe
/// nobody drains holds up this call alone, never the runtime.
async fn journalled(
    engine: Arc<Engine>,
    transport: &'static str,
    session: Option<String>,
    output: CallOutput,
) -> Result<Result<CallOutput, UnknownTool>, String> {
    let now = panic::catch_unwind(AssertUnwindSafe(|| {
        engine.record_now(transport, session.as_deref(), &output)
    }));
    match now {
        Ok(true) => return Ok(Ok(output)),
        Ok(false) => {}
        Err(_) => return Err(PANICKED.to_string()),
    }
    tokio::task::spawn_blocking(move || {
        engine.record(transport, session.as_deref(), &output);
        Ok(output)
    })
    .await
    .map_err(|error| error.to_string())
}

/// For the log, when a call panicked in place (the panic's message went to stderr).
pub(crate) const PANICKED: &str = "the call panicked";

/// A Go server's exit status after a panic, which production's stack would show over stdio.
const CRASH_STATUS: i32 = 2;

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
    let mut keys: Vec<String> = Vec::new();
    for found in engine::differences(file, wire) {
        let Some(key) = found.path.first() else {
            continue;
        };
        let what = match found.change {
            Change::Removed if found.path.len() == 1 => "would be dropped",
            Change::Added if found.path.len() == 1 => "would be added",
            _ => "would change",
        };
        let said = format!("`{key}` {what}");
        if keys.last() != Some(&said) {
            keys.push(said);
        }
    }
    keys.join(", ")
}

/// The engine's answer in production's shape: one text item, `structuredContent` when the value
/// is an object, and `isError` always present.
fn internal_error() -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(INTERNAL_ERROR)])
}

/// A call's outcome as MCP. A panic inside the engine (caught in place, or a blocking thread's
/// `JoinError`) arrives here as its description: the client gets `internal server error`, the
/// details go to the log (and the panic message to stderr), and the server carries on.
fn respond(
    tool: &str,
    answered: Result<Result<CallOutput, UnknownTool>, String>,
) -> Result<CallToolResponse, McpError> {
    match answered {
        Ok(Ok(output)) => Ok(call_result(output).into()),
        Ok(Err(unknown)) => Err(McpError::invalid_params(unknown.to_string(), None)),
        Err(error) => {
            tracing::error!(%tool, "the call failed: {error}");
            Ok(internal_error().into())
        }
    }
}

/// Requests rmcp parses into typed requests. One of these that reaches
/// [`ServerHandler::on_custom_request`] had `params` of the wrong shape (JSON-RPC `-32602`),
/// not an unknown method (`-32601`).
const STANDARD_METHODS: [&str; 13] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
];

fn custom_request_error(method: String) -> McpError {
    match method.as_str() {
        "tools/call" => McpError::invalid_params(
            "invalid params for tools/call: expected an object with a string `name` and an \
             optional object `arguments`",
            None,
        ),
        known if STANDARD_METHODS.contains(&known) => {
            McpError::invalid_params(format!("invalid params for {known}"), None)
        }
        _ => McpError::new(rmcp::model::ErrorCode::METHOD_NOT_FOUND, method, None),
    }
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

    /// rmcp's own `initialize`, which also leaves the peer where a Streamable HTTP session's
    /// fast path finds it (`fast_path.rs`).
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        context.peer.set_peer_info(request.clone());
        if let Some(slot) = context.extensions.get::<PeerSlot>() {
            slot.fill(context.peer.clone());
        }
        self.negotiate_initialize(&request)
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
        let in_flight = &self.inner.in_flight;
        tokio::select! {
            answer = self.answer_call(request, context, in_flight.enter()) => answer,
            () = in_flight.cut_off() => {
                tracing::warn!("a call still running at shutdown: answering it with an error");
                Err(faults::internal_error())
            }
        }
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, McpError> {
        Err(custom_request_error(request.method))
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

#[cfg(test)]
mod tests {
    use rmcp::model::ErrorCode;
    use tokio::task::JoinError;

    use super::*;

    #[tokio::test]
    async fn a_panic_inside_a_call_reaches_the_client_as_internal_server_error() {
        let joined = tokio::task::spawn_blocking(|| -> Result<CallOutput, UnknownTool> {
            panic!("a bug inside the engine")
        })
        .await;
        assert!(joined.as_ref().is_err_and(JoinError::is_panic));
        let failed = joined.map_err(|error| error.to_string());
        let Ok(CallToolResponse::Complete(result)) = respond("t", failed) else {
            panic!("a panic must be a tool result, not a protocol error");
        };
        let result = serde_json::to_value(result).expect("serialises");
        assert_eq!(
            (&result["content"], &result["isError"]),
            (
                &json!([{"type": "text", "text": "internal server error"}]),
                &json!(true)
            )
        );
    }

    #[test]
    fn params_of_the_wrong_shape_are_invalid_params_not_an_unknown_method() {
        let cases = [
            ("tools/call", ErrorCode::INVALID_PARAMS),
            ("resources/read", ErrorCode::INVALID_PARAMS),
            ("initialize", ErrorCode::INVALID_PARAMS),
            ("tools/nope", ErrorCode::METHOD_NOT_FOUND),
            ("", ErrorCode::METHOD_NOT_FOUND),
        ];
        for (method, code) in cases {
            assert_eq!(
                custom_request_error(method.to_string()).code,
                code,
                "{method}"
            );
        }
    }

    #[test]
    fn a_definition_rmcp_would_alter_names_each_top_level_key() {
        let file = json!({"name": "t", "title": "T", "inputSchema": {"type": "object", "x": [1]}});
        let wire = json!({"name": "t", "inputSchema": {"type": "object", "x": [2]}, "icons": []});
        assert_eq!(
            difference(&file, &wire),
            "`title` would be dropped, `inputSchema` would change, `icons` would be added"
        );
    }

    #[tokio::test]
    async fn in_flight_calls_are_counted_until_their_guard_drops() {
        let in_flight = InFlight::new();
        in_flight.drained().await;
        let guard = in_flight.enter();
        let waiting = tokio::spawn({
            let in_flight = in_flight.clone();
            async move { in_flight.drained().await }
        });
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "a call is still running");
        drop(guard);
        tokio::time::timeout(std::time::Duration::from_secs(1), waiting)
            .await
            .expect("drained once the call ends")
            .expect("the task ran");
    }
}
