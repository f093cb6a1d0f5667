//! One scenario as SPEC §2 writes it: its `json match` (if any) and one `json response` or
//! `json error` block. A template scenario keeps its own blocks; a computed one is rendered
//! for its sample arguments on the seed world, its times as placeholders. A `jq when` has no
//! SPEC equivalent: a scenario with a `json sample` matches those arguments (and its own
//! `json match`, if it has one); one without is forced only.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::ExportError;
use super::echo::{self, Probed};
use super::layout::Section;
use super::node::Node;
use super::times::Times;
use crate::engine::Engine;
use crate::engine::catalog::load::Tool;
use crate::engine::check::honesty::sample_arguments;
use crate::engine::toolfile::entropy::Entropy;
use crate::engine::toolfile::template::{RenderContext, Template};
use crate::engine::toolfile::{Answer, Outcome, Scenario};

/// How an exported scenario is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// By its own `json match`, or as the default, as in the original.
    AsWritten,
    /// Its `jq when` gave way to a `json match` of its `json sample`.
    SampleMatch,
    /// Its `jq when` had no `json sample`: only forcing reaches it, and it is written after
    /// the others so that it cannot become the default.
    ForcedOnly,
}

/// What became of one scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportedScenario {
    pub name: String,
    pub selection: Selection,
    /// The arguments a computed answer was rendered for; `None` for a template kept as written.
    pub rendered_for: Option<Value>,
    /// A computed answer whose times could not be written as placeholders that render it
    /// again, written as they were.
    pub fixed_times: bool,
    /// The `json match` rule, compact.
    pub rule: Option<Value>,
    pub outcome: Outcome,
    /// The `json response` or `json error` block's content.
    pub template: String,
}

/// `scenario` of `tool`, whose section in the file is `section`, for the clock's now.
pub fn export(
    engine: &Engine,
    tool: &Tool,
    scenario: &Scenario,
    section: &Section,
) -> Result<ExportedScenario, ExportError> {
    let (rule, selection) = match (&scenario.when, &scenario.sample) {
        (None, _) => (scenario.rule.clone(), Selection::AsWritten),
        (Some(_), Some(sample)) => (
            Some(merged(scenario.rule.as_ref(), sample)),
            Selection::SampleMatch,
        ),
        (Some(_), None) => (None, Selection::ForcedOnly),
    };
    let mut exported = ExportedScenario {
        name: scenario.name.clone(),
        selection,
        rendered_for: None,
        fixed_times: false,
        rule,
        outcome: scenario.outcome,
        template: String::new(),
    };
    match &scenario.answer {
        Answer::Template(_) => {
            let info = match scenario.outcome {
                Outcome::Response => "json response",
                Outcome::Error => "json error",
            };
            let block = section
                .blocks(info)
                .next()
                .ok_or_else(|| ExportError::Unreadable {
                    path: tool.path.clone(),
                    scenario: scenario.name.clone(),
                })?;
            exported.template = block.content.trim_end().to_string();
        }
        Answer::Computed(_) | Answer::Change(_) => {
            let args = sample_arguments(engine, tool, scenario);
            // An engine of its own for each render: its `.random` is the first draw of
            // `--seed`, as a process's first call's is.
            let render = |args: &Value| {
                engine
                    .for_run(engine.config().overrides.clone())
                    .render(scenario, args)
            };
            let value = render(&args).map_err(|source| ExportError::Render {
                path: tool.path.clone(),
                scenario: scenario.name.clone(),
                source,
            })?;
            let now = engine.now();
            let times = Times::of(&value, now);
            let probes = echo::probes(&tool.input_schema, &args, exported.rule.as_ref());
            let answers = (!probes.is_empty())
                .then(|| [false, true].map(|second| render(&echo::probed(&args, &probes, second))));
            let node = match answers {
                Some([Ok(first), Ok(second)]) => {
                    let probed = Probed {
                        first: &first,
                        second: &second,
                    };
                    times.template_echoing(&value, probed, &probes)
                }
                _ => times.template(&value),
            };
            let templated = node.to_template();
            if renders_to(&templated, &args, now, &value) {
                exported.template = templated;
            } else {
                exported.template = Node::Literal(value).to_template();
                exported.fixed_times = true;
            }
            exported.rendered_for = Some(args);
        }
    }
    Ok(exported)
}

/// Whether `template` gives `value` for `args` at `now`: the export answers as the computed
/// scenario does at the clock it was made at.
fn renders_to(template: &str, args: &Value, now: DateTime<Utc>, value: &Value) -> bool {
    Template::parse(template).ok().is_some_and(|template| {
        let context = RenderContext {
            args,
            now,
            entropy: &Entropy::default(),
        };
        template.render(context).ok().as_ref() == Some(value)
    })
}

/// The scenario's own rule with the sample's arguments over it, each as a rule that only it
/// satisfies.
fn merged(rule: Option<&Value>, sample: &Value) -> Value {
    let mut map = match rule {
        Some(Value::Object(map)) => map.clone(),
        _ => Map::new(),
    };
    if let Value::Object(sample) = sample {
        for (key, value) in sample {
            map.insert(key.clone(), literal(value));
        }
    }
    Value::Object(map)
}

/// An argument as a match rule that it satisfies: a string the rule syntax would read as a
/// pattern (`*`, `~…`, `=…`, or empty) is written `=…`.
fn literal(value: &Value) -> Value {
    match value {
        Value::String(text) if text.is_empty() || text == "*" || text.starts_with(['~', '=']) => {
            Value::String(format!("={text}"))
        }
        Value::Array(items) => Value::Array(items.iter().map(literal).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), literal(value)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::engine::matches;

    #[test]
    fn a_sample_becomes_a_rule_its_arguments_meet() {
        let cases = [
            (None, json!({"q": "*", "n": 5}), json!({"q": "=*", "n": 5})),
            (
                Some(json!({"quantity": 0, "q": "~x"})),
                json!({"q": "~x", "id": 9}),
                json!({"quantity": 0, "q": "=~x", "id": 9}),
            ),
            (
                None,
                json!({"s": "", "ids": [1]}),
                json!({"s": "=", "ids": [1]}),
            ),
        ];
        for (rule, sample, want) in cases {
            let got = merged(rule.as_ref(), &sample);
            assert_eq!(got, want, "{sample}");
            let mut args = sample.clone();
            if let (Some(Value::Object(rule)), Value::Object(args)) = (&rule, &mut args) {
                for (key, value) in rule {
                    args.entry(key.clone()).or_insert(value.clone());
                }
            }
            assert!(matches(&got, Some(&args)), "{got} does not match {args}");
        }
    }
}
