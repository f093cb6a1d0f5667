//! The overrides file and what it asks of each tool: forced scenarios, sequences, delays and
//! faults, each call's plan, and where each session stands.

pub(super) mod entries;
pub(super) mod entry_notes;
pub mod force;
pub mod overrides;
pub(super) mod plan;
pub(super) mod positions;
pub(super) mod words;
