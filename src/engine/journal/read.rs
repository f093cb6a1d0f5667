//! Reading the call journal without reading all of it: `calls --last N` from the end, in time
//! and memory that do not grow with the journal, and `calls --follow` that survives the
//! journal being cleared (truncated in place) or rotated (renamed away), and never hands out
//! half a line. The writer is `file.rs`.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::file::rotated_path;
use super::write::{Entry, Gap, Journal};
use crate::engine::safe_read;

/// How much is read at a time, backwards or forwards.
const CHUNK: usize = 64 * 1024;

/// A line longer than this is skipped rather than held: the writer never writes one (it cuts
/// large values), so such a line is not a journal entry.
const MAX_LINE: usize = 16 * 1024 * 1024;

/// The offset just past the file's last complete line: a line still being written is left for
/// a follower to read whole.
pub fn complete_end(file: &mut File) -> io::Result<u64> {
    let len = file.metadata()?.len();
    let mut end = len;
    let mut buf = vec![0; CHUNK];
    while end > 0 {
        let start = end.saturating_sub(CHUNK as u64);
        let chunk = &mut buf[..usize::try_from(end - start).unwrap_or(CHUNK)];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(i) = chunk.iter().rposition(|b| *b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        if len - start > MAX_LINE as u64 {
            return Ok(start);
        }
        end = start;
    }
    Ok(0)
}

/// The last `limit` lines before `end` (every line, when `None`) for which `keep` holds, in
/// file order. Reads backwards a chunk at a time and stops as soon as it has enough; a line
/// longer than [`MAX_LINE`] is skipped without being held.
pub fn last_lines(
    file: &mut File,
    end: u64,
    limit: Option<usize>,
    mut keep: impl FnMut(&[u8]) -> bool,
) -> io::Result<Vec<Vec<u8>>> {
    let mut found = Vec::new();
    let enough = |found: &Vec<Vec<u8>>| limit.is_some_and(|n| found.len() >= n);
    let mut tail = Tail::default();
    let mut pos = end;
    let mut chunk = vec![0; CHUNK];
    while pos > 0 && !enough(&found) {
        let start = pos.saturating_sub(CHUNK as u64);
        let chunk = &mut chunk[..usize::try_from(pos - start).unwrap_or(CHUNK)];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        let mut right = chunk.len();
        while let Some(i) = chunk[..right].iter().rposition(|b| *b == b'\n') {
            if let Some(line) = tail.finish(&chunk[i + 1..right])
                && keep(&line)
            {
                found.push(line);
                if enough(&found) {
                    break;
                }
            }
            right = i;
        }
        if start == 0 {
            if let Some(line) = tail.finish(&chunk[..right])
                && !enough(&found)
                && keep(&line)
            {
                found.push(line);
            }
        } else {
            tail.push(&chunk[..right]);
        }
        pos = start;
    }
    found.reverse();
    Ok(found)
}

/// The pieces of a line gathered while reading backwards, rightmost first.
#[derive(Default)]
struct Tail {
    pieces: Vec<Vec<u8>>,
    len: usize,
    /// The line is longer than [`MAX_LINE`]: its pieces are dropped, not kept.
    overlong: bool,
}

impl Tail {
    fn push(&mut self, piece: &[u8]) {
        self.len += piece.len();
        if self.len > MAX_LINE {
            self.overlong = true;
            self.pieces.clear();
        } else if !piece.is_empty() {
            self.pieces.push(piece.to_vec());
        }
    }

    /// The whole line, `first` being its leftmost piece; `None` when empty or overlong.
    fn finish(&mut self, first: &[u8]) -> Option<Vec<u8>> {
        let overlong = self.overlong || self.len + first.len() > MAX_LINE;
        let mut line = first.to_vec();
        for piece in self.pieces.drain(..).rev() {
            line.extend_from_slice(&piece);
        }
        *self = Self::default();
        (!overlong && !line.is_empty()).then_some(line)
    }
}

/// The journal's latest entries, and where to follow it from: `calls --last N` and `calls
/// --follow`.
pub struct Recent {
    pub entries: Vec<Entry>,
    /// The gaps the writer marked among them, each with the index of the entry it comes
    /// before (`entries.len()`: after the last).
    pub gaps: Vec<(usize, Gap)>,
    /// Whether there is a journal at all (the file or its rotated predecessor): none means no
    /// call was ever journalled there, which is not the same as no calls.
    pub found: bool,
    path: PathBuf,
    /// The journal as it was read, and the end of its last complete line.
    current: Option<(File, u64)>,
}

/// The last `last` entries for which `keep` holds (every one, when `None`), in file order: read
/// from the end of the journal, then of its rotated predecessor, only as far as needed, so a
/// large journal costs no more than a small one. No journal yet is no entries, and not `found`.
pub fn recent(
    path: &Path,
    last: Option<usize>,
    keep: impl Fn(&Entry) -> bool,
) -> io::Result<Recent> {
    // A FIFO or a device at the journal's path is refused, not waited on.
    let current = match safe_read::open_regular(path) {
        Ok(mut file) => {
            let end = complete_end(&mut file)?;
            Some((file, end))
        }
        // A folder in the path that is a file holds no journal either.
        Err(error)
            if matches!(
                error.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            None
        }
        Err(error) => return Err(error),
    };
    let wanted =
        |line: &[u8]| parse(line).is_some_and(|entry| keep(&entry)) || parse_gap(line).is_some();
    let mut lines = match &current {
        Some((file, end)) => last_lines(&mut file.try_clone()?, *end, last, wanted)?,
        None => Vec::new(),
    };
    let more = last.map(|n| n.saturating_sub(lines.len()));
    let found = current.is_some() || rotated_path(path).exists();
    if more != Some(0)
        && let Ok(mut older) = safe_read::open_regular(&rotated_path(path))
    {
        let older_end = complete_end(&mut older)?;
        let mut earlier = last_lines(&mut older, older_end, more, wanted)?;
        earlier.append(&mut lines);
        lines = earlier;
    }
    let (mut entries, mut gaps) = (Vec::new(), Vec::new());
    for line in &lines {
        match parse(line) {
            Some(entry) => entries.push(entry),
            None => gaps.extend(parse_gap(line).map(|gap| (entries.len(), gap))),
        }
    }
    Ok(Recent {
        entries,
        gaps,
        found,
        path: path.to_path_buf(),
        current,
    })
}

/// A journal line as the writer's mark of lines it lost; `None` for a line that is not one.
pub fn parse_gap(line: &[u8]) -> Option<Gap> {
    serde_json::from_slice(line).ok()
}

/// A journal line as an entry; `None` for a line that is not one.
pub fn parse(line: &[u8]) -> Option<Entry> {
    serde_json::from_slice(line).ok()
}

impl Recent {
    /// Follows the journal from just past the entries read. A journal that did not exist is
    /// created, so a follower can start before the server does.
    pub fn follow(self) -> io::Result<Follower> {
        let (file, end) = match self.current {
            Some(current) => current,
            None => {
                drop(Journal::open(&self.path)?);
                (File::open(&self.path)?, 0)
            }
        };
        Ok(Follower::new(&self.path, file, end))
    }
}

/// Empties the journal (`calls --clear`, the dashboard): truncated in place, which keeps a
/// running server's append handle valid, and its rotated predecessor removed.
pub fn clear(path: &Path) -> io::Result<()> {
    if path.exists() {
        std::fs::write(path, b"")?;
    }
    let rotated = rotated_path(path);
    if rotated.exists() {
        std::fs::remove_file(&rotated)?;
    }
    Ok(())
}

/// Follows the journal at a path from a given offset: each [`Follower::poll`] returns the
/// complete lines appended since the last one.
#[derive(Debug)]
pub struct Follower {
    path: PathBuf,
    file: File,
    pos: u64,
    /// The bytes read past the last complete line.
    partial: Vec<u8>,
    /// The last complete line read, to notice a truncation the file has since grown past.
    last: Vec<u8>,
}

impl Follower {
    /// Follows `file`, opened at `path`, from `pos` (an offset just past a line, or 0).
    pub fn new(path: &Path, file: File, pos: u64) -> Self {
        Self {
            path: path.to_path_buf(),
            file,
            pos,
            partial: Vec::new(),
            last: Vec::new(),
        }
    }

    /// The complete lines written since the last poll, across truncation and rotation.
    pub fn poll(&mut self) -> io::Result<Vec<Vec<u8>>> {
        let mut lines = Vec::new();
        if self.replaced() {
            // Rotated or deleted and recreated: the rest of the old file first, then the new
            // one from its start.
            self.read_new(&mut lines)?;
            if let Ok(file) = File::open(&self.path) {
                self.file = file;
                self.restart();
            }
        } else if self.truncated()? {
            self.restart();
        }
        self.read_new(&mut lines)?;
        Ok(lines)
    }

    fn restart(&mut self) {
        self.pos = 0;
        self.partial.clear();
        self.last.clear();
    }

    /// Whether the path now names another file than the one being read.
    #[cfg(unix)]
    fn replaced(&self) -> bool {
        use std::os::unix::fs::MetadataExt;
        let (Ok(now), Ok(ours)) = (std::fs::metadata(&self.path), self.file.metadata()) else {
            return false;
        };
        (now.dev(), now.ino()) != (ours.dev(), ours.ino())
    }

    #[cfg(not(unix))]
    fn replaced(&self) -> bool {
        false
    }

    /// Whether the file was cut since the last poll: shorter than what was read, or the last
    /// line read is no longer where it was (cut, then written past that point again).
    fn truncated(&mut self) -> io::Result<bool> {
        let len = self.file.metadata()?.len();
        let consumed = self.pos - self.partial.len() as u64;
        if len < self.pos {
            return Ok(true);
        }
        if self.last.is_empty() {
            return Ok(false);
        }
        let line_start = consumed - self.last.len() as u64 - 1;
        let mut there = vec![0; self.last.len() + 1];
        self.file.seek(SeekFrom::Start(line_start))?;
        if self.file.read_exact(&mut there).is_err() {
            return Ok(true);
        }
        Ok(there[..self.last.len()] != self.last[..] || there[self.last.len()] != b'\n')
    }

    fn read_new(&mut self, lines: &mut Vec<Vec<u8>>) -> io::Result<()> {
        self.file.seek(SeekFrom::Start(self.pos))?;
        let mut buf = vec![0; CHUNK];
        loop {
            let n = self.file.read(&mut buf)?;
            if n == 0 {
                return Ok(());
            }
            self.pos += n as u64;
            let mut rest = &buf[..n];
            while let Some(i) = rest.iter().position(|b| *b == b'\n') {
                self.partial.extend_from_slice(&rest[..i]);
                rest = &rest[i + 1..];
                let line = std::mem::take(&mut self.partial);
                if !line.is_empty() {
                    self.last.clone_from(&line);
                    lines.push(line);
                }
            }
            if self.partial.len() + rest.len() <= MAX_LINE {
                self.partial.extend_from_slice(rest);
            } else {
                self.partial.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn lines(text: &[&str]) -> Vec<Vec<u8>> {
        text.iter().map(|l| l.as_bytes().to_vec()).collect()
    }

    #[test]
    fn the_last_lines_come_from_the_end_whole_and_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        // Lines of every length around the chunk size, and an unfinished one at the end.
        let mut all = Vec::new();
        let mut text = String::new();
        for i in 0..40 {
            let line = format!("{i}:{}", "x".repeat((i * 7919) % (CHUNK + 100)));
            text.push_str(&line);
            text.push('\n');
            all.push(line);
        }
        text.push_str("{\"half");
        std::fs::write(&path, &text).unwrap();
        let mut file = File::open(&path).unwrap();
        let end = complete_end(&mut file).unwrap();
        assert_eq!(end, text.len() as u64 - 6);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        for n in [0, 1, 5, 39, 40, 100] {
            let got = last_lines(&mut file, end, Some(n), |_| true).unwrap();
            assert_eq!(got, lines(&all[all.len().saturating_sub(n)..]), "{n}");
        }
        let odd: Vec<&str> = all
            .iter()
            .filter(|l| l.as_bytes()[1] % 2 == 1)
            .copied()
            .collect();
        assert_eq!(
            last_lines(&mut file, end, Some(3), |l| l[1] % 2 == 1).unwrap(),
            lines(&odd[odd.len() - 3..])
        );
        assert_eq!(
            last_lines(&mut file, end, None, |_| true).unwrap(),
            lines(&all)
        );
    }

    #[test]
    fn a_follower_sees_whole_lines_across_truncation_and_rotation() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        std::fs::write(&path, "old\n").unwrap();
        let mut follower = Follower::new(&path, File::open(&path).unwrap(), 4);
        let append = |text: &str| {
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .unwrap();
            file.write_all(text.as_bytes()).unwrap();
        };
        append("one\ntw");
        assert_eq!(follower.poll().unwrap(), lines(&["one"]));
        append("o\n");
        assert_eq!(follower.poll().unwrap(), lines(&["two"]));
        // Cleared, then written past the old end before the next poll.
        std::fs::write(&path, "three-is-long\nfour\n").unwrap();
        assert_eq!(follower.poll().unwrap(), lines(&["three-is-long", "four"]));
        // Cleared, then shorter.
        std::fs::write(&path, "5\n").unwrap();
        assert_eq!(follower.poll().unwrap(), lines(&["5"]));
        // Rotated: the rest of the old file, then the new one.
        append("6\n");
        std::fs::rename(&path, rotated_path(&path)).unwrap();
        std::fs::write(&path, "7\n").unwrap();
        assert_eq!(follower.poll().unwrap(), lines(&["6", "7"]));
        assert_eq!(follower.poll().unwrap(), Vec::<Vec<u8>>::new());
    }
}
