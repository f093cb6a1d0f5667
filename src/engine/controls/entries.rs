//! What the overrides file asks of each tool: a forced scenario (SPEC §6), a sequence of steps,
//! a delay and a fault with its rate. One entry per tool plus `"*"`, the default for every
//! tool. Each entry is read on its own, so that one bad entry is reported and skipped while the
//! others still apply.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::engine::duration;

/// The file as written: each tool's entry as JSON, kept whole even when it cannot be used, so
/// that an edit by the CLI never drops what a person wrote.
pub type Overrides = BTreeMap<String, Value>;

/// The entry that applies to every tool that does not say otherwise.
pub const DEFAULT_ENTRY: &str = "*";

/// The longest delay an entry may ask for: anything longer is a typo, not a test.
pub const MAX_DELAY: Duration = Duration::from_secs(3600);

/// A failure of production's stack, injected in place of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    /// The ingress could not reach a pod: HTTP 502.
    Http502,
    /// No pod ready: HTTP 503.
    Http503,
    /// The pod did not answer within the route's timeout: HTTP 504.
    Http504,
    /// The connection or stream closes without an answer; over stdio, the process crashes.
    Drop,
    /// No answer until the client gives up or cancels.
    Hang,
    /// The session ended: HTTP 404 for it, the client must initialize again.
    SessionExpired,
    /// JSON-RPC `-32603`.
    InternalError,
}

impl Fault {
    pub const ALL: [Self; 7] = [
        Self::Http502,
        Self::Http503,
        Self::Http504,
        Self::Drop,
        Self::Hang,
        Self::SessionExpired,
        Self::InternalError,
    ];

    /// The name used in the overrides file, on the command line and in the journal.
    pub fn name(self) -> &'static str {
        match self {
            Self::Http502 => "http-502",
            Self::Http503 => "http-503",
            Self::Http504 => "http-504",
            Self::Drop => "drop",
            Self::Hang => "hang",
            Self::SessionExpired => "session-expired",
            Self::InternalError => "internal-error",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Fault {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|fault| fault.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|f| f.name()).collect();
                format!("unknown fault {text:?} (one of {})", names.join(", "))
            })
    }
}

/// How long a call waits before it is answered: fixed, or drawn uniformly from a range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delay {
    pub min: Duration,
    pub max: Duration,
}

impl Delay {
    pub fn fixed(duration: Duration) -> Self {
        Self {
            min: duration,
            max: duration,
        }
    }

    /// The delay for a draw `unit` in `[0, 1)`.
    pub fn at(self, unit: f64) -> Duration {
        let span = self.max.saturating_sub(self.min).as_millis() as f64;
        // `unit < 1`, so the range's end is reached only by rounding: both ends are inclusive.
        self.min + Duration::from_millis((span * unit).round() as u64)
    }
}

impl FromStr for Delay {
    type Err = String;

    /// A duration ([`duration`]: `2s`, `800ms`, `1m30s`), or a range `200ms..1500ms`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let one = |part: &str| {
            duration::parse(part)
                .ok()
                .and_then(|ms| u64::try_from(ms).ok())
                .map(Duration::from_millis)
                .ok_or_else(|| {
                    format!(
                        "malformed delay {text:?} (a duration such as 2s, 800ms or 1m30s, or a \
                         range such as 200ms..1500ms)"
                    )
                })
        };
        let delay = match text.split_once("..") {
            Some((min, max)) => Self {
                min: one(min)?,
                max: one(max)?,
            },
            None => Self::fixed(one(text)?),
        };
        if delay.min > delay.max {
            return Err(format!("delay range {text:?} ends before it starts"));
        }
        if delay.max > MAX_DELAY {
            return Err(format!("delay {text:?} is longer than an hour"));
        }
        Ok(delay)
    }
}

/// A delay as the one duration printer writes it: `1.5s`, `200ms..1m30s`.
impl fmt::Display for Delay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show =
            |d: Duration| duration::delay_words(u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        if self.min == self.max {
            f.write_str(&show(self.min))
        } else {
            write!(f, "{}..{}", show(self.min), show(self.max))
        }
    }
}

/// One answer's worth of control: which scenario, how slow, which fault and how often. Every
/// part is optional; an empty step is normal selection.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Step {
    pub scenario: Option<String>,
    pub delay: Option<Delay>,
    pub fault: Option<Fault>,
    /// The probability that `fault` fires, `0..=1`; absent means always.
    pub rate: Option<f64>,
}

impl Step {
    /// A step that forces a scenario and nothing else.
    pub fn scenario(name: impl Into<String>) -> Self {
        Self {
            scenario: Some(name.into()),
            ..Self::default()
        }
    }

