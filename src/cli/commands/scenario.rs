//! `careem-mcp scenario <tool> [STEP…] [--delay] [--fault] [--rate]` and `careem-mcp reset`:
//! edit the overrides file, checking names against the tool files so that a typo never
//! silently forces nothing.

use anyhow::{Context, bail};

use super::tools_dir;
use crate::cli::args::ScenarioArgs;
use crate::cli::{Status, printer};
use crate::engine::{
    Control, DEFAULT_ENTRY, ForceError, ProjectLayout, Step, ToolFile, clear_overrides,
    control_from_steps, did_you_mean, find_tool, load_catalog, set_override,
};

pub fn set(layout: &ProjectLayout, args: &ScenarioArgs) -> anyhow::Result<Status> {
    let tool = args.tool.as_str();
    let control = if tool == DEFAULT_ENTRY {
        if !args.steps.is_empty() {
            bail!(
                "the '*' entry takes --delay, --fault and --rate only: scenario names belong to \
                 one tool"
            );
        }
        let each = options(args);
        (each != Step::default()).then_some(Control {
            each,
            sequence: Vec::new(),
        })
    } else {
        let loaded = load_catalog(tools_dir(layout)?);
        let files: Vec<_> = loaded.tool_files().collect();
        let file = match find_tool(&files, tool) {
            Ok(file) => file,
            Err(ForceError::UnknownTool { known, .. }) => bail!(
                "unknown tool {tool:?}{}\nknown tools: {}",
                did_you_mean(tool, known.iter().map(String::as_str)),
                known.join(", ")
            ),
            Err(error) => return Err(error.into()),
        };
        tool_control(file, args)?
    };
    let path = &layout.overrides;
    match control {
        Some(control) => {
            set_override(path, tool, Some(&control)).context("cannot save the override")?;
            printer::out(&format!("{tool} → {control}"))?;
        }
        None => {
            set_override(path, tool, None).context("cannot save the overrides")?;
            let line = if tool == DEFAULT_ENTRY {
                "every tool → no default delay or fault".to_string()
            } else {
                format!("{tool} → normal selection")
            };
            printer::out(&line)?;
        }
    }
    Ok(Status::Success)
}

/// The options, which apply to every call.
fn options(args: &ScenarioArgs) -> Step {
    Step {
        scenario: None,
        delay: args.delay,
        fault: args.fault,
        rate: args.rate,
    }
}

/// The tool's entry from the steps and options, or why a step names nothing the tool has.
fn tool_control(file: &ToolFile, args: &ScenarioArgs) -> anyhow::Result<Option<Control>> {
    match control_from_steps(file, &args.steps, options(args)) {
        Ok(control) => Ok(control),
        Err(ForceError::UnknownScenario { name, known, .. }) => bail!(
            "{} has no scenario {name:?}{}\nits scenarios: {}\n(a step `fault:KIND` fails \
             instead, e.g. fault:http-503)",
            file.tool,
            did_you_mean(&name, known.iter().map(String::as_str)),
            known.join(", ")
        ),
        Err(error) => Err(error.into()),
    }
}

pub fn reset(layout: &ProjectLayout) -> anyhow::Result<Status> {
    clear_overrides(&layout.overrides).context("cannot reset the overrides")?;
    printer::out("every tool → normal selection")?;
    Ok(Status::Success)
}
