//! `careem-mcp scenarios [tool]`: every scenario with its kind, match rule, and whether the
//! overrides file forces it now; then every entry of the file (sequences, delays, faults) and
//! the entries that cannot be used, with why.

use anyhow::bail;
use comfy_table::Color;

use super::tools_dir;
use crate::cli::printable::{clipped, printable};
use crate::cli::{Status, printer};
use crate::engine::{
    Controls, ProjectLayout, Scenario, absolute, catalog, did_you_mean, entry_notes, overrides,
    scenario_kind,
};

pub fn run(layout: &ProjectLayout, only: Option<&str>) -> anyhow::Result<Status> {
    let loaded = catalog::load(tools_dir(layout)?);
    let controls = Controls::from_overrides(&overrides::read_lenient(&layout.overrides));
    let files: Vec<_> = loaded
        .tool_files()
        .filter(|f| only.is_none_or(|t| f.tool == t))
        .collect();
    if let Some(tool) = only
        && files.is_empty()
    {
        let hint = did_you_mean(tool, loaded.tool_files().map(|f| f.tool.as_str()));
        bail!("unknown tool {tool:?}{hint}");
    }
    let mut table = printer::table(&["tool", "scenario", "kind", "match", "forced"]);
    for file in &files {
        let control = controls.tool(&file.tool).map(|entry| &entry.control);
        for (scenario, kind) in scenario_kind::kinds(&file.scenarios) {
            let forced = control
                .map(|c| c.forcing(&scenario.name).to_string())
                .unwrap_or_default();
            table.add_row(vec![
                printer::cell(printable(&file.tool), None),
                printer::cell(
                    printable(&scenario.name),
                    (!forced.is_empty()).then_some(Color::Green),
                ),
                printer::cell(kind.label(), kind.is_error().then_some(Color::Red)),
                printer::cell(matching(scenario), None),
                printer::cell(printable(&forced), Some(Color::Green)),
            ]);
        }
    }
    // Which file was read, so that a server reading another one shows at a glance.
    printer::out(&format!(
        "overrides: {}",
        printable(&absolute(&layout.overrides).display().to_string())
    ))?;
    printer::out(&table.to_string())?;
    let lines = entry_notes(&controls, &files, only);
    if !lines.is_empty() {
        printer::out("\nentries:")?;
        for line in lines {
            printer::out(&format!("  {}", printable(&line)))?;
        }
    }
    Ok(Status::Success)
}

/// The longest a `jq when` condition is shown, escapes included.
const WHEN_MAX: usize = 160;

/// What a scenario matches on, escaped for the terminal: its `json match` rule, its `jq when`
/// condition on one line (`jq when: food_place_refusal != null`), or both; nothing for a
/// scenario chosen when nothing matches.
fn matching(scenario: &Scenario) -> String {
    let rule = scenario
        .rule
        .as_ref()
        .map(|rule| printable(&rule.to_string()).into_owned());
    let when = scenario.when.as_ref().map(|when| {
        let source = when.source.split_whitespace().collect::<Vec<_>>().join(" ");
        format!("jq when: {}", clipped(&printable(&source), WHEN_MAX))
    });
    [rule, when]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" and ")
}
