//! `careem-mcp record`: an upstream's answer to one call written as a scenario of that tool's
//! file. The scenario is named from the tool and the arguments, matches the arguments as the
//! agent sent them, and holds the answer (`json response`, or `json error` for `isError`);
//! times near now become `{{now±…}}` placeholders and named fields are masked on request. An
//! answer already recorded for the same match is not written again, and none is written that
//! would take the file past what `serve` reads. Each recording reads, adds to and writes back
//! its file under a lock on the file's folder, so that two `record` processes on one project
//! never lose each other's scenarios.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use chrono::{DateTime, SecondsFormat, TimeDelta, Utc};
use serde_json::{Map, Value};

use crate::engine::atomic_file;
use crate::engine::file_lock::FileLock;
use crate::engine::safe_read::TOOL_FILE_LIMIT;
use crate::engine::toolfile::{self, ToolFile};

/// Held while a file is read, added to and written back, by the threads of this process; the
/// lock on the file's folder ([`FileLock::on_folder`]) keeps other processes out.
static WRITING: Mutex<()> = Mutex::new(());
/// How near now a time must be to become a placeholder.
const NEAR: TimeDelta = TimeDelta::days(2);
/// What a masked string becomes.
const MASK: &str = "[redacted]";
/// The longest scenario name made from arguments, before a `-2` that keeps it unique.
const NAME_LIMIT: usize = 72;

/// How recordings are cleaned before they are written.
#[derive(Debug, Clone, Default)]
pub struct RecordOptions {
    /// Turn RFC 3339 times within two days of `now` into `{{now±…}}` placeholders.
    pub template_times: bool,
    /// Keys (any case) whose values are masked wherever they appear in an answer.
    pub redact: Vec<String>,
}

/// One answer to record.
#[derive(Debug, Clone)]
pub struct Recording<'a> {
    pub tool: &'a str,
    /// The arguments as the agent sent them.
    pub arguments: &'a Map<String, Value>,
    /// The answer's value: its `structuredContent`, or its text when that is JSON.
    pub answer: &'a Value,
    pub is_error: bool,
    /// The time the answer's times are measured from.
    pub now: DateTime<Utc>,
}

/// What recording one answer did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stored {
    /// A new scenario was written to the file.
    Written { scenario: String, path: PathBuf },
    /// The file already holds a scenario with this match; nothing was written.
    Known { scenario: String, path: PathBuf },
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("cannot read {}", .0.display())]
    Read(PathBuf, #[source] std::io::Error),
    #[error("cannot write {}", .0.display())]
    Write(PathBuf, #[source] std::io::Error),
    #[error("the answer has `{{{{`, which a scenario would read as a placeholder")]
    Braces,
    #[error("{}: the recorded scenario would not parse: {message}", path.display())]
    Unparsable { path: PathBuf, message: String },
    #[error(
        "{}: the scenario would make the file {size} bytes, past the {} bytes `serve` reads",
        path.display(),
        TOOL_FILE_LIMIT
    )]
    TooLarge { path: PathBuf, size: usize },
    #[error("cannot lock {} for the recording", .0.display())]
    Lock(PathBuf, #[source] std::io::Error),
}

/// Records `recording` in the tool file at `path`: read from `source` (the project's file)
/// when `path` does not exist yet (a copy kept apart, `--into`), then written atomically with
/// the new scenario first among the scenarios, so that it wins over broader rules.
pub fn record(
    source: &Path,
    path: &Path,
    recording: &Recording<'_>,
    options: &RecordOptions,
) -> Result<Stored, RecordError> {
    // One recording at a time: each reads a file, adds to it and writes it back, and reads it
    // only once it holds the locks, so that it adds to what the last writer left.
    let _turn = WRITING.lock().unwrap_or_else(PoisonError::into_inner);
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| RecordError::Write(path.to_path_buf(), e))?;
    let _folder = FileLock::on_folder(dir).map_err(|e| RecordError::Lock(dir.to_path_buf(), e))?;
    let from = if path.exists() { path } else { source };
    let text =
        std::fs::read_to_string(from).map_err(|e| RecordError::Read(from.to_path_buf(), e))?;
    let rule = match_rule(&Value::Object(recording.arguments.clone()));
    let parsed = toolfile::parse(path, &text);
    if let Some(known) = parsed
        .file
        .scenarios
        .iter()
        .find(|s| s.rule.as_ref() == Some(&rule))
    {
        return Ok(Stored::Known {
            scenario: known.name.clone(),
            path: path.to_path_buf(),
        });
    }
    let mut answer = recording.answer.clone();
    redact(&mut answer, &options.redact);
    if has_braces(&answer) {
        return Err(RecordError::Braces);
    }
    if options.template_times {
        template_times(&mut answer, recording.now);
    }
    let name = unique_name(
        &parsed.file,
        &base_name(recording.tool, recording.arguments),
    );
    let section = scenario_section(&name, &rule, &answer, recording.is_error);
    let updated = insert_scenario(&text, &section);
    let check = toolfile::parse(path, &updated);
    if let Some(problem) = check
        .diagnostics
        .iter()
        .find(|d| !parsed.diagnostics.contains(d))
    {
        return Err(RecordError::Unparsable {
            path: path.to_path_buf(),
            message: problem.message.clone(),
        });
    }
    if u64::try_from(updated.len()).map_or(true, |size| size > TOOL_FILE_LIMIT) {
        return Err(RecordError::TooLarge {
            path: path.to_path_buf(),
            size: updated.len(),
        });
    }
    atomic_file::write(path, updated.as_bytes())
        .map_err(|e| RecordError::Write(path.to_path_buf(), e))?;
    Ok(Stored::Written {
        scenario: name,
        path: path.to_path_buf(),
    })
}

