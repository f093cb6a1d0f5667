//! Runs: many agent tests on one server, each in a world of its own. A run is a folder,
//! `<project>/.run/runs/<run>/`, holding its own overrides file, journal, world and clock
//! ([`RunFiles`] names each); the default run is the project's own `.run/overrides.json` and
//! `.run/calls.jsonl`, its state beside them. A run's engine shares the
//! loaded tools and the parse cache with the default engine (nothing is loaded again) and has
//! its own overrides reader, sequence positions, draws and journal.

use std::collections::{BTreeSet, HashMap};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use super::{Engine, Journal, ProjectLayout, RunName};

/// How many runs a server takes by default: far more than parallel tests use, far fewer than
/// the folders and memory an endless stream of new names would cost.
pub const DEFAULT_MAX_RUNS: usize = 1000;

/// The default engine and the engine of each run in use, made on first use.
#[derive(Debug)]
pub struct Runs {
    default: Arc<Engine>,
    layout: ProjectLayout,
    /// A run's engine lives while a session holds it, so a server that has seen a thousand runs
    /// keeps a thousand journals open only while they are in use. Within one process a run
    /// has at most one engine at a time: one writer of its journal, one reader of its file.
    runs: Mutex<HashMap<RunName, Weak<Engine>>>,
    /// How many runs [`Runs::admit`] lets exist at once, folders on disk and runs in use.
    max: usize,
    /// Whether the cap was reported on stderr already (once).
    warned: AtomicBool,
}

impl Runs {
    /// The runs of the project laid out as `layout`, `engine` answering the default run.
    pub fn new(engine: impl Into<Arc<Engine>>, layout: &ProjectLayout) -> Self {
        Self {
            default: engine.into(),
            layout: layout.clone(),
            runs: Mutex::default(),
            max: DEFAULT_MAX_RUNS,
            warned: AtomicBool::new(false),
        }
    }

    /// The same runs, [`Runs::admit`] taking at most `max` (at least one).
    #[must_use]
    pub fn with_max_runs(mut self, max: usize) -> Self {
        self.max = max.max(1);
        self
    }

    /// The engine of `run` for a client, as [`Runs::get`], if the run exists (it has a folder,
    /// or is in use) or there is room for one more: `None` once `max` runs exist, which leaves
    /// every existing run as it is. A run in use that never took a call does not count, so
    /// that sessions on made-up names, opened and left, cannot fill the cap. Touches the disk:
    /// call it where blocking is fine.
    pub fn admit(&self, run: &RunName) -> Option<Arc<Engine>> {
        let runs = self.lock();
        let exists = runs
            .get(run)
            .is_some_and(|engine| engine.strong_count() > 0)
            || self.layout.run_dir(run).is_dir();
        if !exists {
            let mut known: BTreeSet<RunName> = list(&self.layout.runs_dir())
                .unwrap_or_default()
                .into_iter()
                .collect();
            known.extend(
                runs.iter()
                    .filter(|(_, engine)| {
                        engine
                            .upgrade()
                            .is_some_and(|engine| engine.has_taken_a_call())
                    })
                    .map(|(name, _)| name.clone()),
            );
            if known.len() >= self.max {
                if !self.warned.swap(true, Ordering::Relaxed) {
                    tracing::warn!(
                        run = %run,
                        "--max-runs ({}) runs exist: a new run is not served (404) until one is \
                         freed: remove a run's folder (`careem-mcp reset --run NAME --remove`), \
                         or end the sessions of a run that has none; sessions on a run that made \
                         no call do not count",
                        self.max
                    );
                }
                return None;
            }
        }
        Some(self.engine(runs, run))
    }

