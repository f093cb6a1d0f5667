//! `careem-mcp scenario <tool> [STEP…] [--delay] [--fault] [--rate]` and `careem-mcp reset`:
//! edit the overrides file, checking names against the tool files so that a typo never
//! silently forces nothing.

use anyhow::{Context, bail};

use crate::cli::args::ScenarioArgs;
use crate::cli::project::Paths;
use crate::cli::{Status, printer};
use crate::engine::{
    Control, DEFAULT_ENTRY, ForceError, Step, ToolFile, clear_overrides, find_scenario, find_tool,
    load_catalog, set_override,
};

/// The prefix of a step that fails instead of answering: `fault:http-503`.
const FAULT_STEP: &str = "fault:";

pub fn set(paths: &Paths, args: &ScenarioArgs) -> anyhow::Result<Status> {
    let tool = args.tool.as_str();
    let control = if tool == DEFAULT_ENTRY {
        if !args.steps.is_empty() {
            bail!(
                "the '*' entry takes --delay, --fault and --rate only: scenario names belong to \
                 one tool"
            );
        }
        default_control(args)
    } else {
        let loaded = load_catalog(paths.tools()?);
        let files: Vec<_> = loaded.tool_files().collect();
        let file = match find_tool(&files, tool) {
            Ok(file) => file,
            Err(ForceError::UnknownTool { known, .. }) => {
                let names: Vec<&str> = known.iter().map(String::as_str).collect();
                bail!(
                    "unknown tool {tool:?}{}\nknown tools: {}",
                    suggestion(tool, &names),
                    names.join(", ")
                );
            }
            Err(error) => return Err(error.into()),
        };
        tool_control(file, args)?
    };
    let path = &paths.overrides;
    match control {
        Some(control) => {
            set_override(path, tool, Some(&control)).context("cannot save the override")?;
            printer::out(&format!("{tool} → {}", describe(&control)))?;
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

/// The options as an entry, or `None` when there is nothing to set (which clears).
fn options(args: &ScenarioArgs) -> Step {
    Step {
        scenario: None,
        delay: args.delay,
        fault: args.fault,
        rate: args.rate,
    }
}

fn default_control(args: &ScenarioArgs) -> Option<Control> {
    let each = options(args);
    (each != Step::default()).then_some(Control {
        each,
        sequence: Vec::new(),
    })
}

/// The tool's entry from the steps and options, with every scenario name checked.
fn tool_control(file: &ToolFile, args: &ScenarioArgs) -> anyhow::Result<Option<Control>> {
    let mut steps = args
        .steps
        .iter()
        .map(|step| parse_step(file, step))
        .collect::<anyhow::Result<Vec<Step>>>()?;
    let mut each = options(args);
    if steps.len() == 1 && steps[0].scenario.is_some() {
        each.scenario = steps.remove(0).scenario;
    }
    let control = Control {
        each,
        sequence: steps,
    };
    Ok((control != Control::default()).then_some(control))
}

fn parse_step(file: &ToolFile, step: &str) -> anyhow::Result<Step> {
    if let Some(kind) = step.strip_prefix(FAULT_STEP) {
        let fault = kind.parse().map_err(anyhow::Error::msg)?;
        return Ok(Step::fault(fault));
    }
    match find_scenario(file, step) {
        Ok(name) => Ok(Step::scenario(name)),
        Err(ForceError::UnknownScenario { known, .. }) => {
            let names: Vec<&str> = known.iter().map(String::as_str).collect();
            bail!(
                "{} has no scenario {step:?}{}\nits scenarios: {}\n(a step `fault:KIND` fails \
                 instead, e.g. fault:http-503)",
                file.tool,
                suggestion(step, &names),
                names.join(", ")
            );
        }
        Err(error) => Err(error.into()),
    }
}

/// An entry in words: `searching, then driver-assigned, then completed (repeats); delay 2s`.
pub fn describe(control: &Control) -> String {
    let mut parts = Vec::new();
    if let Some(scenario) = &control.each.scenario {
        parts.push(format!("{scenario} (forced)"));
    }
    if !control.sequence.is_empty() {
        let steps: Vec<String> = control.sequence.iter().map(describe_step).collect();
        let repeats = if steps.len() > 1 {
            " (the last repeats)"
        } else {
            ""
        };
        parts.push(format!("{}{repeats}", steps.join(", then ")));
    }
    let each = describe_options(&control.each);
    if !each.is_empty() {
        parts.push(each);
    }
    parts.join("; ")
}

fn describe_step(step: &Step) -> String {
    let mut text = step.scenario.clone().unwrap_or_else(|| {
        if step.fault.is_some() {
            String::new()
        } else {
            "normal selection".into()
        }
    });
    let options = describe_options(step);
    if !options.is_empty() {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&format!("[{options}]"));
    }
    text
}

fn describe_options(step: &Step) -> String {
    let mut parts = Vec::new();
    if let Some(delay) = step.delay {
        parts.push(format!("delay {delay}"));
    }
    if let Some(fault) = step.fault {
        match step.rate {
            Some(rate) => parts.push(format!("fault {fault} at rate {rate}")),
            None => parts.push(format!("fault {fault}")),
        }
    }
    parts.join(", ")
}

pub fn reset(paths: &Paths) -> anyhow::Result<Status> {
    clear_overrides(&paths.overrides).context("cannot reset the overrides")?;
    printer::out("every tool → normal selection")?;
    Ok(Status::Success)
}

pub fn suggestion(typed: &str, names: &[&str]) -> String {
    printer::closest(typed, names.iter().copied())
        .map(|c| format!("; did you mean {c:?}?"))
        .unwrap_or_default()
}
