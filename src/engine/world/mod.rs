//! The data world: the data files a person edits (`data`), the jq programs that compute
//! answers from them (`expr`) and what bounds them (`bounds`, `pool`), a run's state on disk
//! (`store`) and a run's clock (`clock`). The engine holds a run's world as a [`RunWorld`]
//! and reaches it through the names exported here, never through the modules behind them (the
//! tidy test `nothing_outside_the_world_names_its_inner_modules` holds it):
//! [`RunWorld::answer`] (`compute.rs`) is the one door a call of a file that uses the world goes
//! through, and a [`Generation`] answers for the world as read: whether a program compiles
//! ([`Generation::compiles`]), a program's value on the seed state ([`Generation::run_on_seed`])
//! and the data a call names ([`Generation::entity`]).
//! docs/DATA_WORLD.md describes the world, docs/FORMAT.md the computed scenarios.

mod answers;
mod bounds;
mod clock;
mod compute;
mod data;
mod expr;
mod locate;
mod modules;
mod names;
mod pool;
mod run;
mod store;
mod watch;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use jaq_json::Val;
use serde_json::Value;

use crate::engine::toolfile::diagnostic::Diagnostic;
pub use answers::Computed;
pub use bounds::set_deadline;
pub use clock::{ClockFile, LATEST, Setting, parse_duration, tellable};
pub use compute::{AnswerError, Programs, uses_world};
pub use data::folder;
pub use modules::blank_directives;
pub use run::RunWorld;
pub use store::WorldStore;
pub use watch::WATCH_AFTER;

use answers::Answers;
use bounds::Deadline;
use data::{Fingerprint, WorldData};
use expr::Expr;
use names::Reads;
use watch::FolderWatch;

/// The world folder as last read, re-read when a file in it changes.
#[derive(Debug)]
pub struct World {
    tools: PathBuf,
    /// The world's files, listed again only when their folders change.
    listing: data::Listing,
    /// What the kernel reported in the world's folders since the last check.
    watch: FolderWatch,
    current: RwLock<Result<Arc<Generation>, Arc<Vec<Diagnostic>>>>,
}

/// Each program's source and what compiling it gave.
type Compiled = Mutex<HashMap<String, Result<Arc<Expr>, String>>>;

/// One reading of the world folder, with the programs compiled against its definitions.
pub struct Generation {
    fingerprint: Fingerprint,
    data: WorldData,
    /// `data` as jq sees it, made once per reading.
    data_val: Val,
    /// The programs compiled against `data`'s definitions, shared by the readings that found
    /// the same data.
    programs: Arc<Compiled>,
    /// The values those programs gave, shared as the programs are.
    answers: Arc<Answers>,
}

impl std::fmt::Debug for Generation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generation")
            .field("fingerprint", &self.fingerprint)
            .finish_non_exhaustive()
    }
}

/// Why [`Generation::run_on_seed`] gave no value.
#[derive(Debug)]
pub enum SeedRun {
    /// The program does not compile: the error names its line (`line 3: …`) where it can.
    Compile(String),
    /// It failed or was stopped while running.
    Run(String),
}

/// What a computed scenario's programs see as `.`.
#[derive(Debug, Clone, Copy)]
struct Input<'a> {
    /// The arguments, defaults applied.
    pub args: &'a Value,
    /// The run's state: before the call for `when` and `update`, after `update` for the answer.
    pub state: &'a Value,
    /// The state before the call (the answer's programs only).
    pub before: Option<&'a Value>,
    /// The run's clock, in Unix seconds.
    pub now: i64,
    /// Whether the world remembers (`serve --stateful`).
    pub stateful: bool,
    /// A number drawn for this call, from `--seed` when given.
    pub random: u64,
    /// Whether the call forced the scenario (`false` for its `jq when`, which forcing skips).
    pub forced: bool,
    /// What the scenario's `jq when` gave when it chose the scenario (`None`: forced, no
    /// condition, or the condition itself), so that its programs need not compute it again.
    pub when: Option<&'a Value>,
}

