//! The repository's own tasks, as a library so that the integration tests can hold the world
//! tables to their rules and check that `tools/` is what the generators write.

mod area;
pub mod food;
mod generated;
pub mod rides;

use std::path::{Path, PathBuf};

pub use generated::Generated;

/// The repository's root: the folder above this crate's.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Every generated tool file of the world as it should be, food and cart files first, then
/// ride and location files; `repo` is where their hand-written heads are read from.
pub fn world(repo: &Path) -> anyhow::Result<Vec<Generated>> {
    let mut files = food::files(repo)?;
    files.extend(rides::files(repo)?);
    Ok(files)
}
