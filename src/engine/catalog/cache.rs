//! Tool files parsed once per content: every call reads the file, but parses it again only
//! when its bytes differ from the last parse, so edits apply on the next call without paying
//! for a parse on every call. Keyed by content, never by modification time.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::safe_read;
use crate::engine::toolfile::{self, Parsed};

/// A file's bytes as last parsed, and what they parsed to.
type Entry = (Arc<[u8]>, Arc<Parsed>);

#[derive(Debug, Default)]
pub struct ParseCache {
    entries: Mutex<HashMap<PathBuf, Entry>>,
}

impl ParseCache {
    /// The file as it is on disk now.
    pub fn get(&self, path: &Path) -> std::io::Result<Arc<Parsed>> {
        let bytes = safe_read::read_limited(path, safe_read::TOOL_FILE_LIMIT)?;
        if let Some(parsed) = self.parsed(path, &bytes) {
            return Ok(parsed);
        }
        let parsed = Arc::new(toolfile::parse(path, &String::from_utf8_lossy(&bytes)));
        self.lock()
            .insert(path.to_path_buf(), (Arc::from(bytes), Arc::clone(&parsed)));
        Ok(parsed)
    }

    /// The file as it is on disk now when it is parsed already, `None` when its bytes changed
    /// since: a read and a comparison, never a parse, which for a large file takes
    /// milliseconds (what an async caller must not spend in place).
    pub fn get_parsed(&self, path: &Path) -> std::io::Result<Option<Arc<Parsed>>> {
        let bytes = safe_read::read_limited(path, safe_read::TOOL_FILE_LIMIT)?;
        Ok(self.parsed(path, &bytes))
    }

    /// What `bytes` parsed to, if they are the bytes last parsed for `path`.
    fn parsed(&self, path: &Path, bytes: &[u8]) -> Option<Arc<Parsed>> {
        // The comparison runs outside the lock, so that concurrent calls of one tool do not
        // queue behind each other's comparisons.
        let (cached, parsed) = self.lock().get(path).cloned()?;
        (*cached == *bytes).then_some(parsed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Entry>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
