//! The out-of-band overrides file (SPEC §6): `{ "<tool>": <entry> }`, read on every call,
//! written atomically by the CLI so that a server never reads half a file. What each entry
//! means is [`super::entries`]'s business; this module reads and writes the file, and the
//! server's reader of it ([`super::plan::OverridesReader`]) parses it with [`parse`].

use std::io;
use std::path::{Path, PathBuf};

use super::entries::{Control, Overrides};
use crate::engine::file_lock::FileLock;
use crate::engine::safe_read;
use crate::engine::{atomic_file, line_ends};

#[derive(Debug, thiserror::Error)]
pub enum OverridesError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{} is not a JSON object of tool names to entries; fix it or run `careem-mcp reset`", path.display())]
    Invalid { path: PathBuf },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    #[error(
        "{} would be {size} bytes, past the {} bytes a server reads (it would ignore the whole \
         file); nothing was written: shorten the sequence or clear other entries",
        path.display(),
        safe_read::OVERRIDES_LIMIT
    )]
    TooLarge { path: PathBuf, size: usize },
}

/// Parses the file's bytes (after a byte-order mark, if any); anything but a JSON object is
/// invalid.
pub fn parse(bytes: &[u8]) -> Option<Overrides> {
    serde_json::from_slice::<Overrides>(line_ends::without_bom(bytes)).ok()
}

/// Whether the file's bytes hold nothing (white space, a byte-order mark): no overrides, not
/// an invalid file.
pub(super) fn is_blank(bytes: &[u8]) -> bool {
    line_ends::without_bom(bytes)
        .iter()
        .all(u8::is_ascii_whitespace)
}

/// The overrides now in force: a missing or invalid file means none.
pub fn read_lenient(path: &Path) -> Overrides {
    read_bytes(path)
        .ok()
        .and_then(|bytes| parse(&bytes))
        .unwrap_or_default()
}

/// The overrides for editing: a missing file is empty, an invalid one is an error, so that the
/// CLI never overwrites what a person wrote by hand.
pub fn read_strict(path: &Path) -> Result<Overrides, OverridesError> {
    match read_bytes(path) {
        Ok(bytes) if is_blank(&bytes) => Ok(Overrides::new()),
        Ok(bytes) => parse(&bytes).ok_or_else(|| OverridesError::Invalid {
            path: path.to_path_buf(),
        }),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Overrides::new()),
        Err(source) => Err(OverridesError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The file's bytes, read as [`safe_read`] allows: a FIFO, a device or a file over 1 MiB is an
/// error rather than a hang or a gigabyte in memory.
pub fn read_bytes(path: &Path) -> io::Result<Vec<u8>> {
    safe_read::read_limited(path, safe_read::OVERRIDES_LIMIT)
}

/// Waits until no other command is editing the overrides file at `path`, then holds it until
/// the lock is dropped: a CLI command holds it while it reads, changes and writes the file, so
/// that two commands at once never lose one's update (without it, a command's write replaces
/// the file another command read a moment before, and its change is gone). The lock is on
/// `.<name>.lock` beside the file ([`FileLock`]). Advisory: the server never takes it (it only
/// reads, and every write is a rename).
pub fn lock_for_edit(path: &Path) -> Result<FileLock, OverridesError> {
    let fail = |source| OverridesError::Write {
        path: path.to_path_buf(),
        source,
    };
    let dir = parent(path);
    std::fs::create_dir_all(dir).map_err(fail)?;
    FileLock::on_file(&dir.join(format!(".{}.lock", file_name(path)))).map_err(fail)
}

/// Puts back `bytes` the file held before, as they were (a person's formatting kept), whole
/// or not at all ([`atomic_file::write`]).
pub fn put_back(path: &Path, bytes: &[u8]) -> io::Result<()> {
    atomic_file::write(path, bytes)
}

fn parent(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Writes the file whole or not at all ([`atomic_file::write`]). A file larger
/// than a server reads ([`safe_read::OVERRIDES_LIMIT`]) is refused and nothing is written.
pub fn write(path: &Path, overrides: &Overrides) -> Result<(), OverridesError> {
    let fail = |source| OverridesError::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut text =
        serde_json::to_string_pretty(overrides).expect("a map of JSON values serialises");
    text.push('\n');
    if u64::try_from(text.len()).map_or(true, |size| size > safe_read::OVERRIDES_LIMIT) {
        return Err(OverridesError::TooLarge {
            path: path.to_path_buf(),
            size: text.len(),
        });
    }
    atomic_file::write(path, text.as_bytes()).map_err(fail)
}

/// Reads the file strictly, lets `change` edit it, and writes it back, holding the edit lock
/// throughout: the one way the CLI (and anything else that edits the file) changes it.
pub fn edit<R>(path: &Path, change: impl FnOnce(&mut Overrides) -> R) -> Result<R, OverridesError> {
    let _editing = lock_for_edit(path)?;
    let mut overrides = read_strict(path)?;
    let result = change(&mut overrides);
    write(path, &overrides)?;
    Ok(result)
}

/// Sets `tool`'s entry (`"*"` for every tool), or clears it with `None`.
pub fn set_entry(path: &Path, tool: &str, control: Option<&Control>) -> Result<(), OverridesError> {
    edit(path, |overrides| match control {
        Some(control) => {
            overrides.insert(tool.to_string(), control.to_value());
        }
        None => {
            overrides.remove(tool);
        }
    })
}

/// Clears every entry.
pub fn clear(path: &Path) -> Result<(), OverridesError> {
    let _editing = lock_for_edit(path)?;
    write(path, &Overrides::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_objects_are_valid() {
        let cases: [(&str, bool); 7] = [
            (r#"{"a": "b"}"#, true),
            ("{}", true),
            (r#"{"a": 1}"#, true),
            (r#"["a"]"#, false),
            (r#"{"a": "b""#, false),
            ("", false),
            ("null", false),
        ];
        for (text, valid) in cases {
            assert_eq!(parse(text.as_bytes()).is_some(), valid, "{text}");
        }
    }
}
