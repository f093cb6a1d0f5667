//! A run's clock: `clock.json` in the run's folder ([`RunFiles`]). Without the file the run
//! follows the real time; `careem-mcp clock set` freezes it at an instant, `clock advance`
//! moves it on (a frozen clock by the duration, a running one by an offset it then keeps),
//! `clock real` removes the file. Every process serving the run looks at it on each call, and
//! reads it again when its stamp changed.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, Datelike, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use crate::engine::atomic_file;
use crate::engine::duration::{self, Unit};
use crate::engine::run_files::RunFiles;
use crate::engine::safe_read;
use crate::engine::stamp::Stamp;
use crate::engine::world::store::WorldStore;

/// The years a clock tells: four digits, as RFC 3339 and every time a tool writes say them.
const YEARS: RangeInclusive<i32> = 1..=9999;

/// The latest time a clock tells, as messages name it.
pub const LATEST: &str = "9999-12-31T23:59:59Z";

/// A time outside the years a clock tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the years a clock tells are 0001 to 9999")]
pub struct OutOfRange;

/// `at`, when it falls in the years a clock tells.
pub fn tellable(at: DateTime<Utc>) -> Result<DateTime<Utc>, OutOfRange> {
    if YEARS.contains(&at.year()) {
        Ok(at)
    } else {
        Err(OutOfRange)
    }
}

/// What the clock file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Setting {
    /// Stands still at this instant.
    Frozen(DateTime<Utc>),
    /// Runs with the real time, this many seconds ahead of it.
    Offset(i64),
}

impl Setting {
    /// The time by this setting when the real time is `real`; `None` when it falls outside the
    /// years a clock tells (or past what a time can hold at all).
    pub fn at(self, real: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let at = match self {
            Self::Frozen(at) => at,
            Self::Offset(seconds) => real.checked_add_signed(TimeDelta::try_seconds(seconds)?)?,
        };
        tellable(at).ok()
    }

    /// The setting moved on by `by`, when the time it then tells at `real` is one a clock
    /// tells.
    pub fn advanced(self, by: TimeDelta, real: DateTime<Utc>) -> Result<Self, OutOfRange> {
        let moved = match self {
            Self::Frozen(at) => at.checked_add_signed(by).map(Self::Frozen),
            Self::Offset(seconds) => seconds.checked_add(by.num_seconds()).map(Self::Offset),
        };
        moved
            .filter(|moved| moved.at(real).is_some())
            .ok_or(OutOfRange)
    }
}

#[derive(Debug, Clone)]
pub struct ClockFile {
    path: PathBuf,
    /// The run's files: its changes are made under the run's lock.
    run: RunFiles,
    /// The file's stamp at the last read by [`ClockFile::now`] and what it said, shared by the
    /// clones of this clock.
    last: Arc<Mutex<Option<Read>>>,
}

/// A read of the clock file: its stamp then, and what it said.
type Read = (Stamp, Option<Setting>);

