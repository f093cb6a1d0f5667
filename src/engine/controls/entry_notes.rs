//! What `careem-mcp scenarios` says under its table: each entry of the overrides file in words,
//! and each reason an entry, or a step of one, does nothing.

use super::entries::{Controls, DEFAULT_ENTRY};
use crate::engine::toolfile::parse::ToolFile;

/// One line per entry that applies to the listed tools (all of them, or `only`), and one per
/// problem: an entry that cannot be used, an unknown tool, a scenario name the tool's file does
/// not have (indented under its entry).
pub fn entry_notes(controls: &Controls, files: &[&ToolFile], only: Option<&str>) -> Vec<String> {
    let mut lines = Vec::new();
    for (tool, entry) in controls.entries() {
        if only.is_some_and(|only| only != tool && tool != DEFAULT_ENTRY) {
            continue;
        }
        let label = if tool == DEFAULT_ENTRY {
            "* (every tool)"
        } else {
            tool
        };
        lines.push(format!("{label} → {}", entry.control));
        if tool == DEFAULT_ENTRY || only.is_some() && files.iter().all(|f| f.tool != tool) {
            continue;
        }
        match files.iter().find(|f| f.tool == tool) {
            None if only.is_none() => {
                lines.push(format!("  ignored: there is no tool {tool:?}"));
            }
            None => {}
            Some(file) => {
                for name in entry.control.scenario_names() {
                    if !file
                        .scenarios
                        .iter()
                        .any(|s| s.name.eq_ignore_ascii_case(name))
                    {
                        lines.push(format!(
                            "  {tool} has no scenario {name:?}: normal selection answers that step"
                        ));
                    }
                }
            }
        }
    }
    for problem in &controls.problems {
        if only.is_none_or(|only| only == problem.tool || problem.tool == DEFAULT_ENTRY) {
            lines.push(format!("{} → ignored: {}", problem.tool, problem.message));
        }
    }
    lines
}
