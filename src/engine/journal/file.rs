//! The journal's file on disk, as a long run needs it: bounded in size (rotated to one
//! predecessor, `calls.jsonl.1`), reopened when it was deleted or rotated away by someone else,
//! and written one whole line at a time even after a failed write (a full disk), so that an
//! entry is never glued to a cut-off one. The reader is `read.rs`.

use std::borrow::Cow;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError, TryLockError};

use super::read::rotated_path;

/// The default bound on the journal's size: ample for a day of agent runs, small next to a disk.
pub const DEFAULT_MAX_SIZE: u64 = 32 * 1024 * 1024;

#[derive(Debug)]
pub struct JournalFile {
    path: PathBuf,
    max_size: u64,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    file: File,
    /// The file's size as last known: where the next line lands.
    size: u64,
    /// The last write failed part-way: the file may end in half a line.
    cut: bool,
    /// A regular file, whose writes never wait on a reader (a pipe's do).
    regular: bool,
    /// The open file's identity, fixed while it is open: a call then costs one `stat` of the
    /// path to notice that the file was deleted or renamed away, not two.
    #[cfg(unix)]
    identity: (u64, u64),
}

impl JournalFile {
    /// Opens (creating) the file at `path` for appending; past `max_size` bytes it is rotated.
    pub fn open(path: &Path, max_size: u64) -> io::Result<Self> {
        Ok(Self {
            path: path.to_path_buf(),
            max_size,
            state: Mutex::new(open(path)?),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `line` (ending in `\n`) in one write.
    pub fn write_line(&self, line: &[u8]) -> io::Result<()> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if self.moved(&state) {
            *state = open(&self.path)?;
        }
        if self.full(&state, line) {
            // Another writer (a `call` beside a server) may have rotated already; renaming
            // whatever is at the path now is still right.
            std::fs::rename(&self.path, rotated_path(&self.path))?;
            *state = open(&self.path)?;
        }
        append(&mut state, line)
    }

    /// As [`JournalFile::write_line`] when that cannot block, for a caller on an async worker:
    /// the file is a regular file (a write to a pipe waits for its reader), no other writer
    /// holds it (that one may be stuck in such a write), and it needs no reopening or rotation
    /// (an open may wait too). `None` when nothing was written: the caller then writes with
    /// [`JournalFile::write_line`] where blocking is fine.
    pub fn try_write_line(&self, line: &[u8]) -> Option<io::Result<()>> {
        let mut state = match self.state.try_lock() {
            Ok(state) => state,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => return None,
        };
        if !state.regular || self.moved(&state) || self.full(&state, line) {
            return None;
        }
        Some(append(&mut state, line))
    }

    /// Whether `line` would take the file past its bound.
    fn full(&self, state: &State, line: &[u8]) -> bool {
        state.size > 0 && state.size + line.len() as u64 > self.max_size
    }

    /// Whether the path no longer names the open file: deleted, or renamed away.
    #[cfg(unix)]
    fn moved(&self, state: &State) -> bool {
        use std::os::unix::fs::MetadataExt;
        !std::fs::metadata(&self.path).is_ok_and(|now| (now.dev(), now.ino()) == state.identity)
    }

    #[cfg(not(unix))]
    fn moved(&self, _state: &State) -> bool {
        !self.path.exists()
    }
}

fn open(path: &Path) -> io::Result<State> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let file = OpenOptions::new().create(true).append(true).open(path)?;
    let metadata = file.metadata()?;
    let size = metadata.len();
    // A file left ending in half a line (a crash mid-write) gets its line ended first.
    let cut = size > 0 && last_byte(path, size).is_some_and(|b| b != b'\n');
    Ok(State {
        file,
        size,
        cut,
        regular: metadata.is_file(),
        #[cfg(unix)]
        identity: {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        },
    })
}

/// Writes `line`, after a newline that ends a cut-off line if the last write failed part-way.
fn append(state: &mut State, line: &[u8]) -> io::Result<()> {
    let whole: Cow<'_, [u8]> = if state.cut {
        // Ends the cut-off line, which readers then skip, instead of gluing to it.
        Cow::Owned([b"\n", line].concat())
    } else {
        Cow::Borrowed(line)
    };
    match state.file.write_all(&whole) {
        Ok(()) => {
            state.cut = false;
            state.size += whole.len() as u64;
            Ok(())
        }
        Err(error) => {
            state.cut = true;
            state.size = state.file.metadata().map_or(state.size, |m| m.len());
            Err(error)
        }
    }
}

fn last_byte(path: &Path, size: u64) -> Option<u8> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = File::open(path).ok()?;
    file.seek(SeekFrom::Start(size - 1)).ok()?;
    let mut byte = [0u8];
    file.read_exact(&mut byte).ok()?;
    Some(byte[0])
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
            let _writing = journal.state.lock().unwrap();
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
}
