//! A run's world: the world folder (read once and shared by every run of a server), the run's
//! state on disk and its clock. The engine holds one and reaches the world through it alone:
//! [`RunWorld::answer`] (`compute.rs`) answers a call of a file that uses the world, and the
//! rest of its methods are what the engine's callers read of the world (the folder, the state,
//! the time).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::clock::ClockFile;
use super::store::WorldStore;
use super::{Generation, World};
use crate::engine::run_files::RunFiles;
use crate::engine::toolfile::diagnostic::Diagnostic;

#[derive(Debug)]
pub struct RunWorld {
    /// The world folder, shared with the worlds of the other runs.
    folder: Arc<World>,
    /// This run's state on disk.
    store: WorldStore,
    /// This run's clock.
    clock: ClockFile,
    /// `--clock`: the time for every call, whatever the run's clock says.
    fixed: Option<DateTime<Utc>>,
    /// The world remembers what calls change (`serve --stateful`).
    pub(super) stateful: bool,
}

impl RunWorld {
    /// The world of the run whose files are `files`, on the world folder `folder`.
    pub fn new(
        folder: Arc<World>,
        files: &RunFiles,
        fixed: Option<DateTime<Utc>>,
        stateful: bool,
    ) -> Self {
        Self {
            folder,
            store: WorldStore::of(files),
            clock: ClockFile::of(files),
            fixed,
            stateful,
        }
    }

    /// The world folder, for the worlds of other runs to share.
    pub fn folder(&self) -> &Arc<World> {
        &self.folder
    }

    /// The same world, read without seeding it ([`WorldStore::reading_only`]).
    #[must_use]
    pub fn reading_only(mut self) -> Self {
        self.store = self.store.reading_only();
        self
    }

    /// The same world, thrown away after use ([`WorldStore::scratch`]).
    #[must_use]
    pub fn scratch(mut self) -> Self {
        self.store = self.store.scratch();
        self
    }

    /// The run's time: `--clock` when given, else the run's clock file, else the real time.
    pub fn now(&self) -> DateTime<Utc> {
        self.fixed.unwrap_or_else(|| self.clock.now())
    }

    /// The run's clock file.
    pub fn clock(&self) -> &ClockFile {
        &self.clock
    }

    /// The run's state on disk.
    pub fn world_store(&self) -> &WorldStore {
        &self.store
    }

    /// The world folder as it is now, or the problems that keep it from serving.
    pub fn world(&self) -> Result<Arc<Generation>, Arc<Vec<Diagnostic>>> {
        self.folder.current()
    }

    /// The run's state now: its world file's in stateful mode, else the seed; `None` when the
    /// world folder cannot be read.
    pub fn state(&self) -> Option<Value> {
        let generation = self.folder.current().ok()?;
        Some(if self.stateful {
            self.store.read(generation.seed())
        } else {
            generation.seed().clone()
        })
    }
}
