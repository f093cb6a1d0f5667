//! The tool files' problems as `lint` reports them: what parsing and loading found, plus the
//! honesty check of every file that parsed. `careem-mcp lint` adds the world lint (every call
//! of the world's `lint/calls.jq`) and docs/SOURCE.md on top; the dashboard shows them per
//! file.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use super::source_listing::{self, WriteError};
use super::{honesty, world_calls};
use crate::engine::catalog::{self, Loaded};
use crate::engine::toolfile::diagnostic::Diagnostic;
use crate::engine::toolfile::parse::ToolFile;
use crate::engine::world;
use crate::engine::{Engine, EngineConfig};

/// Every file loaded from `config.tools_dir` and every problem in them. `loaded.tools` is
/// moved into the engine the honesty check renders with, so it is empty here.
pub struct Linted {
    pub loaded: Loaded,
    pub problems: Vec<Diagnostic>,
}

pub fn tool_files(config: EngineConfig) -> Linted {
    checked(config).0
}

/// [`tool_files`], the engine the honesty check rendered with, and the files that loaded with
/// a problem of their own (one their parse found, a program that does not compile, a schema
/// that is not one): each is reported by that problem alone, not again by every answer the
/// honesty check or the world's calls would compute from it.
fn checked(config: EngineConfig) -> (Linted, Engine, HashSet<PathBuf>) {
    let mut loaded = catalog::load(&config.tools_dir);
    let mut problems = std::mem::take(&mut loaded.diagnostics);
    let troubled: HashSet<PathBuf> = problems.iter().map(|p| p.path.clone()).collect();
    let engine = Engine::from_loaded(
        config,
        std::mem::take(&mut loaded.tools),
        Arc::clone(&loaded.world),
    );
    // A world that cannot be read is reported once, by its files, not again by every scenario
    // that reads it.
    let world_read = engine.world().is_ok();
    for parsed in loaded
        .files
        .iter()
        .filter(|p| !troubled.contains(&p.file.path))
    {
        if !world_read && world::uses_world(&parsed.file) {
            continue;
        }
        if let Some(tool) = engine.tool(&parsed.file.tool) {
            problems.extend(honesty::check(&engine, tool, &parsed.file));
        }
    }
    (Linted { loaded, problems }, engine, troubled)
}

/// What `careem-mcp lint` reports: the tool files' problems and docs/SOURCE.md's, sorted by
/// place, and the listing's path when it was rewritten instead of checked.
pub struct ProjectLint {
    pub linted: Linted,
    pub source_written: Option<PathBuf>,
    /// What is not wrong but will surprise: fields of a definition the server's SDK sends
    /// otherwise than they are written.
    pub warnings: Vec<Diagnostic>,
}

/// Says, for a tool's definition, each field the server would send otherwise than written (the
/// server knows its SDK; the engine only places the warning in the file).
pub type Rewrites<'a> = &'a dyn Fn(&Map<String, Value>) -> Vec<String>;

pub fn project(
    config: EngineConfig,
    write_source: bool,
    rewrites: Rewrites<'_>,
) -> Result<ProjectLint, WriteError> {
    let root = config
        .tools_dir
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let (mut linted, engine, troubled) = checked(config);
    let parsed: BTreeMap<&str, &ToolFile> = linted
        .loaded
        .files
        .iter()
        .filter(|p| !troubled.contains(&p.file.path))
        .map(|p| (p.file.tool.as_str(), &p.file))
        .collect();
    let world_problems = world_calls::check(&engine, &parsed);
    linted.problems.extend(world_problems);
    let files: Vec<_> = linted.loaded.tool_files().collect();
    let mut source_written = None;
    if write_source {
        source_written = Some(source_listing::write(&root, &files)?);
    } else {
        let problems = source_listing::check(&root, &files);
        linted.problems.extend(problems);
    }
    linted
        .problems
        .sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    let warnings = linted
        .loaded
        .tool_files()
        .flat_map(|file| {
            rewrites(&file.definition)
                .into_iter()
                .map(|message| Diagnostic::new(&file.path, file.definition_line, message))
        })
        .collect();
    Ok(ProjectLint {
        linted,
        source_written,
        warnings,
    })
}
