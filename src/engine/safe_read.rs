//! Reading a file that anyone may have replaced: a tool file or the overrides file can become
//! a FIFO, a device, a symlink to `/dev/zero` or a sparse gigabyte between two calls. Each of
//! those used to block a thread for ever or fill memory, so every such read goes through here:
//! the file is opened without blocking, accepted only when it is a regular file, and read up
//! to a limit.

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
    let (file, metadata) = open_regular(path, limit)?;
    // The size can grow between the `fstat` and the read; `take` holds the limit regardless.
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64, limit));
    }
    Ok(bytes)
}

/// Whether the file at `path` holds exactly `known`, checked as [`read_limited`] would read
/// it. The bytes are compared as they arrive, a chunk at a time on the stack: a file that has
/// not changed, which is what nearly every call finds, costs no allocation of its size (a
/// 35 KB tool file was a heap allocation, grown three times, on every call; one over 128 KiB an
/// `mmap` whose pages the kernel zeroed).
pub fn holds(path: &Path, limit: u64, known: &[u8]) -> io::Result<bool> {
    let (mut file, metadata) = open_regular(path, limit)?;
    if metadata.len() != known.len() as u64 {
        return Ok(false);
    }
    let mut chunk = [0u8; 64 * 1024];
    let mut rest = known;
    loop {
        let read = match file.read(&mut chunk) {
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if read == 0 {
            return Ok(rest.is_empty());
        }
        // Longer than known (it grew since the `fstat`), or different.
        let Some((start, after)) = rest.split_at_checked(read) else {
            return Ok(false);
        };
        if *start != chunk[..read] {
            return Ok(false);
        }
        rest = after;
    }
}

/// The file at `path` opened without blocking, when it is a regular file of at most `limit`
/// bytes, with what `fstat` said of it.
fn open_regular(path: &Path, limit: u64) -> io::Result<(File, std::fs::Metadata)> {
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
    Ok((file, metadata))
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

    #[test]
    fn holds_is_true_only_for_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tool.md");
        // Past one chunk, so that a difference in the second chunk is read to.
        let big: Vec<u8> = (0..150_000u32).map(|i| (i % 251) as u8).collect();
        let mut changed_late = big.clone();
        changed_late[140_000] ^= 1;
        let cases: [(&[u8], &[u8], bool); 6] = [
            (b"same", b"same", true),
            (b"", b"", true),
            (b"same", b"sane", false),
            (b"longer", b"long", false),
            (&big, &big, true),
            (&big, &changed_late, false),
        ];
        for (on_disk, known, expected) in cases {
            std::fs::write(&path, on_disk).unwrap();
            let held = holds(&path, TOOL_FILE_LIMIT, known).unwrap();
            assert_eq!(held, expected, "{} bytes on disk", on_disk.len());
        }
        let refused = holds(dir.path(), TOOL_FILE_LIMIT, b"").unwrap_err();
        assert_eq!(refused.to_string(), "not a regular file (a directory)");
        let too_large = holds(&path, 10, &big).unwrap_err();
        assert_eq!(
            too_large.to_string(),
            "larger than 0 MiB (150000 bytes or more)"
        );
    }
}
