//! The scenario engine: loading and parsing tool files, matching, selection, rendering and
//! overrides. Plain synchronous Rust: it knows nothing of MCP, async runtimes or terminals,
//! so the server, `call` and `verify` all stand on the same ground.

mod catalog;
mod check;
mod controls;
mod journal;
mod output;
mod select;
mod toolfile;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

// The front door: everything the server, the probe, the dashboard and the CLI use. The modules
// behind it stay private, so a caller depends on these names and not on how the engine is cut.
pub use catalog::project::{Named, ProjectLayout, absolute};
pub use catalog::{Loaded, Tool, load as load_catalog, tool_paths};
pub use check::diff::{Change, Difference, differences, pointer_token};
pub use check::honesty::{sample_arguments, violations};
pub use check::lint::{
    Linted, ProjectLint, project as lint_project, tool_files as lint_tool_files,
};
pub use check::odd_arguments::combined as odd_arguments;
pub use check::source_listing::WriteError as SourceListingError;
pub use check::suggest::did_you_mean;
pub use controls::entries::{Control, Controls, DEFAULT_ENTRY, Delay, Fault, Step};
pub use controls::entry_notes::entry_notes;
pub use controls::force::{
    ForceError, force as force_scenario, reset as reset_overrides, set as set_control,
    set_steps as set_scenario_steps,
};
pub use controls::overrides::{
    Overrides, OverridesError, clear as clear_overrides, read_bytes as read_overrides_bytes,
    read_lenient as read_overrides, read_strict as read_overrides_strict,
    set_entry as set_override, write as write_overrides,
};
pub use controls::plan::Plan;
pub use controls::positions::{Place, Positions};
pub use controls::words::Forcing;
pub use journal::file::JournalStatus;
pub use journal::read::{
    Follower, Recent, clear as clear_journal, complete_end, last_lines,
    parse as parse_journal_line, recent as journal_recent,
};
pub use journal::write::{Entry as JournalEntry, Journal, read as read_journal};
pub use output::{CallOutput, Decision, INTERNAL_ERROR, JsonShape, Rendering, UnknownTool};
pub use select::arguments::{apply_defaults, validate as validate_arguments};
pub use select::matcher::matches;
pub use toolfile::diagnostic::{Diagnostic, Diagnostics};
pub use toolfile::scenario_kind::{ScenarioKind, kinds as scenario_kinds};
pub use toolfile::template::{RenderError, Template};
pub use toolfile::{Outcome, Parsed, Scenario, ToolFile, parse as parse_tool_file};

use catalog::cache::ParseCache;
use controls::overrides::OverridesReader;
use controls::plan::Dice;
use select::arguments;
use select::selection::select;
use toolfile::entropy::Entropy;
use toolfile::template::RenderContext;

/// Where the engine reads from, and the knobs that make its answers reproducible.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    pub tools_dir: PathBuf,
    pub overrides: PathBuf,
    /// Freezes `now` for every placeholder.
    pub clock: Option<DateTime<Utc>>,
    /// Makes `uuid` and `rand:` deterministic.
    pub seed: Option<u64>,
}

#[derive(Debug)]
pub struct Engine {
    config: EngineConfig,
    tools: BTreeMap<String, Tool>,
    cache: ParseCache,
    overrides: OverridesReader,
    entropy: Entropy,
    positions: Positions,
    dice: Dice,
    journal: Option<Journal>,
}

/// One call as the answer path sees it: what was asked, of which tool, under which plan.
#[derive(Clone, Copy)]
struct Call<'a> {
    started: Instant,
    name: &'a str,
    tool: &'a Tool,
    plan: &'a Plan,
    rendering: Rendering,
}

impl Engine {
    /// Loads every tool file; any problem in any file refuses the whole folder.
    pub fn load(config: EngineConfig) -> Result<Self, Diagnostics> {
        let loaded = catalog::load(&config.tools_dir);
        if !loaded.diagnostics.is_empty() {
            return Err(Diagnostics(loaded.diagnostics));
        }
        Ok(Self::from_tools(config, loaded.tools))
    }

    /// An engine over whatever loaded, for `lint`, which reports problems instead of refusing.
    pub fn from_tools(config: EngineConfig, tools: BTreeMap<String, Tool>) -> Self {
        let entropy = config.seed.map(Entropy::seeded).unwrap_or_default();
        let dice = Dice::new(config.seed);
        Self {
            overrides: OverridesReader::new(config.overrides.clone()),
            config,
            tools,
            cache: ParseCache::default(),
            entropy,
            positions: Positions::default(),
            dice,
            journal: None,
        }
    }

    /// Records every call that [`Engine::record`] is told of in `journal`.
    #[must_use]
    pub fn with_journal(mut self, journal: Journal) -> Self {
        self.journal = Some(journal);
        self
    }

