//! Times in a computed value written back as SPEC's placeholders (SPEC §3 "Placeholders"), so
//! that an exported answer tells the time of the call that gets it, as the computed one does.
//!
//! A value is read at the clock's `now`. Every time the world writes is a distance from now,
//! so every time near now becomes `now±distance`: an RFC 3339 time, Unix seconds or
//! milliseconds (as a number, or as digits in a text), and, in Asia/Dubai, a date, a day label
//! (`Mon, 5th Oct`), an `HH:MM` and a weekday. The times of a value that sit on slot boundaries (5
//! minutes to an hour) that now does not sit on are written rounded to the widest boundary
//! they share (`now+40m@20m`), so that they stay on it, and a slot keeps its length, at any
//! other time. The words of a time (an `HH:MM`, a day label) are
//! taken as the time they show only when the value holds that time too (an `opensAt` beside
//! `opens at 17:00`); a weekday only when a time beside it in the same object falls on it; a
//! date is any date within the window.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use regex::Regex;
use serde_json::Value;

use super::echo::{self, Probe, Probed};
use super::node::{Node, Piece};
use crate::engine::duration::{self, Unit};
use crate::engine::toolfile::entropy::Entropy;
use crate::engine::toolfile::placeholder::Expr;

/// How far from now a time may be and still be taken for one: the world's times are hours
/// and days away (a membership half a year back), its ids and amounts nowhere near.
const WINDOW_SECONDS: i64 = 400 * 86_400;
/// The boundaries a rounded time may sit on, widest first: an hour down to five minutes.
const ROUNDINGS_MS: [i64; 6] = [3_600_000, 1_800_000, 1_200_000, 900_000, 600_000, 300_000];

/// The pieces of a text that may be a time, leftmost first.
static PIECE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?P<iso>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)",
        r"|(?P<date>\b\d{4}-\d{2}-\d{2}\b)",
        r"|(?P<label>\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2}(?:st|nd|rd|th) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b)",
        r"|(?P<ms>\b\d{13}\b)",
        r"|(?P<secs>\b\d{10}\b)",
        r"|(?P<hhmm>\b(?:[01]\d|2[0-3]):[0-5]\d\b)",
    ))
    .expect("the time pieces pattern is valid")
});
static WEEKDAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day$").expect("weekday pattern is valid")
});

/// The clock a value was computed at, and the times the value holds.
pub struct Times {
    now_ms: i64,
    /// Every time (Unix seconds) the value holds near now, and now itself.
    anchors: Vec<i64>,
    /// The boundaries (milliseconds) that the value's rounded times sit on and now does not.
    grid: Option<i64>,
}

/// The kinds of SPEC placeholder a time is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Base {
    Now,
    Unix,
    UnixMs,
}

/// A Dubai-local way of writing a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Local {
    Date,
    Weekday,
    Hhmm,
    DayLabel,
}

impl Local {
    fn word(self) -> &'static str {
        match self {
            Self::Date => "date",
            Self::Weekday => "weekday",
            Self::Hhmm => "hhmm",
            Self::DayLabel => "daylabel",
        }
    }
}

impl Times {
    /// The times `value` holds, read at `now`.
    pub fn of(value: &Value, now: DateTime<Utc>) -> Self {
        let mut times = Self {
            now_ms: now.timestamp_millis(),
            anchors: vec![now.timestamp()],
            grid: None,
        };
        let mut found = Vec::new();
        times.collect(value, &mut found);
        times.grid = grid(&found, times.now_seconds());
        times.anchors.extend(found);
        times
    }

    fn now_seconds(&self) -> i64 {
        self.now_ms.div_euclid(1_000)
    }

    fn collect(&self, value: &Value, found: &mut Vec<i64>) {
        match value {
            Value::String(text) => {
                for caps in PIECE.captures_iter(text) {
                    let time = if let Some(iso) = caps.name("iso") {
                        self.iso(iso.as_str())
                    } else if let Some(digits) = caps.name("secs").or(caps.name("ms")) {
                        self.number(digits.as_str().parse().unwrap_or_default())
                            .map(|(seconds, _)| seconds)
                    } else {
                        None
                    };
                    found.extend(time);
                }
            }
            Value::Number(number) => {
                found.extend(number.as_i64().and_then(|n| self.number(n)).map(|(s, _)| s));
            }
            Value::Array(items) => items.iter().for_each(|item| self.collect(item, found)),
            Value::Object(map) => map.values().for_each(|item| self.collect(item, found)),
            Value::Bool(_) | Value::Null => {}
        }
    }

