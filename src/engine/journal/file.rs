//! The journal's file on disk, as a long run needs it: bounded in size (rotated to one
//! predecessor, `calls.jsonl.1`), reopened when it was deleted or rotated away by someone else,
//! and written one whole line at a time, so that an entry is never glued to a cut-off one.
//!
//! Several processes may write one journal (an HTTP `serve`, a stdio `serve` and `careem-mcp
//! call` in one project). So each line starts from the file's true end, not from what this
//! process wrote: the size comes from the `stat` that checks the path still names the open file
//! (rotation counts every writer's lines, so the bound holds for all of them together), and the
//! last byte says whether another writer left half a line (a full disk, a crash), which is then
//! ended first. The last byte is read only when the size is not the one this process's own last
//! line left: another writer's line changes it. Only a journal cleared in place (`calls
//! --clear`) and grown back by others to exactly that size, ending in a cut line, would go
//! unseen, and glue one line to it, which readers then skip. A rotation is decided under an
//! exclusive lock on the file being rotated and checked again once the lock is held, so two
//! writers never both rotate (the second would rename the first's new file over the rotated
//! one). A journal that cannot be opened (a read-only folder, a missing disk) is tried again
//! on each line. The reader is `read.rs`.
//!
//! The journals of this process that hold a file open are at most [`cap`] at once: each run
//! has a journal, and a server with a thousand runs in use would otherwise hold a thousand
//! files open, past a `ulimit -n` of 1024 together with its connections. Past the cap the
//! journal used least recently closes its file (said once on stderr); its next line opens it
//! again, so no line is lost.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError, TryLockError, Weak};

/// The journal's rotated predecessor, kept beside it: `calls.jsonl` → `calls.jsonl.1`.
pub fn rotated_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".1");
    PathBuf::from(name)
}

/// The default bound on the journal's size: ample for a day of agent runs, small next to a disk.
pub const DEFAULT_MAX_SIZE: u64 = 32 * 1024 * 1024;

/// Whether calls are being journalled, for the banner `serve` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JournalStatus {
    /// `--no-journal`: none is kept.
    Off,
    Open,
    /// The file cannot be opened now (why); each call tries again.
    Unavailable(String),
    /// The path names something no journal may be (why): not a regular file or a pipe, or a
    /// pipe that nobody reads, whose writes would wait for ever. `serve` refuses to start.
    Refused(String),
}

#[derive(Debug)]
pub struct JournalFile {
    path: PathBuf,
    max_size: u64,
    /// This journal's number among the process's open files ([`OPEN_FILES`]).
    id: u64,
    state: Arc<Shared>,
}

/// The slot, shared with the budget of open files, which closes it when it is idle.
#[derive(Debug)]
struct Shared(Mutex<Slot>);

impl Closable for Shared {
    fn close_if_idle(&self) -> bool {
        match self.0.try_lock() {
            Ok(mut slot) => {
                if matches!(*slot, Slot::Open(_)) {
                    *slot = Slot::Unopened;
                }
                true
            }
            Err(TryLockError::Poisoned(_)) => true,
            Err(TryLockError::WouldBlock) => false,
        }
    }
}

impl Drop for JournalFile {
    fn drop(&mut self) {
        OPEN_FILES.closed(self.id);
    }
}

#[derive(Debug)]
enum Slot {
    Open(State),
    /// Not opened yet: the file (and its folder) is made by the first line.
    Unopened,
    /// The last open failed, with this error; `refused` when the path is no journal at all.
    Closed {
        why: String,
        refused: bool,
    },
}

#[derive(Debug)]
struct State {
    file: File,
    /// A regular file, whose writes never wait on a reader (a pipe's do).
    regular: bool,
    /// The open file's identity, fixed while it is open: a call then costs one `stat` of the
    /// path to notice that the file was deleted or renamed away, not two.
    #[cfg(unix)]
    identity: (u64, u64),
    /// The file's size right after this process's last line. A file of that size still ends
    /// with that line's newline, so its last byte need not be read; any other writer's line,
    /// whole or cut, changes the size.
    ends_at: Option<u64>,
}

