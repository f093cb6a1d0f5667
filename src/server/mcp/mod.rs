//! MCP as production's Go SDK server answers it, whatever the transport: the handshake, the
//! table of methods, the tool list and widget, and `tools/call` through the engine.

mod calls;
mod listen;
pub(crate) mod per_request;
pub(crate) mod refusal;
mod results;
mod session;
mod shapes;

use std::borrow::Cow;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

pub(crate) use calls::{InFlight, PlannedCall, ToolCall};
pub(crate) use listen::Listening;
pub(crate) use results::{DEFAULT_HEADER_VERSION, result_json};
pub use results::{advertised, advertised_as, rewritten_fields};
pub(crate) use session::Session;

use super::jsonrpc::{
    INVALID_PARAMS, Id, METHOD_NOT_FOUND, Method, RESOURCE_NOT_FOUND, Request, RpcError, UNCODED,
    error_message, result_message,
};
use super::profile::{PROTOCOL_2026, Transport, WireProfile};
use super::widget::{URI as WIDGET_URI, Widget};
use super::{Ended, Forwarder, ServerOptions};
use crate::engine::{Engine, Origin, RunName, Runs};
use per_request::{Protocol, ResultShape};
use results::KeptResults;

/// What a request gets back.
#[derive(Debug)]
pub(crate) enum Reply {
    /// The answer, one JSON-RPC message.
    Message(Vec<u8>),
    /// Nothing: a notification, or a call the client cancelled.
    None,
    /// stdio only: the process ends so (a `drop` or `session-expired` fault), its journal line
    /// written.
    Exit(Ended),
    /// A `subscriptions/listen` taken: its acknowledgement, then its result, at once or held.
    Listening(Listening),
}

/// Everything every session shares: the engine and the answers fixed at start-up.
#[derive(Debug)]
pub(crate) struct Mcp {
    engine: Arc<Engine>,
    /// Every run's engine, when the server serves runs (`/mcp/<run>`).
    runs: Option<Arc<Runs>>,
    name: String,
    version: String,
    tools: Vec<u8>,
    tool_count: usize,
    widget: Option<Widget>,
    in_flight: InFlight,
    /// The results of the values the world keeps, written once each.
    kept_results: KeptResults,
    /// Answers the calls instead of the engine, when set (`careem-mcp record`).
    forwarder: Option<Arc<dyn Forwarder>>,
    /// The SDK release whose answers these are.
    profile: WireProfile,
}

impl Mcp {
    /// The shared answers, written once: every definition as the SDK advertises it.
    pub(crate) fn new(engine: Arc<Engine>, options: &ServerOptions) -> Self {
        let definitions: Vec<Cow<'_, Map<String, Value>>> = engine
            .tools()
            .map(|tool| {
                // Copied only when a field is left out.
                let mut definition = Cow::Borrowed(&tool.definition);
                if options.no_output_schema {
                    definition.to_mut().shift_remove("outputSchema");
                }
                if options.no_meta {
                    definition.to_mut().shift_remove("_meta");
                }
                definition
            })
            .collect();
        let tools = results::tools_list(definitions.iter().map(|d| &**d), options.wire);
        Self {
            name: options.server_name.clone(),
            version: options.server_version.clone(),
            tool_count: definitions.len(),
            tools: results::cacheable(&tools, options.wire),
            widget: (!options.no_meta).then(|| Widget::new(&options.widget_domain)),
            engine,
            runs: options.runs.clone(),
            in_flight: InFlight::default(),
            kept_results: KeptResults::default(),
            forwarder: options.forwarder.clone(),
            profile: options.wire,
        }
    }

    /// The SDK release the server answers as.
    pub(crate) fn profile(&self) -> WireProfile {
        self.profile
    }

    /// The engine of `run` (`None`: the default run); `None` when the server serves no runs,
    /// or `run` is new and `--max-runs` runs exist. Counting runs reads the runs folder, so
    /// this runs where blocking is fine.
    pub(crate) async fn engine_of(&self, run: Option<&RunName>) -> Option<Arc<Engine>> {
        let Some(run) = run else {
            return Some(Arc::clone(&self.engine));
        };
        let (runs, run) = (Arc::clone(self.runs.as_ref()?), run.clone());
        tokio::task::spawn_blocking(move || runs.admit(&run))
            .await
            .ok()
            .flatten()
    }

    /// Whether `/mcp/<run>` is served.
    pub(crate) fn runs_served(&self) -> bool {
        self.runs.is_some()
    }

    pub(crate) fn tool_count(&self) -> usize {
        self.tool_count
    }

    pub(crate) fn in_flight(&self) -> &InFlight {
        &self.in_flight
    }

