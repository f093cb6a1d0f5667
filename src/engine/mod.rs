//! The scenario engine: loading and parsing tool files, matching, selection, rendering and
//! overrides. Plain synchronous Rust: it knows nothing of MCP, async runtimes or terminals,
//! so the server, `call` and `verify` all stand on the same ground.

mod atomic_file;
mod call;
pub mod catalog;
mod check;
mod clip;
mod compute;
mod controls;
pub mod export;
pub mod grade;
pub mod journal;
mod line_ends;
mod origin;
mod output;
pub mod runs;
mod safe_read;
mod select;
pub mod tasks;
pub mod toolfile;
mod upstream;
pub mod world;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use chrono::{DateTime, Utc};
use serde_json::Value;

// The front door: everything the server, the probe, the dashboard and the CLI use. The types
// a call needs are here by name; families of functions keep their module's name
// (`journal::recent`, `overrides::clear`), so that each name says where it belongs.
pub use call::{CallRequest, InPlace, Planning, Unanswered, UnansweredCall, Unjournalled};
pub use catalog::project::{LayoutPaths, Named, ProjectLayout, absolute};
pub use catalog::{Loaded, Tool, tool_paths};
pub use check::diff::{Change, Difference, differences, pointer_token};
pub use check::honesty::{sample_arguments, violations};
pub use check::lint::{Linted, ProjectLint};
pub use check::suggest::did_you_mean;
pub use check::{lint, odd_arguments};
pub use compute::AnswerError;
pub use controls::entries::{Control, Controls, DEFAULT_ENTRY, Delay, Fault, Step};
pub use controls::entry_notes::entry_notes;
pub use controls::force::ForceError;
pub use controls::overrides::{Overrides, OverridesError};
pub use controls::plan::Plan;
pub use controls::positions::{Place, Positions};
pub use controls::{force, overrides};
pub use journal::{Follower, JournalStatus, Recent, descriptor_limit, open_journals_cap};
pub use origin::Origin;
pub use output::{
    CallOutput, Decision, DecisionKind, INTERNAL_ERROR, JsonShape, Recorded, Rendering, UnknownTool,
};
pub use runs::{DEFAULT_MAX_RUNS, RunName, RunNameError, Runs};
pub use select::arguments;
pub use select::matcher::matches;
pub use toolfile::diagnostic::{Diagnostic, Diagnostics};
pub use toolfile::scenario_kind;
pub use toolfile::template::{RenderError, Template};
pub use toolfile::{Answer, Outcome, Parsed, Program, Scenario, ToolFile};
pub use upstream::drift::{Drift, FieldChange, Presence, Subject, SubjectDrift, Surface};
pub use upstream::recording::{RecordError, RecordOptions};
pub use upstream::{UpstreamAnswer, UpstreamCall, drift, drift_write};
pub use world::answers::Computed;
pub use world::clock::{
    ClockFile, LATEST as CLOCK_LATEST, Setting as ClockSetting, parse_duration, tellable,
};
pub use world::store::WorldStore;
pub use world::view::{ClockView, Listed, MadeBy, WorldView};

use catalog::cache::ParseCache;
use controls::carried::CarriedFile;
use controls::overrides::OverridesReader;
use controls::plan::PlanDraws;
use journal::Journal;
use toolfile::entropy::Entropy;
use toolfile::template::RenderContext;
use world::{Generation, World};

/// Where the engine reads from, and the knobs that make its answers reproducible.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    pub tools_dir: PathBuf,
    pub overrides: PathBuf,
    /// Freezes `now` for every placeholder.
    pub clock: Option<DateTime<Utc>>,
    /// Makes `uuid` and `rand:` deterministic.
    pub seed: Option<u64>,
    /// The world remembers what calls change (`serve --stateful`): each run keeps its state
    /// in its `world.json`. Otherwise every call starts from the seed world.
    pub stateful: bool,
}

