//! The engine's one front door for a call: a [`CallRequest`] in, a [`CallOutput`] out, with
//! the call's journal line written on the way. [`Engine::answer`] may block (a parse, a
//! journal that is a pipe); [`Engine::answer_in_place`] never does, for async callers. A call
//! the server ends without an answer (an unknown tool, a fault, a cancellation) is journalled
//! by [`Engine::journal_unanswered`].
//!
//! The steps of an answer, in order: `make_output` (the tool, its file, the plan),
//! `validate_and_render` (the arguments), `render_scenario` (a template's render) or
//! `compute_from_world` (a world program's value).

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use serde_json::{Map, Value};

use super::clip::{LOG_LIMIT, clip};
use super::controls::entries::Fault;
use super::controls::plan::Plan;
use super::origin::Origin;
use super::output::{self, CallOutput, Decision, INTERNAL_ERROR, Rendering};
use super::select::arguments;
use super::select::selection::select;
use super::toolfile::{Answer, Outcome, Parsed, ToolFile};
use super::world::{self, AnswerError, Programs};
use super::{Engine, Tool};

/// How a call's plan (its scenario, step, delay and fault) is decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Planning {
    /// Drawn from the overrides file as the next call of the tool in the request's session.
    /// Only a transport can fire a fault, so a drawn plan's fault is left out.
    Drawn,
    /// One scenario forced for this call alone (`call --scenario`, the dashboard).
    Forced(String),
    /// Drawn already by the caller with [`Engine::plan`]: the server, which waits the delay
    /// before it asks for the answer. The plan's fault is the caller's to fire: a call it
    /// answers is journalled with [`Engine::journal_unanswered`] instead.
    DrawnByCaller(Plan),
}

/// One call, as every caller hands it to the engine.
#[derive(Debug, Clone)]
pub struct CallRequest {
    pub tool: String,
    /// The arguments as the client sent them; `None` when it sent none.
    pub arguments: Option<Map<String, Value>>,
    pub planning: Planning,
    pub rendering: Rendering,
    pub origin: Origin,
    /// The MCP session; `None` for stdio and for calls made in process.
    pub session: Option<String>,
}

impl CallRequest {
    /// A call from `origin` outside any session, planned from the overrides file, its value
    /// rendered.
    pub fn new(origin: Origin, tool: &str, arguments: Option<Map<String, Value>>) -> Self {
        Self {
            tool: tool.to_string(),
            arguments,
            planning: Planning::Drawn,
            rendering: Rendering::Value,
            origin,
            session: None,
        }
    }
}

/// A call that the server takes in and ends without asking for an answer, as
/// [`Engine::journal_unanswered`] journals it.
#[derive(Debug, Clone)]
pub struct UnansweredCall {
    pub tool: String,
    /// The arguments as the client sent them; `None` when it sent none or they do not read.
    pub arguments: Option<Map<String, Value>>,
    pub unanswered: Unanswered,
    pub origin: Origin,
    /// The MCP session; `None` for stdio.
    pub session: Option<String>,
}

/// Why a call ends without an answer.
#[derive(Debug, Clone)]
pub enum Unanswered {
    /// Its tool does not exist: journalled only when it came over MCP, and not logged.
    UnknownTool,
    /// The overrides file's `fault` answers it after the plan's delay; the transport fires it.
    Faulted { plan: Plan, fault: Fault },
    /// Cut before it was answered (a shutdown, or the client's cancellation during its delay):
    /// journalled with the outcome `cancelled`.
    Cancelled(Plan),
}

/// What [`Engine::answer_in_place`] could do without blocking.
#[derive(Debug)]
pub enum InPlace {
    /// Answered and journalled.
    Answered(CallOutput),
    /// Answered, but writing the journal line could block (a journal that is a pipe, one being
    /// rotated or written by another call): [`Engine::journal`] writes it where blocking is fine.
    Unjournalled(Unjournalled),
    /// Nothing done: the tool's file changed since its last parse, and a parse may take
    /// milliseconds; or the call may change the run's world, which waits for the run's lock;
    /// or a jq program must run, which only a program thread does while the caller waits (up
    /// to the call's deadline). [`Engine::answer`] answers the same request where blocking is
    /// fine.
    NeedsBlocking,
}