    /// Records calls in the journal at `path`, rotated past `max_size` bytes. A journal that
    /// cannot be opened (a client may start the server in a read-only folder) is a warning,
    /// and is tried again on each call: answering matters more than recording.
    #[must_use]
    pub fn journalled(self, path: &Path, max_size: u64) -> Self {
        let (journal, error) = Journal::open_retrying(path, max_size);
        if let Some(error) = error {
            tracing::warn!(path = %path.display(), "cannot open the call journal, trying again on each call: {error}");
        }
        self.with_journal(journal)
    }

    /// Whether calls are journalled now: no journal, one open, or one that cannot be opened.
    pub fn journal_status(&self) -> JournalStatus {
        self.journal
            .as_ref()
            .map_or(JournalStatus::Off, Journal::status)
    }

    /// Answers a call as the in-process session would: the overrides file's scenario (or step
    /// of a sequence) applies; its delays and faults are the server's to act on.
    pub fn call(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
    ) -> Result<CallOutput, UnknownTool> {
        self.call_with(name, arguments, None)
    }

    /// A call made from outside MCP (`careem-mcp call`, the dashboard's "try a call"): answered
    /// as [`Engine::call_with`] answers it, then journalled under `transport`.
    pub fn call_recorded(
        &self,
        transport: &str,
        name: &str,
        arguments: Option<Map<String, Value>>,
        force: Option<&str>,
    ) -> Result<CallOutput, UnknownTool> {
        let output = self.call_with(name, arguments, force)?;
        self.record(transport, None, &output);
        Ok(output)
    }

    /// As [`Engine::call`], with a scenario forced for this call alone (the CLI's `--scenario`).
    pub fn call_with(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
        force: Option<&str>,
    ) -> Result<CallOutput, UnknownTool> {
        if !self.tools.contains_key(name) {
            return Err(UnknownTool(name.to_string()));
        }
        let plan = match force {
            Some(scenario) => Plan::forced(scenario),
            None => self.plan(name, None),
        };
        self.call_planned(name, arguments, &plan)
    }

    /// Answers a call with the scenario `plan` forces (normal selection without one), and
    /// records its step and delay. The plan's fault, if any, is not the engine's to fire.
    pub fn call_planned(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
        plan: &Plan,
    ) -> Result<CallOutput, UnknownTool> {
        let started = Instant::now();
        let tool = self.known(name)?;
        let file = self.cache.get(&tool.path);
        let call = Call {
            started,
            name,
            tool,
            plan,
            rendering: Rendering::Value,
        };
        Ok(self.answer_with(&call, arguments, file))
    }

    /// As [`Engine::call_planned`] when the tool's file is parsed already as it is on disk now:
    /// then a call is a read of the file (opened without blocking, as every read here) and a
    /// render, cheap enough to answer in an async task. `None`, with `arguments` untouched,
    /// when the file changed since its last parse: the caller makes the call where a parse
    /// (milliseconds for a large file) may block.
    pub fn call_planned_warm(
        &self,
        name: &str,
        arguments: &mut Option<Map<String, Value>>,
        plan: &Plan,
        rendering: Rendering,
    ) -> Option<Result<CallOutput, UnknownTool>> {
        let started = Instant::now();
        let tool = match self.known(name) {
            Ok(tool) => tool,
            Err(unknown) => return Some(Err(unknown)),
        };
        let file = self.cache.get_parsed(&tool.path).transpose()?;
        let call = Call {
            started,
            name,
            tool,
            plan,
            rendering,
        };
        Some(Ok(self.answer_with(&call, arguments.take(), file)))
    }

    fn known(&self, name: &str) -> Result<&Tool, UnknownTool> {
        self.tools
            .get(name)
            .ok_or_else(|| UnknownTool(name.to_string()))
    }

    /// The answer from the tool's `file` as read at the start of the call.
    fn answer_with(
        &self,
        call: &Call<'_>,
        arguments: Option<Map<String, Value>>,
        file: std::io::Result<Arc<Parsed>>,
    ) -> CallOutput {
        let Call {
            started,
            name,
            tool,
            plan,
            rendering,
        } = *call;
        let received = arguments::normalise(arguments);
        let mut args = received.clone();
        arguments::apply_defaults(&tool.input_schema, &mut args);
        let mut output = CallOutput::unanswered(
            name,
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
            self.answer(
                &tool.path,
                file,
                plan.scenario.as_deref(),
                rendering,
                &mut output,
            );
        }
        output.micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        output::log(&output);
        output
    }

