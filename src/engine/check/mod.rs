//! Checks of the tool files beyond parsing: lint, the honesty check with its sample and odd
//! arguments, the world lint's calls over the whole data, the source listing, JSON differences
//! and "did you mean".

pub(super) mod diff;
pub(super) mod honesty;
pub mod lint;
pub mod odd_arguments;
pub(super) mod sample;
pub(super) mod source_listing;
pub(super) mod suggest;
pub(super) mod world_calls;
