//! The scenario engine: loading and parsing tool files, matching, selection, rendering and
//! overrides. Plain synchronous Rust: it knows nothing of MCP, async runtimes or terminals,
//! so the server, `call` and `verify` all stand on the same ground.

mod atomic_file;
mod call;
pub(crate) mod catalog;
mod check;
mod clip;
mod controls;
pub mod duration;
pub(crate) mod export;
mod file_lock;
pub mod journal;
mod line_ends;
mod origin;
mod output;
mod run_files;
mod run_name;
pub(crate) mod runs;
mod safe_read;
mod select;
mod stamp;
pub mod toolfile;
mod upstream;
pub mod world;
mod world_view;

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
pub use controls::entries::{Control, Controls, DEFAULT_ENTRY, Delay, Fault, Overrides, Step};
pub use controls::entry_notes::entry_notes;
pub use controls::force::ForceError;
pub use controls::overrides::OverridesError;
pub use controls::plan::Plan;
pub use controls::positions::{Place, Positions};
pub use controls::{force, overrides};
pub use journal::{Follower, JournalStatus, Recent, descriptor_limit, open_journals_cap};
pub use origin::Origin;
pub use output::{
    CallOutput, Decision, DecisionKind, INTERNAL_ERROR, JsonShape, Recorded, Rendering, UnknownTool,
};
pub use run_files::RunFiles;
pub use run_name::{RunName, RunNameError};
pub use runs::{DEFAULT_MAX_RUNS, Runs};
pub use safe_read::{read_limited, regular_or_absent};
pub use select::arguments;
pub use select::selection::matches;
pub use toolfile::diagnostic::{Diagnostic, Diagnostics};
pub use toolfile::scenario_kind;
pub use toolfile::template::{RenderError, Template};
pub use toolfile::{Answer, Outcome, Parsed, Program, Scenario, ToolFile};
pub use upstream::drift::{Drift, FieldChange, Presence, Subject, SubjectDrift, Surface};
pub use upstream::recording::{RecordError, RecordOptions};
pub use upstream::{UpstreamAnswer, UpstreamCall, drift, drift_write};
pub use world::{
    AnswerError, ClockFile, Computed, LATEST as CLOCK_LATEST, Setting as ClockSetting, WorldStore,
    parse_duration, tellable,
};
pub use world_view::{ClockView, Listed, MadeBy, WorldView};

use catalog::Catalog;
use controls::plan::RunControls;
use journal::Journal;
use toolfile::entropy::Entropy;
use toolfile::template::RenderContext;
use world::{Generation, RunWorld, World};

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

/// One run's engine. It holds what each room hands it, one field a room: the catalog's tools,
/// the run's controls, the run's world, its files, its draws and its journal; the rooms' insides
/// stay theirs.
#[derive(Debug)]
pub struct Engine {
    config: EngineConfig,
    /// Where this run's files live.
    files: RunFiles,
    /// The tools and their parse cache, shared with the engines of the runs made from this one
    /// (see [`Engine::for_run`]).
    catalog: Catalog,
    /// This run's overrides, positions, draws and carried file.
    controls: RunControls,
    /// This run's world: the world folder (shared as the catalog is), its state and its clock.
    world: RunWorld,
    entropy: Entropy,
    journal: Option<Journal>,
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
            Catalog::new(loaded.tools),
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
        Self::sharing(config, Catalog::new(tools), world)
    }

    fn sharing(config: EngineConfig, catalog: Catalog, world: Arc<World>) -> Self {
        let files = RunFiles::of_overrides(&config.overrides);
        Self {
            controls: RunControls::new(&files, config.seed),
            world: RunWorld::new(world, &files, config.clock, config.stateful),
            entropy: config.seed.map(Entropy::seeded).unwrap_or_default(),
            files,
            config,
            catalog,
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
            overrides: RunFiles::in_folder(scratch.to_path_buf())
                .overrides()
                .to_path_buf(),
            clock: Some(clock),
            stateful: true,
            ..self.config.clone()
        });
        fresh.world = fresh.world.scratch();
        fresh
    }

    /// An engine on this run's world as `serve --stateful` keeps it, that reads the world
    /// without seeding it: what a view of the world reads through.
    fn viewing(&self) -> Self {
        let mut reader = self.sharing_with(EngineConfig {
            stateful: true,
            ..self.config.clone()
        });
        reader.world = reader.world.reading_only();
        reader
    }

    /// An engine with `config` and this one's tools, parse cache and world folder.
    fn sharing_with(&self, config: EngineConfig) -> Self {
        Self::sharing(
            config,
            self.catalog.clone(),
            Arc::clone(self.world.folder()),
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
        self.controls.plan(tool, session, client)
    }

    /// The session-less session of `client` (a stdio server's) ends by
    /// `fault:session-expired`, and its process with it: its places are left in the run's
    /// carried file, for the client's next process to take over. Blocks on the file.
    pub fn carry_over(&self, client: &str) {
        self.controls.carry_over(client);
    }

    /// Where each session stands in each tool's controls.
    pub fn positions(&self) -> &Positions {
        self.controls.positions()
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Where this run's files live.
    pub fn run_files(&self) -> &RunFiles {
        &self.files
    }

    /// The advertised tools, sorted by name as production lists them.
    pub fn tools(&self) -> impl ExactSizeIterator<Item = &Tool> {
        self.catalog.tools()
    }

    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.catalog.tool(name)
    }

    /// The tool's file as it is on disk now.
    pub fn current_file(&self, tool: &Tool) -> std::io::Result<Arc<Parsed>> {
        self.catalog.current_file(tool)
    }

    /// The run's time: `--clock` when given, else the run's clock file, else the real time.
    pub fn now(&self) -> DateTime<Utc> {
        self.world.now()
    }

    /// The run's clock file (`careem-mcp clock`).
    pub fn clock(&self) -> &ClockFile {
        self.world.clock()
    }

    /// The run's world on disk.
    pub fn world_store(&self) -> &WorldStore {
        self.world.world_store()
    }

    /// The world folder as it is now, or the problems that keep it from serving.
    pub fn world(&self) -> Result<Arc<Generation>, Arc<Vec<Diagnostic>>> {
        self.world.world()
    }

    /// The run's state now: its world file's in stateful mode, else the seed; `None` when the
    /// world folder cannot be read.
    pub fn state(&self) -> Option<Value> {
        self.world.state()
    }

    /// The scenario's value for `args` as if forced, on the seed world.
    pub fn render(&self, scenario: &Scenario, args: &Value) -> Result<Value, AnswerError> {
        self.world.value_of(scenario, args, &self.entropy)
    }

    /// As [`Engine::render`], with the value's compact JSON text (`value.to_string()`).
    pub fn render_with_text(
        &self,
        scenario: &Scenario,
        args: &Value,
    ) -> Result<(Value, String), AnswerError> {
        match &scenario.answer {
            Answer::Template(template) if !scenario.changes() => {
                Ok(template.render_with_text(self.render_context(args))?)
            }
            _ => {
                let value = self.render(scenario, args)?;
                let text = value.to_string();
                Ok((value, text))
            }
        }
    }

    /// Whether `scenario`'s `jq when` holds for `args` on the seed world (`true` without one):
    /// the honesty check holds a scenario only to the arguments that reach it.
    pub fn reaches(&self, scenario: &Scenario, args: &Value) -> Result<bool, AnswerError> {
        self.world.reaches(scenario, args, &self.entropy)
    }

    fn render_context<'a>(&'a self, args: &'a Value) -> RenderContext<'a> {
        RenderContext {
            args,
            now: self.now(),
            entropy: &self.entropy,
        }
    }
}