/// An answer whose journal line is still to be written.
#[derive(Debug)]
#[must_use = "the call's journal line is not written yet"]
pub struct Unjournalled {
    pub(super) output: CallOutput,
    pub(super) origin: Origin,
    pub(super) session: Option<String>,
}

/// How the call path reads the tool's file: whatever it takes, or only when no parse is due
/// (and then it runs no program either).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    Blocking,
    InPlace,
}

/// The answer needs what is not done in place: [`InPlace::NeedsBlocking`].
struct NotInPlace;

impl Engine {
    /// Answers the call and appends its journal line. A call of an unknown tool answers with
    /// [`Decision::UnknownTool`]. May block: a changed tool file is parsed again, and a journal
    /// that is a pipe waits for its reader.
    pub fn answer(&self, request: &CallRequest) -> CallOutput {
        let output = self
            .make_output(request, Reading::Blocking)
            .expect("a blocking read always answers");
        self.journal(Unjournalled {
            output,
            origin: request.origin,
            session: request.session.clone(),
        })
    }

    /// As [`Engine::answer`], for an async caller that must not block its worker: the answer is
    /// made here when the tool's file is parsed already as it is on disk now (then a call is a
    /// read of the file, opened without blocking, and a render or a value kept) and no jq
    /// program must run for it, and the journal line is written here when that cannot block
    /// either. Otherwise the caller finishes on a blocking
    /// thread: [`InPlace::NeedsBlocking`] with [`Engine::answer`], [`InPlace::Unjournalled`] with
    /// [`Engine::journal`].
    pub fn answer_in_place(&self, request: &CallRequest) -> InPlace {
        let Some(output) = self.make_output(request, Reading::InPlace) else {
            return InPlace::NeedsBlocking;
        };
        let line = Unjournalled {
            output,
            origin: request.origin,
            session: request.session.clone(),
        };
        match self.try_journal(&line) {
            true => InPlace::Answered(line.output),
            false => InPlace::Unjournalled(line),
        }
    }

    /// Journals a call the server ends without an answer, and logs it (but an unknown tool's),
    /// blocking if it must: the one engine call for unknown tools, faults and cancellations.
    pub fn journal_unanswered(&self, call: UnansweredCall) -> CallOutput {
        let UnansweredCall {
            tool,
            arguments,
            unanswered,
            origin,
            session,
        } = call;
        let output = match &unanswered {
            Unanswered::UnknownTool => CallOutput::unknown_tool(&tool, arguments),
            Unanswered::Faulted { plan, fault } => {
                CallOutput::faulted(&tool, arguments, plan, *fault)
            }
            Unanswered::Cancelled(plan) => CallOutput::cancelled(&tool, arguments, plan),
        };
        if !matches!(unanswered, Unanswered::UnknownTool) {
            output::log(&output);
        }
        self.journal(Unjournalled {
            output,
            origin,
            session,
        })
    }

    /// Writes the journal line of an answer made in place, blocking if it must, and hands the
    /// answer back. A journal that cannot be written is logged, never a reason to fail the call.
    pub fn journal(&self, line: Unjournalled) -> CallOutput {
        self.called.store(true, Ordering::Relaxed);
        if self.journals(&line)
            && let Some(journal) = &self.journal
            && let Err(error) =
                journal.append_call(line.origin, line.session.as_deref(), &line.output)
        {
            tracing::warn!(path = %journal.path().display(), "cannot write the call journal: {error}");
        }
        line.output
    }