impl World {
    /// Reads the world folder of the tools folder `tools`, and compiles `sources` (every jq
    /// program of the tool files) with its definitions, together.
    pub fn load(tools: &Path, sources: &[&str]) -> (Self, Vec<Diagnostic>) {
        let listing = data::Listing::default();
        let fingerprint = data::fingerprint(tools, &listing);
        let generation = Generation::read(tools, fingerprint, None, sources);
        let diagnostics = match &generation {
            Ok(_) => Vec::new(),
            Err(diagnostics) => diagnostics.as_ref().clone(),
        };
        (
            Self {
                tools: tools.to_path_buf(),
                listing,
                watch: FolderWatch::default(),
                current: RwLock::new(generation),
            },
            diagnostics,
        )
    }

    /// The world as it is on disk now: read again when a file's stamp does not vouch for the
    /// last reading (docs/FORMAT.md, "Edits apply on the next call"), and the stamps taken only
    /// when the kernel reported a change since the last check (`watch.rs`). A reading that
    /// finds the same data keeps the programs compiled for it. Problems are the files'
    /// diagnostics, for the log.
    pub fn current(&self) -> Result<Arc<Generation>, Arc<Vec<Diagnostic>>> {
        let mut check = self.watch.begin(&self.tools);
        if check.quiet {
            return self
                .current
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
        }
        check.watch(&self.tools, &data::folders(&self.tools));
        let now = data::fingerprint(&self.tools, &self.listing);
        let last = {
            let current = self.current.read().unwrap_or_else(|e| e.into_inner());
            if let Ok(generation) = &*current
                && data::vouches(&now, &generation.fingerprint)
            {
                check.end(now.files(), true);
                return current.clone();
            }
            current.clone().ok()
        };
        let fresh = Generation::read(&self.tools, now.clone(), last.as_deref(), &[]);
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = fresh.clone();
        // Only once the reading is in place may the next call take it without a look.
        check.end(now.files(), fresh.is_ok());
        fresh
    }
}

/// Where the definitions break, when they do: a module at its own file and line, or each flat
/// `*.jq` file compiled after the ones before it, so that a problem is named by its own file
/// and line. `None` when they compile, every module with them.
fn definition_problems(data: &WorldData) -> Option<Vec<Diagnostic>> {
    let problem = Expr::check(&data.defs)?;
    if let expr::Place::Module(path, line) = &problem.place {
        return Some(vec![Diagnostic::new(
            path,
            *line,
            format!("jq: {}", problem.message),
        )]);
    }
    let mut before = modules::Definitions::default();
    for (path, text) in &data.def_files {
        if let Err(error) = Expr::compile(&before, &format!("{text}\n.")) {
            let (line, message) = match error
                .strip_prefix("line ")
                .and_then(|rest| rest.split_once(": "))
            {
                Some((line, message)) => (line.parse().unwrap_or(1), message.to_string()),
                None => (1, error),
            };
            return Some(vec![Diagnostic::new(path, line, format!("jq: {message}"))]);
        }
        before.flat.push_str(text);
        before.flat.push('\n');
    }
    let first = data.def_files.first().map(|(path, _)| path.clone());
    Some(vec![Diagnostic::new(
        first.unwrap_or_default(),
        1,
        "jq: the *.jq definitions do not compile together",
    )])
}

