//! A generated tool file: the hand-written head of the checked-in file (everything above its
//! first scenario) kept, then the generator's note and scenarios.

use std::path::Path;

use anyhow::{Context, bail};

/// One generated file: where it lives in the repository and what it holds.
pub struct Generated {
    /// The path relative to the repository's root, with `/` separators.
    pub path: &'static str,
    pub text: String,
}

/// The tool file at `relative` under `repo` as it should be: its head kept, then `note` (which
/// starts `## Scenarios`) and `scenarios`.
pub fn generated_file(
    repo: &Path,
    relative: &'static str,
    note: &str,
    scenarios: impl IntoIterator<Item = String>,
) -> anyhow::Result<Generated> {
    let current = std::fs::read_to_string(repo.join(relative))
        .with_context(|| format!("reading {relative}"))?;
    let Some(head_end) = current
        .find("\n## Scenarios\n")
        .or_else(|| current.find("\n## Scenario: "))
    else {
        bail!("{relative} has no scenarios, so its hand-written head has no end");
    };
    let mut text = current[..=head_end].to_string();
    text.push_str(note);
    for scenario in scenarios {
        text.push('\n');
        text.push_str(&scenario);
    }
    Ok(Generated {
        path: relative,
        text,
    })
}
