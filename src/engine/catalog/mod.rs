//! The tools folder: loading it, caching each file's parse, reading files that anyone may
//! have replaced, and where a project keeps its parts.
//!
//! Tool files are parsed once per content ([`ParseCache`]). A call reads the file only when its
//! [`Stamp`] (device, inode, size, modification time) has changed since the last read, or the
//! file is still within the racy window after a write; it parses again only when the bytes
//! differ from the last parse. Edits apply on the next call without a read, let alone a parse,
//! on every call.

pub(super) mod load;
pub(super) mod project;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

pub use load::{Loaded, Tool, load, tool_paths};

use crate::engine::safe_read;
use crate::engine::stamp::Stamp;
use crate::engine::toolfile::{self, Parsed};

/// The loaded tools and the parse cache of their files, as the engine holds them: shared by
/// the engines of every run made from one (a clone shares both).
#[derive(Debug, Clone)]
pub struct Catalog {
    tools: Arc<BTreeMap<String, Tool>>,
    cache: Arc<ParseCache>,
}

impl Catalog {
    /// `tools`, with a parse cache of their files yet empty.
    pub fn new(tools: BTreeMap<String, Tool>) -> Self {
        Self {
            tools: Arc::new(tools),
            cache: Arc::default(),
        }
    }

    /// The advertised tools, sorted by name as production lists them.
    pub fn tools(&self) -> impl ExactSizeIterator<Item = &Tool> {
        self.tools.values()
    }

    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.get(name)
    }

    /// The tool's file as it is on disk now, parsed again when its bytes changed.
    pub fn current_file(&self, tool: &Tool) -> std::io::Result<Arc<Parsed>> {
        self.cache.get(&tool.path)
    }

    /// The tool's file as it is on disk now when it is parsed already; `None` when a parse is
    /// due ([`ParseCache::get_parsed`]).
    pub fn parsed_file(&self, tool: &Tool) -> std::io::Result<Option<Arc<Parsed>>> {
        self.cache.get_parsed(&tool.path)
    }
}

/// A file's bytes as last parsed, what they parsed to, and the file's stamp at its last read.
type Entry = (Arc<[u8]>, Arc<Parsed>, Option<Stamp>);

#[derive(Debug, Default)]
pub struct ParseCache {
    entries: Mutex<HashMap<PathBuf, Entry>>,
}

impl ParseCache {
    /// The file as it is on disk now.
    pub fn get(&self, path: &Path) -> std::io::Result<Arc<Parsed>> {
        let stamp = Stamp::of(path);
        if let Some(parsed) = self.vouched(path, stamp) {
            return Ok(parsed);
        }
        let bytes = safe_read::read_limited(path, safe_read::TOOL_FILE_LIMIT)?;
        if let Some(parsed) = self.parsed(path, &bytes, stamp) {
            return Ok(parsed);
        }
        let parsed = Arc::new(toolfile::parse(path, &String::from_utf8_lossy(&bytes)));
        self.lock().insert(
            path.to_path_buf(),
            (Arc::from(bytes), Arc::clone(&parsed), stamp),
        );
        Ok(parsed)
    }

    /// The file as it is on disk now when it is parsed already, `None` when its bytes changed
    /// since: a read and a comparison, never a parse, which for a large file takes
    /// milliseconds (what an async caller must not spend in place).
    pub fn get_parsed(&self, path: &Path) -> std::io::Result<Option<Arc<Parsed>>> {
        let stamp = Stamp::of(path);
        if let Some(parsed) = self.vouched(path, stamp) {
            return Ok(Some(parsed));
        }
        let bytes = safe_read::read_limited(path, safe_read::TOOL_FILE_LIMIT)?;
        Ok(self.parsed(path, &bytes, stamp))
    }

    /// The last parse of `path`, when the file's stamp now vouches that it has not changed.
    fn vouched(&self, path: &Path, stamp: Option<Stamp>) -> Option<Arc<Parsed>> {
        let stamp = stamp?;
        let entries = self.lock();
        let (_, parsed, earlier) = entries.get(path)?;
        stamp
            .vouches_for(earlier.as_ref())
            .then(|| Arc::clone(parsed))
    }

    /// What `bytes` parsed to, if they are the bytes last parsed for `path`; the entry then
    /// takes `stamp`, the file's stamp before this read.
    fn parsed(&self, path: &Path, bytes: &[u8], stamp: Option<Stamp>) -> Option<Arc<Parsed>> {
        // The comparison runs outside the lock, so that concurrent calls of one tool do not
        // queue behind each other's comparisons.
        let (cached, parsed, _) = self.lock().get(path).cloned()?;
        if *cached != *bytes {
            return None;
        }
        if let Some(entry) = self.lock().get_mut(path)
            && Arc::ptr_eq(&entry.1, &parsed)
        {
            entry.2 = stamp;
        }
        Some(parsed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Entry>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
