//! A run's world on disk: `world.json` in the run's folder ([`RunFiles`]), holding the state an
//! agent changed (basket, orders, rides, the next ids). Every process serving the run shares
//! it: an update takes an exclusive lock on `world.lock`, reads the state, and writes the new
//! one whole ([`atomic_file`]: a temporary file renamed over `world.json`). A reader never
//! sees a torn state (the rename is atomic) and no update is lost (the lock orders them).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};

use super::answers::StateId;
use crate::engine::atomic_file::{self, Durability};
use crate::engine::file_lock::FileLock;
use crate::engine::run_files::RunFiles;
use crate::engine::safe_read;
use crate::engine::stamp::Stamp;

/// The version of `world.json`'s layout; a file of another version starts from the seed.
const VERSION: u64 = 1;
/// A world file larger than this is not read.
const MAX_SIZE: u64 = 64 * 1024 * 1024;
/// The state's key for the run's epoch: its clock, in Unix seconds, when its world was seeded
/// (its first call, or its first call after `reset`). The seed's times are fixed from it
/// (docs/DATA_WORLD.md, "Time"); a world without it (static mode) is seeded at every call.
/// It ends in `At`, so that grading compares it by role.
pub const SEEDED_AT: &str = "seededAt";

/// `seed` as a run seeded at `now` holds it.
pub fn seeded(seed: &Value, now: DateTime<Utc>) -> Value {
    let mut state = seed.clone();
    if let Value::Object(keys) = &mut state {
        keys.insert(SEEDED_AT.to_string(), json!(now.timestamp()));
    }
    state
}

/// What `world.json` holds.
struct Stored {
    state: Value,
    /// The run's clock when its world was seeded, where grading replays from.
    started: Option<DateTime<Utc>>,
}

