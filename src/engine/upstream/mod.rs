//! Staying true to production: what it advertises against the project (`drift`), the tool
//! files brought in line with it, and its answers written as scenarios (`record`), each file
//! written whole or not at all.

pub(super) mod atomic_file;
pub(super) mod drift;
pub(super) mod drift_write;
pub(super) mod recording;
