//! Knowing that nothing in the world folder changed without taking the stamp of each of its
//! files: the kernel reports (inotify) every write, attribute change, creation, removal and
//! rename in the folders that hold them, and every creation, removal or rename in the tools
//! folder (where the world folder may appear). A call drains what was reported, on its own
//! thread, before it reads anything: a change made before the call is seen by it. The stamps
//! are taken only when something was reported since the last check that found the world as
//! it is, or when that check could not vouch for it: a symlink or a hard link among the folders
//! or files (a change through the other name is not reported in the folder), a folder that
//! cannot be watched, or one on a file system whose changes may come from elsewhere (NFS, FUSE,
//! a virtual machine's shared folder), which the kernel does not report. A quiet call still
//! takes the tools folder's identity, so that a folder above it renamed or swapped (a release
//! symlink re-pointed) is seen too.
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
    /// The device and inode of the tools folder that is watched.
    tools: Option<(u64, u64)>,
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
    /// Drains what was reported since the last check, and checks that `tools` is still the
    /// folder watched.
    pub fn begin(&self, tools: &Path) -> Check<'_> {
        let mut state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let reported = state.drain();
        if reported || (state.quiet && identity(tools) != state.tools) {
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
        self.state.quiet = vouched && self.watched && files.iter().all(|file| single(file));
    }
}

/// Whether `path` is there under this one name: no symlink, no other hard link.
fn single(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|metadata| {
        !metadata.file_type().is_symlink() && (metadata.is_dir() || links(&metadata) == 1)
    })
}

#[cfg(unix)]
fn links(metadata: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(metadata)
}

#[cfg(not(unix))]
fn links(_metadata: &std::fs::Metadata) -> u64 {
    0
}

/// The device and inode of the folder at `path`, through symlinks as a read goes.
#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path)
        .ok()
        .map(|metadata| (metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn identity(_path: &Path) -> Option<(u64, u64)> {
    None
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
        self.tools = identity(tools);
        let mut watched = self.tools.is_some()
            && single(tools)
            && local(tools)
            && watches.add(tools, entries).is_ok();
        for folder in folders {
            match std::fs::symlink_metadata(folder) {
                Ok(metadata) if metadata.is_dir() => {
                    watched &= local(folder) && watches.add(folder, any).is_ok();
                }
                // One that is not there yet is reported by its parent when it comes.
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                _ => watched = false,
            }
        }
        watched
    }
}

/// File systems whose every change is made through this kernel, which reports it.
#[cfg(target_os = "linux")]
const LOCAL: [i64; 10] = [
    0xEF53,      // ext2, ext3, ext4
    0x5846_5342, // xfs
    0x9123_683E, // btrfs
    0x0102_1994, // tmpfs
    0x8584_58F6, // ramfs
    0x794C_7630, // overlayfs
    0xF2F5_2010, // f2fs
    0x2FC1_2FC1, // zfs
    0xCA45_1A4E, // bcachefs
    0x4D44,      // vfat
];

/// Whether the folder at `path` is on a file system in [`LOCAL`].
#[cfg(target_os = "linux")]
fn local(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a `statfs` is integers, for which zeroes are a value; `statfs` reads the
    // NUL-terminated path and fills the struct, and keeps neither pointer.
    let (status, stat) = unsafe {
        let mut stat: libc::statfs = std::mem::zeroed();
        (libc::statfs(path.as_ptr(), &raw mut stat), stat)
    };
    if status != 0 {
        return false;
    }
    // `f_type`'s width differs between architectures.
    #[allow(clippy::unnecessary_cast)]
    let kind = stat.f_type as i64;
    LOCAL.contains(&kind)
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
