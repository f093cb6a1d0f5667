//! The tools folder: loading it, caching each file's parse, reading files that anyone may
//! have replaced, and where a project keeps its parts.

pub(super) mod cache;
pub(super) mod load;
pub(super) mod project;

pub use load::{Loaded, Tool, load, tool_paths};
