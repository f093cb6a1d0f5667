//! `docs/SOURCE.md`: the list of tool files with their domains and scenarios, which SPEC §7's
//! `N` counts. `lint` compares it with the files; `lint --write-source` rewrites its table.

use std::path::{Path, PathBuf};

use crate::engine::toolfile::diagnostic::Diagnostic;
use crate::engine::toolfile::parse::ToolFile;

const BEGIN: &str = "<!-- tool files: begin (careem-mcp lint --write-source) -->";
const END: &str = "<!-- tool files: end -->";

/// The listing could not be written; the message names the path, the source says why.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("cannot create {}", .0.display())]
    Folder(PathBuf, #[source] std::io::Error),
    #[error("cannot write {}", .0.display())]
    File(PathBuf, #[source] std::io::Error),
}

/// `docs/SOURCE.md` under `root`, the folder that holds the tools folder.
fn listing_path(root: &Path) -> PathBuf {
    root.join("docs").join("SOURCE.md")
}

/// The listing's problems: rows that differ from the files, or no listing where there is a
/// `docs` folder (a tools folder on its own needs none).
pub fn check(root: &Path, files: &[&ToolFile]) -> Vec<Diagnostic> {
    let path = listing_path(root);
    let hint = " (run `careem-mcp lint --write-source`)";
    if let Ok(listing) = std::fs::read_to_string(&path) {
        compare(&listing, &rows(root, files))
            .into_iter()
            .map(|message| Diagnostic::new(&path, 1, message + hint))
            .collect()
    } else if root.join("docs").is_dir() {
        vec![Diagnostic::new(
            &path,
            0,
            format!("missing: it must list every tool file{hint}"),
        )]
    } else {
        Vec::new()
    }
}

/// Rewrites the listing's table from the files, keeping the rest of the page; returns its path.
pub fn write(root: &Path, files: &[&ToolFile]) -> Result<PathBuf, WriteError> {
    let path = listing_path(root);
    let existing = std::fs::read_to_string(&path).ok();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| WriteError::Folder(dir.to_path_buf(), e))?;
    }
    std::fs::write(&path, rewrite(existing.as_deref(), &rows(root, files)))
        .map_err(|e| WriteError::File(path.clone(), e))?;
    Ok(path)
}

/// The table rows the files call for, one per file, paths relative to `root`.
fn rows(root: &Path, files: &[&ToolFile]) -> Vec<String> {
    files
        .iter()
        .map(|file| {
            let path = file.path.strip_prefix(root).unwrap_or(&file.path);
            let scenarios: Vec<String> = file
                .scenarios
                .iter()
                .map(|s| format!("`{}`", s.name))
                .collect();
            format!(
                "| `{}` | `{}` | {} | {} |",
                path.display(),
                file.tool,
                file.domain.as_deref().unwrap_or(""),
                scenarios.join(", ")
            )
        })
        .collect()
}

fn table(rows: &[String]) -> String {
    let mut out =
        format!("{BEGIN}\n| file | tool | domain | scenarios |\n| --- | --- | --- | --- |\n");
    for row in rows {
        out.push_str(row);
        out.push('\n');
    }
    out.push_str(END);
    out
}

/// Differences between the listing's rows and the expected ones, as sentences.
fn compare(listing: &str, expected: &[String]) -> Vec<String> {
    let listed: Vec<&str> = listing.lines().filter(|l| l.starts_with("| `")).collect();
    let mut problems = Vec::new();
    for row in expected {
        if !listed.contains(&row.as_str()) {
            problems.push(format!("missing or out of date: {row}"));
        }
    }
    for row in &listed {
        if !expected.iter().any(|e| e == row) {
            problems.push(format!("lists what the files do not hold: {row}"));
        }
    }
    problems
}

/// The listing with its table replaced, or a new listing when there was none.
fn rewrite(existing: Option<&str>, rows: &[String]) -> String {
    let fresh = table(rows);
    if let Some(text) = existing
        && let (Some(start), Some(end)) = (text.find(BEGIN), text.find(END))
        && start < end
    {
        return format!("{}{fresh}{}", &text[..start], &text[end + END.len()..]);
    }
    format!(
        "# Tool files\n\nEvery file under `tools/`, with its domain and its scenarios in file order. \
         The number of rows is the `N` of SPEC §7 test 2. `careem-mcp lint` fails when this table and the \
         files disagree; `careem-mcp lint --write-source` rewrites it.\n\n{fresh}\n"
    )
}