    /// Writes the line when that cannot block: the journal is a regular file that no other
    /// call is writing, still at its path and short of rotation. `false` when nothing was
    /// written and the line is still due.
    fn try_journal(&self, line: &Unjournalled) -> bool {
        self.called.store(true, Ordering::Relaxed);
        if !self.journals(line) {
            return true;
        }
        let Some(journal) = &self.journal else {
            return true;
        };
        match journal.try_append_call(line.origin, line.session.as_deref(), &line.output) {
            Some(Ok(())) => true,
            Some(Err(error)) => {
                tracing::warn!(path = %journal.path().display(), "cannot write the call journal: {error}");
                true
            }
            None => false,
        }
    }

    /// Whether the line belongs in the journal: every call, but an unknown tool's from outside
    /// MCP.
    fn journals(&self, line: &Unjournalled) -> bool {
        line.origin.is_mcp() || line.output.decision != Decision::UnknownTool
    }

    /// The answer, timed and logged: the tool, its file as read now, the plan; `None` when
    /// reading in place and the file needs a parse, the run's lock or a program.
    fn make_output(&self, request: &CallRequest, reading: Reading) -> Option<CallOutput> {
        let started = Instant::now();
        let Some(tool) = self.catalog.tool(&request.tool) else {
            return Some(CallOutput::unknown_tool(
                &request.tool,
                request.arguments.clone(),
            ));
        };
        let file = match reading {
            Reading::Blocking => self.catalog.current_file(tool),
            Reading::InPlace => self.catalog.parsed_file(tool).transpose()?,
        };
        // A change to a run's world waits for the run's lock, which another process may hold.
        // A plan drawn here for a call answered from the world could be drawn twice, if a
        // program must run.
        if reading == Reading::InPlace
            && file.as_ref().is_ok_and(|parsed| {
                (self.config.stateful && parsed.file.scenarios.iter().any(|s| s.changes()))
                    || (request.planning == Planning::Drawn && world::uses_world(&parsed.file))
            })
        {
            return None;
        }
        let plan = match &request.planning {
            Planning::DrawnByCaller(plan) => Cow::Borrowed(plan),
            Planning::Forced(scenario) => Cow::Owned(Plan::forced(scenario)),
            Planning::Drawn => Cow::Owned(Plan {
                fault: None,
                ..self.plan(&request.tool, request.session.as_deref())
            }),
        };
        let mut output = self
            .validate_and_render(tool, request, &plan, file, reading)
            .ok()?;
        output.micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        output::log(&output);
        Some(output)
    }

    /// The arguments with their defaults, validated against the tool's `inputSchema`, then the
    /// answer from the tool's `file` as read at the start of the call.
    fn validate_and_render(
        &self,
        tool: &Tool,
        request: &CallRequest,
        plan: &Plan,
        file: std::io::Result<Arc<Parsed>>,
        reading: Reading,
    ) -> Result<CallOutput, NotInPlace> {
        let received = arguments::normalise(request.arguments.clone());
        let mut args = received.clone();
        arguments::apply_defaults(&tool.input_schema, &mut args);
        let mut output = CallOutput::unanswered(
            &request.tool,
            received,
            args,
            Decision::InternalError,
            INTERNAL_ERROR.to_string(),
            Some(plan),
        );
        if let Err(message) =
            arguments::validate(&tool.input_schema, &tool.input_validator, &output.arguments)
        {
            output.decision = Decision::InvalidArguments;
            output.text = message;
        } else {
            self.render_scenario(
                &tool.path,
                file,
                plan.scenario.as_deref(),
                request.rendering,
                reading,
                &mut output,
            )?;
        }
        Ok(output)
    }

