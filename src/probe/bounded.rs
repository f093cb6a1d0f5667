//! An upstream's event stream read within a bound: the bytes of one event (its lines up to the
//! blank line that ends it) may not pass the bound, so that an endless `endpoint` or `message`
//! event ends the stream instead of growing memory without limit.

use futures::{Stream, StreamExt};

/// Why the bounded stream ended.
#[derive(Debug, thiserror::Error)]
pub enum BoundedError {
    #[error(transparent)]
    Read(#[from] reqwest::Error),
    #[error("an event of more than {}", size_in_words(*.0))]
    TooLarge(usize),
}

/// `bytes` as they come, until an event passes `limit` bytes: then one `TooLarge` error, and
/// the SSE parser that reads this stream stops there.
pub fn events_within<B: AsRef<[u8]>>(
    bytes: impl Stream<Item = Result<B, reqwest::Error>>,
    limit: usize,
) -> impl Stream<Item = Result<B, BoundedError>> {
    let mut counter = EventSize::default();
    bytes.map(move |chunk| {
        let chunk = chunk?;
        if counter.add(chunk.as_ref()) > limit {
            return Err(BoundedError::TooLarge(limit));
        }
        Ok(chunk)
    })
}

/// The size of the event being read: every byte since the blank line that ended the last one.
#[derive(Debug, Default)]
struct EventSize {
    event: usize,
    line: usize,
    after_cr: bool,
}

impl EventSize {
    /// Counts `chunk` and returns the largest size the event reached within it.
    fn add(&mut self, chunk: &[u8]) -> usize {
        let mut largest = self.event;
        for &byte in chunk {
            let after_cr = std::mem::replace(&mut self.after_cr, byte == b'\r');
            if byte == b'\n' && after_cr {
                continue;
            }
            if matches!(byte, b'\n' | b'\r') {
                if self.line == 0 {
                    self.event = 0;
                }
                self.line = 0;
            } else {
                self.line += 1;
                self.event += 1;
                largest = largest.max(self.event);
            }
        }
        largest
    }
}

/// A size as people write it: `8 MiB`, `512 KiB`, or bytes.
pub fn size_in_words(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_counts_its_lines_until_the_blank_line() {
        let cases: [(&[&[u8]], usize); 5] = [
            (&[b"data: abc\n\n"], 9),
            (&[b"data: abc\n\ndata: de\n\n"], 9),
            (&[b"event: x\ndata: abc\n\n"], 17),
            (&[b"data: ab", b"c\r\n\r\ndata: d\r\n"], 9),
            (&[b"data: a\r", b"\ndata: b\n"], 14),
        ];
        for (chunks, want) in cases {
            let mut counter = EventSize::default();
            let largest = chunks.iter().map(|c| counter.add(c)).max().unwrap();
            assert_eq!(largest, want, "{chunks:?}");
        }
    }

    #[test]
    fn sizes_are_written_in_their_largest_whole_unit() {
        let cases = [
            (8 << 20, "8 MiB"),
            (512 << 10, "512 KiB"),
            (1000, "1000 bytes"),
        ];
        for (bytes, want) in cases {
            assert_eq!(size_in_words(bytes), want);
        }
    }
}
