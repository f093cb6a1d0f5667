//! An overrides entry in words, as `careem-mcp scenario` confirms it and `scenarios` lists it:
//! `searching, then driver-assigned (the last repeats); delay 2s`. And how an entry forces one
//! scenario: `forced`, `step 2`, `steps 1, 3`.

use std::fmt;

use super::entries::{Control, Step};

impl fmt::Display for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(scenario) = &self.each.scenario {
            parts.push(format!("{scenario} (forced)"));
        }
        if !self.sequence.is_empty() {
            let steps: Vec<String> = self.sequence.iter().map(step).collect();
            let repeats = if steps.len() > 1 {
                " (the last repeats)"
            } else {
                ""
            };
            parts.push(format!("{}{repeats}", steps.join(", then ")));
        }
        let each = options(&self.each);
        if !each.is_empty() {
            parts.push(each);
        }
        f.write_str(&parts.join("; "))
    }
}

fn step(step: &Step) -> String {
    let mut text = step.scenario.clone().unwrap_or_else(|| {
        if step.fault.is_some() {
            String::new()
        } else {
            "normal selection".into()
        }
    });
    let options = options(step);
    if !options.is_empty() {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&format!("[{options}]"));
    }
    text
}

fn options(step: &Step) -> String {
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

/// How an entry forces one scenario: on every call, at some steps of its sequence, or not at
/// all. Shown as `forced`, `step 2`, `steps 1, 3`, or nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Forcing {
    Never,
    Always,
    /// The steps (counted from 1) that name the scenario.
    Steps(Vec<usize>),
}

impl Control {
    /// How this entry forces `scenario` (names compared case-insensitively, as selection does).
    pub fn forcing(&self, scenario: &str) -> Forcing {
        let names = |step: &Step| {
            step.scenario
                .as_deref()
                .is_some_and(|name| name.eq_ignore_ascii_case(scenario))
        };
        if names(&self.each) {
            return Forcing::Always;
        }
        let steps: Vec<usize> = (1..)
            .zip(&self.sequence)
            .filter(|(_, step)| names(step))
            .map(|(number, _)| number)
            .collect();
        if steps.is_empty() {
            Forcing::Never
        } else {
            Forcing::Steps(steps)
        }
    }
}

impl fmt::Display for Forcing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Never => Ok(()),
            Self::Always => f.write_str("forced"),
            Self::Steps(steps) if steps.len() == 1 => write!(f, "step {}", steps[0]),
            Self::Steps(steps) => {
                let steps: Vec<String> = steps.iter().map(ToString::to_string).collect();
                write!(f, "steps {}", steps.join(", "))
            }
        }
    }
}