#[derive(Debug)]
pub struct WorldStore {
    path: PathBuf,
    lock: PathBuf,
    /// The last unusable world file warned about: each one is warned about once, and every
    /// other one again.
    warned: Mutex<Option<Seen>>,
    /// The last reading of `world.json` ([`WorldStore::current`]).
    last: Mutex<Option<Reading>>,
    /// Whether a write waits for the disk: not for a world thrown away after use.
    durable: bool,
    /// Whether a call seeds the run's world when it has none: not for a view that only reads.
    seeds: bool,
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

/// Which unusable world file a warning was about: what was at the path (its device, inode,
/// size and modification time, the path itself not followed), what its bytes hashed to when
/// they were read, and why it could not be used.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    identity: Option<(u64, u64, u64, Option<SystemTime>)>,
    digest: Option<u64>,
    why: String,
}

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
    /// The world of the run whose files are `files`.
    pub fn of(files: &RunFiles) -> Self {
        Self {
            path: files.world(),
            lock: files.world_lock(),
            warned: Mutex::new(None),
            last: Mutex::new(None),
            durable: true,
            seeds: true,
        }
    }

    /// The same world, read without seeding it (the CLI's and the dashboard's view): a run
    /// with no world yet reads as its seed now, and its epoch stays its first call's.
    #[must_use]
    pub fn reading_only(mut self) -> Self {
        self.seeds = false;
        self
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

    /// The run's clock when its world was seeded; `None` while it has none.
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

    /// The bytes of `world.json`; `None` when there is none. A symlink is read through only
    /// to a file in the run's own folder: one to another run's world would share it.
    fn bytes(&self) -> Result<Option<Vec<u8>>, Unreadable> {
        if let Some(why) = self.foreign_symlink() {
            self.warn(&why, None);
            return Err(Unreadable);
        }
        match safe_read::read_limited(&self.path, MAX_SIZE) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => {
                self.warn(&error.to_string(), None);
                Err(Unreadable)
            }
        }
    }

    /// Why `world.json` is not to be read through, when it is a symlink to anywhere but a
    /// file in the run's own folder.
    fn foreign_symlink(&self) -> Option<String> {
        let link = std::fs::symlink_metadata(&self.path).ok()?;
        if !link.file_type().is_symlink() {
            return None;
        }
        let target = std::fs::canonicalize(&self.path).ok();
        let inside = match (&target, std::fs::canonicalize(self.folder())) {
            (Some(target), Ok(folder)) => target.parent() == Some(folder.as_path()),
            _ => false,
        };
        let shown = std::fs::read_link(&self.path)
            .map(|target| target.display().to_string())
            .unwrap_or_default();
        (!inside).then(|| format!("a symlink out of the run's folder, to {shown}"))
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
        let mut digest = DefaultHasher::new();
        bytes.hash(&mut digest);
        self.warn(&why, Some(digest.finish()));
        Err(true)
    }

    /// Where an unusable world file is kept when the run's first change replaces it: a name of
    /// its own, `world.json.unusable`, then `world.json.unusable-2` and so on, so that no
    /// earlier one is lost.
    fn set_aside_path(&self) -> PathBuf {
        let free = |path: &PathBuf| std::fs::symlink_metadata(path).is_err();
        let first = self.path.with_extension("json.unusable");
        if free(&first) {
            return first;
        }
        (2..)
            .map(|n| self.path.with_extension(format!("json.unusable-{n}")))
            .find(free)
            .unwrap_or(first)
    }

    /// Warns about the unusable world file at the path now, unless the last warning was about
    /// this one (a call reads it again while it stays).
    fn warn(&self, why: &str, digest: Option<u64>) {
        let identity = std::fs::symlink_metadata(&self.path).ok().map(|m| {
            #[cfg(unix)]
            let (device, inode) = {
                use std::os::unix::fs::MetadataExt;
                (m.dev(), m.ino())
            };
            #[cfg(not(unix))]
            let (device, inode) = (0, 0);
            (device, inode, m.len(), m.modified().ok())
        });
        let seen = Seen {
            identity,
            digest,
            why: why.to_string(),
        };
        let mut warned = self.warned.lock().unwrap_or_else(PoisonError::into_inner);
        if warned.as_ref() != Some(&seen) {
            tracing::warn!(path = %self.path.display(), "the run's world file cannot be used ({why}): the run starts from its seed world, and the file is kept as {} when the run first changes", self.set_aside_path().display());
            *warned = Some(seen);
        }
    }

    /// Runs `work` holding the run's lock, which orders the changes of every process serving
    /// the run: its world's, and its clock's.
    pub fn locked<R>(&self, work: impl FnOnce() -> R) -> std::io::Result<R> {
        std::fs::create_dir_all(self.folder())?;
        let _lock = FileLock::on_file(&self.lock)?;
        Ok(work())
    }

    /// Changes the state under the run's lock: `change` sees the state as it is now and gives
    /// the new state (`None`: unchanged) and its result. A rejection changes nothing. A run with
    /// no world yet starts from `seed` seeded at `now`, and is written even when unchanged.
    pub fn update<R, E>(
        &self,
        seed: &Value,
        now: DateTime<Utc>,
        change: impl FnOnce(&Value) -> Result<(Option<Value>, R), E>,
    ) -> Result<R, StoreError<E>> {
        self.locked(|| self.change(seed, now, change))
            .map_err(|error| self.io(error))?
    }

    /// [`WorldStore::update`]'s change, the run's lock held.
    fn change<R, E>(
        &self,
        seed: &Value,
        now: DateTime<Utc>,
        change: impl FnOnce(&Value) -> Result<(Option<Value>, R), E>,
    ) -> Result<R, StoreError<E>> {
        let (state, started, fresh, unusable) = match self.stored() {
            Ok(stored) => (stored.state, stored.started, false, false),
            Err(unusable) => (seeded(seed, now), None, true, unusable),
        };
        let (new, result) = change(&state).map_err(StoreError::Rejected)?;
        // A world seeded by this call is written even when the call changes nothing in it.
        if let Some(new) = new.or_else(|| fresh.then(|| state.clone())) {
            if unusable {
                std::fs::rename(&self.path, self.set_aside_path()).map_err(|e| self.io(e))?;
            }
            self.write(&new, started.unwrap_or(now))
                .map_err(|error| self.io(error))?;
        }
        Ok(result)
    }

    fn io<E>(&self, error: std::io::Error) -> StoreError<E> {
        StoreError::Io {
            path: self.path.clone(),
            error,
        }
    }

    /// The folder `world.json` lives in (the run's).
    fn folder(&self) -> &Path {
        self.path
            .parent()
            .filter(|dir| !dir.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
    }

    /// Writes the world whole ([`atomic_file`]): its data synced unless it is thrown away
    /// after use.
    fn write(&self, state: &Value, started: DateTime<Utc>) -> std::io::Result<()> {
        let started = started.to_rfc3339_opts(SecondsFormat::Secs, true);
        // Made whole first and written at once: serde writes a token at a time.
        let mut bytes = serde_json::to_vec_pretty(&Written {
            version: VERSION,
            started: &started,
            state,
        })?;
        bytes.push(b'\n');
        let durability = if self.durable {
            Durability::Data
        } else {
            Durability::None
        };
        atomic_file::write_with(&self.path, &bytes, durability)
    }

    /// Whether a call would seed the world before it reads it: the run has none yet (or one
    /// that cannot be used), and this store seeds.
    pub fn would_seed(&self, current: &Current) -> bool {
        self.seeds && matches!(current, Current::Seed)
    }

    /// The run's state after seeding its world at `now`, when `current` (what
    /// [`WorldStore::current`] gave) says it has none yet: the run's epoch is its first call's
    /// clock, whatever that call does.
    pub fn seeded_now(
        &self,
        current: Current,
        seed: &Value,
        now: DateTime<Utc>,
    ) -> std::io::Result<Current> {
        if !self.would_seed(&current) {
            return Ok(current);
        }
        std::fs::create_dir_all(self.folder())?;
        // While another call holds the run's lock (a write under way, which seeds the world
        // itself), this call reads the seed as it is now rather than wait.
        let Some(lock) = FileLock::try_on_file(&self.lock)? else {
            return Ok(current);
        };
        let seeded = self.change(seed, now, |_| Ok::<_, std::convert::Infallible>((None, ())));
        drop(lock);
        match seeded {
            Ok(()) => Ok(self.current()),
            Err(StoreError::Io { error, .. }) => Err(error),
            Err(StoreError::Rejected(never)) => match never {},
        }
    }

    /// Back to the seed: the file goes.
    pub fn reset(&self) -> std::io::Result<()> {
        let _lock = match FileLock::on_file(&self.lock) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_persist_and_a_rejection_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = WorldStore::of(&RunFiles::in_folder(dir.path().to_path_buf()));
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
        let store = WorldStore::of(&RunFiles::in_folder(dir.path().to_path_buf()));
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