    /// Handles one message whose envelope passed [`super::jsonrpc::check`], as the SDK's
    /// `ServerSession.handle`: admitted under its protocol, dispatched (a call, a notification,
    /// or the method table), a 2026-07-28 result annotated. `arrival` is a `tools/call`'s, when
    /// the transport took it as the call arrived.
    pub(crate) async fn handle(
        &self,
        session: &Arc<Session>,
        request: Request,
        method: Method,
        arrival: Option<PlannedCall>,
    ) -> Reply {
        let protocol = match self.admit(session, &request, method) {
            Ok(protocol) => protocol,
            Err(error) => {
                let error = refusal::as_written(self.profile, &request.method, error);
                return request.id.as_ref().map_or(Reply::None, |id| {
                    Reply::Message(error_message(Some(id), &error))
                });
            }
        };
        let reply = if method == Method::SubscriptionsListen {
            self.listen(session, &request, &protocol)
        } else {
            self.dispatch(session, request, method, arrival).await
        };
        match (protocol, reply) {
            (Protocol::PerRequest { .. }, Reply::Message(message)) => {
                Reply::Message(self.per_request_result(method, message))
            }
            (_, reply) => reply,
        }
    }

    /// Whether `request` may be answered in `session` now, and under which protocol: SDK
    /// v1.7.0's per-request `_meta` (when the release knows it), then the session's gate.
    fn admit(
        &self,
        session: &Session,
        request: &Request,
        method: Method,
    ) -> Result<Protocol, RpcError> {
        let protocol = if self.profile.answers_discover() {
            per_request::protocol(request.params.as_deref())?
        } else {
            Protocol::Session
        };
        if let Protocol::PerRequest { version, .. } = &protocol
            && !self.profile.header_versions().contains(&version.as_str())
        {
            return Err(per_request::unsupported_version(
                version,
                self.profile.header_versions(),
            ));
        }
        let quoted = crate::go::fmt::quote(&request.method);
        match (method, &protocol) {
            (
                Method::Initialize
                | Method::Ping
                | Method::Initialized
                | Method::RootsListChanged
                | Method::SetLevel
                | Method::ResourcesSubscribe
                | Method::ResourcesUnsubscribe,
                Protocol::PerRequest { .. },
            ) => Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("{quoted} is not supported in the new protocol"),
            )),
            (Method::Discover, Protocol::Session) => Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("{quoted} is only supported in protocol version >= {PROTOCOL_2026}"),
            )),
            _ if refusal::answered_before_initialize(self.profile, &request.method) => Ok(protocol),
            (_, Protocol::Session) if !session.is_initialized() => {
                tracing::debug!(method = %request.method, "a request before initialize");
                Err(RpcError::new(
                    0,
                    format!("method {quoted} is invalid during session initialization"),
                ))
            }
            (_, Protocol::PerRequest { client, .. }) => {
                // A 2026-07-28 request stands for the handshake it does without.
                if !session.is_initialized() {
                    session.mark_initialized(client.clone());
                }
                Ok(protocol)
            }
            (_, Protocol::Session) => Ok(protocol),
        }
    }

    /// A 2026-07-28 request's answer: a result names the server and says `resultType`.
    fn per_request_result(&self, method: Method, message: Vec<u8>) -> Vec<u8> {
        let shape = match method {
            Method::ToolsCall | Method::ResourcesRead | Method::PromptsGet => ResultShape::TypeLast,
            _ => ResultShape::TypeFirst,
        };
        per_request::annotate_message(&message, shape, &self.name, &self.version)
    }

    /// Answers a request that [`Self::admit`] let through.
    async fn dispatch(
        &self,
        session: &Arc<Session>,
        request: Request,
        method: Method,
        arrival: Option<PlannedCall>,
    ) -> Reply {
        let Some(id) = request.id.clone() else {
            self.notified(session, &request, method);
            return Reply::None;
        };
        let Some(pending) = session.enter(&id) else {
            return Reply::Message(error_message(Some(&id), &id_in_use(&id)));
        };
        let answered = match method {
            Method::ToolsCall => match ToolCall::read(request.params.as_deref()) {
                Ok(call) => {
                    return self
                        .call_tool(session, &id, call, arrival, &pending.cancelled)
                        .await;
                }
                Err(error) => Err(error),
            },
            _ => self.fixed(session, &request, method),
        };
        drop(pending);
        Reply::Message(match answered {
            Ok(result) => result_message(&id, &result),
            Err(error) => error_message(
                Some(&id),
                &refusal::as_written(self.profile, &request.method, error),
            ),
        })
    }

    /// A method answered from what is fixed at start-up, through [`handler`]'s table.
    fn fixed(
        &self,
        session: &Session,
        request: &Request,
        method: Method,
    ) -> Result<Vec<u8>, RpcError> {
        match handler(method) {
            Some(answer) => answer(self, session, request),
            None => Err(refusal::not_served(method, &request.method)),
        }
    }

    /// `initialize`: the session's client noted, the protocol version negotiated.
    fn initialize(&self, session: &Session, request: &Request) -> Result<Vec<u8>, RpcError> {
        #[derive(serde::Deserialize)]
        struct Initialize {
            #[serde(default, rename = "protocolVersion")]
            protocol_version: String,
            #[serde(default, rename = "clientInfo")]
            client_info: Option<ClientInfo>,
        }
        #[derive(serde::Deserialize)]
        struct ClientInfo {
            #[serde(default)]
            name: String,
            #[serde(default)]
            version: String,
        }
        let raw = request.params.as_deref();
        let initialize: Initialize = params(raw, &request.method, "mcp.initializeParamsV2")
            .map_err(|error| match raw.map(RawValue::get) {
                Some("null") => RpcError::new(
                    UNCODED,
                    "handling 'initialize': missing required \"params\"",
                ),
                _ => error,
            })?;
        if self.profile.refuses_second_initialize() && session.is_initialized() {
            return Err(RpcError::new(UNCODED, "duplicate \"initialize\" received"));
        }
        let client = initialize
            .client_info
            .map(|client| format!("{}/{}", client.name, client.version));
        session.mark_initialized(client);
        Ok(results::initialize(
            &self.name,
            &self.version,
            results::negotiated(&initialize.protocol_version),
            self.widget.is_some(),
        ))
    }

    /// `server/discover`: the versions this transport offers, and the capabilities.
    fn discover(&self, session: &Session, _: &Request) -> Result<Vec<u8>, RpcError> {
        Ok(results::discover(
            self.profile
                .discover_versions(transport_of(session.origin())),
            self.widget.is_some(),
        ))
    }

    /// `ping` and `logging/setLevel`: an empty result.
    fn empty(&self, _: &Session, _: &Request) -> Result<Vec<u8>, RpcError> {
        Ok(b"{}".to_vec())
    }

    fn tools_list(&self, _: &Session, request: &Request) -> Result<Vec<u8>, RpcError> {
        first_page(request)?;
        Ok(self.tools.clone())
    }

    /// `resources/list`: the widget, when the tools carry `_meta`.
    fn resources_list(&self, _: &Session, request: &Request) -> Result<Vec<u8>, RpcError> {
        first_page(request)?;
        let mut out = br#"{"resources":["#.to_vec();
        if let Some(widget) = &self.widget {
            out.extend_from_slice(widget.resource());
        }
        out.extend_from_slice(b"]}");
        Ok(results::cacheable(&out, self.profile))
    }

    fn prompts_list(&self, _: &Session, request: &Request) -> Result<Vec<u8>, RpcError> {
        first_page(request)?;
        Ok(results::cacheable(br#"{"prompts":[]}"#, self.profile))
    }

    fn resource_templates_list(&self, _: &Session, request: &Request) -> Result<Vec<u8>, RpcError> {
        first_page(request)?;
        Ok(results::cacheable(
            br#"{"resourceTemplates":[]}"#,
            self.profile,
        ))
    }

    /// `resources/read`: the widget's page, the one resource.
    fn resources_read(&self, _: &Session, request: &Request) -> Result<Vec<u8>, RpcError> {
        #[derive(serde::Deserialize)]
        struct Read {
            #[serde(default)]
            uri: String,
        }
        let read: Read = params(
            request.params.as_deref(),
            &request.method,
            "mcp.ReadResourceParams",
        )?;
        match &self.widget {
            Some(widget) if read.uri == WIDGET_URI => {
                Ok(results::cacheable(widget.read(), self.profile))
            }
            _ => Err(RpcError {
                code: if self.profile.unknown_resource_is_invalid_params() {
                    INVALID_PARAMS
                } else {
                    RESOURCE_NOT_FOUND
                },
                message: "Resource not found".into(),
                data: Some(json!({"uri": read.uri})),
            }),
        }
    }

    /// `prompts/get`: there are no prompts.
    fn prompts_get(&self, _: &Session, request: &Request) -> Result<Vec<u8>, RpcError> {
        #[derive(serde::Deserialize)]
        struct Get {
            #[serde(default)]
            name: String,
        }
        let get: Get = params(
            request.params.as_deref(),
            &request.method,
            "mcp.GetPromptParams",
        )?;
        Err(RpcError::new(
            INVALID_PARAMS,
            format!("unknown prompt {}", crate::go::fmt::quote(&get.name)),
        ))
    }

    /// A notification: a cancellation stops its call; the others need nothing.
    fn notified(&self, session: &Session, request: &Request, method: Method) {
        if method != Method::Cancelled {
            return;
        }
        #[derive(serde::Deserialize)]
        struct Cancelled {
            #[serde(rename = "requestId")]
            request_id: Value,
        }
        let cancelled = request
            .params
            .as_deref()
            .and_then(|raw| serde_json::from_str::<Cancelled>(raw.get()).ok());
        let id = match cancelled.map(|cancelled| cancelled.request_id) {
            Some(Value::String(text)) => Id::Text(text),
            Some(Value::Number(number)) => match number.as_i64() {
                Some(number) => Id::Number(number),
                #[allow(clippy::cast_possible_truncation)]
                None => Id::Number(number.as_f64().unwrap_or_default() as i64),
            },
            _ => return,
        };
        session.cancel(&id);
    }
}

/// What answers a method from what is fixed at start-up.
type Handler = fn(&Mcp, &Session, &Request) -> Result<Vec<u8>, RpcError>;

/// The method table, as the SDK's `serverMethodInfos`: one function per method answered
/// from what is fixed at start-up. `tools/call`, `subscriptions/listen` and the notifications
/// are answered before it (`Mcp::handle`, `Mcp::dispatch`); a method without a function here is refused by [`refusal::not_served`].
fn handler(method: Method) -> Option<Handler> {
    Some(match method {
        Method::Initialize => Mcp::initialize,
        Method::Discover => Mcp::discover,
        Method::Ping | Method::SetLevel => Mcp::empty,
        Method::ToolsList => Mcp::tools_list,
        Method::ResourcesList => Mcp::resources_list,
        Method::PromptsList => Mcp::prompts_list,
        Method::ResourceTemplatesList => Mcp::resource_templates_list,
        Method::ResourcesRead => Mcp::resources_read,
        Method::PromptsGet => Mcp::prompts_get,
        Method::ResourcesSubscribe
        | Method::ResourcesUnsubscribe
        | Method::Complete
        | Method::ToolsCall
        | Method::Cancelled
        | Method::Initialized
        | Method::RootsListChanged
        | Method::Progress
        | Method::SubscriptionsListen => return None,
    })
}

/// The refusal of a request whose id a pending request of its session has.
fn id_in_use(id: &Id) -> RpcError {
    RpcError::new(
        super::jsonrpc::INVALID_REQUEST,
        format!("invalid request: request ID {id} already in use"),
    )
}

/// A list's `params`: only its first page is asked for (the lists are one page each).
fn first_page(request: &Request) -> Result<(), RpcError> {
    #[derive(serde::Deserialize)]
    struct Page {
        #[serde(default)]
        cursor: Option<String>,
    }
    let page: Option<Page> = optional_params(
        request.params.as_deref(),
        &request.method,
        "mcp.ListToolsParams",
    )?;
    if page
        .and_then(|page| page.cursor)
        .is_some_and(|cursor| !cursor.is_empty())
    {
        return Err(RpcError::new(INVALID_PARAMS, "invalid params"));
    }
    Ok(())
}

/// The transport a session's messages come over.
fn transport_of(origin: Origin) -> Transport {
    match origin {
        Origin::Sse => Transport::Sse,
        Origin::Stdio => Transport::Stdio,
        _ => Transport::Streamable,
    }
}

/// A method's `params` read as the SDK reads them into its `T` (Go's name `go_type`, for the
/// refusal's words): `null` is missing params.
fn params<T: DeserializeOwned>(
    raw: Option<&RawValue>,
    method: &str,
    go_type: &str,
) -> Result<T, RpcError> {
    optional_params(raw, method, go_type)?.ok_or_else(|| {
        RpcError::new(
            super::jsonrpc::INVALID_REQUEST,
            format!("handling '{method}': invalid request: missing required \"params\""),
        )
    })
}

/// As [`params`] for a method whose `params` may be left out.
fn optional_params<T: DeserializeOwned>(
    raw: Option<&RawValue>,
    method: &str,
    go_type: &str,
) -> Result<Option<T>, RpcError> {
    let Some(raw) = raw.filter(|raw| raw.get() != "null") else {
        return Ok(None);
    };
    serde_json::from_str(raw.get()).map(Some).map_err(|_| {
        let shown = crate::go::fmt::quote(raw.get());
        let kind = super::jsonrpc::kind(raw.get());
        let bare = go_type.trim_start_matches("mcp.");
        RpcError::new(
            0,
            format!(
                "handling '{method}': unmarshaling {shown} into a *{go_type}: json: cannot unmarshal {kind} into Go value of type mcp.{bare}"
            ),
        )
    })
}
