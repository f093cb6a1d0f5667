//! `careem-mcp lint`: every problem in every tool file (parse errors, schema errors, honesty
//! failures) and in docs/SOURCE.md: quoted from the file on a terminal, one
//! `path:line: scenario "name": message` line each in a pipe, or JSON.

use std::collections::HashMap;
use std::path::Path;

use anyhow::Context;

use super::engine_config;
use crate::cli::args::{GlobalArgs, LintFormat};
use crate::cli::project::Paths;
use crate::cli::{Status, printer, snippet};
use crate::engine::{
    Diagnostic, Engine, check_honesty, compare_source_listing, load_catalog,
    rewrite_source_listing, source_listing_rows,
};

pub fn run(
    global: &GlobalArgs,
    paths: &Paths,
    write_source: bool,
    format: Option<LintFormat>,
) -> anyhow::Result<Status> {
    let config = engine_config(global, paths)?;
    let mut loaded = load_catalog(&config.tools_dir);
    let mut problems = std::mem::take(&mut loaded.diagnostics);
    let root = config
        .tools_dir
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let engine = Engine::from_tools(config, std::mem::take(&mut loaded.tools));
    for parsed in loaded.files.iter().filter(|p| p.diagnostics.is_empty()) {
        if let Some(tool) = engine.tool(&parsed.file.tool) {
            problems.extend(check_honesty(&engine, tool, &parsed.file));
        }
    }
    let files: Vec<_> = loaded.tool_files().collect();
    let source = root.join("docs").join("SOURCE.md");
    let rows = source_listing_rows(&root, &files);
    if write_source {
        let existing = std::fs::read_to_string(&source).ok();
        if let Some(dir) = source.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        std::fs::write(&source, rewrite_source_listing(existing.as_deref(), &rows))
            .with_context(|| format!("cannot write {}", source.display()))?;
        eprintln!("wrote {}", source.display());
    } else if let Ok(listing) = std::fs::read_to_string(&source) {
        let hint = " (run `careem-mcp lint --write-source`)";
        problems.extend(
            compare_source_listing(&listing, &rows)
                .into_iter()
                .map(|message| Diagnostic::new(&source, 1, message + hint)),
        );
    } else if root.join("docs").is_dir() {
        problems.push(Diagnostic::new(
            &source,
            0,
            "missing: it must list every tool file (run `careem-mcp lint --write-source`)",
        ));
    }

    problems.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    show(&problems, format)?;
    if problems.is_empty() {
        eprintln!(
            "{} {} tool files, no problems",
            printer::green("ok:"),
            files.len()
        );
        Ok(Status::Success)
    } else {
        eprintln!(
            "{} {} problem(s) in {} tool files",
            printer::red("error:"),
            problems.len(),
            files.len()
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
                printer::out(&problem.to_string())?;
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
