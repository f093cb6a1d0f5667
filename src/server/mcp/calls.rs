//! `tools/call`: the controls' delay and fault, then the engine's answer, journalled before it
//! goes out; or, with a forwarder (`careem-mcp record`), the upstream's answer as it came. A call whose tool file is parsed already is answered in the request's own task; a
//! changed file is parsed again, and a jq program run, from a blocking thread. The calls being
//! answered are counted ([`InFlight`]), for a shutdown to wait for and then cut.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Instant;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::results::CallResult;
use super::session::{JournalSlot, Session};
use super::{Mcp, Reply, params, results};
use crate::engine::{
    CallOutput, CallRequest, Fault, InPlace, Origin, Plan, Planning, Rendering, Unanswered,
    UnansweredCall,
};
use crate::server::jsonrpc::{
    INTERNAL_ERROR, INVALID_PARAMS, Id, RpcError, error_message, result_message,
};
use crate::server::{Ended, Forwarded, Forwarder};

/// JSON-RPC's internal error, as a fault or a shutdown answers a call.
pub(crate) fn internal_error() -> RpcError {
    RpcError::new(INTERNAL_ERROR, "internal error")
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
    /// An object that cannot be read, and why, in Go's decoder's words.
    Unreadable(String),
    /// More values than a call's arguments may hold.
    TooMany,
}

/// Values a call's arguments may hold: each costs about 50 bytes once read, so a 4 MiB body of
/// one-byte values (`[0,0,…]`) would otherwise take 30 times its size.
const MAX_VALUES: usize = 100_000;

/// About how many JSON values `text` holds, counted without reading it: one more than its
/// commas outside strings, plus one per array or object.
fn values(text: &str) -> usize {
    let (mut count, mut in_string, mut escaped) = (1, false, false);
    for byte in text.bytes() {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, false, _) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b',' | b'[' | b'{') => count += 1,
            _ => {}
        }
    }
    count
}

