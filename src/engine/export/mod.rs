//! `careem-mcp export --spec`: the tools folder written as a reader of SPEC §2 alone loads it.
//! Every tool file keeps its frontmatter, its prose and its definition; every scenario is
//! written with SPEC's blocks only (`json match`, `json response`, `json error`): a computed
//! one rendered for its sample arguments on the seed world at the clock's now, its times as
//! `{{now±…}}` placeholders ([`times`]). Nothing that only careem-mcp reads is written: no
//! `tools/world/`, no `jq` or `json sample` blocks.

mod echo;
mod folder;
mod layout;
mod node;
mod scenario;
mod times;

use std::path::{Path, PathBuf};

use chrono::{DateTime, SubsecRound, Utc};

pub use folder::write;
pub use scenario::{ExportedScenario, Selection};

use super::catalog::load::Tool;
use super::run_files::RunFiles;
use super::toolfile::Outcome;
use super::world::ClockFile;
use super::{AnswerError, Diagnostics, Engine, EngineConfig};
use layout::{Part, Section, same_info};

/// The block kinds a tool file may hold that SPEC does not read, or reads in a scenario only:
/// none of them is copied into the prose.
const SCENARIO_BLOCKS: [&str; 9] = [
    "json match",
    "json response",
    "json error",
    "json sample",
    "jq when",
    "jq response",
    "jq error",
    "jq update",
    "jq change",
];

/// The export of a tools folder: one file per tool, made at one instant.
#[derive(Debug, Clone)]
pub struct SpecExport {
    /// The clock's now that computed answers were rendered at.
    pub at: DateTime<Utc>,
    pub files: Vec<ExportedFile>,
}

/// One tool file as SPEC §2 reads it.
#[derive(Debug, Clone)]
pub struct ExportedFile {
    /// The file's path under the tools folder (`food/food_list_orders.md`).
    pub relative: PathBuf,
    pub text: String,
    pub scenarios: Vec<ExportedScenario>,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("the tool files in {} have problems (run `careem-mcp lint`)", .dir.display())]
    Tools {
        dir: PathBuf,
        #[source]
        problems: Diagnostics,
    },
    #[error("cannot read {}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: scenario {scenario:?}: its block is not where the file was parsed; run the export again", .path.display())]
    Unreadable { path: PathBuf, scenario: String },
    #[error("{}: scenario {scenario:?} cannot be computed for its sample arguments", .path.display())]
    Render {
        path: PathBuf,
        scenario: String,
        #[source]
        source: AnswerError,
    },
    #[error(
        "{} is not empty; pass --force to replace its tools/ folder (nothing else in it is touched)",
        .0.display()
    )]
    NotEmpty(PathBuf),
    #[error("{} is not a folder", .0.display())]
    NotAFolder(PathBuf),
    #[error(
        "{} and the tools folder it would export ({}) overlap; export to a folder outside the project",
        .dir.display(),
        .tools.display()
    )]
    Overlaps { dir: PathBuf, tools: PathBuf },
    #[error("cannot write {}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The export of the tools `config` names, at its clock's now (`--clock`, else the run's clock
/// file, else the real time to the second), from the seed world whatever `config.stateful`
/// says: the export has no state.
pub fn spec(mut config: EngineConfig) -> Result<SpecExport, ExportError> {
    let at = config.clock.unwrap_or_else(|| {
        ClockFile::of(&RunFiles::of_overrides(&config.overrides))
            .now()
            .trunc_subsecs(0)
    });
    config.clock = Some(at);
    config.stateful = false;
    let dir = config.tools_dir.clone();
    let engine = Engine::load(config).map_err(|problems| ExportError::Tools {
        dir: dir.clone(),
        problems,
    })?;
    let files = engine
        .tools()
        .map(|tool| export_file(&engine, tool, &dir))
        .collect::<Result<_, _>>()?;
    Ok(SpecExport { at, files })
}

