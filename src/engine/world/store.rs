//! A run's world on disk: `world.json` beside the run's overrides file, holding the state an
//! agent changed (basket, orders, rides, the next ids). Every process serving the run shares
//! it: an update takes an exclusive lock on `world.lock`, reads the state, writes the new one
//! to a temporary file and renames it over `world.json`. A reader never sees a torn state (the
//! rename is atomic) and no update is lost (the lock orders them).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};

use super::answers::StateId;
use crate::engine::catalog::stamp::Stamp;
use crate::engine::safe_read;

/// The version of `world.json`'s layout; a file of another version starts from the seed.
const VERSION: u64 = 1;
/// A world file larger than this is not read.
const MAX_SIZE: u64 = 64 * 1024 * 1024;

/// What `world.json` holds.
struct Stored {
    state: Value,
    /// The run's clock at its first change, where grading replays from.
    started: Option<DateTime<Utc>>,
}

#[derive(Debug)]
pub struct WorldStore {
    path: PathBuf,
    lock: PathBuf,
    /// Whether the warning about an unreadable world file was given.
    warned: AtomicBool,
    /// The last reading of `world.json` ([`WorldStore::current`]).
    last: Mutex<Option<Reading>>,
    /// Whether a write waits for the disk: not for a world thrown away after use.
    durable: bool,
}

/// A reading of `world.json`: its bytes, the state they hold, and the reading's id.
#[derive(Debug)]
struct Reading {
    /// The file's stamp before it was read: a stamp that vouches for it spares the next read.
    stamp: Option<Stamp>,
    bytes: Vec<u8>,
    state: Arc<Value>,
    id: u64,
}

/// A `world.json` that is there but cannot be read (the warning is given).
struct Unreadable;

/// The next [`StateId::Stored`]: readings of any run never share one unless their bytes match.
static NEXT_READING: AtomicU64 = AtomicU64::new(0);

/// The run's state now, and which state it is.
#[derive(Debug, Clone)]
pub enum Current {
    /// The seed's, with no `world.json` yet (or one that cannot be used).
    Seed,
    Stored(Arc<Value>, u64),
}

impl Current {
    /// The state, `seed` when it is the seed's.
    pub fn state<'s>(&'s self, seed: &'s Value) -> &'s Value {
        match self {
            Self::Seed => seed,
            Self::Stored(state, _) => state,
        }
    }

    pub fn id(&self) -> StateId {
        match self {
            Self::Seed => StateId::Seed,
            Self::Stored(_, id) => StateId::Stored(*id),
        }
    }
}

/// Why the world could not be changed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError<E> {
    #[error("cannot write the world file {path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(transparent)]
    Rejected(E),
}

impl WorldStore {
    /// The world of the run whose overrides file is `overrides`.
    pub fn beside(overrides: &Path) -> Self {
        let dir = overrides.parent().unwrap_or(Path::new(""));
        Self {
            path: dir.join("world.json"),
            lock: dir.join("world.lock"),
            warned: AtomicBool::new(false),
            last: Mutex::new(None),
            durable: true,
        }
    }

    /// The same world, thrown away after use (grading's replay): its writes do not wait for the
    /// disk, which would cost a sync per action.
    #[must_use]
    pub fn scratch(mut self) -> Self {
        self.durable = false;
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The run's state now: the file's, or `seed` when there is none yet. A file that is not a
    /// world of this version is left where it is, with one warning, and the seed serves.
    pub fn read(&self, seed: &Value) -> Value {
        self.stored()
            .map_or_else(|_| seed.clone(), |stored| stored.state)
    }

    /// The run's state now, as [`WorldStore::read`] finds it, without reading `world.json` again
    /// while its stamp vouches for the last reading (the rule of the tool files, docs/FORMAT.md),
    /// nor parsing it again while its bytes are the last reading's.
    pub fn current(&self) -> Current {
        let stamp = Stamp::of(&self.path);
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(reading) = last.as_ref()
            && stamp.is_some_and(|stamp| stamp.vouches_for(reading.stamp.as_ref()))
        {
            return Current::Stored(Arc::clone(&reading.state), reading.id);
        }
        let Ok(Some(bytes)) = self.bytes() else {
            *last = None;
            return Current::Seed;
        };
        if let Some(reading) = last.as_mut().filter(|reading| reading.bytes == bytes) {
            reading.stamp = stamp;
            return Current::Stored(Arc::clone(&reading.state), reading.id);
        }
        let Ok(stored) = self.parse(&bytes) else {
            *last = None;
            return Current::Seed;
        };
        let reading = last.insert(Reading {
            stamp,
            bytes,
            state: Arc::new(stored.state),
            id: NEXT_READING.fetch_add(1, Ordering::Relaxed),
        });
        Current::Stored(Arc::clone(&reading.state), reading.id)
    }

    /// The run's clock when its world first changed; `None` while it is the seed.
    pub fn started(&self) -> Option<DateTime<Utc>> {
        self.stored().ok()?.started
    }

    /// The stored world; `Err(true)` when a file is there that cannot be used, `Err(false)`
    /// when there is none.
    fn stored(&self) -> Result<Stored, bool> {
        match self.bytes() {
            Ok(Some(bytes)) => self.parse(&bytes),
            Ok(None) => Err(false),
            Err(Unreadable) => Err(true),
        }
    }

    /// The bytes of `world.json`; `None` when there is none.
    fn bytes(&self) -> Result<Option<Vec<u8>>, Unreadable> {
        match safe_read::read_limited(&self.path, MAX_SIZE) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => {
                self.warn(&error.to_string());
                Err(Unreadable)
            }
        }
    }

