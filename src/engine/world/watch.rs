//! Knowing that nothing in the world folder changed without taking the stamp of each of its
//! files: the kernel reports (inotify) every write, attribute change, creation, removal and
//! rename in the folders that hold them, and every creation, removal or rename in the tools
//! folder (where the world folder may appear). A call drains what was reported, on its own
//! thread, before it reads anything: a change made before the call is seen by it. The stamps
//! are taken only when something was reported since the last check that found the world as
//! it is, or when that check could not vouch for it: a symlink among the folders or files
//! (whose target the kernel does not report on), or a folder that cannot be watched.
//!
//! A watch is set up only once a process has checked the folder [`WATCH_AFTER`] times: the
//! kernel takes ~20 ms to tear one down when the process ends, which a stdio session that
//! answers a call or two would pay for nothing.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// How many times the stamps are taken before the folders are watched.
pub const WATCH_AFTER: u32 = 32;

#[derive(Debug, Default)]
pub struct FolderWatch(Mutex<State>);

#[derive(Debug, Default)]
struct State {
    /// `None` where the kernel's notifications cannot be had (another system, no inotify).
    #[cfg(target_os = "linux")]
    inotify: Option<inotify::Inotify>,
    /// Whether the last check vouched for the reading in place and nothing was reported since.
    quiet: bool,
    /// The checks that took the stamps, up to [`WATCH_AFTER`].
    checks: u32,
}

/// One call's check of the world folder, which holds the watch until it ends, so that checks
/// happen one after another.
pub struct Check<'w> {
    state: MutexGuard<'w, State>,
    /// Whether nothing changed since the last check that vouched for the reading in place.
    pub quiet: bool,
    /// Whether the folders are watched ([`Check::watch`]).
    watched: bool,
}

impl FolderWatch {
    /// Drains what was reported since the last check.
    pub fn begin(&self) -> Check<'_> {
        let mut state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let reported = state.drain();
        if reported {
            state.quiet = false;
        }
        let quiet = state.quiet;
        Check {
            state,
            quiet,
            watched: false,
        }
    }
}

impl Check<'_> {
    /// Watches `tools` and the world's `folders` before they are read, so that a change made
    /// while they are read is reported to the next call.
    pub fn watch(&mut self, tools: &Path, folders: &[PathBuf]) {
        if self.state.checks < WATCH_AFTER {
            self.state.checks += 1;
            return;
        }
        self.watched = self.state.watch(tools, folders);
    }

    /// Ends the check: `vouched` says whether the reading in place is the world folder's now,
    /// read or vouched for by the stamps after the check began. With its folders watched and no
    /// symlink among `files`, the calls after it are quiet until something is reported.
    pub fn end(mut self, files: &[PathBuf], vouched: bool) {
        self.state.quiet = vouched && self.watched && no_symlinks(files);
    }
}

fn no_symlinks(paths: &[PathBuf]) -> bool {
    paths.iter().all(|path| {
        std::fs::symlink_metadata(path).is_ok_and(|metadata| !metadata.file_type().is_symlink())
    })
}

#[cfg(target_os = "linux")]
impl State {
    /// Whether anything was reported; a watch that fails is given up (the stamps serve).
    fn drain(&mut self) -> bool {
        let Some(inotify) = &mut self.inotify else {
            return true;
        };
        let mut buffer = [0u8; 4096];
        let mut reported = false;
        loop {
            match inotify.read_events(&mut buffer) {
                Ok(mut events) => reported |= events.next().is_some(),
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => return reported,
                Err(_) => {
                    self.inotify = None;
                    return true;
                }
            }
        }
    }

    /// Watches the tools folder for entries that come and go, and the world's folders (the
    /// ones there are) for any change; `false` when a folder could not be watched, or is a
    /// symlink.
    fn watch(&mut self, tools: &Path, folders: &[PathBuf]) -> bool {
        use inotify::WatchMask;
        if self.inotify.is_none() {
            self.inotify = inotify::Inotify::init().ok();
        }
        let Some(inotify) = &self.inotify else {
            return false;
        };
        let entries = WatchMask::CREATE
            | WatchMask::DELETE
            | WatchMask::MOVED_FROM
            | WatchMask::MOVED_TO
            | WatchMask::DELETE_SELF
            | WatchMask::MOVE_SELF
            | WatchMask::DONT_FOLLOW;
        let any = entries | WatchMask::MODIFY | WatchMask::ATTRIB | WatchMask::CLOSE_WRITE;
        let mut watches = inotify.watches();
        let mut watched =
            no_symlinks(&[tools.to_path_buf()]) && watches.add(tools, entries).is_ok();
        for folder in folders {
            match std::fs::symlink_metadata(folder) {
                Ok(metadata) if metadata.is_dir() => {
                    watched &= watches.add(folder, any).is_ok();
                }
                // One that is not there yet is reported by its parent when it comes.
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                _ => watched = false,
            }
        }
        watched
    }
}

#[cfg(not(target_os = "linux"))]
impl State {
    fn drain(&mut self) -> bool {
        true
    }

    fn watch(&mut self, _tools: &Path, _folders: &[PathBuf]) -> bool {
        false
    }
}