#[derive(Debug)]
pub struct Engine {
    config: EngineConfig,
    /// Shared with the engines of the runs made from this one (see [`Engine::for_run`]).
    tools: Arc<BTreeMap<String, Tool>>,
    cache: Arc<ParseCache>,
    overrides: OverridesReader,
    entropy: Entropy,
    positions: Positions,
    /// What ended stdio servers left for their clients' next process, beside the overrides
    /// file.
    carried: CarriedFile,
    dice: PlanDraws,
    journal: Option<Journal>,
    /// The world folder, shared with the engines of the runs made from this one.
    world: Arc<World>,
    /// This run's state on disk.
    store: WorldStore,
    /// This run's clock.
    clock: ClockFile,
    /// Whether a call was taken: a run in use that never took one does not count toward
    /// `--max-runs`.
    called: AtomicBool,
}

impl Engine {
    /// Loads every tool file; any problem in any file refuses the whole folder.
    pub fn load(config: EngineConfig) -> Result<Self, Diagnostics> {
        let loaded = catalog::load(&config.tools_dir);
        if !loaded.diagnostics.is_empty() {
            return Err(Diagnostics(loaded.diagnostics));
        }
        Ok(Self::sharing(
            config,
            Arc::new(loaded.tools),
            Arc::default(),
            loaded.world,
        ))
    }

    /// An engine over whatever loaded (the tools that did, and the world as read), for `lint`
    /// and the dashboard, which report problems instead of refusing.
    pub fn from_loaded(
        config: EngineConfig,
        tools: BTreeMap<String, Tool>,
        world: Arc<World>,
    ) -> Self {
        Self::sharing(config, Arc::new(tools), Arc::default(), world)
    }

    fn sharing(
        config: EngineConfig,
        tools: Arc<BTreeMap<String, Tool>>,
        cache: Arc<ParseCache>,
        world: Arc<World>,
    ) -> Self {
        let entropy = config.seed.map(Entropy::seeded).unwrap_or_default();
        let dice = PlanDraws::new(config.seed);
        Self {
            overrides: OverridesReader::new(config.overrides.clone()),
            carried: CarriedFile::beside(&config.overrides),
            store: WorldStore::beside(&config.overrides),
            clock: ClockFile::beside(&config.overrides),
            world,
            config,
            tools,
            cache,
            entropy,
            positions: Positions::default(),
            dice,
            journal: None,
            called: AtomicBool::new(false),
        }
    }

    /// An engine for a run whose overrides file is `overrides`: the same tools and parse
    /// cache as this one (nothing is loaded or parsed again), its own reader of the file,
    /// sequence positions and draws, and no journal until [`Engine::journalled`] gives it one.
    #[must_use]
    pub fn for_run(&self, overrides: PathBuf) -> Self {
        self.sharing_with(EngineConfig {
            overrides,
            ..self.config.clone()
        })
    }

    /// An engine whose world starts afresh from the seed in `scratch` (an empty folder), at a
    /// clock fixed to `clock`, and remembers what its calls change: grading replays the
    /// expected actions on it. It shares this one's tools, parse cache and world folder, so
    /// nothing is loaded or compiled again, and keeps this one's `--seed`.
    #[must_use]
    pub fn fresh_in(&self, scratch: &Path, clock: DateTime<Utc>) -> Self {
        let mut fresh = self.sharing_with(EngineConfig {
            overrides: scratch.join("overrides.json"),
            clock: Some(clock),
            stateful: true,
            ..self.config.clone()
        });
        fresh.store = fresh.store.scratch();
        fresh
    }

    /// An engine with `config` and this one's tools, parse cache and world folder.
    fn sharing_with(&self, config: EngineConfig) -> Self {
        Self::sharing(
            config,
            Arc::clone(&self.tools),
            Arc::clone(&self.cache),
            Arc::clone(&self.world),
        )
    }

    /// The size past which this engine's journal rotates; `None` when it keeps none.
    pub fn journal_max_size(&self) -> Option<u64> {
        self.journal.as_ref().map(Journal::max_size)
    }

