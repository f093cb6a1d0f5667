//! `careem-mcp export --spec DIR`: the tools written as SPEC §2 alone reads them, and what
//! became of their scenarios.

use super::engine_config;
use crate::cli::args::{ExportArgs, GlobalArgs};
use crate::cli::printable::printable;
use crate::cli::{Status, printer};
use crate::engine::ProjectLayout;
use crate::engine::export::{self, Selection, SpecExport};

pub fn run(
    global: &GlobalArgs,
    layout: &ProjectLayout,
    args: &ExportArgs,
) -> anyhow::Result<Status> {
    let config = engine_config(global, layout)?;
    let tools = config.tools_dir.clone();
    let exported = export::spec(config)?;
    let written = export::write(&exported, &args.spec, &tools, args.force)?;
    for file in &exported.files {
        for scenario in file.scenarios.iter().filter(|s| s.fixed_times) {
            eprintln!(
                "{} {}: scenario {:?}: its times could not be written as placeholders; they are fixed at {}",
                printer::yellow("warning:"),
                printable(&file.relative.display().to_string()),
                printable(&scenario.name),
                exported.at.format("%Y-%m-%dT%H:%M:%SZ"),
            );
        }
    }
    printer::out(&summary(&exported, &written.display().to_string()))?;
    Ok(Status::Success)
}

/// What was written, in a few lines.
fn summary(exported: &SpecExport, written: &str) -> String {
    let scenarios: Vec<_> = exported.files.iter().flat_map(|f| &f.scenarios).collect();
    let count = |wanted: &dyn Fn(&&export::ExportedScenario) -> bool| {
        scenarios.iter().filter(|s| wanted(s)).count()
    };
    let rendered = count(&|s| s.rendered_for.is_some());
    let matched = count(&|s| s.selection == Selection::SampleMatch);
    let forced = count(&|s| s.selection == Selection::ForcedOnly);
    format!(
        "wrote {} tool files to {}\n\
         {} scenarios: {} as written, {} computed at {} and written as their values\n\
         {} `jq when` written as a match of the scenario's sample arguments, {} forced only (no `json sample`)",
        exported.files.len(),
        printable(written),
        scenarios.len(),
        scenarios.len() - rendered,
        rendered,
        exported.at.format("%Y-%m-%dT%H:%M:%SZ"),
        matched,
        forced,
    )
}
