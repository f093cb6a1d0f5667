//! The repository's own tasks, as a library so that the integration tests can hold the world
//! tables to their rules and check that `tools/` is what the generators write.

mod area;
pub mod food;
mod generated;

use std::path::{Path, PathBuf};

pub use generated::Generated;

/// The repository's root: the folder above this crate's.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Every generated tool file of the world as it should be (the food and cart files); `repo` is
/// where their hand-written heads are read from. The ride, location and account files are data
/// in `tools/world/` and computed scenarios instead.
pub fn world(repo: &Path) -> anyhow::Result<Vec<Generated>> {
    food::files(repo)
}
