//! Forcing and clearing one scenario in the overrides file, with names checked against the
//! tool files so that a typo never silently forces nothing: the dashboard's one-click forcing.
//! It writes through [`overrides::set_entry`] and [`overrides::clear`], as `careem-mcp scenario`
//! and `reset` do: one edit at a time, atomic writes, and a file that is not valid is reported,
//! never overwritten.

use std::path::Path;

use super::catalog;
use super::controls::Control;
use super::overrides::{self, OverridesError};

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
    #[error(transparent)]
    Overrides(#[from] OverridesError),
}

/// Forces `tool` into the scenario called `name` (case-insensitively), or back to normal
/// selection when `name` is `None`. Returns the scenario's name as its file spells it.
pub fn force(
    tools_dir: &Path,
    overrides_path: &Path,
    tool: &str,
    name: Option<&str>,
) -> Result<Option<String>, ForceError> {
    let loaded = catalog::load(tools_dir);
    let files: Vec<_> = loaded.tool_files().collect();
    let Some(file) = files.iter().find(|f| f.tool == tool) else {
        return Err(ForceError::UnknownTool {
            tool: tool.to_string(),
            known: files.iter().map(|f| f.tool.clone()).collect(),
        });
    };
    let chosen = match name {
        Some(name) => {
            let Some(scenario) = file
                .scenarios
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(name))
            else {
                return Err(ForceError::UnknownScenario {
                    tool: tool.to_string(),
                    name: name.to_string(),
                    known: file.scenarios.iter().map(|s| s.name.clone()).collect(),
                });
            };
            Some(scenario.name.clone())
        }
        None => None,
    };
    let control = chosen.clone().map(Control::scenario);
    overrides::set_entry(overrides_path, tool, control.as_ref())?;
    Ok(chosen)
}

/// Clears every forced scenario.
pub fn reset(overrides_path: &Path) -> Result<(), OverridesError> {
    overrides::clear(overrides_path)
}