    /// The world in `bytes`; `Err(true)` (with a warning) when it is not a world of this
    /// version.
    fn parse(&self, bytes: &[u8]) -> Result<Stored, bool> {
        let parsed: Option<Value> = serde_json::from_slice(bytes).ok();
        let why = match parsed {
            Some(mut file) if file.get("version") == Some(&json!(VERSION)) => {
                let started = file
                    .get("started")
                    .and_then(Value::as_str)
                    .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                    .map(|t| t.to_utc());
                match file.get_mut("state").map(Value::take) {
                    Some(state @ Value::Object(_)) => return Ok(Stored { state, started }),
                    _ => "its state is not a JSON object".to_string(),
                }
            }
            Some(_) => format!("it is not a version {VERSION} world"),
            None => "it is not JSON".to_string(),
        };
        self.warn(&why);
        Err(true)
    }

    /// Where an unusable world file is kept when the run's first change replaces it.
    fn set_aside_path(&self) -> PathBuf {
        self.path.with_extension("json.unusable")
    }

    fn warn(&self, why: &str) {
        if !self.warned.swap(true, Ordering::Relaxed) {
            tracing::warn!(path = %self.path.display(), "the run's world file cannot be used ({why}): the run starts from its seed world, and the file is kept as {} when the run first changes", self.set_aside_path().display());
        }
    }

    /// Changes the state under the run's lock: `change` sees the state as it is now and gives
    /// the new state (`None`: unchanged) and its result. A rejection changes nothing.
    pub fn update<R, E>(
        &self,
        seed: &Value,
        now: DateTime<Utc>,
        change: impl FnOnce(&Value) -> Result<(Option<Value>, R), E>,
    ) -> Result<R, StoreError<E>> {
        let io = |error| StoreError::Io {
            path: self.path.clone(),
            error,
        };
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let lock = Locked::take(&self.lock).map_err(io)?;
        let (state, started, unusable) = match self.stored() {
            Ok(stored) => (stored.state, stored.started, false),
            Err(unusable) => (seed.clone(), None, unusable),
        };
        let (new, result) = change(&state).map_err(StoreError::Rejected)?;
        if let Some(new) = new {
            if unusable {
                std::fs::rename(&self.path, self.set_aside_path()).map_err(io)?;
            }
            self.write(&new, started.unwrap_or(now)).map_err(io)?;
        }
        drop(lock);
        Ok(result)
    }

    fn write(&self, state: &Value, started: DateTime<Utc>) -> std::io::Result<()> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let mut file = tempfile::NamedTempFile::new_in(dir)?;
        let started = started.to_rfc3339_opts(SecondsFormat::Secs, true);
        // Made whole first and written at once: serde writes a token at a time.
        let mut bytes = serde_json::to_vec_pretty(&Written {
            version: VERSION,
            started: &started,
            state,
        })?;
        bytes.push(b'\n');
        file.write_all(&bytes)?;
        if self.durable {
            file.as_file().sync_data()?;
        }
        file.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }

    /// Back to the seed: the file goes.
    pub fn reset(&self) -> std::io::Result<()> {
        let _lock = match Locked::take(&self.lock) {
            Ok(lock) => Some(lock),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => return Err(error),
        };
        match std::fs::remove_file(&self.path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        }
    }
}

/// The file as written: its fields in this order.
#[derive(serde::Serialize)]
struct Written<'a> {
    version: u64,
    started: &'a str,
    state: &'a Value,
}

/// An exclusive lock on a file, held until dropped (the kernel drops it with the process too).
struct Locked(File);

impl Locked {
    fn take(path: &Path) -> std::io::Result<Self> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)?;
        file.lock()?;
        Ok(Self(file))
    }
}

impl Drop for Locked {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_persist_and_a_rejection_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = WorldStore::beside(&dir.path().join("overrides.json"));
        let seed = json!({"n": 0});
        assert_eq!(store.read(&seed), seed);
        let n = store
            .update(&seed, Utc::now(), |state| {
                let n = state["n"].as_i64().unwrap() + 1;
                Ok::<_, ()>((Some(json!({"n": n})), n))
            })
            .unwrap();
        assert_eq!(n, 1);
        assert!(matches!(
            store.update(&seed, Utc::now(), |_| Err::<(Option<Value>, ()), _>("no")),
            Err(StoreError::Rejected("no"))
        ));
        assert_eq!(store.read(&seed), json!({"n": 1}));
        store.reset().unwrap();
        assert_eq!(store.read(&seed), seed);
    }

    #[test]
    fn a_broken_file_serves_the_seed() {
        let dir = tempfile::tempdir().unwrap();
        let store = WorldStore::beside(&dir.path().join("overrides.json"));
        for broken in [
            "{",
            "{\"version\": 9, \"state\": {}}",
            "{\"version\": 1, \"state\": 3}",
        ] {
            std::fs::write(store.path(), broken).unwrap();
            assert_eq!(
                store.read(&json!({"seed": true})),
                json!({"seed": true}),
                "{broken}"
            );
        }
    }
}