impl Slot {
    fn closed(error: &io::Error) -> Self {
        Self::Closed {
            why: error.to_string(),
            refused: error
                .get_ref()
                .is_some_and(|inner| inner.is::<NotAJournal>()),
        }
    }
}

/// Why a path is no journal: writing there could wait for ever, or means nothing.
#[derive(Debug, thiserror::Error)]
enum NotAJournal {
    #[error("a pipe that nobody reads (start its reader first)")]
    PipeWithoutReader,
    #[error("not a regular file or a pipe ({0})")]
    Kind(&'static str),
}

/// Where the file ends now, whoever wrote it.
#[derive(Debug, Clone, Copy)]
struct End {
    size: u64,
    /// The last byte is not a newline: a line was cut off.
    cut: bool,
}

impl JournalFile {
    /// Opens (creating) the file at `path` for appending; past `max_size` bytes it is rotated.
    pub fn open(path: &Path, max_size: u64) -> io::Result<Self> {
        let file = Self::with_slot(path, max_size, Slot::Open(open(path)?));
        file.counted();
        Ok(file)
    }

    fn with_slot(path: &Path, max_size: u64, slot: Slot) -> Self {
        Self {
            path: path.to_path_buf(),
            max_size,
            id: OPEN_FILES.id(),
            state: Arc::new(Shared(Mutex::new(slot))),
        }
    }

    /// Counts this journal's open file in the process's budget.
    fn counted(&self) {
        let state: Arc<dyn Closable> = self.state.clone();
        let weak: Weak<dyn Closable> = Arc::downgrade(&state);
        OPEN_FILES.opened(self.id, weak, cap());
    }

    /// As [`JournalFile::open`], but a file that cannot be opened now is tried again on each
    /// line; the error is returned beside the journal.
    pub fn open_retrying(path: &Path, max_size: u64) -> (Self, Option<io::Error>) {
        let (slot, error) = match open(path) {
            Ok(state) => (Slot::Open(state), None),
            Err(error) => (Slot::closed(&error), Some(error)),
        };
        let file = Self::with_slot(path, max_size, slot);
        if error.is_none() {
            file.counted();
        }
        (file, error)
    }

    /// As [`JournalFile::open`], but nothing is made on disk until the first line is written.
    pub fn deferred(path: &Path, max_size: u64) -> Self {
        Self::with_slot(path, max_size, Slot::Unopened)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn max_size(&self) -> u64 {
        self.max_size
    }

    /// Whether the file is open, or why not.
    pub fn status(&self) -> JournalStatus {
        match &*self.lock() {
            // Nothing has failed: the first line makes the file.
            Slot::Open(_) | Slot::Unopened => JournalStatus::Open,
            Slot::Closed { why, refused: true } => JournalStatus::Refused(why.clone()),
            Slot::Closed { why, .. } => JournalStatus::Unavailable(why.clone()),
        }
    }

    /// Appends `line` (ending in `\n`) in one write, at the file's true end.
    pub fn write_line(&self, line: &[u8]) -> io::Result<()> {
        let mut slot = self.lock();
        let state = self.current(&mut slot)?;
        let mut end = state.end()?;
        while self.full(end, line) {
            // Another writer may be rotating this very file: decide under its lock, and look
            // again once the lock is held.
            state.file.lock()?;
            let rotation = self.rotate_if_full(state, line);
            state.file.unlock()?;
            let rotated = rotation?;
            if rotated || self.moved(state) {
                *state = open(&self.path)?;
            }
            end = state.end()?;
            if rotated {
                break;
            }
        }
        state.append(end, line)?;
        OPEN_FILES.used(self.id);
        Ok(())
    }

    /// As [`JournalFile::write_line`] when that cannot block, for a caller on an async worker:
    /// the file is open and regular (a write to a pipe waits for its reader), no other writer
    /// in this process holds it (that one may be stuck in such a write), and it needs no
    /// reopening or rotation (an open may wait too). `None` when nothing was written: the
    /// caller then writes with [`JournalFile::write_line`] where blocking is fine.
    pub fn try_write_line(&self, line: &[u8]) -> Option<io::Result<()>> {
        let mut slot = match self.state.0.try_lock() {
            Ok(slot) => slot,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => return None,
        };
        let Slot::Open(state) = &mut *slot else {
            return None;
        };
        if !state.regular {
            return None;
        }
        // The path's `stat` tells both that it still names the open file and where it ends.
        let size = self.size_here(state)?;
        let end = match state.end_at(size) {
            Ok(end) => end,
            Err(error) => return Some(Err(error)),
        };
        if self.full(end, line) {
            return None;
        }
        let written = state.append(end, line);
        if written.is_ok() {
            OPEN_FILES.used(self.id);
        }
        Some(written)
    }

    /// The open file, reopened when the path names another file (or none) now, or opened
    /// when the last try failed.
    fn current<'a>(&self, slot: &'a mut Slot) -> io::Result<&'a mut State> {
        let reopen = match slot {
            Slot::Open(state) => self.moved(state),
            Slot::Unopened | Slot::Closed { .. } => true,
        };
        if reopen {
            *slot = match open(&self.path) {
                Ok(state) => Slot::Open(state),
                Err(error) => {
                    *slot = Slot::closed(&error);
                    OPEN_FILES.closed(self.id);
                    return Err(error);
                }
            };
            self.counted();
        }
        match slot {
            Slot::Open(state) => Ok(state),
            Slot::Closed { why, .. } => Err(io::Error::other(why.clone())),
            Slot::Unopened => Err(io::Error::other("the journal is not open")),
        }
    }

