//! The honesty check (SPEC §7.11): every scenario that is not a `json error`, rendered as if
//! forced with sample arguments, validates against its tool's `outputSchema`, `format`s
//! included. It is rendered again with only the required arguments, and with each odd
//! argument an agent may send ([`odd_arguments`]).

use serde_json::Value;

use super::odd_arguments;
use super::sample::{Properties, overlay, sample_with};
use crate::engine::Engine;
use crate::engine::catalog::load::Tool;
use crate::engine::toolfile::diagnostic::Diagnostic;
use crate::engine::toolfile::parse::{Outcome, Scenario, ToolFile};

/// The arguments the check renders `scenario` with: every input property filled, overlaid
/// with what its match block asks for.
pub fn sample_arguments(engine: &Engine, tool: &Tool, scenario: &Scenario) -> Value {
    sample_arguments_with(engine, tool, scenario, Properties::All)
}

fn sample_arguments_with(
    engine: &Engine,
    tool: &Tool,
    scenario: &Scenario,
    filled: Properties,
) -> Value {
    let now = engine.now();
    let base = sample_with(&tool.input_schema, now, filled);
    [&scenario.rule, &scenario.sample]
        .into_iter()
        .flatten()
        .fold(base, |args, rule| {
            overlay(args, rule, &tool.input_schema, now)
        })
}

/// Every way in which `file`'s scenarios break their tool's output schema, with all
/// arguments given, with only the required ones, and with odd ones (a problem is reported
/// once, with the first arguments that show it).
pub fn check(engine: &Engine, tool: &Tool, file: &ToolFile) -> Vec<Diagnostic> {
    let mut problems = check_with(engine, tool, file, Properties::All);
    for mut lean in check_with(engine, tool, file, Properties::Required) {
        if !problems.contains(&lean) {
            lean.message.push_str(" (with only the required arguments)");
            problems.push(lean);
        }
    }
    for odd in check_odd(engine, tool, file) {
        let seen =
            |p: &Diagnostic| p.line == odd.line && finding(&p.message) == finding(&odd.message);
        if !problems.iter().any(seen) {
            problems.push(odd);
        }
    }
    problems
}

/// A problem without the note of which arguments showed it.
fn finding(message: &str) -> &str {
    message.split(" (with ").next().unwrap_or(message)
}

/// The first way each scenario breaks the schema under each odd argument.
fn check_odd(engine: &Engine, tool: &Tool, file: &ToolFile) -> Vec<Diagnostic> {
    let Some((validator, scenarios)) = responses(tool, file) else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    for scenario in scenarios {
        let sample = sample_arguments(engine, tool, scenario);
        for variant in odd_arguments::variants(tool, scenario, &sample) {
            // Arguments that a scenario's condition turns away never reach it.
            if !engine.reaches(scenario, &variant.arguments).unwrap_or(true) {
                continue;
            }
            let found = match engine.render(scenario, &variant.arguments) {
                Ok(value) => violations(validator, &value).next().map(breaks),
                Err(error) => Some(error.to_string()),
            };
            if let Some(message) = found {
                let message = format!("{message} (with {})", variant.label);
                problems.push(at(file, scenario, message));
            }
        }
    }
    problems
}

fn check_with(
    engine: &Engine,
    tool: &Tool,
    file: &ToolFile,
    filled: Properties,
) -> Vec<Diagnostic> {
    let Some((validator, scenarios)) = responses(tool, file) else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    for scenario in scenarios {
        let args = sample_arguments_with(engine, tool, scenario, filled);
        match engine.reaches(scenario, &args) {
            Ok(true) => {}
            Ok(false) if filled == Properties::Required => continue,
            Ok(false) => {
                let message = "the sample arguments do not reach this scenario: its `jq when` does not hold for them (give it a `json sample` block)";
                problems.push(at(file, scenario, message.to_string()));
                continue;
            }
            Err(error) => {
                problems.push(at(file, scenario, error.to_string()));
                continue;
            }
        }
        match engine.render(scenario, &args) {
            Ok(value) => problems.extend(
                violations(validator, &value).map(|found| at(file, scenario, breaks(found))),
            ),
            Err(error) => problems.push(at(file, scenario, error.to_string())),
        }
    }
    problems
}

/// The tool's output validator and the scenarios it holds to: all but the `json error` ones.
/// `None` when the tool declares no `outputSchema`, which leaves nothing to check.
fn responses<'a>(
    tool: &'a Tool,
    file: &'a ToolFile,
) -> Option<(
    &'a jsonschema::Validator,
    impl Iterator<Item = &'a Scenario>,
)> {
    let validator = tool.output_validator.as_ref()?;
    let scenarios = file
        .scenarios
        .iter()
        .filter(|s| s.outcome == Outcome::Response);
    Some((validator, scenarios))
}

fn breaks((pointer, error): (String, String)) -> String {
    format!("response at {pointer} breaks the outputSchema: {error}")
}

fn at(file: &ToolFile, scenario: &Scenario, message: String) -> Diagnostic {
    Diagnostic::new(&file.path, scenario.line, message).in_scenario(&scenario.name)
}

/// Each way `value` breaks the schema: the JSON pointer of the offending value ("/" for the
/// whole) and the validator's complaint.
pub fn violations<'a>(
    validator: &'a jsonschema::Validator,
    value: &'a Value,
) -> impl Iterator<Item = (String, String)> + 'a {
    validator.iter_errors(value).map(|error| {
        let pointer = error.instance_path().to_string();
        let pointer = if pointer.is_empty() {
            "/".to_string()
        } else {
            pointer
        };
        (pointer, error.to_string())
    })
}
