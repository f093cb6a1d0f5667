//! `careem-mcp scenario <tool> [STEP…] [--delay] [--fault] [--rate]` and `careem-mcp reset`:
//! edit the overrides file through the engine, which checks names against the tool files so
//! that a typo never silently forces nothing.

use anyhow::{Context, bail};
use serde_json::Value;

use super::tools_dir;
use crate::admin::{REMOVE_NEEDS_RUN, force_refusal};
use crate::cli::args::ScenarioArgs;
use crate::cli::{Status, printer};
use crate::engine::{
    Control, DEFAULT_ENTRY, ForceError, ProjectLayout, RunName, Step, absolute, force, runs,
};

pub fn set(layout: &ProjectLayout, args: &ScenarioArgs) -> anyhow::Result<Status> {
    let tool = args.tool.as_str();
    // `'*'` names no tool, so it needs no tools folder.
    let tools = if tool == DEFAULT_ENTRY {
        &layout.tools
    } else {
        tools_dir(layout)?
    };
    let each = Step {
        scenario: None,
        delay: args.delay,
        fault: args.fault,
        rate: args.rate,
    };
    match force::set_steps(tools, &layout.overrides, tool, &args.steps, each) {
        Ok(control) => said(tool, control.map(|c| c.to_value()).as_ref()),
        Err(ForceError::Overrides(error)) => Err(error).context("cannot save the overrides"),
        // The API answers a refused edit in the same words (`admin::force_refusal`).
        Err(error) => bail!("{}", force_refusal(&error).0),
    }
}

/// Prints the tool's entry as now written (`None`: cleared), here or through the API.
pub fn said(tool: &str, entry: Option<&Value>) -> anyhow::Result<Status> {
    let line = match entry.map(|entry| Control::parse(tool, entry)) {
        Some(Ok(control)) => format!("{tool} → {control}"),
        Some(Err(why)) => bail!("the entry written for {tool} does not read: {why}"),
        None if tool == DEFAULT_ENTRY => "every tool → no default delay or fault".to_string(),
        None => format!("{tool} → normal selection"),
    };
    printer::out(&line)?;
    Ok(Status::Success)
}

/// Prints that the run was reset.
pub fn said_reset() -> anyhow::Result<Status> {
    printer::out("every tool → normal selection; the world → its seed; the clock → real time")?;
    Ok(Status::Success)
}

/// Prints whether `run`'s folder was removed.
pub fn said_removed(run: &RunName, removed: bool, folder: &str) -> anyhow::Result<Status> {
    let line = if removed {
        format!("run {run} removed ({folder})")
    } else {
        format!("run {run} has no folder ({folder})")
    };
    printer::out(&line)?;
    Ok(Status::Success)
}

/// `reset`, or with `--remove` the run's folder deleted; `layout` is the run's when `run` is named.
pub fn reset(
    layout: &ProjectLayout,
    run: Option<&RunName>,
    remove: bool,
) -> anyhow::Result<Status> {
    if !remove {
        force::reset(&layout.run_files()).context("cannot reset the overrides")?;
        return said_reset();
    }
    let Some(run) = run else {
        bail!(REMOVE_NEEDS_RUN);
    };
    let dir = absolute(&layout.run_dir(run));
    let removed =
        runs::remove(layout, run).with_context(|| format!("cannot remove {}", dir.display()))?;
    said_removed(run, removed, &dir.display().to_string())
}