    /// Renames the open file to the rotated path if it is still at the path and still too
    /// full for `line`; whether it did. Called under the file's lock.
    fn rotate_if_full(&self, state: &State, line: &[u8]) -> io::Result<bool> {
        if self.moved(state) || !self.full(state.end()?, line) {
            return Ok(false);
        }
        std::fs::rename(&self.path, rotated_path(&self.path))?;
        Ok(true)
    }

    /// Whether `line` would take the file past its bound.
    fn full(&self, end: End, line: &[u8]) -> bool {
        end.size > 0 && end.size + u64::from(end.cut) + line.len() as u64 > self.max_size
    }

    /// Whether the path no longer names the open file: deleted, or renamed away.
    fn moved(&self, state: &State) -> bool {
        self.size_here(state).is_none()
    }

    /// The size of the file at the path, when that is still the open file.
    #[cfg(unix)]
    fn size_here(&self, state: &State) -> Option<u64> {
        use std::os::unix::fs::MetadataExt;
        let now = std::fs::metadata(&self.path).ok()?;
        ((now.dev(), now.ino()) == state.identity).then_some(now.len())
    }

    #[cfg(not(unix))]
    fn size_here(&self, state: &State) -> Option<u64> {
        if !self.path.exists() {
            return None;
        }
        state.file.metadata().ok().map(|metadata| metadata.len())
    }

    fn lock(&self) -> MutexGuard<'_, Slot> {
        self.state.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn open(path: &Path) -> io::Result<State> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    // Opened for writing only first, without waiting: a pipe with no reader is refused at
    // once instead of holding every call until one comes.
    let mut file = open_for_append(path)?;
    let metadata = file.metadata()?;
    if metadata.is_file() {
        // A regular file is read as well: its last byte tells whether another writer cut a
        // line.
        file = OpenOptions::new().read(true).append(true).open(path)?;
    } else if is_pipe(&metadata) {
        // A pipe's lines are written whole: its writes wait while it is full.
        set_blocking(&file)?;
    } else {
        return Err(io::Error::other(NotAJournal::Kind(kind_of(&metadata))));
    }
    let metadata = file.metadata()?;
    Ok(State {
        regular: metadata.is_file(),
        #[cfg(unix)]
        identity: {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        },
        file,
        ends_at: None,
    })
}

