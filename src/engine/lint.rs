//! The tool files' problems as `lint` reports them: what parsing and loading found, plus the
//! honesty check of every file that parsed. `careem-mcp lint` adds docs/SOURCE.md on top; the
//! dashboard shows them per file.

use super::catalog::{self, Loaded};
use super::diagnostic::Diagnostic;
use super::{Engine, EngineConfig, honesty};

/// Every file loaded from `config.tools_dir` and every problem in them. `loaded.tools` is
/// moved into the engine the honesty check renders with, so it is empty here.
pub struct Linted {
    pub loaded: Loaded,
    pub problems: Vec<Diagnostic>,
}

pub fn tool_files(config: EngineConfig) -> Linted {
    let mut loaded = catalog::load(&config.tools_dir);
    let mut problems = std::mem::take(&mut loaded.diagnostics);
    let engine = Engine::from_tools(config, std::mem::take(&mut loaded.tools));
    for parsed in loaded.files.iter().filter(|p| p.diagnostics.is_empty()) {
        if let Some(tool) = engine.tool(&parsed.file.tool) {
            problems.extend(honesty::check(&engine, tool, &parsed.file));
        }
    }
    Linted { loaded, problems }
}