impl Generation {
    /// The world folder read under `fingerprint`; the programs of `last` are kept when it
    /// found the same data, and `sources` (or else the programs `last` had) are compiled with
    /// its definitions, together. The definitions are checked by that compilation: alone, every
    /// module with them, only when it fails, or when there are no programs.
    fn read(
        tools: &Path,
        fingerprint: Fingerprint,
        last: Option<&Generation>,
        sources: &[&str],
    ) -> Result<Arc<Self>, Arc<Vec<Diagnostic>>> {
        let (data, diagnostics) = data::load(tools);
        if !diagnostics.is_empty() {
            return Err(Arc::new(diagnostics));
        }
        if let Some(last) = last.filter(|last| last.data == data) {
            return Ok(Arc::new(Self {
                fingerprint,
                data,
                data_val: last.data_val.clone(),
                programs: Arc::clone(&last.programs),
                answers: Arc::clone(&last.answers),
            }));
        }
        // A reading after an edit compiles, together again, the programs the last one had.
        let known: Vec<String> = match last {
            Some(last) if sources.is_empty() => last
                .programs
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .keys()
                .cloned()
                .collect(),
            _ => Vec::new(),
        };
        let sources: Vec<&str> = if known.is_empty() {
            sources.to_vec()
        } else {
            known.iter().map(String::as_str).collect()
        };
        let sources = sources.as_slice();
        let compiled = (!sources.is_empty())
            .then(|| Expr::compile_all(&data.defs, sources).ok())
            .flatten();
        if compiled.is_none()
            && let Some(problems) = definition_problems(&data)
        {
            return Err(Arc::new(problems));
        }
        let data_val = expr::to_val(&Value::Object(data.data.clone()));
        let generation = Self {
            fingerprint,
            data,
            data_val,
            programs: Arc::default(),
            answers: Arc::default(),
        };
        match compiled {
            Some(compiled) => {
                let mut programs = generation
                    .programs
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                for (source, expr) in sources.iter().zip(compiled) {
                    programs.insert((*source).to_string(), Ok(Arc::new(expr)));
                }
            }
            None => generation.compile_all(sources.iter().copied()),
        }
        Ok(Arc::new(generation))
    }