#[cfg(unix)]
fn open_for_append(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .create(true)
        .append(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|error| match error.raw_os_error() {
            Some(libc::ENXIO) => io::Error::other(NotAJournal::PipeWithoutReader),
            _ => error,
        })
}

#[cfg(not(unix))]
fn open_for_append(path: &Path) -> io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

#[cfg(unix)]
fn is_pipe(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    metadata.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_pipe(_metadata: &std::fs::Metadata) -> bool {
    false
}

/// What a path that is neither a regular file nor a pipe is, for the refusal.
fn kind_of(metadata: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = metadata.file_type();
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = metadata;
    "not a file"
}

/// Clears `O_NONBLOCK`, set only so that the open could not wait.
#[cfg(unix)]
fn set_blocking(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: `fcntl` with `F_GETFL`/`F_SETFL` on a descriptor this function borrows open; it
    // touches no memory.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(not(unix))]
fn set_blocking(_file: &File) -> io::Result<()> {
    Ok(())
}

impl State {
    /// Where the file ends (`fstat`). Not a regular file (a pipe): nothing to look at, and
    /// nothing to rotate.
    fn end(&self) -> io::Result<End> {
        let metadata = self.file.metadata()?;
        if !metadata.is_file() {
            return Ok(End {
                size: 0,
                cut: false,
            });
        }
        self.end_at(metadata.len())
    }

    /// Where the regular file of `size` bytes ends: whether its last byte ends a line is read
    /// only when another writer may have written it.
    fn end_at(&self, size: u64) -> io::Result<End> {
        let cut = size > 0 && self.ends_at != Some(size) && last_byte(&self.file, size)? != b'\n';
        Ok(End { size, cut })
    }

    /// Writes `line` at the end (the file is opened for appending), after a newline that ends
    /// a cut-off line if the file ends in one.
    fn append(&mut self, end: End, line: &[u8]) -> io::Result<()> {
        let written = if end.cut {
            // Ends the cut-off line, which readers then skip, instead of gluing to it.
            let whole = [b"\n", line].concat();
            self.file.write_all(&whole).map(|()| whole.len())
        } else {
            self.file.write_all(line).map(|()| line.len())
        };
        self.ends_at = match written {
            Ok(written) if self.regular => Some(end.size + written as u64),
            _ => None,
        };
        written.map(drop)
    }
}

#[cfg(unix)]
fn last_byte(file: &File, size: u64) -> io::Result<u8> {
    use std::os::unix::fs::FileExt;
    let mut byte = [0u8];
    file.read_exact_at(&mut byte, size - 1)?;
    Ok(byte[0])
}

#[cfg(not(unix))]
fn last_byte(file: &File, size: u64) -> io::Result<u8> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = file.try_clone()?;
    file.seek(SeekFrom::Start(size - 1))?;
    let mut byte = [0u8];
    file.read_exact(&mut byte)?;
    Ok(byte[0])
}

/// What a journal's file slot must let the budget do: close it when it is not in use.
pub(super) trait Closable: Send + Sync {
    /// Closes the file unless a line is being written now; whether it closed.
    fn close_if_idle(&self) -> bool;
}

/// How many journal files may be open at once: a sixteenth of the file-descriptor limit
/// (64 of 1024), between 16 and 4,096. `serve` keeps as many more free beside its connections.
pub fn cap() -> usize {
    static CAP: LazyLock<usize> = LazyLock::new(|| {
        let fits = descriptor_limit().map_or(4096, |limit| limit / 16);
        usize::try_from(fits.clamp(16, 4096)).unwrap_or(4096)
    });
    *CAP
}

struct Entry {
    last_used: u64,
    slot: Weak<dyn Closable>,
}

#[derive(Default)]
pub(super) struct OpenFiles {
    open: Mutex<HashMap<u64, Entry>>,
    next_id: AtomicU64,
    clock: AtomicU64,
    warned: AtomicBool,
}

/// The one budget of this process.
pub(super) static OPEN_FILES: LazyLock<OpenFiles> = LazyLock::new(OpenFiles::default);

impl OpenFiles {
    /// A new journal's number.
    pub(super) fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Journal `id` opened its file: counted, and past the cap the one used least recently
    /// (and not writing now) closes its own. The caller may hold its own slot: other slots
    /// are only tried, never waited for.
    pub(super) fn opened(&self, id: u64, slot: Weak<dyn Closable>, cap: usize) {
        let last_used = self.clock.fetch_add(1, Ordering::Relaxed);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.insert(id, Entry { last_used, slot });
        if open.len() <= cap {
            return;
        }
        if !self.warned.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                "{cap} journals are open, as many as the file-descriptor limit leaves room for: \
                 the one used least recently is closed and opened again at its next line"
            );
        }
        let mut oldest: Vec<(u64, u64)> = open
            .iter()
            .filter(|(other, _)| **other != id)
            .map(|(other, entry)| (entry.last_used, *other))
            .collect();
        oldest.sort_unstable();
        for (_, other) in oldest {
            let closed = open
                .get(&other)
                .is_none_or(|entry| entry.slot.upgrade().is_none_or(|slot| slot.close_if_idle()));
            if closed {
                open.remove(&other);
                if open.len() <= cap {
                    return;
                }
            }
        }
    }

    /// Journal `id` wrote a line.
    pub(super) fn used(&self, id: u64) {
        let now = self.clock.fetch_add(1, Ordering::Relaxed);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = open.get_mut(&id) {
            entry.last_used = now;
        }
    }

    /// Journal `id` closed its file, or is gone.
    pub(super) fn closed(&self, id: u64) {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id);
    }
}

