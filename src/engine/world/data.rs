//! The world's data files: `tools/world/*.json` (restaurants, menus, places, products, …),
//! `tools/world/state/*.json` (the seed of what an agent can change: basket, orders, rides;
//! each file holds some of the seed state's keys) and
//! `tools/world/*.jq` (definitions shared by every computed scenario). A person edits these;
//! the tool files shape the answers from them (docs/DATA_WORLD.md).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Map, Value};

use super::locate;
use crate::engine::catalog::stamp::Stamp;
use crate::engine::safe_read;
use crate::engine::toolfile::diagnostic::Diagnostic;

/// The folder under `tools/` that holds the world.
pub const FOLDER: &str = "world";
/// The folder under the world folder whose files make the seed state.
pub const STATE_FOLDER: &str = "state";
/// The folder under the world folder whose `NAME.json` is the JSON Schema of `NAME.json`.
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
    /// The `*.jq` files' text, in name order.
    pub defs: String,
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
        let files: Arc<[PathBuf]> = self::files(tools)
            .into_iter()
            .chain(files_in(&folder(tools).join(SCHEMA_FOLDER)))
            .collect();
        *listed = Some((folders, Arc::clone(&files)));
        files
    }
}

/// The world folder of the tools folder `tools`.
pub fn folder(tools: &Path) -> PathBuf {
    tools.join(FOLDER)
}

/// The folders that hold the world's files: the world folder, its seed state's and its
/// schemas'.
pub fn folders(tools: &Path) -> [PathBuf; 3] {
    let world = folder(tools);
    [world.join(STATE_FOLDER), world.join(SCHEMA_FOLDER), world]
}

/// The files of the world folder that count, sorted by name: `*.json` and `*.jq`, then the
/// seed state's `state/*.json`.
fn files(tools: &Path) -> Vec<PathBuf> {
    let mut files = files_in(&folder(tools));
    files.extend(files_in(&folder(tools).join(STATE_FOLDER)));
    files
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
        if path.extension().is_some_and(|e| e == "jq") {
            world.defs.push_str(text);
            world.defs.push('\n');
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
        let in_state = path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == STATE_FOLDER);
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
            diagnostics.extend(schema_problems(tools, &path, &stem, text, &value));
            data.insert(stem, value);
        }
    }
    world.data = data.into_iter().collect();
    (world, diagnostics)
}

/// How `value` (the text `text` of the data file `path`) breaks its schema
/// `schema/<stem>.json`, when there is one: each problem at the line of its field.
fn schema_problems(
    tools: &Path,
    path: &Path,
    stem: &str,
    text: &str,
    value: &Value,
) -> Vec<Diagnostic> {
    let schema_path = folder(tools)
        .join(SCHEMA_FOLDER)
        .join(format!("{stem}.json"));
    let Ok(schema_text) = std::fs::read_to_string(&schema_path) else {
        return Vec::new();
    };
    let schema = match serde_json::from_str::<Value>(&schema_text) {
        Ok(schema) => schema,
        Err(error) => {
            return vec![Diagnostic::new(
                &schema_path,
                error.line().max(1),
                format!("not JSON: {error}"),
            )];
        }
    };
    let validator = match jsonschema::draft202012::new(&schema) {
        Ok(validator) => validator,
        Err(error) => {
            return vec![Diagnostic::new(
                &schema_path,
                1,
                format!("not a valid JSON Schema: {error}"),
            )];
        }
    };
    validator
        .iter_errors(value)
        .map(|error| {
            let pointer = error.instance_path().to_string();
            let field = if pointer.is_empty() { "/" } else { &pointer };
            Diagnostic::new(
                path,
                locate::line_of(text, &pointer),
                format!("{field}: {error}"),
            )
        })
        .collect()
}