    /// Compiles every one of `sources` not compiled yet, together: the definitions are
    /// compiled once for all of them (start-up compiles every program of every tool file this
    /// way). When they do not compile together, each is compiled alone, so that each problem
    /// is its own program's, with its line.
    fn compile_all<'a>(&self, sources: impl IntoIterator<Item = &'a str>) {
        let mut programs = self.programs.lock().unwrap_or_else(|e| e.into_inner());
        let mut new: Vec<&str> = Vec::new();
        for source in sources {
            if !programs.contains_key(source) && !new.contains(&source) {
                new.push(source);
            }
        }
        if new.is_empty() {
            return;
        }
        match Expr::compile_all(&self.data.defs, &new) {
            Ok(compiled) => {
                for (source, expr) in new.iter().zip(compiled) {
                    programs.insert((*source).to_string(), Ok(Arc::new(expr)));
                }
            }
            Err(_) => {
                for source in new {
                    let compiled = Expr::compile(&self.data.defs, source).map(Arc::new);
                    programs.insert(source.to_string(), compiled);
                }
            }
        }
    }

    /// `source` compiled against this reading's definitions, once.
    fn program(&self, source: &str) -> Result<Arc<Expr>, String> {
        let mut programs = self.programs.lock().unwrap_or_else(|e| e.into_inner());
        programs
            .entry(source.to_string())
            .or_insert_with(|| Expr::compile(&self.data.defs, source).map(Arc::new))
            .clone()
    }

    /// The seed state, an object.
    pub fn seed(&self) -> &Value {
        &self.data.seed
    }

    /// Every data file's value under its file stem, as programs see `.data`.
    pub fn data(&self) -> &serde_json::Map<String, Value> {
        &self.data.data
    }

    /// Whether `source` compiles against this reading's definitions; why not, with its line.
    pub fn compiles(&self, source: &str) -> Result<(), String> {
        self.program(source).map(|_| ())
    }

    /// `source`'s value on the seed state, with empty arguments, the clock at `now` (Unix
    /// seconds), no call's random number and nothing forced: what the world's own programs
    /// (its lint's calls) give.
    pub fn run_on_seed(&self, source: &str, now: i64, stateful: bool) -> Result<Value, SeedRun> {
        let program = self.program(source).map_err(SeedRun::Compile)?;
        let input = self.input(
            Input {
                args: &Value::Object(serde_json::Map::new()),
                state: self.seed(),
                before: None,
                now,
                stateful,
                random: 0,
                forced: false,
                when: None,
            },
            program.reads(),
        );
        program
            .run(input, Deadline::from_now())
            .map_err(|error| SeedRun::Run(error.to_string()))
    }

    /// The entity of the data that a call's `args` name, as a person finds it (its path, id,
    /// name, and data file and line under the tools folder `tools`), for a failing program's
    /// log line; `None` when no argument names one.
    pub fn entity(&self, tools: &Path, args: &Value) -> Option<String> {
        data::entity(tools, &self.data, args)
    }

    /// The values this reading's programs gave, for the calls that would run them again.
    fn answers(&self) -> &Answers {
        &self.answers
    }

    /// The document a program sees as `.`: `now`, `random`, `forced` and `when` only when the program
    /// names them (`names.rs`), so that its value is a function of what an [`answers::Key`]
    /// holds.
    fn input(&self, input: Input<'_>, reads: Reads) -> Val {
        let mut map = jaq_json::Map::default();
        let mut put = |key: &str, value: Val| {
            map.insert(Val::from(key.to_string()), value);
        };
        put("args", expr::to_val(input.args));
        put("data", self.data_val.clone());
        put("state", expr::to_val(input.state));
        if let Some(before) = input.before {
            put("before", expr::to_val(before));
        }
        if reads.now {
            put("now", Val::from(isize::try_from(input.now).unwrap_or(0)));
        }
        put("stateful", Val::Bool(input.stateful));
        if reads.random {
            put(
                "random",
                Val::from(isize::try_from(input.random % (1 << 31)).unwrap_or(0)),
            );
        }
        if reads.forced {
            put("forced", Val::Bool(input.forced));
        }
        if reads.when {
            put("when", expr::to_val(input.when.unwrap_or(&Value::Null)));
        }
        Val::obj(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sets `path`'s modification time a minute back, so that its stamp vouches for a reading.
    fn settle(path: &Path) {
        let minute_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        std::fs::File::open(path)
            .and_then(|file| file.set_modified(minute_ago))
            .unwrap();
    }

    #[test]
    fn an_edit_of_the_data_compiles_the_known_programs_again_together() {
        let dir = tempfile::tempdir().unwrap();
        let tools = dir.path().join("tools");
        let data = tools.join("world/echo.json");
        std::fs::create_dir_all(data.parent().unwrap()).unwrap();
        std::fs::write(&data, r#"{"v": 1}"#).unwrap();
        for path in [&data, &tools.join("world"), &tools] {
            settle(path);
        }
        let sources = [".data.echo.v", ".data.echo.v + 1"];
        let (world, problems) = World::load(&tools, &sources);
        assert!(problems.is_empty(), "{problems:?}");
        let before = world.current().unwrap();

        std::fs::write(&data, r#"{"v": 5}"#).unwrap();
        let after = world.current().unwrap();
        assert!(!Arc::ptr_eq(&before, &after), "the edit is read");
        let compiled: Vec<Arc<Expr>> = {
            let programs = after.programs.lock().unwrap();
            sources
                .iter()
                .map(|source| programs.get(*source).cloned().expect("compiled").unwrap())
                .collect()
        };
        assert!(
            Arc::ptr_eq(&compiled[0].filter, &compiled[1].filter),
            "one filter for both"
        );
        let input = after.input(
            Input {
                args: &Value::Null,
                state: &serde_json::json!({}),
                before: None,
                now: 0,
                stateful: false,
                random: 0,
                forced: false,
                when: None,
            },
            compiled[1].reads(),
        );
        assert_eq!(
            compiled[1]
                .run(input, bounds::Deadline::from_now())
                .unwrap(),
            serde_json::json!(6)
        );
    }
}