/// This process's limit on open file descriptors (`ulimit -n`), when it has one.
#[cfg(unix)]
pub fn descriptor_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` only writes the struct it is given, which lives for the call.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) };
    (read == 0 && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

#[cfg(not(unix))]
pub fn descriptor_limit() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap_or_default()
    }

    #[test]
    fn rotates_past_its_size_and_keeps_one_predecessor() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("calls.jsonl");
        let journal = JournalFile::open(&path, 10).unwrap();
        for line in ["aaaa\n", "bbbb\n", "cccc\n", "dddd\n", "eeee\n"] {
            journal.write_line(line.as_bytes()).unwrap();
        }
        assert_eq!(read(&path), "eeee\n");
        assert_eq!(read(&rotated_path(&path)), "cccc\ndddd\n");
    }

    #[test]
    fn writes_in_place_only_when_that_cannot_block() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("calls.jsonl");
        let journal = JournalFile::open(&path, 10).unwrap();
        assert!(matches!(journal.try_write_line(b"aaaa\n"), Some(Ok(()))));
        assert!(
            journal.try_write_line(b"bbbbbbbb\n").is_none(),
            "rotating is write_line's"
        );
        std::fs::remove_file(&path).unwrap();
        assert!(
            journal.try_write_line(b"c\n").is_none(),
            "reopening is write_line's"
        );
        journal.write_line(b"dd\n").unwrap();
        {
            let _writing = journal.state.0.lock().unwrap();
            assert!(journal.try_write_line(b"e\n").is_none(), "another writer");
        }
        assert!(matches!(journal.try_write_line(b"f\n"), Some(Ok(()))));
        assert_eq!(read(&path), "dd\nf\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_journal_that_is_a_pipe_is_never_written_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("calls.pipe");
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|status| status.success()), "mkfifo");
        // A reader, so that opening the pipe for writing does not wait.
        let _reader = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        let journal = JournalFile::open(&path, DEFAULT_MAX_SIZE).unwrap();
        assert!(journal.try_write_line(b"line\n").is_none());
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_nobody_reads_and_a_device_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("calls.pipe");
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|status| status.success()), "mkfifo");
        let (journal, error) = JournalFile::open_retrying(&path, DEFAULT_MAX_SIZE);
        assert!(error.is_some());
        assert!(
            matches!(journal.status(), JournalStatus::Refused(why) if why.contains("nobody reads"))
        );
        let (journal, _) = JournalFile::open_retrying(Path::new("/dev/null"), DEFAULT_MAX_SIZE);
        assert_eq!(
            journal.status(),
            JournalStatus::Refused("not a regular file or a pipe (a character device)".into())
        );
    }

    #[test]
    fn reopens_when_deleted_or_rotated_away_and_ends_a_cut_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("calls.jsonl");
        let journal = JournalFile::open(&path, DEFAULT_MAX_SIZE).unwrap();
        journal.write_line(b"one\n").unwrap();
        std::fs::remove_file(&path).unwrap();
        journal.write_line(b"two\n").unwrap();
        assert_eq!(read(&path), "two\n");
        std::fs::rename(&path, dir.path().join("elsewhere")).unwrap();
        // Left ending in half a line, as a crash or a full disk would.
        std::fs::write(&path, "{\"cut").unwrap();
        journal.write_line(b"three\n").unwrap();
        assert_eq!(read(&path), "{\"cut\nthree\n");
    }

    #[test]
    fn threads_writing_at_once_lose_and_glue_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("calls.jsonl");
        let journal = JournalFile::open(&path, DEFAULT_MAX_SIZE).unwrap();
        std::thread::scope(|scope| {
            for thread in 0..4 {
                let journal = &journal;
                scope.spawn(move || {
                    for n in 0..300 {
                        let line = format!("{{\"thread\":{thread},\"n\":{n}}}\n");
                        match journal.try_write_line(line.as_bytes()) {
                            Some(written) => written.unwrap(),
                            None => journal.write_line(line.as_bytes()).unwrap(),
                        }
                    }
                });
            }
        });
        let text = read(&path);
        let mut lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1200, "no line lost, none empty");
        lines.sort_unstable();
        lines.dedup();
        assert_eq!(lines.len(), 1200, "every line once");
        assert!(lines.iter().all(|line| line.starts_with("{\"thread\":")));
    }

    #[test]
    fn a_line_another_writer_cut_in_the_open_file_is_ended_first() {
        for in_place in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("calls.jsonl");
            let journal = JournalFile::open(&path, DEFAULT_MAX_SIZE).unwrap();
            let write = |line: &[u8]| {
                if in_place {
                    assert!(matches!(journal.try_write_line(line), Some(Ok(()))));
                } else {
                    journal.write_line(line).unwrap();
                }
            };
            write(b"one\n");
            let mut other = OpenOptions::new().append(true).open(&path).unwrap();
            other.write_all(b"{\"cut").unwrap();
            write(b"two\n");
            write(b"three\n");
            assert_eq!(
                read(&path),
                "one\n{\"cut\ntwo\nthree\n",
                "in place: {in_place}"
            );
        }
    }

    #[derive(Default)]
    struct Budgeted {
        open: AtomicBool,
        busy: AtomicBool,
    }

    impl Closable for Budgeted {
        fn close_if_idle(&self) -> bool {
            if self.busy.load(Ordering::Relaxed) {
                return false;
            }
            self.open.store(false, Ordering::Relaxed);
            true
        }
    }

    #[test]
    fn past_the_cap_the_file_used_least_recently_and_idle_closes() {
        let budget = OpenFiles::default();
        let files: Vec<Arc<Budgeted>> = (0..4).map(|_| Arc::default()).collect();
        let open = |n: usize| {
            files[n].open.store(true, Ordering::Relaxed);
            let file: Arc<dyn Closable> = files[n].clone();
            budget.opened(n as u64, Arc::downgrade(&file), 2);
        };
        open(0);
        open(1);
        budget.used(0);
        open(2);
        assert!(
            !files[1].open.load(Ordering::Relaxed),
            "1 was used least recently"
        );
        files[0].busy.store(true, Ordering::Relaxed);
        open(3);
        assert!(
            files[0].open.load(Ordering::Relaxed),
            "0 is writing: left open"
        );
        assert!(!files[2].open.load(Ordering::Relaxed), "2 closed instead");
    }
}
