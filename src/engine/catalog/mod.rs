//! The tools folder: loading it, caching each file's parse, reading files that anyone may
//! have replaced, and where a project keeps its parts.

pub(super) mod cache;
pub(super) mod load;
pub(super) mod project;

use std::collections::BTreeMap;
use std::sync::Arc;

pub use load::{Loaded, Tool, load, tool_paths};

use crate::engine::toolfile::Parsed;
use cache::ParseCache;

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