impl ToolCall {
    /// Reads `params` as the SDK does, refusing what it refuses.
    pub(crate) fn read(raw: Option<&RawValue>) -> Result<Self, RpcError> {
        let call: CallParams = params(raw, "tools/call", "mcp.CallToolParamsRaw")?;
        let arguments = match call.arguments.as_deref().map(RawValue::get) {
            None | Some("null") => Arguments::Object(None),
            Some(text) if values(text) > MAX_VALUES => Arguments::TooMany,
            Some(text) => match serde_json::from_str::<Map<String, Value>>(text) {
                Ok(map) => Arguments::Object(Some(map)),
                Err(error) => match crate::server::jsonrpc::kind(text) {
                    "object" => Arguments::Unreadable(unreadable_object(text, &error)),
                    kind => Arguments::Not(kind),
                },
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
            Arguments::Not(_) | Arguments::Unreadable(_) | Arguments::TooMany => None,
        }
    }
}

/// Why serde could not read an object that is valid JSON (its text arrived as one raw value),
/// as Go's decoder says it: nested past what serde reads is Go's depth error; a number past
/// what a float64 holds is Go's type error for that field.
fn unreadable_object(text: &str, error: &serde_json::Error) -> String {
    let why = error.to_string();
    if why.starts_with("recursion limit exceeded") {
        return "exceeded max depth".to_string();
    }
    if why.starts_with("number out of range")
        && let Some((key, number)) = out_of_range(text, error.line(), error.column())
    {
        return format!(
            "json: cannot unmarshal {} into Go struct field map[string]interface {{}}.{key} of type float64",
            serde_json::Value::from(number)
        );
    }
    tracing::debug!("arguments serde cannot read: {why}");
    why.split(" at line ")
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The number that ends at (1-based) `line` and `column` of `text`, and the key before it.
fn out_of_range(text: &str, line: usize, column: usize) -> Option<(&str, &str)> {
    let line_start = match line {
        0 | 1 => 0,
        line => text.match_indices('\n').nth(line - 2)?.0 + 1,
    };
    let before = text.get(..(line_start + column).min(text.len()))?;
    let start = before
        .rfind(|c: char| !matches!(c, '0'..='9' | '-' | '+' | '.' | 'e' | 'E'))
        .map_or(0, |at| at + 1);
    let key = before[..start]
        .trim_end()
        .strip_suffix(':')?
        .trim_end()
        .strip_suffix('"')?;
    let key = &key[key.rfind('"')? + 1..];
    Some((key, &before[start..]))
}

/// Whether the ingress answers `fault` over HTTP, instead of the SDK's layer.
fn answered_by_ingress(fault: Fault) -> bool {
    matches!(
        fault,
        Fault::Http502 | Fault::Http503 | Fault::Http504 | Fault::Drop | Fault::SessionExpired
    )
}

/// A call as it arrived: its plan (none for a tool that does not exist) and its place in the
/// journal, both taken as it arrives so that sequences and journal lines follow arrival order.
#[derive(Debug)]
pub(crate) struct PlannedCall {
    plan: Option<Plan>,
    turn: JournalSlot,
}

impl PlannedCall {
    /// The fault the ingress answers for this call, in front of this layer, if any.
    pub(crate) fn ingress_fault(&self) -> Option<Fault> {
        self.plan
            .as_ref()?
            .fault
            .filter(|fault| answered_by_ingress(*fault))
    }
}

impl Mcp {
    /// A call of `tool` arriving in `session` now.
    pub(crate) fn arrive(&self, session: &Session, tool: &str) -> PlannedCall {
        let turn = session.take_journal_slot();
        // A forwarded call has no plan: the upstream answers it, with no delay or fault.
        if self.forwarder.is_some() || session.engine().tool(tool).is_none() {
            return PlannedCall { plan: None, turn };
        }
        let planned = panic::catch_unwind(AssertUnwindSafe(|| {
            let client = session.client();
            session
                .engine()
                .plan_for(tool, session.id(), client.as_deref())
        }));
        let plan = planned.unwrap_or_else(|_| {
            tracing::error!("planning a call failed: it panicked");
            Plan::default()
        });
        PlannedCall {
            plan: Some(plan),
            turn,
        }
    }

    /// Answers one `tools/call`.
    pub(crate) async fn call_tool(
        &self,
        session: &Arc<Session>,
        id: &Id,
        call: ToolCall,
        arrival: Option<PlannedCall>,
        cancelled: &CancellationToken,
    ) -> Reply {
        let PlannedCall { plan, mut turn } =
            arrival.unwrap_or_else(|| self.arrive(session, &call.name));
        if let Some(forwarder) = &self.forwarder {
            let _counted = self.in_flight.enter();
            return tokio::select! {
                biased;
                reply = forward(forwarder, session, id, &call, turn) => reply,
                () = cancelled.cancelled() => Reply::None,
                () = self.in_flight.cut_off() => {
                    tracing::warn!("a call still running at shutdown: answering it with an error");
                    Reply::Message(error_message(Some(id), &internal_error()))
                }
            };
        }
        let Some(plan) = plan else {
            turn.come().await;
            journalled(journal_unanswered(session, &call, Unanswered::UnknownTool)).await;
            drop(turn);
            let unknown = format!("unknown tool {}", crate::go::fmt::quote(&call.name));
            return Reply::Message(error_message(
                Some(id),
                &RpcError::new(INVALID_PARAMS, unknown),
            ));
        };
        let counted = self.in_flight.enter();
        let call = Planned {
            call,
            plan,
            turn,
            counted,
        };
        tokio::select! {
            biased;
            reply = self.planned(session, id, call, cancelled) => reply,
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
        planned: Planned,
        cancelled: &CancellationToken,
    ) -> Reply {
        let Planned {
            call,
            plan,
            mut turn,
            counted,
        } = planned;
        if !plan.delay.is_zero() {
            // A call that waits gives up its place: the calls behind it are not held up.
            drop(turn);
            let cut = tokio::select! {
                () = tokio::time::sleep(plan.delay) => None,
                () = cancelled.cancelled() => Some(Reply::None),
                () = self.in_flight.cut_off() => {
                    tracing::warn!("a call still waiting its delay at shutdown: answering it with an error");
                    Some(Reply::Message(error_message(Some(id), &internal_error())))
                }
            };
            if let Some(reply) = cut {
                drop(journal_unanswered(
                    session,
                    &call,
                    Unanswered::Cancelled(plan),
                ));
                return reply;
            }
            turn = session.take_journal_slot();
        }
        if let Some(fault) = plan.fault {
            turn.come().await;
            journalled(journal_unanswered(
                session,
                &call,
                Unanswered::Faulted { plan, fault },
            ))
            .await;
            drop(turn);
            return self.fire(session, id, fault, cancelled, counted).await;
        }
        let result = match call.arguments {
            Arguments::Not(kind) => unreadable(&format!(
                "json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"
            )),
            Arguments::Unreadable(why) => unreadable(&why),
            Arguments::TooMany => unreadable("exceeded max values"),
            Arguments::Object(arguments) => {
                match self
                    .call_engine(session, call.name.clone(), arguments, plan, turn)
                    .await
                {
                    Ok(output) => self.kept_results.call_result(&output),
                    Err(error) => {
                        tracing::error!(tool = %call.name, "the call failed: {error}");
                        CallResult::Written(results::internal_error_result())
                    }
                }
            }
        };
        Reply::Message(result_message(id, result.bytes()))
    }

    /// The engine's answer and its journal line, in its turn: in place when the tool file is
    /// warm and the journal can be written without blocking, else on a blocking thread.
    async fn call_engine(
        &self,
        session: &Session,
        name: String,
        arguments: Option<Map<String, Value>>,
        plan: Plan,
        mut turn: JournalSlot,
    ) -> Result<CallOutput, String> {
        let request = CallRequest {
            tool: name,
            arguments,
            planning: Planning::DrawnByCaller(plan),
            rendering: Rendering::Text,
            origin: session.origin(),
            session: session.id().map(str::to_string),
        };
        turn.come().await;
        let engine = Arc::clone(session.engine());
        let in_place = panic::catch_unwind(AssertUnwindSafe(|| engine.answer_in_place(&request)))
            .map_err(|_| PANICKED.to_string())?;
        let blocking = match in_place {
            InPlace::Answered(output) => return Ok(output),
            InPlace::Unjournalled(line) => {
                tokio::task::spawn_blocking(move || engine.journal(line))
            }
            InPlace::NeedsBlocking => tokio::task::spawn_blocking(move || engine.answer(&request)),
        };
        blocking.await.map_err(|error| error.to_string())
    }

    /// Fires a fault this layer answers, after its journal line: `-32603`, nothing until the
    /// client cancels (`hang`), or, over stdio, a process that ends.
    async fn fire(
        &self,
        session: &Session,
        id: &Id,
        fault: Fault,
        cancelled: &CancellationToken,
        counted: InFlightGuard,
    ) -> Reply {
        let stdio = session.origin() == Origin::Stdio;
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
                Reply::Exit(Ended::Crashed)
            }
            Fault::SessionExpired if stdio => {
                tracing::warn!("the overrides file's session-expired fault: ending the session");
                session.expire_process().await;
                Reply::Exit(Ended::SessionExpired)
            }
            _ => Reply::Message(error_message(Some(id), &internal_error())),
        }
    }

    /// Waits the arrival's delay, then journals the call as its `fault` answered it, in its turn:
    /// the part of this layer in a fault the ingress answers. While it waits the call gives up
    /// its place, as [`Mcp::planned`]'s delay does. A shutdown (`cut`) ends the wait: the call
    /// is journalled as cancelled, and `false` comes back.
    pub(crate) async fn delay_and_journal_fault(
        &self,
        session: &Session,
        params: Option<&RawValue>,
        arrival: PlannedCall,
        fault: Fault,
        cut: &CancellationToken,
    ) -> bool {
        let PlannedCall { plan, mut turn } = arrival;
        let Some(plan) = plan else {
            return true;
        };
        let call = ToolCall::read(params);
        if !plan.delay.is_zero() {
            drop(turn);
            tokio::select! {
                () = tokio::time::sleep(plan.delay) => {}
                () = cut.cancelled() => {
                    if let Ok(call) = &call {
                        drop(journal_unanswered(session, call, Unanswered::Cancelled(plan)));
                    }
                    return false;
                }
            }
            turn = session.take_journal_slot();
        }
        turn.come().await;
        match call {
            Ok(call) => {
                journalled(journal_unanswered(
                    session,
                    &call,
                    Unanswered::Faulted { plan, fault },
                ))
                .await;
            }
            Err(_) => tracing::warn!("a faulted call with unreadable params"),
        }
        true
    }
}

/// The upstream's answer to a call, recorded and journalled in the call's turn, then sent on as
/// it came: its result as the JSON-RPC `result`, its JSON-RPC error as the error.
async fn forward(
    forwarder: &Arc<dyn Forwarder>,
    session: &Session,
    id: &Id,
    call: &ToolCall,
    mut turn: JournalSlot,
) -> Reply {
    let forwarded = Forwarded {
        tool: call.name.clone(),
        arguments: call.arguments_map(),
        origin: session.origin(),
        session: session.id().map(str::to_string),
    };
    let started = Instant::now();
    let answer = forwarder.forward(&forwarded).await;
    let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
    turn.come().await;
    let (recorder, kept) = (Arc::clone(forwarder), answer.clone());
    let recorded =
        tokio::task::spawn_blocking(move || recorder.record(forwarded, &kept, micros)).await;
    drop(turn);
    if let Err(error) = recorded {
        tracing::error!(tool = %call.name, "recording the call failed: {error}");
    }
    match answer {
        Ok(result) => Reply::Message(result_message(id, result.get().as_bytes())),
        Err(error) => Reply::Message(error_message(
            Some(id),
            &RpcError {
                code: error.code,
                message: error.message,
                data: error.data,
            },
        )),
    }
}

/// Journals, on a blocking thread, a call of `session` that this layer ends without the
/// engine's answer: an unknown tool, a fault, a cancellation. A caller that holds the call's
/// turn awaits the line ([`journalled`]); a call cut by a shutdown answers at once, and the
/// process gives the write a moment before it exits.
fn journal_unanswered(
    session: &Session,
    call: &ToolCall,
    unanswered: Unanswered,
) -> JoinHandle<CallOutput> {
    let call = UnansweredCall {
        tool: call.name.clone(),
        arguments: call.arguments_map(),
        unanswered,
        origin: session.origin(),
        session: session.id().map(str::to_string),
    };
    let engine = Arc::clone(session.engine());
    tokio::task::spawn_blocking(move || engine.journal_unanswered(call))
}

/// Waits for a journal line written by [`journal_unanswered`].
async fn journalled(line: JoinHandle<CallOutput>) {
    if let Err(error) = line.await {
        tracing::error!("journalling a call failed: {error}");
    }
}

/// A known tool's call, with what it holds until it is answered.
struct Planned {
    call: ToolCall,
    plan: Plan,
    turn: JournalSlot,
    counted: InFlightGuard,
}

/// For the log, when a call panicked in place (the panic's message went to stderr).
const PANICKED: &str = "the call panicked";

/// What a typed Go handler answers for arguments it cannot read.
fn unreadable(why: &str) -> CallResult {
    CallResult::Written(results::error_result(&format!(
        "validating \"arguments\": unmarshaling arguments: {why}"
    )))
}

/// The calls being answered now, over every transport, so that a shutdown lets them finish
/// before it ends their sessions, then cuts those still running (each answers `-32603` at once,
/// whatever it waits for), so that no client waits on a server that is going away.
#[derive(Debug, Clone)]
pub(crate) struct InFlight {
    count: Arc<watch::Sender<usize>>,
    cut: CancellationToken,
}

/// One call, counted until dropped (answered, cancelled or panicked).
#[derive(Debug)]
pub(crate) struct InFlightGuard(InFlight);

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        self.0
            .count
            .send_modify(|count| *count = count.saturating_sub(1));
    }
}

