//! The expressions inside `{{ … }}` (SPEC §3 "Placeholders"): parsed once when a file is
//! loaded, evaluated on every render.

use std::sync::LazyLock;

use chrono::{DateTime, Datelike, TimeZone, Utc};
use chrono_tz::Asia::Dubai;
use regex::Regex;
use serde_json::Value;

use super::entropy::Entropy;
use crate::engine::duration;

/// A parsed placeholder expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// `args.a.b.0.c`: a walk through the call's arguments.
    Arg(Vec<String>),
    Time(TimeExpr),
    Uuid,
    /// `rand:MIN-MAX`, inclusive.
    Rand(u64, u64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeBase {
    Now,
    Unix,
    UnixMs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeFormat {
    Date,
    Weekday,
    Hhmm,
    DayLabel,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeExpr {
    pub base: TimeBase,
    pub offset_ms: i64,
    pub round_ms: Option<i64>,
    pub format: Option<TimeFormat>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown placeholder expression {0:?}")]
pub struct UnknownExpr(pub String);

static TIME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(now|unixms|unix)(?:([+-])([0-9.a-z]+))?(?:@([0-9.a-z]+))?(?:\|(date|weekday|hhmm|daylabel))?$",
    )
    .expect("time pattern is valid")
});
static RAND: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^rand:([0-9]+)-([0-9]+)$").expect("rand pattern is valid"));

impl Expr {
    pub fn parse(text: &str) -> Result<Self, UnknownExpr> {
        let unknown = || UnknownExpr(text.to_string());
        if text == "uuid" {
            return Ok(Expr::Uuid);
        }
        if let Some(path) = text.strip_prefix("args.") {
            let parts: Vec<String> = path.split('.').map(str::to_string).collect();
            if parts.iter().any(String::is_empty) {
                return Err(unknown());
            }
            return Ok(Expr::Arg(parts));
        }
        if let Some(caps) = RAND.captures(text) {
            let min: u64 = caps[1].parse().map_err(|_| unknown())?;
            let max: u64 = caps[2].parse().map_err(|_| unknown())?;
            return if min <= max {
                Ok(Expr::Rand(min, max))
            } else {
                Err(unknown())
            };
        }
        let caps = TIME.captures(text).ok_or_else(unknown)?;
        let base = match &caps[1] {
            "now" => TimeBase::Now,
            "unix" => TimeBase::Unix,
            _ => TimeBase::UnixMs,
        };
        let mut offset_ms = match caps.get(3) {
            Some(d) => duration::parse(d.as_str()).map_err(|_| unknown())?,
            None => 0,
        };
        if caps.get(2).is_some_and(|sign| sign.as_str() == "-") {
            offset_ms = -offset_ms;
        }
        let round_ms = match caps.get(4) {
            Some(d) => Some(
                duration::parse(d.as_str())
                    .ok()
                    .filter(|&ms| ms > 0)
                    .ok_or_else(unknown)?,
            ),
            None => None,
        };
        let format = caps.get(5).map(|f| match f.as_str() {
            "date" => TimeFormat::Date,
            "weekday" => TimeFormat::Weekday,
            "hhmm" => TimeFormat::Hhmm,
            _ => TimeFormat::DayLabel,
        });
        if format.is_some() && base != TimeBase::Now {
            return Err(unknown());
        }
        Ok(Expr::Time(TimeExpr {
            base,
            offset_ms,
            round_ms,
            format,
        }))
    }

    /// The value as JSON; strings are inserted as text or as a JSON string by the caller.
    pub fn evaluate(&self, args: &Value, now: DateTime<Utc>, entropy: &Entropy) -> Value {
        match self {
            Expr::Arg(path) => walk(args, path).cloned().unwrap_or(Value::Null),
            Expr::Time(t) => t.evaluate(now),
            Expr::Uuid => Value::String(entropy.uuid().to_string()),
            Expr::Rand(min, max) => Value::from(entropy.in_range(*min, *max)),
        }
    }
}

fn walk<'a>(mut value: &'a Value, path: &[String]) -> Option<&'a Value> {
    for key in path {
        value = match value {
            Value::Object(map) => map.get(key)?,
            Value::Array(items) => items.get(key.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(value)
}

impl TimeExpr {
    fn evaluate(&self, now: DateTime<Utc>) -> Value {
        // Saturating: an absurd duration in a file (`now+99999999999999h`) must not overflow;
        // a time chrono cannot show falls back to `now` below.
        let mut ms = now.timestamp_millis().saturating_add(self.offset_ms);
        if let Some(step) = self.round_ms {
            ms = ms.div_euclid(step).saturating_mul(step);
        }
        match self.base {
            TimeBase::Unix => Value::from(ms.div_euclid(1_000)),
            TimeBase::UnixMs => Value::from(ms),
            TimeBase::Now => {
                let secs = ms.div_euclid(1_000);
                let at = Utc.timestamp_opt(secs, 0).single().unwrap_or(now);
                Value::String(match self.format {
                    None => at.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
                    Some(format) => format_local(at, format),
                })
            }
        }
    }
}

fn format_local(at: DateTime<Utc>, format: TimeFormat) -> String {
    let local = at.with_timezone(&Dubai);
    match format {
        TimeFormat::Date => local.format("%Y-%m-%d").to_string(),
        TimeFormat::Weekday => local.format("%A").to_string(),
        TimeFormat::Hhmm => local.format("%H:%M").to_string(),
        TimeFormat::DayLabel => {
            let day = local.day();
            format!(
                "{}, {day}{} {}",
                local.format("%a"),
                ordinal_suffix(day),
                local.format("%b")
            )
        }
    }
}

fn ordinal_suffix(day: u32) -> &'static str {
    match (day % 10, day % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    fn eval(expr: &str, now: &str) -> Value {
        let entropy = Entropy::seeded(7);
        Expr::parse(expr)
            .unwrap()
            .evaluate(&json!({"a": {"b": [{"c": 5}]}}), at(now), &entropy)
    }

    #[test]
    fn every_time_form_with_a_fixed_clock() {
        let now = "2026-10-05T12:00:30.750Z";
        let cases = [
            ("now", json!("2026-10-05T12:00:30Z")),
            ("now+15m", json!("2026-10-05T12:15:30Z")),
            ("now-2h", json!("2026-10-05T10:00:30Z")),
            ("now+1h30m", json!("2026-10-05T13:30:30Z")),
            ("now+1.5h", json!("2026-10-05T13:30:30Z")),
            ("now+500ms", json!("2026-10-05T12:00:31Z")),
            ("now+2d", json!("2026-10-07T12:00:30Z")),
            ("now+1d12h|date", json!("2026-10-07")),
            ("now+10s", json!("2026-10-05T12:00:40Z")),
            ("now+2h@20m", json!("2026-10-05T14:00:00Z")),
            ("now+25m@20m", json!("2026-10-05T12:20:00Z")),
            ("now@1h", json!("2026-10-05T12:00:00Z")),
            ("now+24h|date", json!("2026-10-06")),
            ("now+12h|date", json!("2026-10-06")),
            ("now|weekday", json!("Monday")),
            ("now|hhmm", json!("16:00")),
            ("now+2h@20m|hhmm", json!("18:00")),
            ("now+96h|daylabel", json!("Fri, 9th Oct")),
            ("unix", json!(1_791_201_630)),
            ("unix+30m", json!(1_791_203_430)),
            ("unixms", json!(1_791_201_630_750_i64)),
            ("unixms+30m", json!(1_791_203_430_750_i64)),
        ];
        for (expr, want) in cases {
            assert_eq!(eval(expr, now), want, "{expr}");
        }
    }

    /// Days of the month and their English ordinals, for every rule: the teens, and 1, 2 and 3
    /// after them. The world's jq prelude (`ordinal`) is held to the same table.
    pub(crate) const ORDINALS: [(u32, &str); 11] = [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (23, "23rd"),
        (31, "31st"),
    ];

    #[test]
    fn daylabel_suffixes() {
        for (day, want) in ORDINALS {
            let now = format!("2026-10-{day:02}T08:00:00Z");
            let label = eval("now|daylabel", &now);
            assert!(
                label.as_str().unwrap().contains(&format!(" {want} Oct")),
                "{day}: {label}"
            );
        }
    }

    #[test]
    fn arguments_walk_keys_and_indexes() {
        let now = "2026-10-05T12:00:00Z";
        assert_eq!(eval("args.a.b.0.c", now), json!(5));
        assert_eq!(eval("args.a.b.1.c", now), json!(null));
        assert_eq!(eval("args.missing", now), json!(null));
        assert_eq!(eval("args.a.b.x", now), json!(null));
    }

    #[test]
    fn rand_is_inclusive_and_uuid_is_v4() {
        let entropy = Entropy::seeded(1);
        let expr = Expr::parse("rand:3-4").unwrap();
        let seen: std::collections::BTreeSet<u64> = (0..200)
            .map(|_| {
                expr.evaluate(&json!({}), Utc::now(), &entropy)
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![3, 4]);
        let id = Expr::Uuid.evaluate(&json!({}), Utc::now(), &entropy);
        let parsed = uuid::Uuid::parse_str(id.as_str().unwrap()).unwrap();
        assert_eq!(parsed.get_version_num(), 4);
    }

    #[test]
    fn huge_durations_saturate_instead_of_overflowing() {
        let now = "2026-10-05T12:00:00Z";
        for expr in [
            "now+99999999999999999999h",
            "now-99999999999999999999h",
            "now+99999999999999999999h@7ms",
            "now-99999999999999999999h@7ms",
            "unix+99999999999999999999h",
            "unixms-99999999999999999999h@3ms",
            "now+99999999999999999999h|daylabel",
        ] {
            let value = eval(expr, now);
            assert!(value.is_string() || value.is_i64(), "{expr}: {value}");
        }
    }

    #[test]
    fn unknown_expressions_are_errors() {
        for bad in [
            "now+1w",
            "now+",
            "nowish",
            "unix|date",
            "args.",
            "args..a",
            "rand:5-1",
            "rand:-1-3",
            "uuid4",
            "now@0m",
            "now+1h|time",
            "",
            "today",
        ] {
            assert!(Expr::parse(bad).is_err(), "{bad} should be unknown");
        }
    }
}
