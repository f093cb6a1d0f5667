//! Setting and clearing one entry of the overrides file, with names checked against the tool
//! files so that a typo never silently forces nothing: the dashboard's one-click forcing and
//! its controls row (sequences, delays, faults, rates). It writes through
//! [`overrides::set_entry`] and [`overrides::clear`], as `careem-mcp scenario` and `reset` do:
//! one edit at a time, atomic writes, and a file that is not valid is reported, never
//! overwritten.

use crate::engine::run_files::RunFiles;
use crate::engine::world::{ClockFile, WorldStore};
use std::path::Path;

use serde_json::Value;

use super::entries::{Control, DEFAULT_ENTRY, Step};
use super::overrides::{self, OverridesError};
use crate::engine::catalog;
use crate::engine::toolfile::parse::ToolFile;

#[derive(Debug, thiserror::Error)]
pub enum ForceError {
    #[error("unknown tool {tool:?}")]
    UnknownTool { tool: String, known: Vec<String> },
    #[error("{tool} has no scenario {name:?}")]
    UnknownScenario {
        tool: String,
        name: String,
        known: Vec<String>,
    },
    /// The entry is not one the overrides file can hold (the engine's own parser says why).
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Overrides(#[from] OverridesError),
}

/// The tool file of `tool`, or the error that lists the known tools.
pub fn find_tool<'a>(files: &[&'a ToolFile], tool: &str) -> Result<&'a ToolFile, ForceError> {
    files
        .iter()
        .find(|f| f.tool == tool)
        .copied()
        .ok_or_else(|| ForceError::UnknownTool {
            tool: tool.to_string(),
            known: files.iter().map(|f| f.tool.clone()).collect(),
        })
}

/// The scenario of `file` called `name` (case-insensitively), as its file spells it.
pub fn find_scenario(file: &ToolFile, name: &str) -> Result<String, ForceError> {
    file.scenarios
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
        .map(|s| s.name.clone())
        .ok_or_else(|| ForceError::UnknownScenario {
            tool: file.tool.clone(),
            name: name.to_string(),
            known: file.scenarios.iter().map(|s| s.name.clone()).collect(),
        })
}

/// Checks every scenario `control` names against `file`, spelling each as the file does.
fn check_names(file: &ToolFile, control: &mut Control) -> Result<(), ForceError> {
    for step in std::iter::once(&mut control.each).chain(&mut control.sequence) {
        if let Some(name) = &step.scenario {
            step.scenario = Some(find_scenario(file, name)?);
        }
    }
    Ok(())
}

/// The prefix of a step that fails instead of answering: `fault:http-503`.
const FAULT_STEP: &str = "fault:";

/// `careem-mcp scenario`'s entry for `file`'s tool from the steps typed (scenario names, checked
/// and spelled as the file does, or `fault:KIND`) and the options that apply to every call. One
/// scenario alone forces it on every call; several make a sequence. `None`: nothing to set.
pub fn control_from_steps(
    file: &ToolFile,
    steps: &[String],
    mut each: Step,
) -> Result<Option<Control>, ForceError> {
    let mut steps = steps
        .iter()
        .map(|step| match step.strip_prefix(FAULT_STEP) {
            Some(kind) => Ok(Step::fault(kind.parse().map_err(ForceError::Invalid)?)),
            None => find_scenario(file, step).map(Step::scenario),
        })
        .collect::<Result<Vec<Step>, ForceError>>()?;
    if steps.len() == 1 && steps[0].scenario.is_some() {
        each.scenario = steps.remove(0).scenario;
    }
    let control = Control {
        each,
        sequence: steps,
    };
    Ok((control != Control::default()).then_some(control))
}

/// Forces `tool` into the scenario called `name` (case-insensitively), or back to normal
/// selection when `name` is `None`. Returns the scenario's name as its file spells it.
pub fn force(
    tools_dir: &Path,
    overrides_path: &Path,
    tool: &str,
    name: Option<&str>,
) -> Result<Option<String>, ForceError> {
    let control = write_checked(tools_dir, overrides_path, tool, false, |_| {
        Ok(name.map(Control::scenario))
    })?;
    Ok(control.and_then(|control| control.each.scenario))
}

