//! `careem-mcp scenarios [tool]`: every scenario with its kind, match rule, and whether it is
//! the one forced now.

use anyhow::bail;
use comfy_table::Color;

use crate::cli::project::{self, Paths};
use crate::cli::{Status, printer};
use crate::engine::catalog;
use crate::engine::overrides;
use crate::engine::toolfile::Outcome;

pub fn run(paths: &Paths, only: Option<&str>) -> anyhow::Result<Status> {
    let loaded = catalog::load(paths.tools()?);
    let forced = overrides::read_lenient(&paths.overrides);
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
    for file in files {
        let forced_name = forced.get(&file.tool);
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
            let is_forced = forced_name.is_some_and(|n| n.eq_ignore_ascii_case(&scenario.name));
            table.add_row(vec![
                printer::cell(&file.tool, None),
                printer::cell(&scenario.name, is_forced.then_some(Color::Green)),
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
                printer::cell(if is_forced { "forced" } else { "" }, Some(Color::Green)),
            ]);
        }
    }
    // Which file was read, so that a server reading another one shows at a glance.
    printer::out(&format!("overrides: {}", project::shown(&paths.overrides)))?;
    printer::out(&table.to_string())?;
    Ok(Status::Success)
}
