//! `tools/call`: the controls' delay and fault, then the engine's answer, journalled before it
//! goes out. A call whose tool file is parsed already is answered in the request's own task; a
//! changed file is parsed again on a blocking thread.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::in_flight::InFlightGuard;
use super::session::{Session, Transport};
use super::{Mcp, Reply, params, results};
use crate::engine::{CallOutput, Engine, Fault, Plan, Rendering};
use crate::server::jsonrpc::{Id, RpcError, error_message, result_message};

/// A Go server's exit status after a panic, which production's stack would show over stdio.
const CRASH_STATUS: i32 = 2;

/// JSON-RPC's internal error, as a fault or a shutdown answers a call.
pub(crate) fn internal_error() -> RpcError {
    RpcError::new(-32603, "internal error")
}

#[derive(Deserialize)]
struct CallParams {
    #[serde(default)]
    name: String,
    #[serde(default)]
    arguments: Option<Box<RawValue>>,
}

/// A call's name and arguments as read from its `params`.
pub(crate) struct ToolCall {
    pub(crate) name: String,
    arguments: Arguments,
}

enum Arguments {
    Object(Option<Map<String, Value>>),
    /// Arguments that are not an object, and the kind Go's decoder names.
    Not(&'static str),
}

impl ToolCall {
    /// Reads `params` as the SDK does, refusing what it refuses.
    pub(crate) fn read(raw: Option<&RawValue>) -> Result<Self, RpcError> {
        let call: CallParams = params(raw, "tools/call", "mcp.CallToolParamsRaw")?;
        let arguments = match call.arguments.as_deref().map(RawValue::get) {
            None | Some("null") => Arguments::Object(None),
            Some(text) => match serde_json::from_str::<Map<String, Value>>(text) {
                Ok(map) => Arguments::Object(Some(map)),
                Err(_) => Arguments::Not(crate::server::jsonrpc::kind(text)),
            },
        };
        Ok(Self {
            name: call.name,
            arguments,
        })
    }

    /// The name alone, for a transport that decides on faults before the call is read whole.
    pub(crate) fn name_of(raw: Option<&RawValue>) -> Option<String> {
        #[derive(Deserialize)]
        struct Name {
            name: String,
        }
        serde_json::from_str::<Name>(raw?.get())
            .ok()
            .map(|name| name.name)
    }

    fn arguments_map(&self) -> Option<Map<String, Value>> {
        match &self.arguments {
            Arguments::Object(map) => map.clone(),
            Arguments::Not(_) => None,
        }
    }
}

impl Mcp {
    /// The plan for the next call of `tool` in `session`, taken where the call arrives so that
    /// sequences step in arrival order. `None` for a tool that does not exist.
    pub(crate) fn plan(&self, session: &Session, tool: &str) -> Option<Plan> {
        self.engine.tool(tool)?;
        let planned =
            panic::catch_unwind(AssertUnwindSafe(|| self.engine.plan(tool, session.id())));
        match planned {
            Ok(plan) => Some(plan),
            Err(_) => {
                tracing::error!("planning a call failed: it panicked");
                Some(Plan::default())
            }
        }
    }

    /// Answers one `tools/call`.
    pub(crate) async fn call_tool(
        &self,
        session: &Arc<Session>,
        id: &Id,
        call: ToolCall,
        plan: Option<Plan>,
        cancelled: &CancellationToken,
    ) -> Reply {
        let Some(plan) = plan.or_else(|| self.plan(session, &call.name)) else {
            self.journal_unknown(session, &call).await;
            let unknown = format!("unknown tool {}", crate::engine::go_quote(&call.name));
            return Reply::Message(error_message(Some(id), &RpcError::new(-32602, unknown)));
        };
        let counted = self.in_flight.enter();
        tokio::select! {
            biased;
            reply = self.planned(session, id, call, plan, cancelled, counted) => reply,
            () = self.in_flight.cut_off() => {
                tracing::warn!("a call still running at shutdown: answering it with an error");
                Reply::Message(error_message(Some(id), &internal_error()))
            }
        }
    }

    async fn planned(
        &self,
        session: &Arc<Session>,
        id: &Id,
        call: ToolCall,
        plan: Plan,
        cancelled: &CancellationToken,
        counted: InFlightGuard,
    ) -> Reply {
        if !plan.delay.is_zero() {
            tokio::select! {
                () = tokio::time::sleep(plan.delay) => {}
                () = cancelled.cancelled() => return Reply::None,
            }
        }
        if let Some(fault) = plan.fault {
            return self
                .fire(session, id, call, &plan, fault, cancelled, counted)
                .await;
        }
        let result = match call.arguments {
            Arguments::Not(kind) => not_an_object(kind),
            Arguments::Object(arguments) => {
                match self
                    .engine_answer(session, call.name.clone(), arguments, plan)
                    .await
                {
                    Ok(output) => results::call_result(&output),
                    Err(error) => {
                        tracing::error!(tool = %call.name, "the call failed: {error}");
                        results::internal_error_result()
                    }
                }
            }
        };
        Reply::Message(result_message(id, &result))
    }

