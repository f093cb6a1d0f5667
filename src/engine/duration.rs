//! The one grammar of a length of time, and its one printer, for every place a duration is
//! written: a placeholder's offset and rounding (`{{now+1h30m}}`, `{{now+2h@20m}}`), a delay in
//! the overrides file, `clock advance`, a task's start, and every duration option of the CLI.
//!
//! A duration is one or more parts, each a number (decimals allowed: `1.5h`) and a unit:
//! `d` (24 hours), `h`, `m`, `s` or `ms`; `500ms`, `90s`, `90m`, `1h30m`, `2d`. No sign and no
//! space inside: a reader that takes a sign (a placeholder's `now-2h`) reads it first. A reader
//! that counts coarser than a millisecond (the clock and the options, in whole seconds) refuses
//! what it cannot keep with [`DurationError::TooFine`] rather than round it away
//! ([`parse_in`]). docs/FORMAT.md, "Durations", is the grammar's one description.

/// The units of the grammar, finest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unit {
    Millisecond,
    Second,
    Minute,
    Hour,
    Day,
}

impl Unit {
    /// Every unit, largest first: the order the printer writes them in.
    const LARGEST_FIRST: [Self; 5] = [
        Self::Day,
        Self::Hour,
        Self::Minute,
        Self::Second,
        Self::Millisecond,
    ];

    /// The unit's length in milliseconds.
    pub const fn millis(self) -> i64 {
        match self {
            Self::Millisecond => 1,
            Self::Second => 1_000,
            Self::Minute => 60_000,
            Self::Hour => 3_600_000,
            Self::Day => 86_400_000,
        }
    }

    /// How a duration writes the unit.
    pub const fn suffix(self) -> &'static str {
        match self {
            Self::Millisecond => "ms",
            Self::Second => "s",
            Self::Minute => "m",
            Self::Hour => "h",
            Self::Day => "d",
        }
    }

    /// The unit as its name says it, in the plural.
    const fn plural(self) -> &'static str {
        match self {
            Self::Millisecond => "milliseconds",
            Self::Second => "seconds",
            Self::Minute => "minutes",
            Self::Hour => "hours",
            Self::Day => "days",
        }
    }

    fn from_suffix(text: &str) -> Option<Self> {
        Self::LARGEST_FIRST
            .into_iter()
            .find(|unit| unit.suffix() == text)
    }
}

/// Why a text is not a duration its reader takes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    #[error("an empty duration")]
    Empty,
    #[error(
        "{0:?} is not a duration: use numbers with units d, h, m, s or ms (for example 500ms, \
         90s, 1h30m or 2d)"
    )]
    Malformed(String),
    /// A duration finer than its reader keeps: `reader` names it (`the clock`).
    #[error("{text:?} is finer than {reader} keeps: it counts whole {}", finest.plural())]
    TooFine {
        text: String,
        finest: Unit,
        reader: &'static str,
    },
}

/// The duration `text` says, in milliseconds; one past what an `i64` holds saturates (a
/// placeholder's `now+99999999999999h` is a time far off, not an error). Space around it is
/// ignored.
pub fn parse(text: &str) -> Result<i64, DurationError> {
    // `as` saturates: a duration past an `i64` of milliseconds is the longest one.
    millis(text).map(|ms| ms.round() as i64)
}

/// [`parse`] for a reader (`reader` names it in the error) that counts in whole `finest`
/// units: a duration that is not a whole number of them is refused, never rounded.
pub fn parse_in(text: &str, finest: Unit, reader: &'static str) -> Result<i64, DurationError> {
    let raw = millis(text)?;
    // `as` saturates: a duration past an `i64` of milliseconds is the longest one.
    let ms = raw.round() as i64;
    // A fraction of a millisecond is finer than every reader keeps (the bound only absorbs
    // a decimal's float error: `0.1h` is whole). A duration that saturated is past every
    // reader's longest: its reader refuses it so.
    let whole_ms = (raw - raw.round()).abs() < 1e-6;
    if (whole_ms && ms % finest.millis() == 0) || ms == i64::MAX {
        Ok(ms)
    } else {
        Err(DurationError::TooFine {
            text: text.trim().to_string(),
            finest,
            reader,
        })
    }
}

/// The milliseconds `text` says, unrounded.
fn millis(text: &str) -> Result<f64, DurationError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(DurationError::Empty);
    }
    let malformed = || DurationError::Malformed(text.to_string());
    let mut total = 0f64;
    let mut rest = trimmed;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let fraction = match rest[digits..].strip_prefix('.') {
            Some(after) => 1 + after.bytes().take_while(u8::is_ascii_digit).count(),
            None => 0,
        };
        if digits == 0 || fraction == 1 {
            return Err(malformed());
        }
        let amount: f64 = rest[..digits + fraction].parse().map_err(|_| malformed())?;
        rest = &rest[digits + fraction..];
        let letters = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        let unit = Unit::from_suffix(&rest[..letters]).ok_or_else(malformed)?;
        rest = &rest[letters..];
        total += amount * unit.millis() as f64;
    }
    Ok(total)
}

