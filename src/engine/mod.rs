//! The scenario engine: loading and parsing tool files, matching, selection, rendering and
//! overrides. Plain synchronous Rust: it knows nothing of MCP, async runtimes or terminals,
//! so the server, `call` and `verify` all stand on the same ground.

pub mod arguments;
mod cache;
pub mod call;
pub mod catalog;
pub mod clip;
pub mod controls;
pub mod diagnostic;
mod entropy;
pub mod force;
mod frontmatter;
mod go_fmt;
mod go_wording;
pub mod honesty;
pub mod journal;
pub mod journal_file;
pub mod journal_read;
pub mod lint;
pub mod matcher;
pub mod odd_arguments;
pub mod overrides;
pub mod placeholder;
pub mod plan;
pub mod positions;
pub mod safe_read;
pub mod sample;
pub mod scenario_kind;
pub mod select;
pub mod source_listing;
pub mod template;
pub mod toolfile;

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde_json::Value;

pub use call::{CallOutput, Decision, INTERNAL_ERROR, UnknownTool};
pub use catalog::Tool;
pub use diagnostic::{Diagnostic, Diagnostics};

use cache::ParseCache;
use entropy::Entropy;
use journal::Journal;
use overrides::OverridesReader;
use plan::{Dice, Plan};
use positions::Positions;
use template::{RenderContext, RenderError};
use toolfile::Scenario;

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

    /// The plan for the next call of `tool` in `session` (`None`: the one stdio or
    /// in-process session), from the overrides file as it is now. Each plan is one call: it
    /// moves the session along the tool's sequence.
    pub fn plan(&self, tool: &str, session: Option<&str>) -> Plan {
        plan::plan(
            &self.overrides.controls(),
            tool,
            session,
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
        fault: controls::Fault,
    ) {
        let output = CallOutput::faulted(tool, arguments, plan, fault);
        call::log(&output);
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
    pub fn current_file(&self, tool: &Tool) -> std::io::Result<std::sync::Arc<toolfile::Parsed>> {
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