    /// A step that fails with `fault` and nothing else.
    pub fn fault(fault: Fault) -> Self {
        Self {
            fault: Some(fault),
            ..Self::default()
        }
    }

    fn is_only_scenario(&self) -> bool {
        self.scenario.is_some() && self.delay.is_none() && self.fault.is_none()
    }

    /// `"name"` or an object with the keys that are set.
    fn to_value(&self) -> Value {
        if self.is_only_scenario() {
            return json!(self.scenario);
        }
        let mut object = Map::new();
        self.write_keys(&mut object);
        Value::Object(object)
    }

    fn write_keys(&self, object: &mut Map<String, Value>) {
        if let Some(scenario) = &self.scenario {
            object.insert("scenario".into(), json!(scenario));
        }
        if let Some(delay) = self.delay {
            object.insert("delay".into(), json!(delay.to_string()));
        }
        if let Some(fault) = self.fault {
            object.insert("fault".into(), json!(fault.name()));
        }
        if let Some(rate) = self.rate {
            object.insert("rate".into(), json!(rate));
        }
    }

    /// Reads a step: a scenario name, or an object of `scenario`, `delay`, `fault`, `rate`.
    fn parse(value: &Value) -> Result<Self, String> {
        match value {
            Value::String(name) => Ok(Self::scenario(name.clone())),
            Value::Object(object) => {
                Self::parse_keys(object, &["scenario", "delay", "fault", "rate"])
            }
            other => Err(format!(
                "a step is a scenario name or an object, not {}",
                kind(other)
            )),
        }
    }

    fn parse_keys(object: &Map<String, Value>, allowed: &[&str]) -> Result<Self, String> {
        if let Some(key) = object.keys().find(|key| !allowed.contains(&key.as_str())) {
            return Err(format!(
                "unknown key {key:?} (expected {})",
                allowed.join(", ")
            ));
        }
        let text = |key: &str| match object.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.as_str())),
            Some(other) => Err(format!("{key:?} must be a string, not {}", kind(other))),
        };
        let step = Self {
            scenario: text("scenario")?.map(str::to_string),
            delay: text("delay")?.map(str::parse).transpose()?,
            fault: text("fault")?.map(str::parse).transpose()?,
            rate: match object.get("rate") {
                None | Some(Value::Null) => None,
                Some(Value::Number(n)) => match n.as_f64() {
                    Some(rate) if (0.0..=1.0).contains(&rate) => Some(rate),
                    _ => return Err(format!("\"rate\" must be between 0 and 1, not {n}")),
                },
                Some(other) => {
                    return Err(format!("\"rate\" must be a number, not {}", kind(other)));
                }
            },
        };
        if step.rate.is_some() && step.fault.is_none() {
            return Err("\"rate\" needs a \"fault\" to apply to".to_string());
        }
        Ok(step)
    }
}

/// One entry of the overrides file: what applies to every call of the tool (`each`) and, when
/// there is a sequence, what applies to each successive call, the last step repeating.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Control {
    pub each: Step,
    pub sequence: Vec<Step>,
}

impl Control {
    /// SPEC §6: the tool answers with this scenario.
    pub fn scenario(name: impl Into<String>) -> Self {
        Self {
            each: Step::scenario(name),
            sequence: Vec::new(),
        }
    }