    /// The selected scenario's answer: its template rendered, or, for a file that uses the
    /// world, [`Engine::compute_from_world`]; a file that does not parse answers the internal
    /// error.
    fn render_scenario(
        &self,
        path: &Path,
        file: std::io::Result<Arc<Parsed>>,
        force: Option<&str>,
        rendering: Rendering,
        reading: Reading,
        output: &mut CallOutput,
    ) -> Result<(), NotInPlace> {
        let parsed = match file {
            Ok(parsed) => parsed,
            Err(error) => {
                tracing::error!(tool = %output.tool, path = %path.display(), "cannot read the tool file: {error}");
                return Ok(());
            }
        };
        if !parsed.diagnostics.is_empty() || parsed.file.tool != output.tool {
            for diagnostic in &parsed.diagnostics {
                tracing::error!(tool = %output.tool, "{diagnostic}");
            }
            if parsed.file.tool != output.tool {
                tracing::error!(tool = %output.tool, path = %path.display(), "the file now names tool {:?}", parsed.file.tool);
            }
            return Ok(());
        }
        if world::uses_world(&parsed.file) {
            let programs = match reading {
                Reading::Blocking => Programs::Run,
                Reading::InPlace => Programs::KeptOnly,
            };
            return self.compute_from_world(&parsed.file, force, rendering, programs, output);
        }
        let Ok(Some(selection)) = select(&parsed.file.scenarios, &output.arguments, force, |_| {
            Ok::<_, ()>(false)
        }) else {
            tracing::error!(tool = %output.tool, "the file has no default scenario");
            return Ok(());
        };
        let scenario = selection.scenario;
        output.decision = Decision::Scenario {
            name: scenario.name.clone(),
            forced: selection.forced,
        };
        let Answer::Template(template) = &scenario.answer else {
            unreachable!("a file that computes an answer uses the world")
        };
        let context = self.render_context(&output.arguments);
        let rendered = match rendering {
            Rendering::Value => template.render_with_text(context).map(|(value, text)| {
                let object = value.is_object();
                (text, object, Some(value))
            }),
            Rendering::Text => template
                .render_json_text(context)
                .map(|(text, object)| (text, object, None)),
        };
        match rendered {
            Ok((text, object, value)) => {
                output.rendered(text, object, value);
                output.is_error = scenario.outcome == Outcome::Error;
            }
            Err(error) => {
                tracing::error!(tool = %output.tool, scenario = %scenario.name, path = %path.display(), "{error}");
                output.decision = Decision::InternalError;
            }
        }
        Ok(())
    }

    /// The answer from a file whose scenarios read or change the world: the value its program
    /// gives, kept (for the text alone) so that a repeated call shares it.
    fn compute_from_world(
        &self,
        file: &ToolFile,
        force: Option<&str>,
        rendering: Rendering,
        programs: Programs,
        output: &mut CallOutput,
    ) -> Result<(), NotInPlace> {
        match self
            .world
            .answer(file, &output.arguments, force, &self.entropy, programs)
        {
            Ok(Some(answered)) => {
                let scenario = answered.selection.scenario;
                output.decision = Decision::Scenario {
                    name: scenario.name.clone(),
                    forced: answered.selection.forced,
                };
                let text = answered.value.text().to_string();
                let object = answered.value.value().is_object();
                match rendering {
                    Rendering::Value => {
                        output.rendered(text, object, Some(answered.value.into_value()));
                    }
                    Rendering::Text => {
                        output.rendered(text, object, None);
                        output.kept = Some(answered.value);
                    }
                }
                output.is_error = scenario.outcome == Outcome::Error;
            }
            Ok(None) => {
                tracing::error!(tool = %output.tool, "the file has no default scenario");
            }
            Err(AnswerError::NotInPlace) => return Err(NotInPlace),
            Err(error) => {
                // The call's arguments and the entity of the data they name, so that the log
                // says what the program was computing.
                let args = output.arguments.to_string();
                let args = clip(&args, LOG_LIMIT);
                let entity = self
                    .world()
                    .ok()
                    .and_then(|world| world.entity(&self.config.tools_dir, &output.arguments));
                match entity {
                    Some(entity) => {
                        tracing::error!(tool = %output.tool, path = %file.path.display(), %args, %entity, "{error}")
                    }
                    None => {
                        tracing::error!(tool = %output.tool, path = %file.path.display(), %args, "{error}")
                    }
                }
                output.decision = Decision::InternalError;
            }
        }
        Ok(())
    }
}
