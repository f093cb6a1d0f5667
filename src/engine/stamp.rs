//! What identifies a file's contents without reading them: its device, inode, size and
//! modification time in nanoseconds. A file whose stamp is what it was at the last read is not
//! read again, except within two seconds of its modification time: a write in the same
//! timestamp tick as the last read would leave the stamp unchanged, so such a "racy" file is
//! read and compared by content on every call until it settles (the rule of git's index). A
//! read made while the file was racy vouches for nothing later, since a write after it may hide
//! in the same stamp: the first call after the file settles reads it once more.
//! A rename or a symlink swap changes the inode; an edit in place changes the time or the size.

use std::fs::Metadata;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// How long after its modification a file is still read on every call.
const RACY: Duration = Duration::from_secs(2);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    device: u64,
    inode: u64,
    size: u64,
    modified: Option<SystemTime>,
    /// Whether the file had settled when the stamp was taken: only then can a read made under
    /// it vouch for the file later.
    settled: bool,
}

impl Stamp {
    /// The stamp of the file at `path` now (through a symlink, as a read goes); `None` when it
    /// cannot be had, or the path is not a regular file (the reader then says why).
    pub fn of(path: &Path) -> Option<Self> {
        Self::look(path).ok().flatten()
    }

    /// As [`Stamp::of`], with why there is none: an error (the file is not there, say), or
    /// `Ok(None)` for a path that is not a regular file.
    pub fn look(path: &Path) -> std::io::Result<Option<Self>> {
        let metadata = std::fs::metadata(path)?;
        Ok(metadata.is_file().then(|| Self::from_metadata(&metadata)))
    }

    /// The stamp of the folder at `path`: its time changes when an entry is added to it,
    /// removed from it or renamed in it. `None` when it is not a folder.
    pub fn of_folder(path: &Path) -> Option<Self> {
        let metadata = std::fs::metadata(path).ok()?;
        metadata.is_dir().then(|| Self::from_metadata(&metadata))
    }

    fn from_metadata(metadata: &Metadata) -> Self {
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        let modified = metadata.modified().ok();
        Self {
            device,
            inode,
            size: metadata.len(),
            modified,
            settled: modified
                .and_then(|modified| SystemTime::now().duration_since(modified).ok())
                .is_some_and(|age| age >= RACY),
        }
    }

    /// Whether a read made when the file had the `earlier` stamp still stands now: the same
    /// stamp, taken when the file had been modified long enough ago that no write could hide in
    /// its timestamp.
    pub fn vouches_for(&self, earlier: Option<&Stamp>) -> bool {
        earlier.is_some_and(|earlier| earlier.settled && earlier == self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_vouches_only_for_a_settled_unchanged_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "one").unwrap();
        let fresh = Stamp::of(&path).unwrap();
        assert!(
            !fresh.vouches_for(Some(&fresh)),
            "a file just written is racy"
        );
        let old = SystemTime::now() - Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
        let settled = Stamp::of(&path).unwrap();
        assert!(settled.vouches_for(Some(&settled)));
        assert!(!settled.vouches_for(None));
        assert!(!settled.vouches_for(Some(&fresh)));
        let taken_racy = Stamp {
            settled: false,
            ..settled
        };
        assert!(
            !settled.vouches_for(Some(&taken_racy)),
            "a read made while the file was racy vouches for nothing, even once it settled"
        );
        assert_eq!(Stamp::of(dir.path()), None, "a folder has no stamp");
        assert_eq!(Stamp::of(&dir.path().join("missing")), None);
    }
}