    /// Reads an entry: a scenario name, an array of steps, or an object of `scenario`,
    /// `sequence`, `delay`, `fault` and `rate`. The `"*"` entry takes only the last three.
    pub fn parse(tool: &str, value: &Value) -> Result<Self, String> {
        let default = tool == DEFAULT_ENTRY;
        let control = match value {
            Value::String(_) | Value::Array(_) if default => {
                return Err(
                    "the \"*\" entry is an object of \"delay\", \"fault\" and \"rate\"".to_string(),
                );
            }
            Value::String(name) => Self::scenario(name.clone()),
            Value::Array(steps) => Self {
                each: Step::default(),
                sequence: parse_sequence(steps)?,
            },
            Value::Object(object) => {
                let allowed: &[&str] = if default {
                    &["delay", "fault", "rate"]
                } else {
                    &["scenario", "sequence", "delay", "fault", "rate"]
                };
                if let Some(key) = object.keys().find(|key| !allowed.contains(&key.as_str())) {
                    return Err(format!(
                        "unknown key {key:?} (expected {})",
                        allowed.join(", ")
                    ));
                }
                let sequence = match object.get("sequence") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(steps)) => parse_sequence(steps)?,
                    Some(other) => {
                        return Err(format!(
                            "\"sequence\" must be an array, not {}",
                            kind(other)
                        ));
                    }
                };
                let mut each_keys = object.clone();
                each_keys.remove("sequence");
                let each = Step::parse_keys(&each_keys, allowed)?;
                if each.scenario.is_some() && !sequence.is_empty() {
                    return Err("\"scenario\" and \"sequence\" cannot both be set".to_string());
                }
                Self { each, sequence }
            }
            other => {
                return Err(format!(
                    "an entry is a scenario name, an array of steps or an object, not {}",
                    kind(other)
                ));
            }
        };
        Ok(control)
    }

    /// The entry as the overrides file holds it, in its shortest form: a name, an array, or
    /// an object.
    pub fn to_value(&self) -> Value {
        let each_empty = self.each == Step::default();
        if self.sequence.is_empty() && self.each.is_only_scenario() {
            return self.each.to_value();
        }
        if each_empty && !self.sequence.is_empty() {
            return Value::Array(self.sequence.iter().map(Step::to_value).collect());
        }
        let mut object = Map::new();
        self.each.write_keys(&mut object);
        if !self.sequence.is_empty() {
            object.insert(
                "sequence".into(),
                Value::Array(self.sequence.iter().map(Step::to_value).collect()),
            );
        }
        Value::Object(object)
    }

    /// The step that applies to the call at `position` (0 is a session's first call).
    pub fn step_at(&self, position: u64) -> Option<(usize, &Step)> {
        let last = self.sequence.len().checked_sub(1)?;
        let index = usize::try_from(position).unwrap_or(usize::MAX).min(last);
        Some((index, &self.sequence[index]))
    }

    /// Every scenario name the entry forces, for checking them against the tool's file.
    pub fn scenario_names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(&self.each)
            .chain(&self.sequence)
            .filter_map(|step| step.scenario.as_deref())
    }
}

fn parse_sequence(steps: &[Value]) -> Result<Vec<Step>, String> {
    if steps.is_empty() {
        return Err("a sequence needs at least one step".to_string());
    }
    steps
        .iter()
        .enumerate()
        .map(|(index, step)| {
            Step::parse(step).map_err(|error| format!("step {}: {error}", index + 1))
        })
        .collect()
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// An entry that cannot be used, and why; it is skipped, the others apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub tool: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "overrides entry {:?} ignored: {}",
            self.tool, self.message
        )
    }
}

/// A tool's entry together with its text, which tells when it changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub control: Control,
    /// The entry's compact JSON as the file has it: a sequence starts again when it changes.
    pub text: String,
}

/// Every usable entry of the overrides file, and the problems of the others.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Controls {
    entries: BTreeMap<String, Entry>,
    pub problems: Vec<Problem>,
}

impl Controls {
    pub fn from_overrides(overrides: &Overrides) -> Self {
        let mut controls = Self::default();
        for (tool, value) in overrides {
            match Control::parse(tool, value) {
                Ok(control) => {
                    let entry = Entry {
                        control,
                        text: value.to_string(),
                    };
                    controls.entries.insert(tool.clone(), entry);
                }
                Err(message) => controls.problems.push(Problem {
                    tool: tool.clone(),
                    message,
                }),
            }
        }
        controls
    }

    /// The tool's own entry (never the `"*"` one).
    pub fn tool(&self, tool: &str) -> Option<&Entry> {
        (tool != DEFAULT_ENTRY)
            .then(|| self.entries.get(tool))
            .flatten()
    }

    /// The `"*"` entry.
    pub fn default_entry(&self) -> Option<&Entry> {
        self.entries.get(DEFAULT_ENTRY)
    }

    /// Every usable entry, `"*"` included, by name.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.entries
            .iter()
            .map(|(tool, entry)| (tool.as_str(), entry))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn entries_in_every_form() {
        let cases: Vec<(&str, Value, Control)> = vec![
            ("t", json!("gone"), Control::scenario("gone")),
            (
                "t",
                json!(["a", {"fault": "http-503"}, {"scenario": "b", "delay": "2s"}]),
                Control {
                    each: Step::default(),
                    sequence: vec![
                        Step::scenario("a"),
                        Step::fault(Fault::Http503),
                        Step {
                            delay: Some(Delay::fixed(ms(2000))),
                            ..Step::scenario("b")
                        },
                    ],
                },
            ),
            (
                "t",
                json!({"delay": "200ms..1.5s", "fault": "hang", "rate": 0.25}),
                Control {
                    each: Step {
                        scenario: None,
                        delay: Some(Delay {
                            min: ms(200),
                            max: ms(1500),
                        }),
                        fault: Some(Fault::Hang),
                        rate: Some(0.25),
                    },
                    sequence: Vec::new(),
                },
            ),
            (
                "t",
                json!({"delay": "1m", "sequence": ["a", "b"]}),
                Control {
                    each: Step {
                        delay: Some(Delay::fixed(ms(60_000))),
                        ..Step::default()
                    },
                    sequence: vec![Step::scenario("a"), Step::scenario("b")],
                },
            ),
            (
                "*",
                json!({"fault": "internal-error", "rate": 0.0}),
                Control {
                    each: Step {
                        fault: Some(Fault::InternalError),
                        rate: Some(0.0),
                        ..Step::default()
                    },
                    sequence: Vec::new(),
                },
            ),
        ];
        for (tool, value, want) in cases {
            let control = Control::parse(tool, &value).unwrap_or_else(|e| panic!("{value}: {e}"));
            assert_eq!(control, want, "{value}");
            assert_eq!(control.to_value(), value, "written back in the same form");
        }
    }

