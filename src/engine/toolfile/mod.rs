//! Tool files: the parser, the frontmatter, the templates and their placeholders, and the
//! diagnostics a file can earn.

pub(super) mod diagnostic;
pub(super) mod entropy;
pub(super) mod frontmatter;
pub(super) mod parse;
pub(super) mod placeholder;
pub mod scenario_kind;
pub(super) mod template;

pub use parse::{Answer, Outcome, Parsed, Program, Scenario, ToolFile, parse};
