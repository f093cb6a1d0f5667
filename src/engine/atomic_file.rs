//! Writing a file so that a reader sees the old bytes or the new ones, never half, for every
//! file the CLI edits in place (the overrides file, tool files that `drift --write` and
//! `record` change): `tempfile`'s temporary file beside the target, synced, persisted (renamed)
//! over it, and the folder synced so that the new name survives a crash as well.

use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically, creating the folder when missing. The file gets the
/// permissions a plain create gives (`0666` less the umask), not the temporary file's `0600`;
/// a temporary file that cannot be persisted is removed.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
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
    file.as_file().sync_all()?;
    file.persist(path).map_err(|error| error.error)?;
    sync_dir(dir)
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

    #[test]
    fn the_file_holds_the_new_bytes_and_no_temporary_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("a.md");
        for text in ["first\n", "second\n"] {
            write(&path, text.as_bytes()).unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["a.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn the_file_gets_a_plain_creates_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (plain, atomic) = (dir.path().join("plain"), dir.path().join("atomic"));
        std::fs::write(&plain, "x").unwrap();
        write(&atomic, b"x").unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode();
        assert_eq!(mode(&atomic), mode(&plain));
    }
}