    #[test]
    fn bad_entries_say_why() {
        let cases = [
            ("t", json!(5), "not a number"),
            ("t", json!([]), "at least one step"),
            ("t", json!([1]), "step 1"),
            ("t", json!({"delay": "soon"}), "malformed delay"),
            ("t", json!({"delay": "2s..1s"}), "ends before it starts"),
            ("t", json!({"delay": "2h"}), "longer than an hour"),
            ("t", json!({"fault": "http-500"}), "unknown fault"),
            ("t", json!({"fault": "drop", "rate": 2}), "between 0 and 1"),
            ("t", json!({"rate": 0.5}), "needs a \"fault\""),
            (
                "t",
                json!({"scenario": "a", "sequence": ["b"]}),
                "cannot both",
            ),
            ("t", json!({"scenari": "a"}), "unknown key \"scenari\""),
            ("t", json!({"sequence": "a"}), "must be an array"),
            ("*", json!("a"), "the \"*\" entry"),
            ("*", json!({"scenario": "a"}), "unknown key \"scenario\""),
        ];
        for (tool, value, want) in cases {
            let error = Control::parse(tool, &value).expect_err(&value.to_string());
            assert!(error.contains(want), "{value}: {error}");
        }
    }

    #[test]
    fn one_bad_entry_leaves_the_others() {
        let overrides: Overrides = serde_json::from_value(json!({
            "a": "x", "b": {"fault": "nope"}, "*": {"delay": "1s"}
        }))
        .unwrap();
        let controls = Controls::from_overrides(&overrides);
        assert_eq!(controls.tool("a").unwrap().control, Control::scenario("x"));
        assert!(controls.tool("b").is_none());
        assert!(controls.tool("*").is_none(), "\"*\" is no tool's own entry");
        assert!(controls.default_entry().is_some());
        assert_eq!(controls.problems.len(), 1);
        assert_eq!(controls.problems[0].tool, "b");
    }

    #[test]
    fn the_last_step_repeats() {
        let control = Control::parse("t", &json!(["a", "b"])).unwrap();
        let names: Vec<usize> = (0..4).map(|p| control.step_at(p).unwrap().0).collect();
        assert_eq!(names, [0, 1, 1, 1]);
        assert!(Control::scenario("a").step_at(0).is_none());
    }

    #[test]
    fn a_delay_prints_as_the_one_printer_writes_it_and_reads_back() {
        // The grammar of the delays earlier versions read: decimals, units up to hours.
        let earlier = regex::Regex::new(r"^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$").unwrap();
        let cases = [
            (Delay::fixed(ms(1_500)), "1.5s"),
            (Delay::fixed(ms(2_000)), "2s"),
            (Delay::fixed(ms(90_000)), "1m30s"),
            (Delay::fixed(ms(0)), "0s"),
            (Delay::fixed(MAX_DELAY), "1h"),
            (
                Delay {
                    min: ms(200),
                    max: ms(1_500),
                },
                "200ms..1.5s",
            ),
        ];
        for (delay, want) in cases {
            assert_eq!(delay.to_string(), want);
        }
        let lengths = (0..=2_000).chain((0..=3_600).map(|s| s * 1_000 + s % 1_000));
        for length in lengths.map(ms).filter(|&length| length <= MAX_DELAY) {
            let text = Delay::fixed(length).to_string();
            assert_eq!(text.parse::<Delay>(), Ok(Delay::fixed(length)), "{text}");
            assert!(
                earlier.is_match(&text),
                "{text} is not read by earlier versions"
            );
        }
    }

    #[test]
    fn a_range_covers_both_ends() {
        let delay: Delay = "200ms..1500ms".parse().unwrap();
        assert_eq!(delay.at(0.0), ms(200));
        assert_eq!(delay.at(0.999_999_9), ms(1500));
        assert_eq!(delay.to_string(), "200ms..1.5s");
        assert_eq!("90s".parse::<Delay>().unwrap().to_string(), "1m30s");
    }
}
