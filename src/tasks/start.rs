//! Making a run into a task's start: everything the run held before is forgotten (forced
//! scenarios, stories' positions, the world, the clock, the journal), the task's scenarios are
//! forced, its world is seeded at its clock, and the clock is frozen there or moved on by the
//! time that has passed. Grading then replays the expected actions from that same seed and
//! clock (docs/GRADING.md), and counts only the agent's calls.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use super::Task;
use crate::engine::{
    ClockFile, ClockSetting as Setting, Control, Engine, ForceError, ProjectLayout, WorldStore,
    force, journal,
};

/// A run made ready for a task.
#[derive(Debug, Clone, PartialEq)]
pub struct Started {
    /// The instant the world was seeded at.
    pub seeded_at: DateTime<Utc>,
    /// The run's clock when the agent starts, frozen.
    pub clock: DateTime<Utc>,
    /// Each tool forced, with its entry as written.
    pub scenarios: Vec<(String, Control)>,
}

/// Why a task could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("start.scenarios.{tool}: {error}")]
    Scenario { tool: String, error: ForceError },
    #[error("start.advance: {0}")]
    Advance(String),
    #[error("cannot write {}: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("the world cannot be read: {0} problems in its files (run `careem-mcp lint`)")]
    World(usize),
    #[error("cannot reset the run: {0}")]
    Reset(String),
}

/// Makes the run laid out in `run` (a run's layout) into `task`'s start, with `engine`'s tool
/// files and world.
pub fn start(engine: &Engine, run: &ProjectLayout, task: &Task) -> Result<Started, StartError> {
    let advance = task.advance().map_err(StartError::Advance)?;
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |error| StartError::Io { path, error }
    };
    let files = run.run_files();
    std::fs::create_dir_all(files.folder()).map_err(io(files.folder()))?;
    force::reset(&files).map_err(|e| StartError::Reset(e.to_string()))?;
    journal::clear(&run.journal).map_err(io(&run.journal))?;
    let mut scenarios = Vec::new();
    for (tool, entry) in &task.start.scenarios {
        let written = force::set(
            &engine.config().tools_dir,
            &run.overrides,
            tool,
            Some(entry),
        )
        .map_err(|error| StartError::Scenario {
            tool: tool.clone(),
            error,
        })?;
        if let Some(control) = written {
            scenarios.push((tool.clone(), control));
        }
    }
    let clock = ClockFile::of(&files);
    let seeded_at = task.start.clock;
    clock
        .set(Some(Setting::Frozen(seeded_at)))
        .map_err(io(clock.path()))?;
    let world = engine
        .world()
        .map_err(|problems| StartError::World(problems.len()))?;
    let store = WorldStore::of(&files);
    store
        .seeded_now(store.current(), world.seed(), seeded_at)
        .map_err(io(store.path()))?;
    let now = seeded_at + advance;
    if now != seeded_at {
        clock
            .set(Some(Setting::Frozen(now)))
            .map_err(io(clock.path()))?;
    }
    Ok(Started {
        seeded_at,
        clock: now,
        scenarios,
    })
}
