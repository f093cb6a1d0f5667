//! Wakes a reader of the journal (`calls --follow`, the dashboard's live view) when the
//! journal's folder changes, instead of looking on a timer: the kernel's file notifications
//! through the `notify` crate, or its polling watcher where those cannot be had (a file system
//! without them, the notification limit reached).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use notify::{Config, Event, PollWatcher, RecommendedWatcher, RecursiveMode, Watcher};

/// How often the polling watcher looks, where notifications cannot be had.
const POLL: Duration = Duration::from_millis(250);

/// A watch on the journal's folder, kept while it is held.
pub struct JournalWatch {
    _watcher: Box<dyn Watcher + Send>,
}

impl std::fmt::Debug for JournalWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JournalWatch").finish_non_exhaustive()
    }
}

impl JournalWatch {
    /// Calls `changed` whenever something in the folder of the journal at `path` changes: a
    /// line appended, the journal cleared, rotated or made. The folder must exist.
    ///
    /// # Errors
    ///
    /// Neither notifications nor the polling watcher can watch the folder.
    pub fn new(path: &Path, changed: impl Fn() + Send + Sync + 'static) -> notify::Result<Self> {
        let folder = path
            .parent()
            .filter(|folder| !folder.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let changed = Arc::new(changed);
        let handler =
            |changed: Arc<dyn Fn() + Send + Sync>| move |_: notify::Result<Event>| changed();
        let notified = RecommendedWatcher::new(handler(changed.clone()), Config::default())
            .and_then(|mut watcher| {
                watcher.watch(folder, RecursiveMode::NonRecursive)?;
                Ok(Box::new(watcher) as Box<dyn Watcher + Send>)
            });
        let watcher = match notified {
            Ok(watcher) => watcher,
            Err(error) => {
                tracing::debug!(
                    "no file notifications for {}: {error}; polling",
                    folder.display()
                );
                let mut watcher =
                    PollWatcher::new(handler(changed), Config::default().with_poll_interval(POLL))?;
                watcher.watch(folder, RecursiveMode::NonRecursive)?;
                Box::new(watcher)
            }
        };
        Ok(Self { _watcher: watcher })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_appended_line_wakes_the_reader() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("calls.jsonl");
        std::fs::write(&path, "").unwrap();
        let (sender, receiver) = std::sync::mpsc::channel();
        let _watch = JournalWatch::new(&path, move || {
            let _ = sender.send(());
        })
        .unwrap();
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        std::io::Write::write_all(&mut file, b"{}\n").unwrap();
        receiver
            .recv_timeout(Duration::from_secs(30))
            .expect("the watch reports the write");
    }
}
