//! Loading the tools folder: every `**/*.md` but `README.md`, parsed and checked, with the
//! schemas compiled once. The tool list is fixed from here on; scenarios are re-read per call.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Map, Value};

use crate::engine::safe_read;
use crate::engine::toolfile::diagnostic::Diagnostic;
use crate::engine::toolfile::{self, Answer, Parsed, Program, Scenario, ToolFile};
use crate::engine::world::{Generation, World};

/// One advertised tool, as loaded at start-up.
#[derive(Debug)]
pub struct Tool {
    pub name: String,
    pub path: PathBuf,
    /// The `json tool` block, key order as in the file.
    pub definition: Map<String, Value>,
    pub input_schema: Value,
    pub input_validator: jsonschema::Validator,
    pub output_validator: Option<jsonschema::Validator>,
}

/// Every parsed file and every problem found in any of them.
pub struct Loaded {
    pub files: Vec<Parsed>,
    pub tools: BTreeMap<String, Tool>,
    pub diagnostics: Vec<Diagnostic>,
    /// The world folder (`tools/world/`) that computed scenarios read, shared with the engines
    /// made from this loading.
    pub world: Arc<World>,
}

impl Loaded {
    /// Every file that names its tool, however broken otherwise.
    pub fn tool_files(&self) -> impl Iterator<Item = &ToolFile> {
        self.files
            .iter()
            .map(|p| &p.file)
            .filter(|f| !f.tool.is_empty())
    }

    /// The scenario names in `tool`'s file, or in every file when `None`.
    pub fn scenario_names<'a>(&'a self, tool: Option<&'a str>) -> impl Iterator<Item = &'a str> {
        self.tool_files()
            .filter(move |file| tool.is_none_or(|tool| file.tool == tool))
            .flat_map(|file| file.scenarios.iter().map(|s| s.name.as_str()))
    }
}

/// The tool files under `dir`, sorted by path.
///
/// Symlinked folders are not entered: a link to `.` or `..` would make the walk endless, and
/// following none is simpler to explain than detecting loops. A symlinked *file* is listed;
/// reading it goes through [`safe_read`] like any other.
pub fn tool_paths(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "md")
                && path.file_name().is_some_and(|n| n != "README.md")
            {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

pub fn load(dir: &Path) -> Loaded {
    let mut files = Vec::new();
    let mut tools = BTreeMap::new();
    let mut diagnostics = Vec::new();
    match tool_paths(dir) {
        Ok(paths) => {
            if paths.is_empty() {
                diagnostics.push(Diagnostic::new(
                    dir,
                    0,
                    "the tools folder holds no tool files (*.md)",
                ));
            }
            for (path, read) in paths.iter().zip(read_all(&paths)) {
                let parsed = match read {
                    Ok(parsed) => parsed,
                    Err(error) => {
                        diagnostics.push(Diagnostic::new(path, 0, format!("cannot read: {error}")));
                        continue;
                    }
                };
                diagnostics.extend(parsed.diagnostics.iter().cloned());
                if let Some(tool) = compile(&parsed, &tools, &mut diagnostics) {
                    tools.insert(tool.name.clone(), tool);
                }
                files.push(parsed);
            }
        }
        Err(error) => diagnostics.push(Diagnostic::new(
            dir,
            0,
            format!("cannot read the tools folder: {error}"),
        )),
    }
    // The world is read once the tool files are, so that their programs are compiled with it,
    // together; its problems come first, as the files' programs depend on it.
    let mut sources: Vec<&str> = files
        .iter()
        .flat_map(|parsed: &Parsed| programs_of(&parsed.file))
        .map(|program| program.source.as_str())
        .collect();
    sources.sort_unstable();
    sources.dedup();
    let (world, world_diagnostics) = World::load(dir, &sources);
    diagnostics.splice(0..0, world_diagnostics);
    if let Ok(generation) = world.current() {
        for parsed in &files {
            diagnostics.extend(check_programs(&parsed.file, &generation));
        }
    }
    Loaded {
        files,
        tools,
        diagnostics,
        world: Arc::new(world),
    }
}

/// Every jq program of `file` compiled against the world's definitions, so that a broken one
/// stops start-up with its file and line (SPEC §2's fail-fast, for computed scenarios).
pub fn check_programs(file: &ToolFile, world: &Generation) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for scenario in &file.scenarios {
        for program in scenario_programs(scenario) {
            if let Err(error) = world.compiles(&program.source) {
                diagnostics.push(
                    Diagnostic::new(&file.path, program.line, format!("jq: {error}"))
                        .in_scenario(&scenario.name),
                );
            }
        }
    }
    diagnostics
}

/// Every jq program of `file`'s scenarios.
fn programs_of(file: &ToolFile) -> impl Iterator<Item = &Program> {
    file.scenarios.iter().flat_map(scenario_programs)
}

/// A scenario's jq programs: its `when`, its computed answer (or change) and its `update`.
fn scenario_programs(scenario: &Scenario) -> impl Iterator<Item = &Program> {
    let answer = match &scenario.answer {
        Answer::Computed(program) | Answer::Change(program) => Some(program),
        Answer::Template(_) => None,
    };
    [scenario.when.as_ref(), answer, scenario.update.as_ref()]
        .into_iter()
        .flatten()
}

/// Every file read and parsed, in the order of `paths`, on as many threads as there are
/// cores: the largest tool files take tens of milliseconds each to parse, and start-up waits for
/// all of them.
fn read_all(paths: &[PathBuf]) -> Vec<std::io::Result<Parsed>> {
    let read = |path: &PathBuf| {
        safe_read::read_limited(path, safe_read::TOOL_FILE_LIMIT)
            .map(|bytes| toolfile::parse(path, &String::from_utf8_lossy(&bytes)))
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(paths.len());
    if threads <= 1 {
        return paths.iter().map(read).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, std::io::Result<Parsed>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(path) = paths.get(index) else {
                            return done;
                        };
                        done.push((index, read(path)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| match worker.join() {
                Ok(done) => done,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    done.sort_by_key(|(index, _)| *index);
    done.into_iter().map(|(_, read)| read).collect()
}

fn compile(
    parsed: &Parsed,
    known: &BTreeMap<String, Tool>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Tool> {
    let file = &parsed.file;
    if file.tool.is_empty() || file.definition.is_empty() {
        return None;
    }
    if let Some(first) = known.get(&file.tool) {
        diagnostics.push(Diagnostic::new(
            &file.path,
            1,
            format!(
                "tool {:?} is already defined in {}",
                file.tool,
                first.path.display()
            ),
        ));
        return None;
    }
    let mut schema = |key: &str| -> Option<Option<jsonschema::Validator>> {
        let Some(schema) = file.definition.get(key) else {
            return Some(None);
        };
        // Answers are held to their `format`s (a `date-time` must be one); arguments are not,
        // as production's validator never checks `format`.
        let compiled = jsonschema::draft202012::options()
            .should_validate_formats(key == "outputSchema")
            .build(schema);
        match compiled {
            Ok(validator) => Some(Some(validator)),
            Err(error) => {
                diagnostics.push(Diagnostic::new(
                    &file.path,
                    file.definition_line,
                    format!("`{key}` is not a valid JSON Schema: {error}"),
                ));
                None
            }
        }
    };
    let input_validator = schema("inputSchema")??;
    let output_validator = schema("outputSchema")?;
    Some(Tool {
        name: file.tool.clone(),
        path: file.path.clone(),
        input_schema: file
            .definition
            .get("inputSchema")
            .cloned()
            .unwrap_or(Value::Null),
        definition: file.definition.clone(),
        input_validator,
        output_validator,
    })
}
