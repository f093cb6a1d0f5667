//! Reading a file that anyone may have replaced: a tool file or the overrides file can become
//! a FIFO, a device, a symlink to `/dev/zero` or a sparse gigabyte between two calls, any of
//! which would block a thread for ever or fill memory. So every such read opens the file
//! without blocking, accepts it only when it is a regular file, and reads up to a limit.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// A tool file larger than this is refused: the biggest shipped one is well under 100 KiB.
pub const TOOL_FILE_LIMIT: u64 = 8 * 1024 * 1024;

/// An overrides file larger than this is refused: a map of every tool to a scenario name is a
/// few KiB.
pub const OVERRIDES_LIMIT: u64 = 1024 * 1024;

/// The file's bytes, when it is a regular file of at most `limit` bytes. Otherwise an error
/// that says why, for the log: `not a regular file (a FIFO)`, `larger than 8 MiB (…)`.
pub fn read_limited(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_nonblocking(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a regular file ({})", kind(&metadata.file_type())),
        ));
    }
    if metadata.len() > limit {
        return Err(too_large(metadata.len(), limit));
    }
    // The size can grow between the `fstat` and the read; `take` holds the limit regardless.
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64, limit));
    }
    Ok(bytes)
}

/// Whether `path` is a regular file of at most `limit` bytes: `Ok(false)` when there is none.
/// It is looked at without being opened, so that a FIFO cannot block the caller; an error says
/// why it is refused, as [`read_limited`]'s do.
pub fn regular_or_absent(path: &Path, limit: u64) -> io::Result<bool> {
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(error) => return Err(error),
    };
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a regular file ({})", kind(&metadata.file_type())),
        ));
    }
    if metadata.len() > limit {
        return Err(too_large(metadata.len(), limit));
    }
    Ok(true)
}

/// `path` opened for reading when it is a regular file, without blocking on a FIFO: a reader
/// that reads on from there (a journal's) takes no limit.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = open_nonblocking(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a regular file ({})", kind(&metadata.file_type())),
        ));
    }
    Ok(file)
}

/// Opening a FIFO for reading blocks until a writer appears; `O_NONBLOCK` makes the open
/// return at once, so the type check above can refuse it. On a regular file the flag changes
/// nothing.
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

fn too_large(size: u64, limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "larger than {} MiB ({size} bytes or more)",
            limit / (1024 * 1024)
        ),
    )
}

fn kind(file_type: &std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (path, limit, the bytes or the error's text)
    type Case<'a> = (&'a Path, u64, Result<&'a [u8], &'a str>);

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small");
        std::fs::write(&small, b"12345").unwrap();
        let cases: [Case; 4] = [
            (&small, 5, Ok(b"12345")),
            (&small, 4, Err("larger than 0 MiB (5 bytes or more)")),
            (dir.path(), 10, Err("not a regular file (a directory)")),
            (
                Path::new("/dev/zero"),
                10,
                Err("not a regular file (a character device)"),
            ),
        ];
        for (path, limit, expected) in cases {
            let got = read_limited(path, limit).map_err(|e| e.to_string());
            match expected {
                Ok(bytes) => assert_eq!(got.unwrap(), bytes, "{}", path.display()),
                Err(text) => assert_eq!(got.unwrap_err(), text, "{}", path.display()),
            }
        }
    }
}
