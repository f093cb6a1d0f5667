//! `careem-mcp call <tool> [json]`: the full call path in process, printed as the MCP result.

use anyhow::{Context, bail};
use serde_json::{Map, Value};

use super::load_engine;
use crate::cli::args::{CallArgs, GlobalArgs};
use crate::cli::{Status, printer};
use crate::engine::{
    CallRequest, Decision, Origin, Planning, ProjectLayout, UnknownTool, did_you_mean,
};

pub fn run(global: &GlobalArgs, layout: &ProjectLayout, args: &CallArgs) -> anyhow::Result<Status> {
    let arguments = parse_arguments(args.arguments.as_deref())?;
    let engine = load_engine(global, layout, args.no_journal)?;
    let forced = args.scenario.as_deref();
    let mut request = CallRequest::new(Origin::Cli, &args.tool, arguments);
    if let Some(scenario) = forced {
        request.planning = Planning::Forced(scenario.to_string());
    }
    let output = engine.answer(&request);
    if output.decision == Decision::UnknownTool {
        let unknown = UnknownTool(args.tool.clone());
        let names: Vec<&str> = engine.tools().map(|t| t.name.as_str()).collect();
        let hint = did_you_mean(&unknown.0, names.iter().copied());
        bail!("{unknown}{hint}\nknown tools: {}", names.join(", "));
    }
    if let Some(wanted) = forced
        && matches!(output.scenario(), Some((_, false)))
    {
        eprintln!(
            "{} no scenario {wanted:?} in {}; selected as usual",
            printer::yellow("warning:"),
            args.tool
        );
    }
    let scenario = match &output.decision {
        Decision::Scenario { name, forced: true } => format!("{name} (forced)"),
        Decision::Scenario { name, .. } => name.clone(),
        Decision::InternalError => "none (internal error)".to_string(),
        _ => "none (invalid arguments)".to_string(),
    };
    let is_error = output.is_error;
    let result = crate::server::result_json(&output);
    let text = if printer::stdout_is_terminal() && !args.compact {
        serde_json::to_string_pretty(&result)?
    } else {
        result.to_string()
    };
    printer::out(&text)?;
    eprintln!("scenario: {scenario}");
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
