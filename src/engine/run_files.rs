//! Where a run's files live, said once: every room that keeps a run's state on disk (the
//! controls' overrides and carried files, the world's `world.json` and its lock, the clock's
//! `clock.json`, the journal) takes its path from [`RunFiles`], so that following where a run
//! lives means reading this file, not following the overrides path from room to room.

use std::path::{Path, PathBuf};

/// The overrides file's name in a run's folder.
const OVERRIDES: &str = "overrides.json";
/// The journal's name in a run's folder.
const JOURNAL: &str = "calls.jsonl";
/// The world's state, `world.json`, and the lock that orders the changes of every process
/// serving the run (its world's and its clock's).
const WORLD: &str = "world.json";
const WORLD_LOCK: &str = "world.lock";
const CLOCK: &str = "clock.json";
/// What stdio servers ended by `fault:session-expired` left for their clients.
const CARRIED: &str = "carried.json";

/// A run's folder and the files in it. A run is named by its overrides file: the default run's
/// is `.run/overrides.json` or the file `--overrides` names, a named run's
/// `.run/runs/<run>/overrides.json`; the run's state lives in that file's folder. The journal
/// is the one file that may be named elsewhere (`--journal`), so it is the layout's
/// ([`crate::engine::ProjectLayout`]), and [`RunFiles::journal`] is where a run's folder keeps
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunFiles {
    folder: PathBuf,
    overrides: PathBuf,
}

impl RunFiles {
    /// The files of a run with a folder of its own, `folder` (`.run/runs/<run>/`).
    pub fn in_folder(folder: PathBuf) -> Self {
        Self {
            overrides: folder.join(OVERRIDES),
            folder,
        }
    }

    /// The files of the run whose overrides file is `overrides`, in that file's folder (the
    /// current folder for a bare file name).
    pub fn of_overrides(overrides: &Path) -> Self {
        Self {
            folder: overrides.parent().unwrap_or(Path::new("")).to_path_buf(),
            overrides: overrides.to_path_buf(),
        }
    }

    /// The run's folder; empty for the current folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The overrides file: what each tool answers, and how (docs/CONTROLS.md).
    pub fn overrides(&self) -> &Path {
        &self.overrides
    }

    /// The journal a run's folder keeps, `calls.jsonl`.
    pub fn journal(&self) -> PathBuf {
        self.folder.join(JOURNAL)
    }

    /// The run's world state, `world.json`.
    pub fn world(&self) -> PathBuf {
        self.folder.join(WORLD)
    }

    /// The run's lock, `world.lock`: held by each change of its world and of its clock.
    pub fn world_lock(&self) -> PathBuf {
        self.folder.join(WORLD_LOCK)
    }

    /// The run's clock, `clock.json`.
    pub fn clock(&self) -> PathBuf {
        self.folder.join(CLOCK)
    }

    /// The carried file, `carried.json`.
    pub fn carried(&self) -> PathBuf {
        self.folder.join(CARRIED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_a_run_is_in_its_overrides_files_folder() {
        let cases = [
            (
                RunFiles::in_folder(PathBuf::from("/p/.run/runs/ci-7")),
                "/p/.run/runs/ci-7",
            ),
            (
                RunFiles::of_overrides(Path::new("/p/.run/overrides.json")),
                "/p/.run",
            ),
            (RunFiles::of_overrides(Path::new("/x/o.json")), "/x"),
            (RunFiles::of_overrides(Path::new("o.json")), ""),
        ];
        for (files, folder) in cases {
            let folder = Path::new(folder);
            assert_eq!(files.folder(), folder);
            assert_eq!(files.overrides().parent(), Some(folder));
            assert_eq!(
                [
                    files.journal(),
                    files.world(),
                    files.world_lock(),
                    files.clock(),
                    files.carried(),
                ],
                [
                    "calls.jsonl",
                    "world.json",
                    "world.lock",
                    "clock.json",
                    "carried.json"
                ]
                .map(|name| folder.join(name)),
            );
        }
    }
}
