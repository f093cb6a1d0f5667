//! The one lock between processes: an exclusive advisory lock (`flock`) on a file or a folder,
//! held until dropped (the kernel drops it with the process too). It orders the changes of
//! processes that read a file, change it and write it back whole: the run's world and clock
//! (`world.lock`), the overrides file (`.overrides.json.lock` beside it) and a tool file that
//! `record` adds to (its folder). The lock is never on the file written itself: the write
//! renames a new file over it, and a lock on the replaced one would let the next writer in
//! beside the one still holding it.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// An exclusive lock, released when dropped.
#[derive(Debug)]
#[must_use = "the lock is released when dropped"]
pub struct FileLock {
    /// What is locked; `None` where nothing can be (a folder on Windows).
    held: Option<File>,
}

impl FileLock {
    /// Waits until no other process holds the lock file at `path` (created when missing, its
    /// folder not), then holds it.
    pub fn on_file(path: &Path) -> io::Result<Self> {
        let file = open(path)?;
        file.lock()?;
        Ok(Self { held: Some(file) })
    }

    /// The lock on the file at `path` when no one else holds it; `None` when someone does.
    pub fn try_on_file(path: &Path) -> io::Result<Option<Self>> {
        let file = open(path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(Self { held: Some(file) })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(error)) => Err(error),
        }
    }

    /// Waits until no other process holds the folder `dir` itself, then holds it.
    #[cfg(unix)]
    pub fn on_folder(dir: &Path) -> io::Result<Self> {
        let folder = File::open(dir)?;
        folder.lock()?;
        Ok(Self { held: Some(folder) })
    }

    /// Windows cannot open a folder as a file; there a process's own lock is the only one.
    #[cfg(not(unix))]
    pub fn on_folder(_dir: &Path) -> io::Result<Self> {
        Ok(Self { held: None })
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        if let Some(file) = &self.held {
            let _ = file.unlock();
        }
    }
}

fn open(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each way of taking the lock, against a holder of the same thing: the try refuses while
    /// it is held and takes it once it is dropped.
    #[test]
    fn a_held_lock_keeps_the_next_out_until_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.lock");
        let held = FileLock::on_file(&path).unwrap();
        assert!(FileLock::try_on_file(&path).unwrap().is_none());
        drop(held);
        let again = FileLock::try_on_file(&path).unwrap();
        assert!(again.is_some());
        assert!(FileLock::on_folder(dir.path()).is_ok());
    }

    #[test]
    fn a_lock_in_a_missing_folder_is_not_found() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone").join("a.lock");
        for error in [
            FileLock::on_file(&path).err(),
            FileLock::try_on_file(&path).err(),
        ] {
            assert_eq!(error.map(|e| e.kind()), Some(io::ErrorKind::NotFound));
        }
    }
}