    /// The engine's answer and its journal line: in place when the tool file is warm and the
    /// journal can be written without blocking, else on a blocking thread.
    async fn engine_answer(
        &self,
        session: &Session,
        name: String,
        arguments: Option<Map<String, Value>>,
        plan: Plan,
    ) -> Result<CallOutput, String> {
        let engine = Arc::clone(&self.engine);
        let transport = session.transport();
        let session = session.id().map(str::to_string);
        let mut arguments = arguments;
        let warm = panic::catch_unwind(AssertUnwindSafe(|| {
            engine.call_planned_warm(&name, &mut arguments, &plan, Rendering::Text)
        }));
        match warm {
            Ok(Some(Ok(output))) => journalled(engine, transport, session, output).await,
            Ok(Some(Err(unknown))) => Err(unknown.to_string()),
            Err(_) => Err(PANICKED.to_string()),
            Ok(None) => tokio::task::spawn_blocking(move || {
                let output = engine
                    .call_planned(&name, arguments, &plan)
                    .map_err(|unknown| unknown.to_string())?;
                engine.record(transport.as_str(), session.as_deref(), &output);
                Ok(output)
            })
            .await
            .map_err(|error| error.to_string())?,
        }
    }

    async fn journal_unknown(&self, session: &Session, call: &ToolCall) {
        let engine = Arc::clone(&self.engine);
        let (transport, session) = (session.transport(), session.id().map(str::to_string));
        let (name, arguments) = (call.name.clone(), call.arguments_map());
        let journalled = tokio::task::spawn_blocking(move || {
            engine.record_unknown(transport.as_str(), session.as_deref(), &name, arguments);
        })
        .await;
        if let Err(error) = journalled {
            tracing::error!("journalling a call of an unknown tool failed: {error}");
        }
    }

    /// Fires a fault this layer answers, after its journal line: `-32603`, nothing until the
    /// client cancels (`hang`), or, over stdio, a process that ends.
    #[allow(clippy::too_many_arguments)]
    async fn fire(
        &self,
        session: &Session,
        id: &Id,
        call: ToolCall,
        plan: &Plan,
        fault: Fault,
        cancelled: &CancellationToken,
        counted: InFlightGuard,
    ) -> Reply {
        self.journal_fault(session, &call, plan, fault).await;
        let stdio = session.transport() == Transport::Stdio;
        match fault {
            Fault::Hang => {
                // A call that never ends must not hold up a shutdown, which cuts it (answers
                // it `-32603`) once the others are done.
                drop(counted);
                cancelled.cancelled().await;
                Reply::None
            }
            Fault::Drop if stdio => {
                tracing::error!("the overrides file's drop fault: exiting as a crashed server");
                Reply::Exit(CRASH_STATUS)
            }
            Fault::SessionExpired if stdio => {
                tracing::warn!("the overrides file's session-expired fault: ending the session");
                Reply::Exit(0)
            }
            _ => Reply::Message(error_message(Some(id), &internal_error())),
        }
    }

    /// Journals a call that a fault answered instead of a scenario.
    pub(crate) async fn journal_fault(
        &self,
        session: &Session,
        call: &ToolCall,
        plan: &Plan,
        fault: Fault,
    ) {
        let engine = Arc::clone(&self.engine);
        let (transport, session) = (session.transport(), session.id().map(str::to_string));
        let (name, arguments, plan) = (call.name.clone(), call.arguments_map(), plan.clone());
        let journalled = tokio::task::spawn_blocking(move || {
            engine.record_fault(
                transport.as_str(),
                session.as_deref(),
                &name,
                arguments,
                &plan,
                fault,
            );
        })
        .await;
        if let Err(error) = journalled {
            tracing::error!("journalling a fault failed: {error}");
        }
    }
}

/// For the log, when a call panicked in place (the panic's message went to stderr).
const PANICKED: &str = "the call panicked";

/// The call's journal line, written before the answer goes out: in place when the write cannot
/// block, else on a blocking thread, so that a journal that is a pipe nobody drains holds up
/// this call alone, never the runtime.
async fn journalled(
    engine: Arc<Engine>,
    transport: Transport,
    session: Option<String>,
    output: CallOutput,
) -> Result<CallOutput, String> {
    let now = panic::catch_unwind(AssertUnwindSafe(|| {
        engine.record_now(transport.as_str(), session.as_deref(), &output)
    }));
    match now {
        Ok(true) => return Ok(output),
        Ok(false) => {}
        Err(_) => return Err(PANICKED.to_string()),
    }
    tokio::task::spawn_blocking(move || {
        engine.record(transport.as_str(), session.as_deref(), &output);
        output
    })
    .await
    .map_err(|error| error.to_string())
}

/// What a typed Go handler answers for arguments that are not an object.
fn not_an_object(kind: &str) -> Vec<u8> {
    let text = format!(
        "validating \"arguments\": unmarshaling arguments: json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"
    );
    let mut out = br#"{"content":[{"type":"text","text":"#.to_vec();
    crate::server::jsonrpc::go_json::write(
        &mut out,
        &text,
        crate::server::jsonrpc::go_json::Escaping::Html,
    );
    out.extend_from_slice(br#"}],"isError":true}"#);
    out
}