fn export_file(engine: &Engine, tool: &Tool, dir: &Path) -> Result<ExportedFile, ExportError> {
    let read = |source| ExportError::Read {
        path: tool.path.clone(),
        source,
    };
    let raw = std::fs::read_to_string(&tool.path).map_err(read)?;
    let parsed = engine.current_file(tool).map_err(read)?;
    let (frontmatter, sections) = layout::cut(&raw);
    let mut text = frontmatter;
    let mut forced_only = String::new();
    let mut scenarios = Vec::new();
    for section in &sections {
        let Some(name) = section.scenario() else {
            text.push_str(&other_section(section));
            continue;
        };
        let Some(scenario) = parsed
            .file
            .scenarios
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
        else {
            continue;
        };
        let exported = scenario::export(engine, tool, scenario, section)?;
        let written = scenario_section(section, &exported, engine.now());
        if exported.selection == Selection::ForcedOnly {
            forced_only.push_str(&written);
        } else {
            text.push_str(&written);
        }
        scenarios.push(exported);
    }
    text.push_str(&forced_only);
    let text = format!("{}\n", text.trim_end());
    let relative = tool
        .path
        .strip_prefix(dir)
        .unwrap_or(&tool.path)
        .to_path_buf();
    Ok(ExportedFile {
        relative,
        text,
        scenarios,
    })
}

/// A section that is not a scenario, as it was: its fenced blocks indented instead, but for
/// the Definition's `json tool`.
fn other_section(section: &Section) -> String {
    let mut text = heading(section);
    let definition = section.title.as_deref() == Some("Definition");
    let mut kept_tool = false;
    for part in &section.parts {
        match part {
            Part::Prose(prose) => text.push_str(prose),
            Part::Fenced(block)
                if definition && !kept_tool && same_info(&block.info, "json tool") =>
            {
                kept_tool = true;
                text.push_str(&format!("```json tool\n{}```\n", block.content));
            }
            Part::Fenced(block) => push_indented(&mut text, &block.content),
        }
    }
    text
}

/// A scenario's heading, its prose (fenced notes indented), a line on how it was exported,
/// and its SPEC blocks.
fn scenario_section(section: &Section, exported: &ExportedScenario, at: DateTime<Utc>) -> String {
    let mut prose = String::new();
    for part in &section.parts {
        match part {
            Part::Prose(words) => prose.push_str(words),
            Part::Fenced(block)
                if SCENARIO_BLOCKS
                    .iter()
                    .any(|kind| same_info(&block.info, kind)) => {}
            Part::Fenced(block) => push_indented(&mut prose, &block.content),
        }
    }
    let mut text = heading(section);
    text.push('\n');
    for paragraph in [prose.trim().to_string(), note(exported, at)] {
        if !paragraph.is_empty() {
            text.push_str(&paragraph);
            text.push_str("\n\n");
        }
    }
    if let Some(rule) = &exported.rule {
        text.push_str(&format!("```json match\n{rule}\n```\n\n"));
    }
    let kind = match exported.outcome {
        Outcome::Response => "response",
        Outcome::Error => "error",
    };
    text.push_str(&format!("```json {kind}\n{}\n```\n\n", exported.template));
    text
}

/// How the export wrote a scenario, in words, for whoever reads the file.
fn note(exported: &ExportedScenario, at: DateTime<Utc>) -> String {
    let mut sentences = Vec::new();
    if let Some(args) = &exported.rendered_for {
        let times = if exported.fixed_times {
            "its times as they were then"
        } else {
            "its times relative to now"
        };
        sentences.push(format!(
            "Exported: computed on the seed world for `{args}` at {}, {times}.",
            at.format("%Y-%m-%dT%H:%M:%SZ")
        ));
    }
    match exported.selection {
        Selection::AsWritten => {}
        Selection::SampleMatch => {
            sentences.push("Its `jq when` is written as a match of its sample arguments.".into());
        }
        Selection::ForcedOnly => {
            sentences.push("Forced only in the export: its `jq when` has no SPEC form.".into());
        }
    }
    sentences.join(" ")
}

fn heading(section: &Section) -> String {
    section
        .title
        .as_ref()
        .map(|title| format!("## {title}\n"))
        .unwrap_or_default()
}

/// A fenced block's lines as an indented code block, which no SPEC reader takes for a block,
/// after a blank line as Markdown wants.
fn push_indented(text: &mut String, content: &str) {
    if !text.is_empty() && !text.ends_with("\n\n") {
        text.push('\n');
    }
    for line in content.lines() {
        if !line.trim().is_empty() {
            text.push_str("    ");
            text.push_str(line);
        }
        text.push('\n');
    }
}