/// `ms` as the grammar writes it, largest units first and none larger than `largest`: `1h30m`,
/// `45s`, `2d3h`, `-10m`; `0s` for none. A part of a second is a decimal of the seconds, as a
/// person writes it (`1.5s`, `1m30.25s`), or milliseconds where there are no whole seconds to
/// carry it (`500ms`, `1h500ms`): both read back as the same duration, and by the delay readers
/// of earlier versions too. The CLI writes up to days; a placeholder up to hours, the largest
/// unit SPEC's placeholders name.
pub fn words(ms: i64, largest: Unit) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let mut rest = ms.unsigned_abs();
    let mut text = String::new();
    for unit in Unit::LARGEST_FIRST
        .into_iter()
        .filter(|&unit| Unit::Second < unit && unit <= largest)
    {
        let size = unit.millis().unsigned_abs();
        if rest >= size {
            text.push_str(&format!("{}{}", rest / size, unit.suffix()));
            rest %= size;
        }
    }
    let second = Unit::Second.millis().unsigned_abs();
    let (seconds, fraction) = if largest < Unit::Second {
        (0, rest)
    } else {
        (rest / second, rest % second)
    };
    match (seconds, fraction) {
        (0, 0) if text.is_empty() => text.push_str("0s"),
        (0, 0) => {}
        (0, fraction) => text.push_str(&format!("{fraction}ms")),
        (seconds, 0) => text.push_str(&format!("{seconds}s")),
        (seconds, fraction) => {
            let decimals = format!("{fraction:03}");
            text.push_str(&format!("{seconds}.{}s", decimals.trim_end_matches('0')));
        }
    }
    format!("{sign}{text}")
}

/// A delay of `ms` as [`words`] writes it, in the units the delay readers of every version
/// take: none larger than an hour, the longest delay.
pub fn delay_words(ms: u64) -> String {
    words(i64::try_from(ms).unwrap_or(i64::MAX), Unit::Hour)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar() {
        let malformed = |text: &str| Err(DurationError::Malformed(text.to_string()));
        let cases: [(&str, Result<i64, DurationError>); 21] = [
            ("500ms", Ok(500)),
            ("90s", Ok(90_000)),
            ("90m", Ok(5_400_000)),
            ("1h30m", Ok(5_400_000)),
            ("2d", Ok(172_800_000)),
            ("1d2h3m4s5ms", Ok(93_784_005)),
            ("30m1h", Ok(5_400_000)),
            ("1.5h", Ok(5_400_000)),
            ("0.5s", Ok(500)),
            ("0s", Ok(0)),
            (" 45s ", Ok(45_000)),
            ("99999999999999999999h", Ok(i64::MAX)),
            ("", Err(DurationError::Empty)),
            ("soon", malformed("soon")),
            ("5", malformed("5")),
            ("5x", malformed("5x")),
            ("1h 30m", malformed("1h 30m")),
            ("-5m", malformed("-5m")),
            (".5h", malformed(".5h")),
            ("5.h", malformed("5.h")),
            ("1H", malformed("1H")),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text), want, "{text:?}");
        }
    }

    #[test]
    fn a_reader_in_whole_seconds_refuses_what_it_cannot_keep() {
        let too_fine = |text: &str| {
            Err(DurationError::TooFine {
                text: text.to_string(),
                finest: Unit::Second,
                reader: "the clock",
            })
        };
        let cases = [
            ("2d", Ok(172_800_000)),
            ("1000ms", Ok(1_000)),
            ("1.5m", Ok(90_000)),
            ("1.1m", Ok(66_000)),
            ("99999999999999999999h", Ok(i64::MAX)),
            ("500ms", too_fine("500ms")),
            ("1s500ms", too_fine("1s500ms")),
            ("0.5s", too_fine("0.5s")),
            ("0.1h", Ok(360_000)),
            ("0.4ms", too_fine("0.4ms")),
            ("1000.4ms", too_fine("1000.4ms")),
        ];
        for (text, want) in cases {
            assert_eq!(parse_in(text, Unit::Second, "the clock"), want, "{text:?}");
        }
        assert_eq!(
            too_fine("500ms").unwrap_err().to_string(),
            "\"500ms\" is finer than the clock keeps: it counts whole seconds"
        );
    }

    #[test]
    fn the_printer_writes_largest_units_first_and_reads_back() {
        let cases = [
            (0, Unit::Day, "0s"),
            (45_000, Unit::Day, "45s"),
            (5_400_000, Unit::Day, "1h30m"),
            (86_400_000, Unit::Day, "1d"),
            (93_784_005, Unit::Day, "1d2h3m4.005s"),
            (-600_000, Unit::Day, "-10m"),
            (1_500, Unit::Day, "1.5s"),
            (-1_500, Unit::Day, "-1.5s"),
            (1_250, Unit::Day, "1.25s"),
            (1_001, Unit::Day, "1.001s"),
            (500, Unit::Day, "500ms"),
            (1, Unit::Day, "1ms"),
            (90_250, Unit::Day, "1m30.25s"),
            (3_600_500, Unit::Day, "1h500ms"),
            (1_209_600_000, Unit::Hour, "336h"),
            (3_630_500, Unit::Hour, "1h30.5s"),
            (1_500, Unit::Millisecond, "1500ms"),
            (i64::MIN, Unit::Day, "-106751991167d7h12m55.808s"),
        ];
        for (ms, largest, want) in cases {
            let text = words(ms, largest);
            assert_eq!(text, want, "{ms}");
            if ms >= 0 {
                assert_eq!(parse(&text), Ok(ms), "{text} reads back");
            }
        }
    }

    #[test]
    fn what_the_printer_writes_the_grammar_reads_back() {
        let steps = [
            1, 7, 250, 999, 1_000, 1_001, 59_999, 60_000, 3_599_999, 86_399_999,
        ];
        let mut values: Vec<i64> = (0..=2_500).collect();
        for step in steps {
            values.extend((1..=400).map(|n| n * step));
            values.extend((1..=400).map(|n| n * step + 1));
        }
        for ms in values {
            for largest in [Unit::Day, Unit::Hour, Unit::Second, Unit::Millisecond] {
                let text = words(ms, largest);
                assert_eq!(parse(&text), Ok(ms), "{ms} printed as {text}");
                if ms % 1_000 == 0 {
                    assert_eq!(parse_in(&text, Unit::Second, "the clock"), Ok(ms), "{text}");
                }
            }
        }
    }
}
