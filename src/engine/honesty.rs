//! The honesty check (SPEC §7.11): every scenario that is not a `json error`, rendered as if
//! forced with sample arguments, validates against its tool's `outputSchema`.

use serde_json::Value;

use super::Engine;
use super::catalog::Tool;
use super::diagnostic::Diagnostic;
use super::sample::{Fill, overlay, sample_with};
use super::toolfile::{Outcome, Scenario, ToolFile};

/// The arguments the check renders `scenario` with: every input property filled, overlaid
/// with what its match block asks for.
pub fn sample_arguments(engine: &Engine, tool: &Tool, scenario: &Scenario) -> Value {
    sample_arguments_with(engine, tool, scenario, Fill::All)
}

fn sample_arguments_with(engine: &Engine, tool: &Tool, scenario: &Scenario, fill: Fill) -> Value {
    let base = sample_with(&tool.input_schema, engine.now(), fill);
    match &scenario.rule {
        Some(rule) => overlay(base, rule, &tool.input_schema),
        None => base,
    }
}

/// Every way in which `file`'s scenarios break their tool's output schema, with all
/// arguments given and with only the required ones (a problem is reported once).
pub fn check(engine: &Engine, tool: &Tool, file: &ToolFile) -> Vec<Diagnostic> {
    let mut problems = check_with(engine, tool, file, Fill::All);
    for mut lean in check_with(engine, tool, file, Fill::Required) {
        if !problems.contains(&lean) {
            lean.message.push_str(" (with only the required arguments)");
            problems.push(lean);
        }
    }
    problems
}

fn check_with(engine: &Engine, tool: &Tool, file: &ToolFile, fill: Fill) -> Vec<Diagnostic> {
    let Some(validator) = &tool.output_validator else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    for scenario in file
        .scenarios
        .iter()
        .filter(|s| s.outcome == Outcome::Response)
    {
        let args = sample_arguments_with(engine, tool, scenario, fill);
        let value = match engine.render(scenario, &args) {
            Ok(value) => value,
            Err(error) => {
                problems.push(
                    Diagnostic::new(&file.path, scenario.line, error.to_string())
                        .in_scenario(&scenario.name),
                );
                continue;
            }
        };
        problems.extend(violations(validator, &value).map(|(pointer, error)| {
            Diagnostic::new(
                &file.path,
                scenario.line,
                format!("response at {pointer} breaks the outputSchema: {error}"),
            )
            .in_scenario(&scenario.name)
        }));
    }
    problems
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
