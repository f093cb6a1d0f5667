//! The world's data files: `tools/world/*.json` (restaurants, menus, places, products, …),
//! `tools/world/state/*.json` (the seed of what an agent can change: basket, orders, rides;
//! each file holds some of the seed state's keys) and
//! `tools/world/*.jq` (definitions shared by every computed scenario) and
//! `tools/world/rules/*.jq` (jq modules a program loads by name, `modules.rs`). A person edits these;
//! the tool files shape the answers from them (docs/DATA_WORLD.md).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError};
use serde_json::{Map, Value};

use super::locate;
use super::modules::{self, Definitions, Module};
use crate::engine::clip::clip;
use crate::engine::safe_read;
use crate::engine::stamp::Stamp;
use crate::engine::toolfile::diagnostic::Diagnostic;

/// The folder under `tools/` that holds the world.
pub const FOLDER: &str = "world";
/// The folder under the world folder whose files make the seed state.
pub const STATE_FOLDER: &str = "state";
/// The folder under the world folder whose `NAME.json` is the JSON Schema of `NAME.json`, and
/// whose `state/NAME.json` that of `state/NAME.json`.
pub const SCHEMA_FOLDER: &str = "schema";
/// The largest data file read, as for tool files.
const MAX_SIZE: u64 = 8 * 1024 * 1024;

/// Everything in the world folder, read at one moment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorldData {
    /// Each data file's value under its file stem (`restaurants.json` → `restaurants`).
    pub data: Map<String, Value>,
    /// The seed state: the keys of every `state/*.json`, an object; `{}` without them.
    pub seed: Value,
    /// The `*.jq` files' text, in name order, and the modules of `rules/`.
    pub defs: Definitions,
    /// Each `*.jq` file and its text, in the same order.
    pub def_files: Vec<(PathBuf, String)>,
}

/// What identifies the folder's contents without reading them: its files, and each one's
/// [`Stamp`] (`None`: it cannot be had, and the folder is read on every call).
#[derive(Debug, Clone)]
pub struct Fingerprint {
    files: Arc<[PathBuf]>,
    stamps: Vec<Option<Stamp>>,
}

impl Fingerprint {
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }
}

/// Whether a reading of the folder made under `earlier` still stands now: the same files, each
/// vouched for by its stamp (settled and unchanged, as a tool file is).
pub fn vouches(now: &Fingerprint, earlier: &Fingerprint) -> bool {
    (Arc::ptr_eq(&now.files, &earlier.files) || now.files == earlier.files)
        && now.stamps.len() == earlier.stamps.len()
        && now
            .stamps
            .iter()
            .zip(&earlier.stamps)
            .all(|(stamp, earlier)| stamp.is_some_and(|stamp| stamp.vouches_for(earlier.as_ref())))
}

/// The files a fingerprint covers, listed again only when a folder that holds them (or the
/// tools folder, where the world folder may appear) is not vouched for by its stamp: adding,
/// removing or renaming a file changes its folder's time.
#[derive(Debug, Default)]
pub struct Listing(Mutex<Option<Listed>>);

/// The folders' stamps when the files were listed, and the files.
type Listed = (Vec<Option<Stamp>>, Arc<[PathBuf]>);

impl Listing {
    fn files(&self, tools: &Path) -> Arc<[PathBuf]> {
        let folders: Vec<Option<Stamp>> = std::iter::once(tools.to_path_buf())
            .chain(folders(tools))
            .map(|folder| Stamp::of_folder(&folder))
            .collect();
        let mut listed = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((earlier, files)) = &*listed
            && folders.len() == earlier.len()
            && folders.iter().zip(earlier).all(|(now, earlier)| match now {
                Some(now) => now.vouches_for(earlier.as_ref()),
                None => earlier.is_none(),
            })
        {
            return Arc::clone(files);
        }
        let schemas = folder(tools).join(SCHEMA_FOLDER);
        let files: Arc<[PathBuf]> = self::files(tools)
            .into_iter()
            .chain(files_in(&schemas))
            .chain(files_in(&schemas.join(STATE_FOLDER)))
            .collect();
        *listed = Some((folders, Arc::clone(&files)));
        files
    }
}

/// The world folder of the tools folder `tools`.
pub fn folder(tools: &Path) -> PathBuf {
    tools.join(FOLDER)
}

/// The folders that hold the world's files: the world folder, its seed state's, its modules'
/// and its schemas' (the seed state's schemas too).
pub fn folders(tools: &Path) -> [PathBuf; 5] {
    let world = folder(tools);
    let schemas = world.join(SCHEMA_FOLDER);
    [
        world.join(STATE_FOLDER),
        world.join(modules::FOLDER),
        schemas.join(STATE_FOLDER),
        schemas,
        world,
    ]
}

