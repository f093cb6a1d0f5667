//! `drift --write`: the tool files brought in line with production. A changed tool gets
//! production's definition in its `## Definition` block, the rest of its file kept byte for
//! byte; a tool new in production gets a file of its own whose one scenario answers as
//! production does when a call fails; a tool production no longer has is listed, never
//! deleted. Every name and path is checked and every file prepared before the first is
//! written, and each is written atomically: a name the loader would skip (`README`) or that
//! cannot be a file name here refuses the whole write, and nothing is written.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::drift::{Drift, Presence, Surface};
use crate::engine::atomic_file;
use crate::engine::catalog;
use crate::engine::check::source_listing;
use crate::engine::output::INTERNAL_ERROR;
use crate::engine::toolfile::ToolFile;

/// What `--write` changed, and what it left for a person to decide.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Written {
    /// Files whose definition was replaced.
    pub rewritten: Vec<PathBuf>,
    /// Files created for tools new in production.
    pub created: Vec<PathBuf>,
    /// Tools production no longer lists, with their files, which stay.
    pub kept: Vec<(String, PathBuf)>,
    /// docs/SOURCE.md, when files were created and the project keeps one.
    pub source_listing: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{}: no ```json tool block after line {line} to replace", path.display())]
    NoDefinition { path: PathBuf, line: usize },
    #[error(
        "production lists tools that cannot have a file here, so nothing was written:{}",
        refused_lines(.0)
    )]
    Refused(Vec<Refused>),
    #[error("{} exists already but does not define tool {tool}", path.display())]
    Occupied { path: PathBuf, tool: String },
    #[error("{} is not a folder, so the file of tool {tool} cannot go in it", path.display())]
    NotAFolder { path: PathBuf, tool: String },
    #[error("cannot read {}", .0.display())]
    Read(PathBuf, #[source] std::io::Error),
    #[error("cannot write {}", .0.display())]
    Write(PathBuf, #[source] std::io::Error),
    #[error(transparent)]
    Listing(#[from] source_listing::WriteError),
}

/// A tool production lists that cannot have a file, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub tool: String,
    pub why: NameProblem,
}

/// Why a tool's name cannot be its file's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameProblem {
    Empty,
    /// Longer than [`NAME_LIMIT`].
    TooLong,
    /// A character other than letters, digits, `_`, `-` and `.`, or a leading `.`.
    Characters,
    /// `README`: the loader skips `README.md`, so the tool would have no file.
    Skipped,
}

impl NameProblem {
    fn words(self) -> String {
        match self {
            Self::Empty => "the name is empty".to_string(),
            Self::TooLong => format!("longer than {NAME_LIMIT} characters"),
            Self::Characters => {
                "only letters, digits, `_`, `-` and `.` (not first) make a file name".to_string()
            }
            Self::Skipped => "its file would be README.md, which the loader skips".to_string(),
        }
    }
}

/// The longest tool name given a file: MCP's own bound on a tool name, well within a file
/// name's 255 bytes with `.md` and the temporary name of an atomic write around it.
pub const NAME_LIMIT: usize = 128;

fn refused_lines(refused: &[Refused]) -> String {
    refused
        .iter()
        .map(|r| {
            let name: String = r.tool.chars().take(60).collect();
            let cut = if name.len() < r.tool.len() {
                format!("… ({} characters)", r.tool.chars().count())
            } else {
                String::new()
            };
            format!("\n  {:?}{cut}: {}", name, r.why.words())
        })
        .collect()
}

/// Applies `drift` to the tool files under `tools_dir`, taking definitions from `production`.
pub fn write(tools_dir: &Path, drift: &Drift, production: &Surface) -> Result<Written, WriteError> {
    let loaded = catalog::load(tools_dir);
    let files: Vec<&ToolFile> = loaded.tool_files().collect();
    let file_of = |tool: &str| files.iter().find(|f| f.tool == tool).copied();
    let mut planned: Vec<(PathBuf, String)> = Vec::new();
    let mut refused = Vec::new();
    let mut written = Written::default();

    for tool in drift.tools(Presence::Changed) {
        let (Some(file), Some(definition)) = (file_of(tool), production.tools.get(tool)) else {
            continue;
        };
        let text = std::fs::read_to_string(&file.path)
            .map_err(|e| WriteError::Read(file.path.clone(), e))?;
        let replaced =
            replace_definition(&text, file.definition_line, definition).ok_or_else(|| {
                WriteError::NoDefinition {
                    path: file.path.clone(),
                    line: file.definition_line,
                }
            })?;
        written.rewritten.push(file.path.clone());
        planned.push((file.path.clone(), replaced));
    }
    for tool in drift.tools(Presence::OnlyInProduction) {
        let Some(definition) = production.tools.get(tool) else {
            continue;
        };
        if let Some(why) = name_problem(tool) {
            refused.push(Refused {
                tool: tool.to_string(),
                why,
            });
            continue;
        }
        let domain = domain_for(tool, &files);
        let folder = files
            .iter()
            .find(|f| f.domain.as_deref() == Some(domain.as_str()))
            .and_then(|f| f.path.parent())
            .map_or_else(|| tools_dir.join(&domain), Path::to_path_buf);
        if folder.exists() && !folder.is_dir() {
            return Err(WriteError::NotAFolder {
                path: folder,
                tool: tool.to_string(),
            });
        }
        let path = folder.join(format!("{tool}.md"));
        if path.exists() {
            return Err(WriteError::Occupied {
                path,
                tool: tool.to_string(),
            });
        }
        written.created.push(path.clone());
        planned.push((path, new_file(tool, &domain, definition)));
    }
    for tool in drift.tools(Presence::OnlyInProject) {
        if let Some(file) = file_of(tool) {
            written.kept.push((tool.to_string(), file.path.clone()));
        }
    }

    if !refused.is_empty() {
        return Err(WriteError::Refused(refused));
    }
    for (path, text) in &planned {
        atomic_file::write(path, text.as_bytes())
            .map_err(|e| WriteError::Write(path.clone(), e))?;
    }
    let root = tools_dir.parent().unwrap_or(Path::new(""));
    if !written.created.is_empty() && root.join("docs").join("SOURCE.md").is_file() {
        let reloaded = catalog::load(tools_dir);
        let files: Vec<&ToolFile> = reloaded.tool_files().collect();
        written.source_listing = Some(source_listing::write(root, &files)?);
    }
    Ok(written)
}

/// `text` with the lines between the ```` ```json tool ```` line `fence_line` (1-based) and its
/// closing fence replaced by `definition`, pretty-printed; every other byte as it was.
fn replace_definition(text: &str, fence_line: usize, definition: &Value) -> Option<String> {
    let mut offset = 0;
    let mut start = None;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let number = index + 1;
        if number == fence_line {
            line.trim_end().starts_with("```json").then_some(())?;
            start = Some(offset + line.len());
        } else if let Some(start) = start
            && line
                .trim_end_matches(['\n', '\r'])
                .strip_prefix("```")
                .is_some_and(|rest| rest.trim_matches([' ', '\t']).is_empty())
        {
            let pretty = house_json(definition);
            return Some(format!("{}{pretty}\n{}", &text[..start], &text[offset..]));
        }
        offset += line.len();
    }
    None
}