/// The arguments as a match rule that only they satisfy as sent: a string the rule syntax
/// would read as a pattern (`*`, `~…`, `=…`) is written `=…`.
fn match_rule(value: &Value) -> Value {
    match value {
        Value::String(text) if text == "*" || text.starts_with(['~', '=']) => {
            Value::String(format!("={text}"))
        }
        Value::Array(items) => Value::Array(items.iter().map(match_rule).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), match_rule(value)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `reverse-geocode-25-0866-55-1474`: the tool and the argument values, in kebab case.
fn base_name(tool: &str, arguments: &Map<String, Value>) -> String {
    let mut words = vec![tool.to_string()];
    collect_words(&Value::Object(arguments.clone()), &mut words);
    let mut name = String::new();
    for c in words.join("-").chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() {
            name.push(c);
        } else if !name.ends_with('-') && !name.is_empty() {
            name.push('-');
        }
    }
    let mut name = name.trim_end_matches('-').to_string();
    if name.len() > NAME_LIMIT {
        name.truncate(NAME_LIMIT);
        name = name.trim_end_matches('-').to_string();
    }
    name
}

fn collect_words(value: &Value, words: &mut Vec<String>) {
    match value {
        Value::Object(map) => map.values().for_each(|v| collect_words(v, words)),
        Value::Array(items) => items.iter().for_each(|v| collect_words(v, words)),
        Value::String(text) => words.push(text.clone()),
        Value::Null => {}
        other => words.push(other.to_string()),
    }
}

/// `base`, or `base-2`, `base-3`, … when the file has that name already (names compare
/// without case).
fn unique_name(file: &ToolFile, base: &str) -> String {
    let taken = |name: &str| {
        file.scenarios
            .iter()
            .any(|s| s.name.eq_ignore_ascii_case(name))
    };
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|name| !taken(name))
        .unwrap_or_default()
}

fn scenario_section(name: &str, rule: &Value, answer: &Value, is_error: bool) -> String {
    let pretty = |value: &Value| serde_json::to_string_pretty(value).unwrap_or_default();
    let kind = if is_error { "error" } else { "response" };
    format!(
        "## Scenario: {name}\n\nRecorded from the upstream by `careem-mcp record`: its answer to \
         these arguments.\n\n```json match\n{}\n```\n\n```json {kind}\n{}\n```\n\n",
        rule,
        pretty(answer)
    )
}

/// `text` with `section` before its first `## Scenario:` heading (outside fenced blocks), or
/// at its end when it has none; every other byte as it was.
fn insert_scenario(text: &str, section: &str) -> String {
    let mut offset = 0;
    let mut in_fence = false;
    for line in text.split_inclusive('\n') {
        if line.starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence && line.starts_with("## Scenario:") {
            return format!("{}{section}{}", &text[..offset], &text[offset..]);
        }
        offset += line.len();
    }
    let gap = if text.ends_with("\n\n") {
        ""
    } else if text.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    format!(
        "{text}{gap}{}",
        section.trim_end_matches('\n').to_string() + "\n"
    )
}

/// Masks the value of every key in `fields` (any case), wherever it is: strings become
/// `[redacted]`, numbers 0; objects and arrays are masked throughout.
fn redact(value: &mut Value, fields: &[String]) {
    if fields.is_empty() {
        return;
    }
    match value {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if fields.iter().any(|f| f.eq_ignore_ascii_case(key)) {
                    mask(value);
                } else {
                    redact(value, fields);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact(v, fields)),
        _ => {}
    }
}

fn mask(value: &mut Value) {
    match value {
        Value::String(text) => *text = MASK.to_string(),
        Value::Number(number) => *number = 0.into(),
        Value::Object(map) => map.values_mut().for_each(mask),
        Value::Array(items) => items.iter_mut().for_each(mask),
        Value::Bool(_) | Value::Null => {}
    }
}

fn has_braces(value: &Value) -> bool {
    match value {
        Value::String(text) => text.contains("{{"),
        Value::Object(map) => map.iter().any(|(k, v)| k.contains("{{") || has_braces(v)),
        Value::Array(items) => items.iter().any(has_braces),
        _ => false,
    }
}

