//! `docs/SOURCE.md`: the list of tool files with their domains and scenarios, which SPEC §7's
//! `N` counts. `lint` compares it with the files; `lint --write-source` rewrites its table.

use std::path::Path;

use super::toolfile::ToolFile;

const BEGIN: &str = "<!-- tool files: begin (careem-mcp lint --write-source) -->";
const END: &str = "<!-- tool files: end -->";

/// The table rows the files call for, one per file, paths relative to `root`.
pub fn rows(root: &Path, files: &[&ToolFile]) -> Vec<String> {
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
pub fn compare(listing: &str, expected: &[String]) -> Vec<String> {
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
pub fn rewrite(existing: Option<&str>, rows: &[String]) -> String {
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