/// How wide a line of a definition may grow before an object of plain values is split.
const WIDTH: usize = 120;

/// JSON as the tool files write it: two-space indents, an array of plain values on one line,
/// an object of plain values on one line when the line stays within [`WIDTH`].
fn house_json(value: &Value) -> String {
    let mut out = String::new();
    write_json(value, 0, 0, &mut out);
    out
}

fn write_json(value: &Value, indent: usize, column: usize, out: &mut String) {
    let plain = |v: &Value| !v.is_object() && !v.is_array();
    let key = |k: &String| Value::String(k.clone()).to_string();
    match value {
        Value::Array(items) if items.iter().all(plain) => {
            let items: Vec<String> = items.iter().map(Value::to_string).collect();
            out.push_str(&format!("[{}]", items.join(", ")));
        }
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Object(map) => {
            if map.values().all(plain) {
                let pairs: Vec<String> = map
                    .iter()
                    .map(|(k, v)| format!("{}: {v}", key(k)))
                    .collect();
                let line = format!("{{{}}}", pairs.join(", "));
                if column + line.len() < WIDTH {
                    out.push_str(&line);
                    return;
                }
            }
            out.push_str("{\n");
            let inner = indent + 2;
            for (index, (k, v)) in map.iter().enumerate() {
                let name = format!("{}{}: ", " ".repeat(inner), key(k));
                out.push_str(&name);
                write_json(v, inner, name.len(), out);
                out.push_str(if index + 1 < map.len() { ",\n" } else { "\n" });
            }
            out.push_str(&" ".repeat(indent));
            out.push('}');
        }
        Value::Array(items) => {
            out.push_str("[\n");
            let inner = indent + 2;
            for (index, item) in items.iter().enumerate() {
                out.push_str(&" ".repeat(inner));
                write_json(item, inner, inner, out);
                out.push_str(if index + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&" ".repeat(indent));
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// Why a tool name cannot be a file name that the loader reads, if it cannot: it must be
/// letters, digits, `_`, `-` and `.`, not start with `.`, have at most [`NAME_LIMIT`]
/// characters, and not be `README` (in any case, for file systems that ignore it).
fn name_problem(name: &str) -> Option<NameProblem> {
    if name.is_empty() {
        Some(NameProblem::Empty)
    } else if name.len() > NAME_LIMIT {
        Some(NameProblem::TooLong)
    } else if name.starts_with('.')
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        Some(NameProblem::Characters)
    } else if name.eq_ignore_ascii_case("README") {
        Some(NameProblem::Skipped)
    } else {
        None
    }
}

/// The domain a new tool joins: the one its first word names (`ride_…` → `rides`), else that
/// of the known tool sharing most leading words with it, else its first word.
fn domain_for(tool: &str, files: &[&ToolFile]) -> String {
    let first = tool.split('_').next().unwrap_or(tool);
    let domains = files.iter().filter_map(|f| f.domain.as_deref());
    if let Some(domain) = domains
        .clone()
        .find(|d| d.starts_with(first) || first.starts_with(*d))
    {
        return domain.to_string();
    }
    let shared = |other: &str| {
        tool.split('_')
            .zip(other.split('_'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    files
        .iter()
        .filter_map(|f| Some((shared(&f.tool), f.domain.as_deref()?)))
        .filter(|(words, _)| *words > 0)
        .max_by_key(|(words, _)| *words)
        .map_or_else(|| first.to_string(), |(_, domain)| domain.to_string())
}

/// The file of a tool new in production: its definition and one default scenario answering
/// production's `internal server error`, so that `lint` passes until real scenarios exist.
fn new_file(tool: &str, domain: &str, definition: &Value) -> String {
    let pretty = house_json(definition);
    let error = serde_json::json!({ "error": INTERNAL_ERROR });
    format!(
        "---\ntool: {tool}\ndomain: {domain}\n---\n\n# {tool}\n\n\
         Listed by production and not yet described here: `careem-mcp drift --write` wrote its \
         definition.\n\n\
         ## Flow\n\nTo be written: where the tool sits in the user's journey.\n\n\
         ## Definition\n\n```json tool\n{pretty}\n```\n\n\
         ## Scenario: internal-error\n\n\
         Default: production's answer to a call that fails on its side, until real scenarios \
         are written.\n\n```json error\n{error}\n```\n"
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const FILE: &str = "---\ntool: t\n---\n\n# t\n\n```text\nnot this\n```\n\n## Definition\n\n\
        Some prose.\n\n```json tool\n{\"name\": \"t\",\n  \"inputSchema\": {}}\n```\n\n\
        ## Scenario: s\n\n```json response\n{}\n```\n";

    #[test]
    fn only_the_definition_block_changes() {
        let definition = json!({"name": "t", "description": "new", "inputSchema": {}});
        let line = FILE.lines().position(|l| l == "```json tool").unwrap() + 1;
        let replaced = replace_definition(FILE, line, &definition).unwrap();
        let pretty = house_json(&definition);
        let (before, after) = FILE
            .split_once("{\"name\": \"t\",\n  \"inputSchema\": {}}\n")
            .unwrap();
        assert_eq!(replaced, format!("{before}{pretty}\n{after}"));
        let cases = [(1, None), (line + 1, None), (line, Some(()))];
        for (at, want) in cases {
            assert_eq!(
                replace_definition(FILE, at, &definition).map(|_| ()),
                want,
                "line {at}"
            );
        }
    }

    #[test]
    fn definitions_are_written_in_the_files_own_layout() {
        let long = "x".repeat(90);
        let value = json!({
            "name": "t",
            "inputSchema": {
                "type": "object",
                "properties": {"a": {"type": "string"}, "b": {"type": "string", "description": long}},
                "required": ["a", "b"],
                "none": {}
            },
            "list": [{"k": 1}]
        });
        let want = format!(
            "{{\n  \"name\": \"t\",\n  \"inputSchema\": {{\n    \"type\": \"object\",\n    \"properties\": {{\n      \
             \"a\": {{\"type\": \"string\"}},\n      \"b\": {{\n        \"type\": \"string\",\n        \
             \"description\": \"{long}\"\n      }}\n    }},\n    \"required\": [\"a\", \"b\"],\n    \"none\": {{}}\n  }},\n  \
             \"list\": [\n    {{\"k\": 1}}\n  ]\n}}"
        );
        let written = house_json(&value);
        assert_eq!(written, want);
        assert_eq!(serde_json::from_str::<Value>(&written).unwrap(), value);
    }

    #[test]
    fn names_that_would_leave_the_folder_or_be_skipped_are_refused() {
        let long = "x".repeat(NAME_LIMIT + 1);
        let longest = "x".repeat(NAME_LIMIT);
        let cases = [
            ("ride_rate_trip", None),
            ("a-b.c", None),
            (longest.as_str(), None),
            ("readme_tool", None),
            ("", Some(NameProblem::Empty)),
            ("../x", Some(NameProblem::Characters)),
            (".hidden", Some(NameProblem::Characters)),
            ("a/b", Some(NameProblem::Characters)),
            ("line\nbreak", Some(NameProblem::Characters)),
            (long.as_str(), Some(NameProblem::TooLong)),
            ("README", Some(NameProblem::Skipped)),
            ("ReadMe", Some(NameProblem::Skipped)),
        ];
        for (name, want) in cases {
            assert_eq!(name_problem(name), want, "{name:?}");
        }
    }

    #[test]
    fn a_new_tool_joins_the_domain_its_name_suggests() {
        let file = |tool: &str, domain: &str| ToolFile {
            path: PathBuf::from(format!("tools/{domain}/{tool}.md")),
            tool: tool.to_string(),
            domain: Some(domain.to_string()),
            definition: serde_json::Map::new(),
            definition_line: 1,
            scenarios: Vec::new(),
        };
        let files = [
            file("ride_book", "rides"),
            file("food_place_order", "food"),
            file("get_payment_methods", "account"),
        ];
        let files: Vec<&ToolFile> = files.iter().collect();
        let cases = [
            ("ride_rate_trip", "rides"),
            ("food_reorder", "food"),
            ("get_wallet", "account"),
            ("wallet_top_up", "wallet"),
        ];
        for (tool, want) in cases {
            assert_eq!(domain_for(tool, &files), want, "{tool}");
        }
    }
}
