//! Choosing a call's scenario: the match rules, the selection order, and the arguments as
//! production sees them, defaults applied and failures worded as the Go SDK words them.

pub mod arguments;
pub(super) mod selection;
