//! Go's and the Go SDK's ways of writing things, reproduced byte for byte: `fmt`'s verbs, the
//! JSON Schema validator's wording, `encoding/json`'s escaping and its scanner's complaints.
//! Production is a Go service, so every message and every byte a client sees is worded and
//! written as Go writes it. A leaf: it imports nothing from the rest of the crate, and both
//! the engine and the server use it directly.

pub mod fmt;
pub(crate) mod json;
pub(crate) mod syntax;
pub(crate) mod wording;
