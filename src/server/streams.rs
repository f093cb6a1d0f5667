//! Long-lived streams (legacy SSE sessions, standalone GET streams) count against a cap of
//! their own, half the connection cap, so that ordinary requests always find a connection. At
//! the cap the oldest stream is ended to make room: a client that opens streams and never
//! reads them displaces only its own. A displaced stream ends with an error, so that its
//! connection closes with it rather than linger idle in a slot that ordinary requests need.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

#[derive(Debug)]
pub(crate) struct Streams {
    open: Mutex<VecDeque<(u64, CancellationToken)>>,
    next: AtomicU64,
    max: usize,
}

/// One open stream's place, given back when dropped; `ended` is cancelled when the stream is
/// displaced.
#[derive(Debug)]
pub(crate) struct StreamSlot {
    streams: Arc<Streams>,
    number: u64,
    pub(crate) ended: CancellationToken,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.streams
            .open()
            .retain(|(number, _)| *number != self.number);
    }
}

impl Streams {
    /// Streams for a listener of `connections` connections.
    pub(crate) fn new(connections: usize) -> Arc<Self> {
        Arc::new(Self {
            open: Mutex::default(),
            next: AtomicU64::new(0),
            max: (connections / 2).max(1),
        })
    }

    fn open(&self) -> std::sync::MutexGuard<'_, VecDeque<(u64, CancellationToken)>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for a new stream, ending the oldest when all are taken.
    pub(crate) fn take(self: &Arc<Self>) -> StreamSlot {
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        let ended = CancellationToken::new();
        let displaced = {
            let mut open = self.open();
            let displaced = (open.len() >= self.max).then(|| open.pop_front()).flatten();
            open.push_back((number, ended.clone()));
            displaced
        };
        if let Some((_, oldest)) = displaced {
            tracing::warn!("{} streams are open: ending the oldest", self.max);
            oldest.cancel();
        }
        StreamSlot {
            streams: Arc::clone(self),
            number,
            ended,
        }
    }
}

/// What a displaced stream's body ends with: hyper closes the connection on it.
pub(crate) fn displaced() -> std::io::Error {
    std::io::Error::other("a newer stream took this stream's place")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_cap_ends_the_oldest_stream_and_places_come_back() {
        let streams = Streams::new(4);
        let first = streams.take();
        let second = streams.take();
        let third = streams.take();
        assert!(first.ended.is_cancelled(), "the oldest made room");
        assert!(!second.ended.is_cancelled() && !third.ended.is_cancelled());
        drop(second);
        let fourth = streams.take();
        assert!(!third.ended.is_cancelled() && !fourth.ended.is_cancelled());
    }
}