/// Every string that is a time as `{{now}}` renders one (RFC 3339, whole seconds, `Z`) and
/// lies within two days of `now` becomes `{{now±…}}`, which renders it again when `now` is
/// the same and keeps it as near when it is not.
fn template_times(value: &mut Value, now: DateTime<Utc>) {
    match value {
        Value::String(text) => {
            if let Some(placeholder) = placeholder_for(text, now) {
                *text = placeholder;
            }
        }
        Value::Object(map) => map.values_mut().for_each(|v| template_times(v, now)),
        Value::Array(items) => items.iter_mut().for_each(|v| template_times(v, now)),
        _ => {}
    }
}

fn placeholder_for(text: &str, now: DateTime<Utc>) -> Option<String> {
    let time = DateTime::parse_from_rfc3339(text).ok()?.to_utc();
    if time.to_rfc3339_opts(SecondsFormat::Secs, true) != text {
        return None;
    }
    let now = DateTime::from_timestamp(now.timestamp(), 0)?;
    let offset = time - now;
    if offset.abs() > NEAR {
        return None;
    }
    let seconds = offset.num_seconds();
    if seconds == 0 {
        return Some("{{now}}".to_string());
    }
    let sign = if seconds < 0 { '-' } else { '+' };
    let mut rest = seconds.unsigned_abs();
    let mut parts = String::new();
    for (unit, size) in [("h", 3600), ("m", 60), ("s", 1)] {
        if rest >= size {
            parts.push_str(&format!("{}{unit}", rest / size));
            rest %= size;
        }
    }
    Some(format!("{{{{now{sign}{parts}}}}}"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::engine::toolfile::entropy::Entropy;
    use crate::engine::toolfile::template::{RenderContext, Template};

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text).unwrap().to_utc()
    }

    #[test]
    fn times_near_now_become_placeholders_that_render_them_again() {
        let now = at("2026-10-05T12:00:30.750Z");
        let cases = [
            ("2026-10-05T12:00:30Z", Some("{{now}}")),
            ("2026-10-05T12:15:30Z", Some("{{now+15m}}")),
            ("2026-10-05T10:59:00Z", Some("{{now-1h1m30s}}")),
            ("2026-10-07T11:00:30Z", Some("{{now+47h}}")),
            ("2026-10-08T12:00:30Z", None),
            ("2026-10-05T12:15:30.5Z", None),
            ("2026-10-05T16:15:30+04:00", None),
            ("not a time", None),
        ];
        for (text, want) in cases {
            let got = placeholder_for(text, now);
            assert_eq!(got.as_deref(), want, "{text}");
            if let Some(placeholder) = got {
                let template = Template::parse(&format!("\"{placeholder}\"")).unwrap();
                let (args, entropy) = (json!({}), Entropy::seeded(1));
                let context = RenderContext {
                    args: &args,
                    now,
                    entropy: &entropy,
                };
                assert_eq!(template.render(context).unwrap(), json!(text), "{text}");
            }
        }
    }

    #[test]
    fn rules_match_only_what_was_sent() {
        let cases = [
            (json!({"q": "*"}), json!({"q": "=*"})),
            (
                json!({"q": "~x", "r": "=y"}),
                json!({"q": "=~x", "r": "==y"}),
            ),
            (
                json!({"n": [1, "~a"], "o": {"s": "plain"}}),
                json!({"n": [1, "=~a"], "o": {"s": "plain"}}),
            ),
        ];
        for (arguments, want) in cases {
            assert_eq!(match_rule(&arguments), want, "{arguments}");
        }
    }

    #[test]
    fn names_come_from_the_tool_and_the_arguments() {
        let cases = [
            (
                json!({"latitude": 25.0866, "longitude": 55.1474}),
                "reverse-geocode-25-0866-55-1474",
            ),
            (json!({}), "reverse-geocode"),
            (
                json!({"query": "Café  Sushi!", "limit": null}),
                "reverse-geocode-caf-sushi",
            ),
            (
                json!({"q": "x".repeat(100)}),
                &*format!("reverse-geocode-{}", "x".repeat(56)),
            ),
        ];
        for (arguments, want) in cases {
            let Value::Object(map) = arguments else {
                unreachable!()
            };
            assert_eq!(base_name("reverse_geocode", &map), want);
        }
    }

    #[test]
    fn named_fields_are_masked_anywhere() {
        let mut value = json!({"user": {"Phone": "+971", "email": "a@b", "n": 5}, "list": [{"phone": 1}], "kept": "x"});
        redact(&mut value, &["phone".to_string(), "EMAIL".to_string()]);
        assert_eq!(
            value,
            json!({"user": {"Phone": MASK, "email": MASK, "n": 5}, "list": [{"phone": 0}], "kept": "x"})
        );
    }

    #[test]
    fn a_scenario_goes_before_the_first_scenario_and_nothing_else_moves() {
        let cases = [
            (
                "a\n```\n## Scenario: x\n```\n## Scenario: b\nrest\n",
                "a\n```\n## Scenario: x\n```\nNEW\n## Scenario: b\nrest\n",
            ),
            ("a\n", "a\n\nNEW\n"),
            ("a", "a\n\nNEW\n"),
        ];
        for (text, want) in cases {
            assert_eq!(insert_scenario(text, "NEW\n"), want, "{text:?}");
        }
    }
}
