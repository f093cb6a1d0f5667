//! `careem-mcp scenarios [tool]`: every scenario with its kind, match rule, and whether the
//! overrides file forces it now; then every entry of the file (sequences, delays, faults) and
//! the entries that cannot be used, with why. Read by the admin API's [`listing`], here or
//! through `--server`.

use anyhow::bail;
use comfy_table::Color;
use serde_json::Value;

use super::tools_dir;
use crate::admin::{ScenariosAnswer, listing};
use crate::cli::printable::{clipped, printable};
use crate::cli::{Status, printer};
use crate::engine::ProjectLayout;
use crate::engine::world::blank_directives;

pub fn run(layout: &ProjectLayout, only: Option<&str>) -> anyhow::Result<Status> {
    match listing(tools_dir(layout)?, &layout.overrides, only) {
        Ok(listed) => print(&listed),
        Err(refusal) => bail!("{refusal}"),
    }
}

/// The listing as a person reads it.
pub fn print(listed: &ScenariosAnswer) -> anyhow::Result<Status> {
    let mut table = printer::table(&["tool", "scenario", "kind", "match", "forced"]);
    for tool in &listed.tools {
        for scenario in &tool.scenarios {
            table.add_row(vec![
                printer::cell(printable(&tool.tool), None),
                printer::cell(
                    printable(&scenario.name),
                    (!scenario.forcing.is_empty()).then_some(Color::Green),
                ),
                printer::cell(
                    &scenario.label,
                    scenario.kind.is_error().then_some(Color::Red),
                ),
                printer::cell(
                    matching(scenario.rule.as_ref(), scenario.when.as_deref()),
                    None,
                ),
                printer::cell(printable(&scenario.forcing), Some(Color::Green)),
            ]);
        }
    }
    // Which file was read, so that a server reading another one shows at a glance.
    printer::out(&format!("overrides: {}", printable(&listed.overrides)))?;
    printer::out(&table.to_string())?;
    if !listed.notes.is_empty() {
        printer::out("\nentries:")?;
        for line in &listed.notes {
            printer::out(&format!("  {}", printable(line)))?;
        }
    }
    Ok(Status::Success)
}

/// The longest a `jq when` condition is shown, escapes included.
const WHEN_MAX: usize = 160;

/// What a scenario matches on, escaped for the terminal: its `json match` rule, its `jq when`
/// condition on one line without the modules it loads (`jq when: food_place_refusal != null`),
/// or both; nothing for a scenario chosen when nothing matches.
fn matching(rule: Option<&Value>, when: Option<&str>) -> String {
    let rule = rule.map(|rule| printable(&rule.to_string()).into_owned());
    let when = when.map(|source| {
        let source = blank_directives(source);
        let source = source.split_whitespace().collect::<Vec<_>>().join(" ");
        format!("jq when: {}", clipped(&printable(&source), WHEN_MAX))
    });
    [rule, when]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" and ")
}
