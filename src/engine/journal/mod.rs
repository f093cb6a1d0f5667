//! The call journal: its line format and writer, its file on disk, and reading it back.

pub(super) mod clip;
pub(super) mod file;
pub(super) mod read;
pub(super) mod write;
