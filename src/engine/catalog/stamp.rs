//! What identifies a file's contents without reading them: its device, inode, size and
//! modification time in nanoseconds. A file whose stamp is what it was at the last read is not
//! read again, except within two seconds of its modification time: a write in the same
//! timestamp tick as the last read would leave the stamp unchanged, so such a "racy" file is
//! read and compared by content on every call until it settles (the rule of git's index).
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
}

impl Stamp {
    /// The stamp of the file at `path` now (through a symlink, as a read goes); `None` when it
    /// cannot be had, or the path is not a regular file (the reader then says why).
    pub fn of(path: &Path) -> Option<Self> {
        let metadata = std::fs::metadata(path).ok()?;
        metadata.is_file().then(|| Self::from_metadata(&metadata))
    }

    fn from_metadata(metadata: &Metadata) -> Self {
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        Self {
            device,
            inode,
            size: metadata.len(),
            modified: metadata.modified().ok(),
        }
    }

    /// Whether a read made when the file had this stamp still stands now: the same stamp, and
    /// modified long enough ago that no write can hide in its timestamp.
    pub fn vouches_for(&self, earlier: Option<&Stamp>) -> bool {
        let settled = self
            .modified
            .and_then(|modified| SystemTime::now().duration_since(modified).ok())
            .is_some_and(|age| age >= RACY);
        settled && earlier == Some(self)
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
        assert_eq!(Stamp::of(dir.path()), None, "a folder has no stamp");
        assert_eq!(Stamp::of(&dir.path().join("missing")), None);
    }
}
