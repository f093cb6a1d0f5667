//! Writing a file so that a reader sees the old bytes or the new ones, never half, for every
//! file replaced whole (the run's world and clock, the overrides file, the tool files that
//! `drift --write` and `record` change): `tempfile`'s temporary file beside the target, synced,
//! persisted (renamed) over it, and the folder synced so that the new name survives a crash as
//! well. The file gets the mode a plain create gives, so a run's files all read alike.

use std::io::{self, Write};
use std::path::Path;

/// How long a write waits for the disk before it returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// The file's data and metadata (`fsync`), then the folder: a file a person edits through
    /// the CLI.
    Full,
    /// The file's data only (`fdatasync`), then the folder: the run's world, written on every
    /// call that changes it, where the metadata `fsync` adds is the time it costs.
    Data,
    /// Not at all: a file thrown away after use (grading's replay), where a sync per write is
    /// all the cost.
    None,
}

/// Writes `bytes` to `path` atomically and durably ([`Durability::Full`]).
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, bytes, Durability::Full)
}

/// Writes `bytes` to `path` atomically, creating the folder when missing, waiting for the disk
/// as `durability` says. The file gets the permissions a plain create gives (`0666` less the
/// umask), not the temporary file's `0600`; a temporary file that cannot be persisted is
/// removed.
pub fn write_with(path: &Path, bytes: &[u8], durability: Durability) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut file = builder.tempfile_in(dir)?;
    file.write_all(bytes)?;
    match durability {
        Durability::Full => file.as_file().sync_all()?,
        Durability::Data => file.as_file().sync_data()?,
        Durability::None => {}
    }
    file.persist(path).map_err(|error| error.error)?;
    match durability {
        Durability::Full | Durability::Data => sync_dir(dir),
        Durability::None => Ok(()),
    }
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Windows cannot open a folder as a file; its renames are journalled by NTFS.
#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVERY: [Durability; 3] = [Durability::Full, Durability::Data, Durability::None];

    #[test]
    fn the_file_holds_the_new_bytes_and_no_temporary_stays() {
        for durability in EVERY {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("sub").join("a.md");
            for text in ["first\n", "second\n"] {
                write_with(&path, text.as_bytes(), durability).unwrap();
                assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
            }
            let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            assert_eq!(names, ["a.md"], "{durability:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_file_gets_a_plain_creates_permissions() {
        use std::os::unix::fs::PermissionsExt;
        for durability in EVERY {
            let dir = tempfile::tempdir().unwrap();
            let (plain, atomic) = (dir.path().join("plain"), dir.path().join("atomic"));
            std::fs::write(&plain, "x").unwrap();
            write_with(&atomic, b"x", durability).unwrap();
            let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode();
            assert_eq!(mode(&atomic), mode(&plain), "{durability:?}");
        }
    }
}
