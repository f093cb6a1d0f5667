//! The repository's own tasks, as a library so that the integration tests can hold the world
//! tables to their rules and check that `tools/` is what the generators write.

mod area;
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

/// Every generated tool file of the world as it should be: the ride and location files (the
/// food and cart files answer from `tools/world/` instead); `repo` is where their hand-written
/// heads are read from.
pub fn world(repo: &Path) -> anyhow::Result<Vec<Generated>> {
    rides::files(repo)
}