    /// An RFC 3339 time as `{{now}}` writes one, near now: its Unix seconds.
    fn iso(&self, text: &str) -> Option<i64> {
        let seconds = DateTime::parse_from_rfc3339(text).ok()?.timestamp();
        self.near(seconds).then_some(seconds)
    }

    /// A number that is Unix seconds or milliseconds near now: its seconds and its base.
    fn number(&self, number: i64) -> Option<(i64, Base)> {
        if self.near(number) {
            Some((number, Base::Unix))
        } else {
            let seconds = number.div_euclid(1_000);
            self.near(seconds).then_some((seconds, Base::UnixMs))
        }
    }

    fn near(&self, seconds: i64) -> bool {
        (seconds - self.now_seconds()).abs() <= WINDOW_SECONDS
    }

    /// `value` as a template: each time near now a placeholder.
    pub fn template(&self, value: &Value) -> Node {
        self.node(value, None).0
    }

    /// As [`Times::template`], with each echo of an argument that `probes` show (rendered as
    /// `probed`) an `{{args.…}}` placeholder.
    pub fn template_echoing(&self, value: &Value, probed: Probed<'_>, probes: &[Probe]) -> Node {
        self.node(value, Some((probed, probes))).0
    }

    /// The node of `value`, and the times it holds (for a weekday beside them).
    fn node(&self, value: &Value, echoes: Option<(Probed<'_>, &[Probe])>) -> (Node, Vec<i64>) {
        if let Some(node) = echoes.and_then(|(probed, probes)| echo::echo(value, probed, probes)) {
            return (node, Vec::new());
        }
        match value {
            Value::String(text) => self.text(text),
            Value::Number(number) => match number.as_i64().and_then(|n| self.number(n)) {
                Some((seconds, base)) => {
                    let at_ms = if base == Base::UnixMs {
                        number.as_i64().unwrap_or_default()
                    } else {
                        seconds * 1_000
                    };
                    (
                        Node::Bare(self.expression(base, at_ms, None)),
                        vec![seconds],
                    )
                }
                None => (Node::Literal(value.clone()), Vec::new()),
            },
            Value::Array(items) => {
                let (nodes, times): (Vec<_>, Vec<_>) = items
                    .iter()
                    .enumerate()
                    .map(|(index, item)| {
                        let inner = echoes.and_then(|(probed, probes)| {
                            Some((probed.at_index(index, items.len())?, probes))
                        });
                        self.node(item, inner)
                    })
                    .unzip();
                (Node::Array(nodes), times.concat())
            }
            Value::Object(map) => {
                let mut entries: Vec<(String, Option<Node>)> = Vec::new();
                let mut beside = Vec::new();
                for (key, item) in map {
                    if item.as_str().is_some_and(|text| WEEKDAY.is_match(text)) {
                        entries.push((key.clone(), None));
                        continue;
                    }
                    let inner =
                        echoes.and_then(|(probed, probes)| Some((probed.at_key(key)?, probes)));
                    let (node, times) = self.node(item, inner);
                    beside.extend(times);
                    entries.push((key.clone(), Some(node)));
                }
                let entries = entries
                    .into_iter()
                    .map(|(key, node)| {
                        let node = node.unwrap_or_else(|| {
                            let weekday = map[&key].as_str().unwrap_or_default();
                            self.weekday(weekday, &beside)
                        });
                        (key, node)
                    })
                    .collect();
                (Node::Object(entries), beside)
            }
            Value::Bool(_) | Value::Null => (Node::Literal(value.clone()), Vec::new()),
        }
    }

    /// A weekday's name as the weekday of the nearest time beside it that falls on it.
    fn weekday(&self, text: &str, beside: &[i64]) -> Node {
        let found = self.nearest(beside.iter().copied(), |at| {
            local(at, Local::Weekday).as_deref() == Some(text)
        });
        match found {
            Some(at) => Node::Text(vec![Piece::Placeholder(self.expression(
                Base::Now,
                at * 1_000,
                Some(Local::Weekday),
            ))]),
            None => Node::Literal(Value::String(text.to_string())),
        }
    }

    /// A text with its times as placeholders, and the times it holds.
    fn text(&self, text: &str) -> (Node, Vec<i64>) {
        let mut pieces = Vec::new();
        let mut times = Vec::new();
        let mut last = 0;
        for caps in PIECE.captures_iter(text) {
            let whole = caps.get(0).expect("a match has a whole");
            let before = text[..whole.start()].chars().next_back();
            let after = text[whole.end()..].chars().next();
            let Some((expression, at)) = self.piece(&caps, before, after) else {
                continue;
            };
            pieces.push(Piece::Text(text[last..whole.start()].to_string()));
            pieces.push(Piece::Placeholder(expression));
            times.push(at);
            last = whole.end();
        }
        if times.is_empty() {
            return (Node::Literal(Value::String(text.to_string())), times);
        }
        pieces.push(Piece::Text(text[last..].to_string()));
        pieces.retain(|piece| !matches!(piece, Piece::Text(t) if t.is_empty()));
        (Node::Text(pieces), times)
    }

    /// The placeholder for one piece of a text, and the time it shows; `None` leaves it as
    /// written.
    fn piece(
        &self,
        caps: &regex::Captures<'_>,
        before: Option<char>,
        after: Option<char>,
    ) -> Option<(String, i64)> {
        if let Some(iso) = caps.name("iso") {
            let at = self.iso(iso.as_str())?;
            return Some((self.expression(Base::Now, at * 1_000, None), at));
        }
        if let Some(digits) = caps.name("ms").or(caps.name("secs")) {
            let number: i64 = digits.as_str().parse().ok()?;
            let (at, base) = self.number(number)?;
            let at_ms = if base == Base::UnixMs {
                number
            } else {
                at * 1_000
            };
            return Some((self.expression(base, at_ms, None), at));
        }
        let (text, format) = if let Some(date) = caps.name("date") {
            // A date that goes on into a time (`2026-10-05T16:00:00+04:00`) is not one alone.
            if after == Some('T') {
                return None;
            }
            (date.as_str(), Local::Date)
        } else if let Some(label) = caps.name("label") {
            (label.as_str(), Local::DayLabel)
        } else {
            // `+04:00` is an offset, `12:00:30` a time with seconds: not a Dubai `HH:MM`.
            if matches!(before, Some('+' | '-' | ':' | 'T')) || after == Some(':') {
                return None;
            }
            (caps.name("hhmm")?.as_str(), Local::Hhmm)
        };
        let shows = |at: i64| local(at, format).as_deref() == Some(text);
        let at = self
            .nearest(self.anchors.iter().copied(), shows)
            .or_else(|| match format {
                Local::Date => self.whole_days(shows),
                Local::DayLabel => self.whole_days(shows),
                Local::Hhmm | Local::Weekday => None,
            })?;
        Some((self.expression(Base::Now, at * 1_000, Some(format)), at))
    }

    /// The time a whole number of days from now that `shows` a date or a day label.
    fn whole_days(&self, shows: impl Fn(i64) -> bool) -> Option<i64> {
        let days = WINDOW_SECONDS / 86_400;
        (0..=days)
            .flat_map(|n| [n, -n])
            .map(|n| self.now_seconds() + n * 86_400)
            .find(|&at| shows(at))
    }

    /// Of `times`, the one nearest now for which `wanted` holds.
    fn nearest(
        &self,
        times: impl Iterator<Item = i64>,
        wanted: impl Fn(i64) -> bool,
    ) -> Option<i64> {
        times
            .filter(|&at| wanted(at))
            .min_by_key(|&at| (at - self.now_seconds()).abs())
    }

    /// The placeholder expression that gives `at_ms` when rendered at this clock's now: a
    /// distance from now, rounded down to a boundary when `at_ms` is on one that now is not.
    fn expression(&self, base: Base, at_ms: i64, format: Option<Local>) -> String {
        let whole_now_ms = self.now_seconds() * 1_000;
        let rounding = self.grid.filter(|&step| at_ms % step == 0);
        let (distance, round) = match rounding {
            Some(step) => (at_ms - self.now_ms.div_euclid(step) * step, Some(step)),
            None if base == Base::UnixMs => (at_ms - self.now_ms, None),
            None => (at_ms - whole_now_ms, None),
        };
        let mut expression = match base {
            Base::Now => "now",
            Base::Unix => "unix",
            Base::UnixMs => "unixms",
        }
        .to_string();
        if distance != 0 {
            expression.push(if distance < 0 { '-' } else { '+' });
            expression.push_str(&duration::words(distance.saturating_abs(), Unit::Hour));
        }
        if let Some(step) = round {
            expression.push('@');
            expression.push_str(&duration::words(step, Unit::Hour));
        }
        if let Some(format) = format {
            expression.push('|');
            expression.push_str(format.word());
        }
        debug_assert!(Expr::parse(&expression).is_ok(), "{expression}");
        expression
    }
}

/// The widest boundary (milliseconds) that every time on a boundary sits on and `now` (Unix
/// seconds) does not: one grid for a whole value, so that its slots keep their length at any
/// other time. A time not on a boundary is a plain distance from now, and so is every time when
/// now is on the grid itself (a clock frozen at 12:00:00 tells a slot from a distance no more).
fn grid(times: &[i64], now: i64) -> Option<i64> {
    let finest = ROUNDINGS_MS[ROUNDINGS_MS.len() - 1];
    let common = times
        .iter()
        .map(|at| at * 1_000)
        .filter(|at| at % finest == 0)
        .fold(0, gcd);
    ROUNDINGS_MS
        .into_iter()
        .find(|&step| common != 0 && common % step == 0 && (now * 1_000) % step != 0)
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// `at` (Unix seconds) written in Asia/Dubai as SPEC's `|format` writes it.
fn local(at: i64, format: Local) -> Option<String> {
    let expression = Expr::parse(&format!("now|{}", format.word())).ok()?;
    let at = DateTime::from_timestamp(at, 0)?;
    match expression.evaluate(&Value::Null, at, &Entropy::default()) {
        Value::String(text) => Some(text),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::engine::toolfile::template::{RenderContext, Template};

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text).unwrap().to_utc()
    }

    /// Each value's template at 12:07:13Z (16:07 in Dubai), and the same template rendering
    /// the value again at that clock.
    #[test]
    fn times_near_now_become_placeholders_that_render_them_again() {
        let now = at("2026-10-05T12:07:13Z");
        let cases = [
            (
                json!({"at": "2026-10-05T12:22:13Z"}),
                r#"{"at": "{{now+15m}}"}"#,
            ),
            (
                json!({"at": "2025-01-01T00:00:00Z"}),
                r#"{"at": "2025-01-01T00:00:00Z"}"#,
            ),
            (
                json!({"start": "2026-10-05T13:00:00Z", "end": "2026-10-05T13:20:00Z"}),
                r#"{"start": "{{now+1h@20m}}","end": "{{now+1h20m@20m}}"}"#,
            ),
            (
                json!({"opensAt": "2026-10-05T13:00:00Z", "label": "opens at 17:00, not 09:00"}),
                r#"{"opensAt": "{{now+1h@1h}}","label": "opens at {{now+1h@1h|hhmm}}, not 09:00"}"#,
            ),
            (
                json!({"on": "2026-10-19", "day": "Monday", "other": "Sunday"}),
                r#"{"on": "{{now+336h|date}}","day": "{{now+336h|weekday}}","other": "Sunday"}"#,
            ),
            (
                json!({"label": "Mon, 5th Oct"}),
                r#"{"label": "{{now|daylabel}}"}"#,
            ),
            (
                json!({"unix": 1_791_202_033, "ms": 1_791_202_033_000_i64, "id": 880_001}),
                r#"{"unix": {{unix}},"ms": {{unixms}},"id": 880001}"#,
            ),
            (json!("EST-1791202033-42"), r#""EST-{{unix}}-42""#),
            (json!("16:07:13 +04:00"), r#""16:07:13 +04:00""#),
        ];
        for (value, want) in cases {
            let template = Times::of(&value, now).template(&value).to_template();
            let compact: String = template.lines().map(str::trim).collect();
            assert_eq!(compact, want, "{value}");
            let context = RenderContext {
                args: &Value::Null,
                now,
                entropy: &Entropy::default(),
            };
            let again = Template::parse(&template).unwrap().render(context).unwrap();
            assert_eq!(again, value, "{template}");
        }
    }

    #[test]
    fn a_clock_on_the_grid_writes_plain_distances() {
        let now = at("2026-10-05T12:00:00Z");
        let value = json!({"start": "2026-10-05T13:00:00Z", "end": "2026-10-05T13:20:00Z"});
        let template = Times::of(&value, now).template(&value).to_template();
        let compact: String = template.lines().map(str::trim).collect();
        assert_eq!(compact, r#"{"start": "{{now+1h}}","end": "{{now+1h20m}}"}"#);
    }
}