/// The files of the world folder that count, sorted by name: `*.json` and `*.jq`, then the
/// seed state's `state/*.json`, then the modules, `rules/*.jq`.
fn files(tools: &Path) -> Vec<PathBuf> {
    let mut files = files_in(&folder(tools));
    files.extend(files_in(&folder(tools).join(STATE_FOLDER)));
    files.extend(
        files_in(&folder(tools).join(modules::FOLDER))
            .into_iter()
            .filter(|path| is_jq(path)),
    );
    files
}

fn is_jq(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "jq")
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("json" | "jq")
            )
        })
        .collect();
    files.sort();
    files
}

/// The folder's fingerprint now (its schemas too), its files as `listing` has them.
pub fn fingerprint(tools: &Path, listing: &Listing) -> Fingerprint {
    let files = listing.files(tools);
    let stamps = files.iter().map(|path| Stamp::of(path)).collect();
    Fingerprint { files, stamps }
}

/// Reads the world folder of `tools`; every problem is a diagnostic naming the file and line.
/// No folder is an empty world: a project in SPEC's format alone has none.
pub fn load(tools: &Path) -> (WorldData, Vec<Diagnostic>) {
    let mut world = WorldData {
        seed: Value::Object(Map::new()),
        ..WorldData::default()
    };
    let mut diagnostics = Vec::new();
    let mut data = BTreeMap::new();
    for path in files(tools) {
        let text = match safe_read::read_limited(&path, MAX_SIZE)
            .and_then(|bytes| String::from_utf8(bytes).map_err(std::io::Error::other))
        {
            Ok(text) => text,
            Err(error) => {
                diagnostics.push(Diagnostic::new(&path, 1, format!("cannot read: {error}")));
                continue;
            }
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let parent = path.parent().and_then(Path::file_name);
        if is_jq(&path) && parent.is_some_and(|n| n == modules::FOLDER) {
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            world
                .defs
                .modules
                .push(Module::new(name, path.clone(), text));
            continue;
        }
        if is_jq(&path) {
            world.defs.flat.push_str(text);
            world.defs.flat.push('\n');
            world.def_files.push((path.clone(), text.to_string()));
            continue;
        }
        let value = match serde_json::from_str::<Value>(text) {
            Ok(value) => value,
            Err(error) => {
                diagnostics.push(Diagnostic::new(
                    &path,
                    error.line().max(1),
                    format!("not JSON: {error}"),
                ));
                continue;
            }
        };
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let in_state = parent.is_some_and(|n| n == STATE_FOLDER);
        let problems = form_problems(tools, &path, in_state, &stem, text, &value);
        if !problems.is_empty() {
            diagnostics.extend(problems);
            continue;
        }
        if in_state {
            let Value::Object(keys) = value else {
                diagnostics.push(Diagnostic::new(
                    &path,
                    1,
                    "a seed state file must hold a JSON object",
                ));
                continue;
            };
            let Value::Object(seed) = &mut world.seed else {
                unreachable!("the seed starts as an object")
            };
            for (key, value) in keys {
                if seed.contains_key(&key) {
                    diagnostics.push(Diagnostic::new(
                        &path,
                        1,
                        format!("the seed state's `{key}` is given by another state file too"),
                    ));
                }
                seed.insert(key, value);
            }
        } else {
            data.insert(stem, value);
        }
    }
    world.data = data.into_iter().collect();
    (world, diagnostics)
}

/// The entity of the data that a call's `args` name, as a person finds it: its path with its
/// id, its name, and its data file and line (`restaurants[2] (30103) "Smash Yard Burgers" at
/// tools/world/food.json:247`); `None` when no argument names one ([`locate::entity`]).
pub fn entity(tools: &Path, data: &WorldData, args: &Value) -> Option<String> {
    let (stem, pointer) = locate::entity(&data.data, args)?;
    let value = data.data.get(&stem)?;
    let path = folder(tools).join(format!("{stem}.json"));
    let line = safe_read::read_limited(&path, MAX_SIZE)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(|text| locate::line_of(text.strip_prefix('\u{feff}').unwrap_or(&text), &pointer))
        .unwrap_or(1);
    let name = value
        .pointer(&pointer)
        .and_then(locate::name)
        .map(|name| format!(" {}", Value::String(name.to_string())))
        .unwrap_or_default();
    Some(format!(
        "{}{name} at {}:{line}",
        locate::readable(value, &pointer),
        path.display()
    ))
}

/// How the data file `path` (`text`, which parsed as `value`) breaks its form: each key an
/// object gives twice (a JSON reader keeps the last and forgets the first), then each way it
/// breaks its schema, `schema/<stem>.json` (`schema/state/<stem>.json` for a seed state
/// file) when there is one. Each problem is at the line of its field and names it by its
/// path, with the ids of the entities on the way.
fn form_problems(
    tools: &Path,
    path: &Path,
    in_state: bool,
    stem: &str,
    text: &str,
    value: &Value,
) -> Vec<Diagnostic> {
    let mut problems: Vec<Diagnostic> = locate::duplicate_keys(text)
        .into_iter()
        .map(|duplicate| {
            Diagnostic::new(
                path,
                duplicate.line,
                format!(
                    "{}: the key {} is given twice (first at line {}), and only the last would count",
                    locate::readable(value, &duplicate.pointer),
                    Value::String(duplicate.key),
                    duplicate.first_line
                ),
            )
        })
        .collect();
    let mut schema_path = folder(tools).join(SCHEMA_FOLDER);
    if in_state {
        schema_path.push(STATE_FOLDER);
    }
    schema_path.push(format!("{stem}.json"));
    problems.extend(schema_problems(&schema_path, path, text, value));
    problems
}

/// How `value` (the text `text` of the data file `path`) breaks the schema at `schema_path`,
/// when there is one.
fn schema_problems(schema_path: &Path, path: &Path, text: &str, value: &Value) -> Vec<Diagnostic> {
    let Ok(schema_text) = std::fs::read_to_string(schema_path) else {
        return Vec::new();
    };
    // A schema as a Windows editor writes it: a byte-order mark first (CRLF is JSON's space).
    let schema_text = schema_text.strip_prefix('\u{feff}').unwrap_or(&schema_text);
    let schema = match serde_json::from_str::<Value>(schema_text) {
        Ok(schema) => schema,
        Err(error) => {
            return vec![Diagnostic::new(
                schema_path,
                error.line().max(1),
                format!("not JSON: {error}"),
            )];
        }
    };
    let validator = match jsonschema::draft202012::new(&schema) {
        Ok(validator) => validator,
        Err(error) => {
            return vec![Diagnostic::new(
                schema_path,
                1,
                format!("not a valid JSON Schema: {error}"),
            )];
        }
    };
    validator
        .iter_errors(value)
        .map(|error| {
            let mut pointer = error.instance_path().to_string();
            let object = locate::readable(value, &pointer);
            let message = wording(&error);
            // An unknown field is shown where it stands, not at its object.
            if let ValidationErrorKind::AdditionalProperties { unexpected } = error.kind()
                && let Some(first) = unexpected.first()
            {
                pointer.push('/');
                pointer.push_str(&first.replace('~', "~0").replace('/', "~1"));
            }
            let line = locate::line_of(text, &pointer);
            let message = if object.is_empty() {
                message
            } else {
                format!("{object}: {message}")
            };
            Diagnostic::new(path, line, message)
        })
        .collect()
}

/// A schema's complaint as a person editing the data reads it: `"36.5" is not a number`,
/// `the required field "minimumOrder" is missing`, `unknown field "isOpn"`, `"bogo" is not
/// one of "percent-off", "amount-off"`; the validator's own words for the rest.
fn wording(error: &ValidationError<'_>) -> String {
    let shown = |value: &Value| clip(&value.to_string(), 80).into_owned();
    let quoted = |names: &mut dyn Iterator<Item = String>| {
        names
            .map(|name| Value::String(name).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match error.kind() {
        ValidationErrorKind::Type { kind } => {
            let wanted = match kind {
                TypeKind::Single(kind) => a_type(*kind).to_string(),
                TypeKind::Multiple(kinds) => {
                    kinds.iter().map(a_type).collect::<Vec<_>>().join(" or ")
                }
            };
            format!("{} is not {wanted}", shown(error.instance()))
        }
        ValidationErrorKind::Required { property } => {
            format!("the required field {property} is missing")
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let fields = if unexpected.len() == 1 {
                "field"
            } else {
                "fields"
            };
            format!(
                "unknown {fields} {}",
                quoted(&mut unexpected.iter().cloned())
            )
        }
        ValidationErrorKind::Enum { options } => {
            let options = match options.as_ref() {
                Value::Array(options) => options.iter().map(shown).collect::<Vec<_>>().join(", "),
                other => shown(other),
            };
            format!("{} is not one of {options}", shown(error.instance()))
        }
        _ => error.to_string(),
    }
}

/// A JSON type with its article: `a number`, `an object`.
fn a_type(kind: JsonType) -> &'static str {
    match kind {
        JsonType::Array => "an array",
        JsonType::Boolean => "a boolean",
        JsonType::Integer => "an integer",
        JsonType::Null => "null",
        JsonType::Number => "a number",
        JsonType::Object => "an object",
        JsonType::String => "a string",
    }
}
