//! `careem-mcp call <tool> [json]`: the full call path in process, printed as the MCP result.

use anyhow::{Context, bail};
use serde_json::{Map, Value};

use super::load_journalled_engine;
use crate::cli::args::{CallArgs, GlobalArgs};
use crate::cli::project::Paths;
use crate::cli::{Status, printer};
use crate::engine::{INTERNAL_ERROR, did_you_mean};
use crate::server::call_result_json;

pub fn run(global: &GlobalArgs, paths: &Paths, args: &CallArgs) -> anyhow::Result<Status> {
    let arguments = parse_arguments(args.arguments.as_deref())?;
    let engine = load_journalled_engine(global, paths, args.no_journal)?;
    let output = match engine.call_with(&args.tool, arguments, args.scenario.as_deref()) {
        Ok(output) => output,
        Err(unknown) => {
            let names: Vec<&str> = engine.tools().map(|t| t.name.as_str()).collect();
            let hint = did_you_mean(&unknown.0, names.iter().copied());
            bail!("{unknown}{hint}\nknown tools: {}", names.join(", "));
        }
    };
    if let Some(wanted) = &args.scenario
        && !matches!(output.scenario(), Some((_, true)))
        && output.scenario().is_some()
    {
        eprintln!(
            "{} no scenario {wanted:?} in {}; selected as usual",
            printer::yellow("warning:"),
            args.tool
        );
    }
    engine.record("cli", None, &output);
    let scenario = output
        .scenario()
        .map(|(name, forced)| (name.to_string(), forced));
    let (is_error, internal) = (output.is_error, output.text == INTERNAL_ERROR);
    let result = call_result_json(output);
    let text = if printer::stdout_is_terminal() && !args.compact {
        serde_json::to_string_pretty(&result)?
    } else {
        result.to_string()
    };
    printer::out(&text)?;
    match scenario {
        Some((name, true)) => eprintln!("scenario: {name} (forced)"),
        Some((name, false)) => eprintln!("scenario: {name}"),
        None => eprintln!(
            "scenario: none ({})",
            if internal {
                "internal error"
            } else {
                "invalid arguments"
            }
        ),
    }
    Ok(if is_error {
        Status::Findings
    } else {
        Status::Success
    })
}

fn parse_arguments(text: Option<&str>) -> anyhow::Result<Option<Map<String, Value>>> {
    let Some(text) = text else { return Ok(None) };
    match serde_json::from_str::<Value>(text).context("ARGS_JSON is not valid JSON")? {
        Value::Object(map) => Ok(Some(map)),
        Value::Null => Ok(None),
        other => bail!("ARGS_JSON must be a JSON object, not {other}"),
    }
}
