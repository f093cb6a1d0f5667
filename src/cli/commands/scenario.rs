//! `careem-mcp scenario <tool> [<name>]` and `careem-mcp reset`: edit the overrides file,
//! checking names against the tool files so that a typo never silently forces nothing.

use anyhow::{Context, bail};

use crate::cli::project::Paths;
use crate::cli::{Status, printer};
use crate::engine::catalog;
use crate::engine::overrides;

pub fn set(paths: &Paths, tool: &str, name: Option<&str>) -> anyhow::Result<Status> {
    let loaded = catalog::load(paths.tools()?);
    let files: Vec<_> = loaded.tool_files().collect();
    let Some(file) = files.iter().find(|f| f.tool == tool) else {
        let names: Vec<&str> = files.iter().map(|f| f.tool.as_str()).collect();
        bail!(
            "unknown tool {tool:?}{}\nknown tools: {}",
            suggestion(tool, &names),
            names.join(", ")
        );
    };
    let path = &paths.overrides;
    let _editing = overrides::lock_for_edit(path)?;
    let mut current = overrides::read_strict(path)?;
    match name {
        Some(name) => {
            let Some(scenario) = file
                .scenarios
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(name))
            else {
                let names: Vec<&str> = file.scenarios.iter().map(|s| s.name.as_str()).collect();
                bail!(
                    "{tool} has no scenario {name:?}{}\nits scenarios: {}",
                    suggestion(name, &names),
                    names.join(", ")
                );
            };
            current.insert(tool.to_string(), scenario.name.clone());
            overrides::write(path, &current).context("cannot save the override")?;
            printer::out(&format!("{tool} → {} (forced)", scenario.name))?;
        }
        None => {
            current.remove(tool);
            overrides::write(path, &current).context("cannot save the overrides")?;
            printer::out(&format!("{tool} → normal selection"))?;
        }
    }
    Ok(Status::Success)
}

pub fn reset(paths: &Paths) -> anyhow::Result<Status> {
    let _editing = overrides::lock_for_edit(&paths.overrides)?;
    overrides::write(&paths.overrides, &overrides::Overrides::new())
        .context("cannot reset the overrides")?;
    printer::out("every tool → normal selection")?;
    Ok(Status::Success)
}

fn suggestion(typed: &str, names: &[&str]) -> String {
    printer::closest(typed, names.iter().copied())
        .map(|c| format!("; did you mean {c:?}?"))
        .unwrap_or_default()
}