impl Default for InFlight {
    fn default() -> Self {
        Self {
            count: Arc::new(watch::Sender::new(0)),
            cut: CancellationToken::new(),
        }
    }
}

impl InFlight {
    pub(crate) fn enter(&self) -> InFlightGuard {
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

    pub(crate) async fn cut_off(&self) {
        self.cut.cancelled().await;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn values_are_counted_without_reading_them() {
        let cases = [
            ("1", 1),
            (r#"{"a":1,"b":[2,3]}"#, 5),
            (r#"{"q":"a,b[{"}"#, 2),
            (r#"{"q":"\",[{"}"#, 2),
        ];
        for (text, want) in cases {
            assert_eq!(values(text), want, "{text}");
        }
        let many = format!("[{}0]", "0,".repeat(MAX_VALUES));
        assert!(values(&many) > MAX_VALUES);
    }

    #[test]
    fn unreadable_objects_say_why_and_only_depth_is_depth() {
        let deep = format!("{{\"a\":{}1{}}}", "[".repeat(200), "]".repeat(200));
        let cases = [
            (deep.as_str(), "exceeded max depth".to_string()),
            (
                r#"{"latitude":1e400,"longitude":1}"#,
                r#"json: cannot unmarshal "1e400" into Go struct field map[string]interface {}.latitude of type float64"#.to_string(),
            ),
            (
                "{\n  \"a\": 1,\n  \"x\" : -2e999\n}",
                r#"json: cannot unmarshal "-2e999" into Go struct field map[string]interface {}.x of type float64"#.to_string(),
            ),
        ];
        for (text, want) in cases {
            let error = serde_json::from_str::<Map<String, Value>>(text).unwrap_err();
            assert_eq!(unreadable_object(text, &error), want, "{text}");
        }
    }

    #[tokio::test]
    async fn calls_are_counted_until_their_guard_drops() {
        let in_flight = InFlight::default();
        in_flight.drained().await;
        let guard = in_flight.enter();
        let waiting = tokio::spawn({
            let in_flight = in_flight.clone();
            async move { in_flight.drained().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "a call is still running");
        drop(guard);
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("drained once the call ends")
            .expect("the task ran");
    }
}
