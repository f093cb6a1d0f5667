//! `careem-mcp scenario <tool> [STEP…] [--delay] [--fault] [--rate]` and `careem-mcp reset`:
//! edit the overrides file through the engine, which checks names against the tool files so
//! that a typo never silently forces nothing.

use anyhow::{Context, bail};

use super::tools_dir;
use crate::admin::force_refusal;
use crate::cli::args::ScenarioArgs;
use crate::cli::{Status, printer};
use crate::engine::{
    DEFAULT_ENTRY, ForceError, ProjectLayout, RunName, Step, absolute, force, runs,
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
    let line = match force::set_steps(tools, &layout.overrides, tool, &args.steps, each) {
        Ok(Some(control)) => format!("{tool} → {control}"),
        Ok(None) if tool == DEFAULT_ENTRY => "every tool → no default delay or fault".to_string(),
        Ok(None) => format!("{tool} → normal selection"),
        Err(ForceError::Overrides(error)) => {
            return Err(error).context("cannot save the overrides");
        }
        // The API answers a refused edit in the same words (`admin::force_refusal`).
        Err(error) => bail!("{}", force_refusal(&error).0),
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
        force::reset(&layout.overrides).context("cannot reset the overrides")?;
        printer::out("every tool → normal selection; the world → its seed; the clock → real time")?;
        return Ok(Status::Success);
    }
    let Some(run) = run else {
        bail!("--remove deletes a run's folder: name the run with --run NAME");
    };
    let dir = absolute(&layout.run_dir(run));
    let line =
        if runs::remove(layout, run).with_context(|| format!("cannot remove {}", dir.display()))? {
            format!("run {run} removed ({})", dir.display())
        } else {
            format!("run {run} has no folder ({})", dir.display())
        };
    printer::out(&line)?;
    Ok(Status::Success)
}
