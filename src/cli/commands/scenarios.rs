//! `careem-mcp scenarios [tool]`: every scenario with its kind, match rule, and whether the
//! overrides file forces it now; then every entry of the file (sequences, delays, faults) and
//! the entries that cannot be used, with why.

use anyhow::bail;
use comfy_table::Color;

use crate::cli::project::{self, Paths};
use crate::cli::{Status, printer};
use crate::engine::{
    Control, Controls, DEFAULT_ENTRY, Outcome, ToolFile, load_catalog, read_overrides,
};

use super::scenario::describe;

pub fn run(paths: &Paths, only: Option<&str>) -> anyhow::Result<Status> {
    let loaded = load_catalog(paths.tools()?);
    let controls = Controls::from_overrides(&read_overrides(&paths.overrides));
    let files: Vec<_> = loaded
        .tool_files()
        .filter(|f| only.is_none_or(|t| f.tool == t))
        .collect();
    if let Some(tool) = only
        && files.is_empty()
    {
        let names: Vec<&str> = loaded.tool_files().map(|f| f.tool.as_str()).collect();
        let hint = printer::closest(tool, names.iter().copied())
            .map(|c| format!("; did you mean {c:?}?"))
            .unwrap_or_default();
        bail!("unknown tool {tool:?}{hint}");
    }
    let mut table = printer::table(&["tool", "scenario", "kind", "match", "forced"]);
    for file in &files {
        let control = controls.tool(&file.tool).map(|entry| &entry.control);
        let mut seen_default = false;
        for scenario in &file.scenarios {
            let kind = match (&scenario.rule, scenario.outcome) {
                (None, Outcome::Error) if seen_default => "error (forced only)",
                (_, Outcome::Error) => "error",
                (Some(_), _) => "match",
                (None, _) if seen_default => "forced only",
                (None, _) => "default",
            };
            seen_default |= scenario.rule.is_none();
            let forced = control
                .map(|c| forced_as(c, &scenario.name))
                .unwrap_or_default();
            table.add_row(vec![
                printer::cell(&file.tool, None),
                printer::cell(&scenario.name, (!forced.is_empty()).then_some(Color::Green)),
                printer::cell(
                    kind,
                    (scenario.outcome == Outcome::Error).then_some(Color::Red),
                ),
                printer::cell(
                    scenario
                        .rule
                        .as_ref()
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                    None,
                ),
                printer::cell(forced, Some(Color::Green)),
            ]);
        }
    }
    // Which file was read, so that a server reading another one shows at a glance.
    printer::out(&format!("overrides: {}", project::shown(&paths.overrides)))?;
    printer::out(&table.to_string())?;
    let lines = entry_lines(&controls, &files, only);
    if !lines.is_empty() {
        printer::out("\nentries:")?;
        for line in lines {
            printer::out(&format!("  {line}"))?;
        }
    }
    Ok(Status::Success)
}

/// How the entry forces `scenario`: `forced`, or the steps of the sequence that name it.
fn forced_as(control: &Control, scenario: &str) -> String {
    if control
        .each
        .scenario
        .as_deref()
        .is_some_and(|name| name.eq_ignore_ascii_case(scenario))
    {
        return "forced".to_string();
    }
    let steps: Vec<String> = control
        .sequence
        .iter()
        .enumerate()
        .filter(|(_, step)| {
            step.scenario
                .as_deref()
                .is_some_and(|name| name.eq_ignore_ascii_case(scenario))
        })
        .map(|(index, _)| (index + 1).to_string())
        .collect();
    match steps.len() {
        0 => String::new(),
        1 => format!("step {}", steps[0]),
        _ => format!("steps {}", steps.join(", ")),
    }
}

/// One line per entry that applies to the listed tools, and one per problem: an entry that
/// cannot be used, an unknown tool, a scenario name the tool's file does not have.
fn entry_lines(controls: &Controls, files: &[&ToolFile], only: Option<&str>) -> Vec<String> {
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
        lines.push(format!("{label} → {}", describe(&entry.control)));
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
