//! `careem-mcp lint`: every problem in every tool file (parse errors, schema errors, honesty
//! failures) and in docs/SOURCE.md: quoted from the file on a terminal, one
//! `path:line: scenario "name": message` line each in a pipe, or JSON.

use std::collections::HashMap;
use std::path::Path;

use super::engine_config;
use crate::cli::args::{GlobalArgs, LintFormat};
use crate::cli::printable::printable;
use crate::cli::{Status, printer, snippet};
use crate::engine::{Diagnostic, ProjectLayout, ProjectLint, lint};
use crate::server::{WireProfile, rewritten_fields};

pub fn run(
    global: &GlobalArgs,
    layout: &ProjectLayout,
    write_source: bool,
    format: Option<LintFormat>,
) -> anyhow::Result<Status> {
    let default_sdk = |definition: &serde_json::Map<String, serde_json::Value>| {
        rewritten_fields(definition, WireProfile::default())
    };
    let ProjectLint {
        linted,
        source_written,
        warnings,
    } = lint::project(engine_config(global, layout)?, write_source, &default_sdk)?;
    if let Some(path) = source_written {
        eprintln!("wrote {}", path.display());
    }
    let (problems, files) = (linted.problems, linted.loaded.tool_files().count());
    for warning in &warnings {
        eprintln!(
            "{} {}",
            printer::yellow("warning:"),
            printable(&warning.to_string())
        );
    }
    show(&problems, format)?;
    if problems.is_empty() {
        eprintln!(
            "{} {} tool files, no problems",
            printer::green("ok:"),
            files
        );
        Ok(Status::Success)
    } else {
        eprintln!(
            "{} {} problem(s) in {} tool files",
            printer::red("error:"),
            problems.len(),
            files
        );
        Ok(Status::Findings)
    }
}

fn show(problems: &[Diagnostic], format: Option<LintFormat>) -> anyhow::Result<()> {
    let format = format.unwrap_or(if printer::stdout_is_terminal() {
        LintFormat::Full
    } else {
        LintFormat::Short
    });
    match format {
        LintFormat::Json => printer::out(&serde_json::to_string_pretty(problems)?)?,
        LintFormat::Short => {
            for problem in problems {
                printer::out(&printable(&problem.to_string()))?;
            }
        }
        LintFormat::Full => {
            let mut sources: HashMap<&Path, Option<String>> = HashMap::new();
            for problem in problems {
                let source = sources
                    .entry(&problem.path)
                    .or_insert_with(|| std::fs::read_to_string(&problem.path).ok());
                let colour = printer::stdout_colours();
                printer::out(&snippet::render(problem, source.as_deref(), colour))?;
                printer::out("")?;
            }
        }
    }
    Ok(())
}