    fn answer(
        &self,
        path: &Path,
        file: std::io::Result<Arc<Parsed>>,
        force: Option<&str>,
        rendering: Rendering,
        output: &mut CallOutput,
    ) {
        let parsed = match file {
            Ok(parsed) => parsed,
            Err(error) => {
                tracing::error!(tool = %output.tool, path = %path.display(), "cannot read the tool file: {error}");
                return;
            }
        };
        if !parsed.diagnostics.is_empty() || parsed.file.tool != output.tool {
            for diagnostic in &parsed.diagnostics {
                tracing::error!(tool = %output.tool, "{diagnostic}");
            }
            if parsed.file.tool != output.tool {
                tracing::error!(tool = %output.tool, path = %path.display(), "the file now names tool {:?}", parsed.file.tool);
            }
            return;
        }
        let Some(selection) = select(&parsed.file.scenarios, &output.arguments, force) else {
            tracing::error!(tool = %output.tool, "the file has no default scenario");
            return;
        };
        let scenario = selection.scenario;
        output.decision = Decision::Scenario {
            name: scenario.name.clone(),
            forced: selection.forced,
        };
        let context = self.render_context(&output.arguments);
        let rendered = match rendering {
            Rendering::Value => scenario
                .template
                .render_with_text(context)
                .map(|(value, text)| {
                    let object = value.is_object();
                    (text, object, Some(value))
                }),
            Rendering::Text => scenario
                .template
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
    }

    /// Journals a call of a tool that does not exist, which never reaches [`Engine::call`]'s
    /// answer path but is part of what the agent did.
    pub fn record_unknown(
        &self,
        transport: &str,
        session: Option<&str>,
        tool: &str,
        arguments: Option<serde_json::Map<String, Value>>,
    ) {
        let output = CallOutput::unknown_tool(tool, arguments);
        self.record(transport, session, &output);
    }

    /// Appends the call to the journal, if there is one. A journal that cannot be written is
    /// logged, never a reason to fail the call.
    pub fn record(&self, transport: &str, session: Option<&str>, output: &CallOutput) {
        if let Some(journal) = &self.journal
            && let Err(error) = journal.append_call(transport, session, output)
        {
            tracing::warn!(path = %journal.path().display(), "cannot write the call journal: {error}");
        }
    }

    /// As [`Engine::record`] when that cannot block: the journal is a regular file that no
    /// other call is writing, still at its path and short of rotation. `false` when the line
    /// was not written: the caller then calls [`Engine::record`] where blocking is fine (a
    /// journal that is a pipe may wait for its reader for ever).
    pub fn record_now(&self, transport: &str, session: Option<&str>, output: &CallOutput) -> bool {
        let Some(journal) = &self.journal else {
            return true;
        };
        match journal.try_append_call(transport, session, output) {
            Some(Ok(())) => true,
            Some(Err(error)) => {
                tracing::warn!(path = %journal.path().display(), "cannot write the call journal: {error}");
                true
            }
            None => false,
        }
    }

    /// The plan for the next call of `tool` in `session` (`None`: the one stdio or
    /// in-process session), from the overrides file as it is now. Each plan is one call: it
    /// moves the session along the tool's sequence.
    pub fn plan(&self, tool: &str, session: Option<&str>) -> Plan {
        self.plan_for(tool, session, None)
    }

    /// As [`Engine::plan`], for a session of `client` (the client's identity, as the server
    /// knows it: docs/CONTROLS.md): a session new to a tool continues where its client's
    /// session ended by `fault:session-expired` stopped ([`Positions::carry`]).
    pub fn plan_for(&self, tool: &str, session: Option<&str>, client: Option<&str>) -> Plan {
        controls::plan::plan(
            &self.overrides.controls(),
            tool,
            (session, client),
            &self.positions,
            &self.dice,
        )
    }

    /// Where each session stands in each tool's controls.
    pub fn positions(&self) -> &Positions {
        &self.positions
    }

    /// Journals a call that a fault answered instead of a scenario.
    pub fn record_fault(
        &self,
        transport: &str,
        session: Option<&str>,
        tool: &str,
        arguments: Option<serde_json::Map<String, Value>>,
        plan: &Plan,
        fault: Fault,
    ) {
        let output = CallOutput::faulted(tool, arguments, plan, fault);
        output::log(&output);
        self.record(transport, session, &output);
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The advertised tools, sorted by name as production lists them.
    pub fn tools(&self) -> impl ExactSizeIterator<Item = &Tool> {
        self.tools.values()
    }

    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.get(name)
    }

    /// The tool's file as it is on disk now.
    pub fn current_file(&self, tool: &Tool) -> std::io::Result<Arc<Parsed>> {
        self.cache.get(&tool.path)
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.config.clock.unwrap_or_else(Utc::now)
    }

    pub fn render(&self, scenario: &Scenario, args: &Value) -> Result<Value, RenderError> {
        scenario.template.render(self.render_context(args))
    }

    /// As [`Engine::render`], with the value's compact JSON text (`value.to_string()`).
    pub fn render_with_text(
        &self,
        scenario: &Scenario,
        args: &Value,
    ) -> Result<(Value, String), RenderError> {
        scenario
            .template
            .render_with_text(self.render_context(args))
    }

    fn render_context<'a>(&'a self, args: &'a Value) -> RenderContext<'a> {
        RenderContext {
            args,
            now: self.now(),
            entropy: &self.entropy,
        }
    }
}