    /// The engine of `run` (the default engine for `None`). Nothing is made on disk until a
    /// call is journalled: the first line makes the run's folder and journal, and a folder
    /// removed meanwhile is made again by the next line.
    pub fn get(&self, run: Option<&RunName>) -> Arc<Engine> {
        let Some(run) = run else {
            return Arc::clone(&self.default);
        };
        self.engine(self.lock(), run)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<RunName, Weak<Engine>>> {
        self.runs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The engine of `run` in use, or a new one, its journal made at its first line.
    fn engine(
        &self,
        mut runs: std::sync::MutexGuard<'_, HashMap<RunName, Weak<Engine>>>,
        run: &RunName,
    ) -> Arc<Engine> {
        if let Some(engine) = runs.get(run).and_then(Weak::upgrade) {
            return engine;
        }
        runs.retain(|_, engine| engine.strong_count() > 0);
        let layout = self.layout.for_run(run);
        let engine = self.default.for_run(layout.overrides.clone());
        let engine = Arc::new(match self.default.journal_max_size() {
            Some(max_size) => engine.with_journal(Journal::deferred(&layout.journal, max_size)),
            None => engine,
        });
        runs.insert(run.clone(), Arc::downgrade(&engine));
        engine
    }

    /// The default run's engine.
    pub fn default_engine(&self) -> &Arc<Engine> {
        &self.default
    }

    pub fn layout(&self) -> &ProjectLayout {
        &self.layout
    }
}

/// Every run that has a folder under `runs_dir`, sorted by name; folders whose names are not
/// run names are not runs.
pub fn list(runs_dir: &Path) -> io::Result<Vec<RunName>> {
    let entries = match std::fs::read_dir(runs_dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry?;
        if entry.file_type()?.is_dir()
            && let Some(name) = entry.file_name().to_str().and_then(|n| n.parse().ok())
        {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// Deletes the run's folder and everything in it; `false` when there was none.
pub fn remove(layout: &ProjectLayout, run: &RunName) -> io::Result<bool> {
    let dir: PathBuf = layout.run_dir(run);
    match std::fs::remove_dir_all(&dir) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::{Map, Value, json};

    use super::*;
    use crate::engine::{CallRequest, EngineConfig, LayoutPaths, Origin, force, journal};

    const RIDE: &str = "ride_get_status";

    fn project() -> (tempfile::TempDir, ProjectLayout, Runs) {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let tools = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools");
        let layout = ProjectLayout::derive(LayoutPaths {
            project: Some(dir.path()),
            tools: Some(&tools),
            ..LayoutPaths::default()
        });
        let config = EngineConfig {
            tools_dir: layout.tools.clone(),
            overrides: layout.overrides.clone(),
            clock: None,
            seed: Some(7),
            stateful: false,
        };
        let engine = Engine::load(config)
            .expect("the tool files load")
            .journalled(&layout.journal, 1 << 20);
        let runs = Runs::new(engine, &layout);
        (dir, layout, runs)
    }

    fn force(layout: &ProjectLayout, run: Option<&RunName>, tool: &str, steps: &[&str]) {
        let overrides = run.map_or(layout.overrides.clone(), |r| {
            layout.for_run(r).overrides.clone()
        });
        let steps: Vec<String> = steps.iter().map(ToString::to_string).collect();
        force::set_steps(&layout.tools, &overrides, tool, &steps, Default::default())
            .expect("the scenario is forced");
    }

    fn ride_args() -> Option<Map<String, Value>> {
        json!({"rideId": "5001002"}).as_object().cloned()
    }

    /// One call of `tool` in `session`, as the server makes it: planned, answered, journalled.
    fn call(engine: &Engine, session: &str, tool: &str) -> String {
        let request = CallRequest {
            session: Some(session.to_string()),
            ..CallRequest::new(Origin::Http, tool, ride_args())
        };
        let output = engine.answer(&request);
        match output.decision {
            crate::engine::Decision::Scenario { name, .. } => name,
            other => panic!("{tool} answered {other:?}"),
        }
    }

    fn sessions(path: &Path) -> Vec<(String, String)> {
        journal::read(path)
            .expect("the journal reads")
            .into_iter()
            .map(|e: journal::Entry| {
                (
                    e.session.unwrap_or_default(),
                    e.scenario.unwrap_or_default(),
                )
            })
            .collect()
    }

    #[test]
    fn two_runs_have_their_own_forced_scenarios_and_journals() {
        let (_dir, layout, runs) = project();
        let [a, b] = ["a", "b"].map(|n| n.parse::<RunName>().expect("a run name"));
        force(&layout, Some(&a), RIDE, &["arriving"]);
        force(&layout, Some(&b), RIDE, &["completed"]);
        let cases = [(None, "s0"), (Some(&a), "s1"), (Some(&b), "s2")];
        let answers: Vec<String> = cases
            .iter()
            .map(|(run, session)| call(&runs.get(*run), session, RIDE))
            .collect();
        assert_eq!(answers[1], "arriving");
        assert_eq!(answers[2], "completed");
        assert!(!["arriving", "completed"].contains(&answers[0].as_str()));
        assert_eq!(
            sessions(&layout.journal),
            [("s0".into(), answers[0].clone())]
        );
        assert_eq!(
            sessions(&layout.for_run(&a).journal),
            [("s1".into(), "arriving".into())]
        );
        assert_eq!(
            sessions(&layout.for_run(&b).journal),
            [("s2".into(), "completed".into())]
        );
    }

    #[test]
    fn sequences_step_per_run() {
        let (_dir, layout, runs) = project();
        let [a, b] = ["a", "b"].map(|n| n.parse::<RunName>().expect("a run name"));
        let story = ["searching", "driver-assigned", "arriving"];
        force(&layout, Some(&a), RIDE, &story);
        force(&layout, Some(&b), RIDE, &story);
        let (run_a, run_b) = (runs.get(Some(&a)), runs.get(Some(&b)));
        // The same session id in both runs: each run counts its own positions.
        let interleaved = [
            call(&run_a, "s", RIDE),
            call(&run_a, "s", RIDE),
            call(&run_b, "s", RIDE),
            call(&run_a, "s", RIDE),
            call(&run_b, "s", RIDE),
        ];
        assert_eq!(
            interleaved,
            [
                "searching",
                "driver-assigned",
                "searching",
                "arriving",
                "driver-assigned"
            ]
        );
    }

    #[test]
    fn a_run_engine_is_shared_while_in_use_and_its_folder_comes_back() {
        let (_dir, layout, runs) = project();
        let a: RunName = "a".parse().expect("a run name");
        let first = runs.get(Some(&a));
        assert!(Arc::ptr_eq(&first, &runs.get(Some(&a))));
        assert!(Arc::ptr_eq(runs.default_engine(), &runs.get(None)));
        assert!(std::ptr::eq(
            first.tools().next().expect("a tool"),
            runs.default_engine().tools().next().expect("a tool"),
        ));
        call(&first, "s1", RIDE);
        assert!(remove(&layout, &a).expect("the folder is removed"));
        assert!(!layout.run_dir(&a).exists());
        call(&first, "s2", RIDE);
        assert_eq!(
            sessions(&layout.for_run(&a).journal)
                .into_iter()
                .map(|(s, _)| s)
                .collect::<Vec<_>>(),
            ["s2"]
        );
        assert_eq!(
            list(&layout.runs_dir()).expect("the runs"),
            std::slice::from_ref(&a)
        );
        assert!(remove(&layout, &a).expect("the folder is removed"));
        assert!(!remove(&layout, &a).expect("nothing to remove"));
        assert_eq!(list(&layout.runs_dir()).expect("no runs"), []);
    }

    #[test]
    fn without_a_journal_no_run_keeps_one() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let tools = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools");
        let layout = ProjectLayout::derive(LayoutPaths {
            project: Some(dir.path()),
            tools: Some(&tools),
            ..LayoutPaths::default()
        });
        let config = EngineConfig {
            tools_dir: layout.tools.clone(),
            overrides: layout.overrides.clone(),
            clock: None,
            seed: None,
            stateful: false,
        };
        let runs = Runs::new(Engine::load(config).expect("the tool files load"), &layout);
        let a: RunName = "a".parse().expect("a run name");
        let engine = runs.get(Some(&a));
        assert_eq!(engine.journal_max_size(), None);
        call(&engine, "s", RIDE);
        assert!(!layout.run_dir(&a).exists());
    }
}
