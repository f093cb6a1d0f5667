//! The journals of this process that hold a file open, at most [`cap`] at once: each run has a
//! journal, and a server with a thousand runs in use would otherwise hold a thousand files
//! open, past a `ulimit -n` of 1024 together with its connections. Past the cap the journal
//! used least recently closes its file (said once on stderr); its next line opens it again,
//! so no line is lost.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex, PoisonError, Weak};

/// What a journal's file slot must let the budget do: close it when it is not in use.
pub(super) trait Closable: Send + Sync {
    /// Closes the file unless a line is being written now; whether it closed.
    fn close_if_idle(&self) -> bool;
}

/// How many journal files may be open at once: a sixteenth of the file-descriptor limit
/// (64 of 1024), between 16 and 4,096. `serve` keeps as many more free beside its connections.
pub fn cap() -> usize {
    static CAP: LazyLock<usize> = LazyLock::new(|| {
        let fits = descriptor_limit().map_or(4096, |limit| limit / 16);
        usize::try_from(fits.clamp(16, 4096)).unwrap_or(4096)
    });
    *CAP
}

struct Entry {
    last_used: u64,
    slot: Weak<dyn Closable>,
}

#[derive(Default)]
pub(super) struct OpenFiles {
    open: Mutex<HashMap<u64, Entry>>,
    next_id: AtomicU64,
    clock: AtomicU64,
    warned: AtomicBool,
}

/// The one budget of this process.
pub(super) static OPEN_FILES: LazyLock<OpenFiles> = LazyLock::new(OpenFiles::default);

impl OpenFiles {
    /// A new journal's number.
    pub(super) fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Journal `id` opened its file: counted, and past the cap the one used least recently
    /// (and not writing now) closes its own. The caller may hold its own slot: other slots
    /// are only tried, never waited for.
    pub(super) fn opened(&self, id: u64, slot: Weak<dyn Closable>, cap: usize) {
        let last_used = self.clock.fetch_add(1, Ordering::Relaxed);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.insert(id, Entry { last_used, slot });
        if open.len() <= cap {
            return;
        }
        if !self.warned.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                "{cap} journals are open, as many as the file-descriptor limit leaves room for: \
                 the one used least recently is closed and opened again at its next line"
            );
        }
        let mut oldest: Vec<(u64, u64)> = open
            .iter()
            .filter(|(other, _)| **other != id)
            .map(|(other, entry)| (entry.last_used, *other))
            .collect();
        oldest.sort_unstable();
        for (_, other) in oldest {
            let closed = open
                .get(&other)
                .is_none_or(|entry| entry.slot.upgrade().is_none_or(|slot| slot.close_if_idle()));
            if closed {
                open.remove(&other);
                if open.len() <= cap {
                    return;
                }
            }
        }
    }

    /// Journal `id` wrote a line.
    pub(super) fn used(&self, id: u64) {
        let now = self.clock.fetch_add(1, Ordering::Relaxed);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = open.get_mut(&id) {
            entry.last_used = now;
        }
    }

    /// Journal `id` closed its file, or is gone.
    pub(super) fn closed(&self, id: u64) {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id);
    }
}

/// This process's limit on open file descriptors (`ulimit -n`), when it has one.
#[cfg(unix)]
pub fn descriptor_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` only writes the struct it is given, which lives for the call.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) };
    (read == 0 && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

#[cfg(not(unix))]
pub fn descriptor_limit() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use super::*;

    #[derive(Default)]
    struct File {
        open: AtomicBool,
        busy: AtomicBool,
    }

    impl Closable for File {
        fn close_if_idle(&self) -> bool {
            if self.busy.load(Ordering::Relaxed) {
                return false;
            }
            self.open.store(false, Ordering::Relaxed);
            true
        }
    }

    #[test]
    fn past_the_cap_the_file_used_least_recently_and_idle_closes() {
        let budget = OpenFiles::default();
        let files: Vec<Arc<File>> = (0..4).map(|_| Arc::default()).collect();
        let open = |n: usize| {
            files[n].open.store(true, Ordering::Relaxed);
            let file: Arc<dyn Closable> = files[n].clone();
            budget.opened(n as u64, Arc::downgrade(&file), 2);
        };
        open(0);
        open(1);
        budget.used(0);
        open(2);
        assert!(
            !files[1].open.load(Ordering::Relaxed),
            "1 was used least recently"
        );
        files[0].busy.store(true, Ordering::Relaxed);
        open(3);
        assert!(
            files[0].open.load(Ordering::Relaxed),
            "0 is writing: left open"
        );
        assert!(!files[2].open.load(Ordering::Relaxed), "2 closed instead");
    }
}
