//! The call journal: its line format and writer, its file on disk, reading it back, and
//! watching it grow.

pub(super) mod file;
pub(super) mod read;
mod watch;
pub(super) mod write;

pub use super::clip::clip;
pub use file::{JournalStatus, cap as open_journals_cap, descriptor_limit, rotated_path};
pub use read::{Follower, Recent, clear, complete_end, last_lines, parse, parse_gap, recent};
pub use watch::JournalWatch;
pub use write::{Entry, Gap, Journal, read};
