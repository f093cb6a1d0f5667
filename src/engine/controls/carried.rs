//! The carried file (`carried.json`, in the run's folder: [`RunFiles`]): what stdio servers ended by
//! `fault:session-expired` left for their clients' next processes, `{ "<client>": <places> }`.
//! A stdio session ends with its process, so the places that an HTTP session's client finds in
//! memory ([`Positions::carry`]) wait here instead: written as the process ends, merged with
//! what other clients left, and taken out by the client's next process, so that a third one
//! starts afresh. A missing file is nothing; a file that cannot be read or used is ignored with
//! a warning, and never stops a call.

use std::collections::HashSet;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use super::entries::Overrides;
use super::overrides;
use super::positions::{Places, Positions};
use crate::engine::run_files::RunFiles;

/// Clients whose places the file keeps at most: past it the file starts again from the
/// newest, as [`Positions`] bounds what it carries.
const MAX_CLIENTS: usize = 256;

#[derive(Debug)]
pub struct CarriedFile {
    path: PathBuf,
    /// Clients whose places this process has taken from the file already: each is taken at
    /// its first call, once.
    taken: Mutex<HashSet<String>>,
    /// Set once a file that cannot be used has been warned of: one warning a process.
    warned: AtomicBool,
}

impl CarriedFile {
    /// The carried file of the run whose files are `run`.
    pub fn of(run: &RunFiles) -> Self {
        Self {
            path: run.carried(),
            taken: Mutex::default(),
            warned: AtomicBool::new(false),
        }
    }

    /// Leaves `places` in the file for `client`'s next process, beside what other clients
    /// left there; a file that cannot be used is replaced.
    pub fn leave(&self, client: &str, places: &Places) {
        let value = match serde_json::to_value(places) {
            Ok(value) => value,
            Err(error) => {
                tracing::warn!("cannot write the session's places: {error}");
                return;
            }
        };
        let written = self.edit(|file| {
            if file.len() >= MAX_CLIENTS && !file.contains_key(client) {
                file.clear();
            }
            file.insert(client.to_string(), value);
            true
        });
        if let Err(error) = written {
            tracing::warn!(path = %self.path.display(), "cannot leave the session's places for its client's next process: {error}");
        }
    }

    /// At `client`'s first call in this process, takes what an ended process of the same
    /// client left in the file and hands it to `positions`; later calls find it there.
    pub fn bring(&self, client: &str, positions: &Positions) {
        {
            let mut taken = self.taken.lock().unwrap_or_else(PoisonError::into_inner);
            if taken.contains(client) {
                return;
            }
            if taken.len() >= MAX_CLIENTS {
                taken.clear();
            }
            taken.insert(client.to_string());
        }
        // No file, nothing to take: the edit lock is not worth taking.
        if std::fs::symlink_metadata(&self.path)
            .is_err_and(|error| error.kind() == io::ErrorKind::NotFound)
        {
            return;
        }
        let mut places = None;
        let taken = self.edit(|file| {
            let Some(value) = file.remove(client) else {
                return false;
            };
            match serde_json::from_value::<Places>(value) {
                Ok(left) => places = Some(left),
                Err(error) => self.unusable(&format!(
                    "the entry of {client} is not a session's places ({error}): dropping it"
                )),
            }
            true
        });
        if let Err(error) = taken {
            tracing::warn!(path = %self.path.display(), "cannot take the client's places from the carried file, ignoring it: {error}");
            return;
        }
        if let Some(places) = places {
            positions.receive(client, places);
        }
    }

    /// Reads the file under its edit lock, lets `change` edit it, and writes it back
    /// atomically when `change` says it changed. A file that is not a JSON object reads as
    /// empty, with a warning.
    fn edit(&self, change: impl FnOnce(&mut Overrides) -> bool) -> Result<(), String> {
        let _editing = overrides::lock_for_edit(&self.path).map_err(|e| e.to_string())?;
        let mut file = match overrides::read_bytes(&self.path) {
            Ok(bytes) => overrides::parse(&bytes).unwrap_or_else(|| {
                self.unusable("it is not a JSON object");
                Overrides::new()
            }),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Overrides::new(),
            Err(error) => {
                self.unusable(&format!("cannot read it ({error})"));
                Overrides::new()
            }
        };
        if change(&mut file) {
            overrides::write(&self.path, &file).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Warns, once a process, of a file that cannot be used: `why`.
    fn unusable(&self, why: &str) {
        if !self.warned.swap(true, Ordering::Relaxed) {
            tracing::warn!(path = %self.path.display(), "ignoring the carried file: {why}");
        }
    }
}

/// Forgets what stdio servers left in the run's folder for their clients: every client's next
/// process starts its stories from the first step.
pub(super) fn forget(run: &RunFiles) -> Result<(), overrides::OverridesError> {
    let path = run.carried();
    match std::fs::remove_file(&path) {
        Err(source) if source.kind() != io::ErrorKind::NotFound => {
            Err(overrides::OverridesError::Write { path, source })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_left_by_one_process_are_taken_once_by_the_next_and_others_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunFiles::of_overrides(&dir.path().join(".run/overrides.json"));
        let ended = Positions::default();
        ended.advance_for(None, Some("other/1"), "t", "e");
        CarriedFile::of(&run).leave("other/1", &ended.leave(None));
        ended.advance_for(None, Some("agent/1"), "t", "e");
        ended.advance_for(None, Some("agent/1"), "t", "e");
        CarriedFile::of(&run).leave("agent/1", &ended.leave(None));
        let path = dir.path().join(".run/carried.json");
        let file = overrides::read_strict(&path).unwrap();
        assert_eq!(file.keys().collect::<Vec<_>>(), ["agent/1", "other/1"]);

        let next = (Positions::default(), CarriedFile::of(&run));
        let call = |positions: &Positions, carried: &CarriedFile| {
            carried.bring("agent/1", positions);
            positions.advance_for(None, Some("agent/1"), "t", "e").call
        };
        assert_eq!(call(&next.0, &next.1), 2, "the story goes on");
        assert_eq!(call(&next.0, &next.1), 3);
        let third = (Positions::default(), CarriedFile::of(&run));
        assert_eq!(call(&third.0, &third.1), 0, "taken once: afresh");
        let file = overrides::read_strict(&path).unwrap();
        assert_eq!(file.keys().collect::<Vec<_>>(), ["other/1"]);
    }
}
