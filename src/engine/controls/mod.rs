//! The overrides file and what it asks of each tool: forced scenarios, sequences, delays and
//! faults, each call's plan, where each session stands, and what an ended stdio server left
//! for its client's next one.

pub(super) mod carried;
pub(super) mod entries;
pub(super) mod entry_notes;
pub mod force;
pub mod overrides;
pub(super) mod plan;
pub(super) mod positions;
pub(super) mod words;