impl ClockFile {
    /// The clock of the run whose files are `run`.
    pub fn of(run: &RunFiles) -> Self {
        Self {
            path: run.clock(),
            run: run.clone(),
            last: Arc::default(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The setting on disk; `None` for the real time (no file, or one that cannot be read or
    /// tells a time outside the years a clock tells: logged).
    pub fn setting(&self) -> Option<Setting> {
        let bytes = match safe_read::read_limited(&self.path, 4096) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
            Err(error) => {
                tracing::warn!(path = %self.path.display(), "cannot read the run's clock, using the real time: {error}");
                return None;
            }
        };
        match serde_json::from_slice::<Setting>(&bytes) {
            Ok(setting) if setting.at(Utc::now()).is_some() => Some(setting),
            Ok(_) => {
                tracing::warn!(path = %self.path.display(), "the run's clock tells a time outside the years 0001 to 9999, using the real time");
                None
            }
            Err(error) => {
                tracing::warn!(path = %self.path.display(), "the run's clock is not a clock, using the real time: {error}");
                None
            }
        }
    }

    /// The run's time now. The file is read again only when its stamp says it may have
    /// changed (`engine/stamp.rs`), and not opened at all when it is not there: every call
    /// asks.
    pub fn now(&self) -> DateTime<Utc> {
        let real = Utc::now();
        self.current()
            .and_then(|setting| setting.at(real))
            .unwrap_or(real)
    }

    /// [`ClockFile::setting`], from the last read while the file's stamp vouches for it.
    fn current(&self) -> Option<Setting> {
        let stamp = match Stamp::look(&self.path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
            look => look.ok().flatten(),
        };
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        if let (Some(stamp), Some((earlier, setting))) = (stamp, last.as_ref())
            && stamp.vouches_for(Some(earlier))
        {
            return *setting;
        }
        let setting = self.setting();
        *last = stamp.map(|stamp| (stamp, setting));
        setting
    }

    /// Changes the setting under the run's lock (the world's, `world.lock`), so that the
    /// changes of several processes at once are made one after the other and none is lost:
    /// `change` sees the setting on disk now and gives the new one (`None`: the real time), or
    /// refuses and nothing is written. The setting written, or the refusal.
    pub fn change<E>(
        &self,
        change: impl FnOnce(Option<Setting>) -> Result<Option<Setting>, E>,
    ) -> std::io::Result<Result<Option<Setting>, E>> {
        // The run's world: only its lock is used.
        let world = WorldStore::of(&self.run);
        world.locked(|| {
            let setting = match change(self.setting()) {
                Ok(setting) => setting,
                Err(refused) => return Ok(Err(refused)),
            };
            self.set(setting)?;
            Ok(Ok(setting))
        })?
    }

    /// Writes `setting`, whole or not at all ([`atomic_file`]); `None` returns the run to the
    /// real time.
    pub fn set(&self, setting: Option<Setting>) -> std::io::Result<()> {
        let Some(setting) = setting else {
            return match std::fs::remove_file(&self.path) {
                Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
                _ => Ok(()),
            };
        };
        atomic_file::write(&self.path, &serde_json::to_vec(&setting)?)
    }
}

/// The longest a clock moves at once: a hundred years.
const LONGEST_MS: i64 = 100 * 365 * 86_400_000;

/// A duration as `clock advance` takes it: the one grammar ([`duration`]: `90m`, `1h30m`,
/// `2d`, `90000ms`), in whole seconds, since a running clock keeps its offset in seconds
/// (`500ms` is refused, not rounded away); a `+` before it is allowed. Negative and empty
/// durations are refused, and ones past a hundred years.
pub fn parse_duration(text: &str) -> Result<TimeDelta, String> {
    let trimmed = text.trim();
    if trimmed.starts_with('-') {
        return Err(format!(
            "{text:?} is negative: the clock only moves forward (use `clock set` to go back)"
        ));
    }
    let unsigned = trimmed.strip_prefix('+').unwrap_or(trimmed);
    let ms = duration::parse_in(unsigned, Unit::Second, "the clock")
        .map_err(|error| error.to_string())?;
    if ms > LONGEST_MS {
        return Err(format!(
            "{text:?} is too long a duration (at most 100 years)"
        ));
    }
    Ok(TimeDelta::milliseconds(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        let cases = [
            ("90m", Ok(5400)),
            ("1h30m", Ok(5400)),
            ("+2h", Ok(7200)),
            ("1d", Ok(86_400)),
            ("45s", Ok(45)),
            ("90000ms", Ok(90)),
            ("1.5h", Ok(5400)),
            ("-5m", Err("negative")),
            ("", Err("empty")),
            ("+", Err("empty")),
            ("soon", Err("not a duration")),
            ("5x", Err("not a duration")),
            ("500ms", Err("finer than the clock keeps")),
            ("101y", Err("not a duration")),
            ("36600d", Err("too long")),
            ("99999999999999999999h", Err("too long")),
        ];
        for (text, want) in cases {
            match (parse_duration(text), want) {
                (Ok(got), Ok(seconds)) => assert_eq!(got.num_seconds(), seconds, "{text}"),
                (Err(got), Err(part)) => assert!(got.contains(part), "{text}: {got}"),
                (got, want) => panic!("{text}: {got:?}, want {want:?}"),
            }
        }
    }

    #[test]
    fn the_clock_file_sets_freezes_advances_and_returns_to_real() {
        let dir = tempfile::tempdir().unwrap();
        let clock = ClockFile::of(&RunFiles::in_folder(dir.path().to_path_buf()));
        assert_eq!(clock.setting(), None);
        let at: DateTime<Utc> = "2026-10-05T12:00:00Z".parse().unwrap();
        clock.set(Some(Setting::Frozen(at))).unwrap();
        assert_eq!(clock.now(), at);
        let moved = clock
            .setting()
            .unwrap()
            .advanced(TimeDelta::minutes(90), Utc::now())
            .unwrap();
        clock.set(Some(moved)).unwrap();
        assert_eq!(clock.now(), at + TimeDelta::minutes(90));
        clock.set(None).unwrap();
        assert_eq!(clock.setting(), None);
        assert!(
            (clock.now() - Utc::now()).num_seconds().abs() <= 1,
            "the real time again"
        );
        // Settled, the file is read once and then vouched for by its stamp; an edit in place
        // that changes its stamp is read.
        clock.set(Some(Setting::Frozen(at))).unwrap();
        let settle = |clock: &ClockFile| {
            let minute_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
            std::fs::File::options()
                .write(true)
                .open(clock.path())
                .and_then(|file| file.set_modified(minute_ago))
                .unwrap();
        };
        settle(&clock);
        let clone = clock.clone();
        assert_eq!(clock.now(), at);
        assert_eq!(clone.now(), at);
        std::fs::write(clock.path(), r#"{"frozen":"2026-10-06T08:30:00Z"}"#).unwrap();
        settle(&clock);
        assert_eq!(
            clone.now(),
            "2026-10-06T08:30:00Z".parse::<DateTime<Utc>>().unwrap()
        );
        clock.set(None).unwrap();
        assert!((clone.now() - Utc::now()).num_seconds().abs() <= 1);
        let ahead = Setting::Offset(0).advanced(TimeDelta::hours(1), Utc::now());
        assert_eq!(ahead, Ok(Setting::Offset(3600)));
    }
}
