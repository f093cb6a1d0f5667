//! A run's controls as the engine holds them: the reader of its overrides file, where each
//! session stands in each tool's story, the draws of its rates and what ended stdio servers
//! left for their clients. Each call's plan comes from here ([`RunControls::plan`]).

use super::carried::CarriedFile;
use super::overrides::OverridesReader;
use super::plan::{self, Plan, PlanDraws};
use super::positions::Positions;
use crate::engine::run_files::RunFiles;

#[derive(Debug)]
pub struct RunControls {
    overrides: OverridesReader,
    positions: Positions,
    /// What ended stdio servers left for their clients' next process.
    carried: CarriedFile,
    dice: PlanDraws,
}

impl RunControls {
    /// The controls of the run whose files are `files`, their draws from `seed` (`--seed`).
    pub fn new(files: &RunFiles, seed: Option<u64>) -> Self {
        Self {
            overrides: OverridesReader::new(files.overrides().to_path_buf()),
            positions: Positions::default(),
            carried: CarriedFile::of(files),
            dice: PlanDraws::new(seed),
        }
    }

    /// The plan for the next call of `tool` in `session` of `client`, from the overrides file
    /// as it is now (see [`crate::engine::Engine::plan_for`]).
    pub fn plan(&self, tool: &str, session: Option<&str>, client: Option<&str>) -> Plan {
        if let (None, Some(client)) = (session, client) {
            self.carried.bring(client, &self.positions);
        }
        plan::plan(
            &self.overrides.controls(),
            tool,
            (session, client),
            &self.positions,
            &self.dice,
        )
    }

    /// The places of the session-less session of `client`, left in the carried file for its
    /// next process. Blocks on the file.
    pub fn carry_over(&self, client: &str) {
        let places = self.positions.leave(None);
        self.carried.leave(client, &places);
    }

    /// Where each session stands in each tool's controls.
    pub fn positions(&self) -> &Positions {
        &self.positions
    }
}