/// Sets the whole entry of `tool` (or of `"*"`) from its JSON form, as the overrides file holds
/// it; `None`, or an entry that sets nothing, clears it. Returns the entry as written.
pub fn set(
    tools_dir: &Path,
    overrides_path: &Path,
    tool: &str,
    entry: Option<&Value>,
) -> Result<Option<Control>, ForceError> {
    write_checked(tools_dir, overrides_path, tool, true, |_| match entry {
        None | Some(Value::Null) => Ok(None),
        Some(value) => Control::parse(tool, value)
            .map(Some)
            .map_err(ForceError::Invalid),
    })
}

/// `careem-mcp scenario`'s edit: the entry of `tool` from the steps typed and the options that
/// apply to every call (see [`control_from_steps`]), or of `"*"` from the options alone; an
/// entry that sets nothing clears it. Returns the entry as written.
pub fn set_steps(
    tools_dir: &Path,
    overrides_path: &Path,
    tool: &str,
    steps: &[String],
    each: Step,
) -> Result<Option<Control>, ForceError> {
    write_checked(tools_dir, overrides_path, tool, true, |file| match file {
        Some(file) => control_from_steps(file, steps, each),
        None if steps.is_empty() => Ok(Some(Control {
            each,
            sequence: Vec::new(),
        })),
        // `"*"` names no tool, so no scenario either.
        None => Err(ForceError::Invalid(
            "the '*' entry takes a delay, a fault and a rate only: scenario names belong to one \
             tool"
                .to_string(),
        )),
    })
}

/// Writes `tool`'s entry (an entry that sets nothing clears it) once the tool is found among
/// the tool files (`"*"`, where `default_allowed`, reads none) and every scenario the entry
/// names is checked and spelled as the file does. The tool is looked up before the entry is
/// made, so an unknown tool is reported as such whatever the entry.
fn write_checked(
    tools_dir: &Path,
    overrides_path: &Path,
    tool: &str,
    default_allowed: bool,
    entry: impl FnOnce(Option<&ToolFile>) -> Result<Option<Control>, ForceError>,
) -> Result<Option<Control>, ForceError> {
    let loaded;
    let file = if default_allowed && tool == DEFAULT_ENTRY {
        None
    } else {
        loaded = catalog::load(tools_dir);
        let files: Vec<_> = loaded.tool_files().collect();
        Some(find_tool(&files, tool)?)
    };
    let mut control = entry(file)?.filter(|control| *control != Control::default());
    if let (Some(file), Some(control)) = (file, control.as_mut()) {
        check_names(file, control)?;
    }
    overrides::set_entry(overrides_path, tool, control.as_ref())?;
    Ok(control)
}

/// Every tool back to normal selection and every story back to its first step: the overrides
/// file emptied, what stdio servers ended by a fault left for their clients forgotten, the
/// run's world back to its seed and its clock back to the real time.
pub fn reset(run: &RunFiles) -> Result<(), OverridesError> {
    overrides::clear(run.overrides())?;
    super::carried::forget(run)?;
    let store = WorldStore::of(run);
    store.reset().map_err(|source| OverridesError::Write {
        path: store.path().to_path_buf(),
        source,
    })?;
    let clock = ClockFile::of(run);
    clock.set(None).map_err(|source| OverridesError::Write {
        path: clock.path().to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use chrono::Utc;
    use serde_json::json;

    use super::*;
    use crate::engine::controls::carried::CarriedFile;
    use crate::engine::controls::positions::Positions;
    use crate::engine::world::Setting;
    use crate::engine::{ClockFile, WorldStore};

    #[test]
    fn every_room_keeps_a_runs_state_where_its_files_say_and_reset_forgets_it() {
        let dir = tempfile::tempdir().unwrap();
        let files = RunFiles::in_folder(dir.path().join("runs/a"));
        ClockFile::of(&files)
            .set(Some(Setting::Frozen(Utc::now())))
            .unwrap();
        WorldStore::of(&files)
            .update(&json!({}), Utc::now(), |_| {
                Ok::<_, ()>((Some(json!({"n": 1})), ()))
            })
            .unwrap();
        let ended = Positions::default();
        ended.advance_for(None, Some("agent/1"), "t", "e");
        CarriedFile::of(&files).leave("agent/1", &ended.leave(None));
        for path in [
            files.clock(),
            files.world(),
            files.world_lock(),
            files.carried(),
        ] {
            assert!(path.is_file(), "{}", path.display());
        }
        reset(&files).unwrap();
        for path in [files.clock(), files.world(), files.carried()] {
            assert!(!path.exists(), "{} is forgotten", path.display());
        }
        assert_eq!(
            std::fs::read_to_string(files.overrides()).unwrap().trim(),
            "{}"
        );
    }
}