    /// Records every call [`Engine::answer`] answers in `journal`.
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
        let refused = matches!(journal.status(), JournalStatus::Refused(_));
        if let Some(error) = error.filter(|_| !refused) {
            tracing::warn!(path = %path.display(), "cannot open the call journal, trying again on each call: {error}");
        }
        self.with_journal(journal)
    }

    /// Whether this engine has taken a call (answered, refused or cut short).
    pub fn has_taken_a_call(&self) -> bool {
        self.called.load(Ordering::Relaxed)
    }

    /// Whether calls are journalled now: no journal, one open, or one that cannot be opened.
    pub fn journal_status(&self) -> JournalStatus {
        self.journal
            .as_ref()
            .map_or(JournalStatus::Off, Journal::status)
    }

    /// The plan for the next call of `tool` in `session` (`None`: the one stdio or
    /// in-process session), from the overrides file as it is now. Each plan is one call: it
    /// moves the session along the tool's sequence.
    pub fn plan(&self, tool: &str, session: Option<&str>) -> Plan {
        self.plan_for(tool, session, None)
    }

    /// As [`Engine::plan`], for a session of `client` (the client's identity, as the server
    /// knows it: docs/CONTROLS.md): a session new to a tool continues where its client's
    /// session ended by `fault:session-expired` stopped ([`Positions::carry`]). The
    /// session-less session of a client (a stdio server's) continues where the client's
    /// previous process stopped, from the carried file ([`Engine::carry_over`]).
    pub fn plan_for(&self, tool: &str, session: Option<&str>, client: Option<&str>) -> Plan {
        if let (None, Some(client)) = (session, client) {
            self.carried.bring(client, &self.positions);
        }
        controls::plan::plan(
            &self.overrides.controls(),
            tool,
            (session, client),
            &self.positions,
            &self.dice,
        )
    }

    /// The session-less session of `client` (a stdio server's) ends by
    /// `fault:session-expired`, and its process with it: its places are left in the carried
    /// file beside the overrides file, for the client's next process to take over. Blocks on
    /// the file.
    pub fn carry_over(&self, client: &str) {
        let places = self.positions.leave(None);
        self.carried.leave(client, &places);
    }

    /// Where each session stands in each tool's controls.
    pub fn positions(&self) -> &Positions {
        &self.positions
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

    /// The run's time: `--clock` when given, else the run's clock file, else the real time.
    pub fn now(&self) -> DateTime<Utc> {
        self.config.clock.unwrap_or_else(|| self.clock.now())
    }

    /// The run's clock file (`careem-mcp clock`).
    pub fn clock(&self) -> &ClockFile {
        &self.clock
    }

    /// The run's world on disk.
    pub fn world_store(&self) -> &WorldStore {
        &self.store
    }

    /// The world folder as it is now, or the problems that keep it from serving.
    pub fn world(&self) -> Result<Arc<Generation>, Arc<Vec<Diagnostic>>> {
        self.world.current()
    }

    /// The run's state now: its world file's in stateful mode, else the seed; `None` when the
    /// world folder cannot be read.
    pub fn state(&self) -> Option<Value> {
        let generation = self.world.current().ok()?;
        Some(if self.config.stateful {
            self.store.read(generation.seed())
        } else {
            generation.seed().clone()
        })
    }

    /// The scenario's value for `args` as if forced, on the seed world.
    pub fn render(&self, scenario: &Scenario, args: &Value) -> Result<Value, AnswerError> {
        self.value_of(scenario, args)
    }

    /// As [`Engine::render`], with the value's compact JSON text (`value.to_string()`).
    pub fn render_with_text(
        &self,
        scenario: &Scenario,
        args: &Value,
    ) -> Result<(Value, String), AnswerError> {
        match &scenario.answer {
            Answer::Template(template) if scenario.update.is_none() => {
                Ok(template.render_with_text(self.render_context(args))?)
            }
            _ => {
                let value = self.value_of(scenario, args)?;
                let text = value.to_string();
                Ok((value, text))
            }
        }
    }

    fn render_context<'a>(&'a self, args: &'a Value) -> RenderContext<'a> {
        RenderContext {
            args,
            now: self.now(),
            entropy: &self.entropy,
        }
    }
}
