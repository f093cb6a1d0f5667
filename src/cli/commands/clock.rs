//! `careem-mcp clock [set|advance|real]`: the run's clock, shown or moved.

use anyhow::{Context, bail};

use crate::cli::args::ClockChange;
use crate::cli::{Status, printer};
use crate::engine::{ClockFile, ClockSetting, ProjectLayout, absolute, parse_duration};

pub fn run(layout: &ProjectLayout, change: Option<ClockChange>) -> anyhow::Result<Status> {
    let clock = ClockFile::beside(&layout.overrides);
    let setting = match change {
        None => {
            printer::out(&describe(clock.setting(), &clock))?;
            return Ok(Status::Success);
        }
        Some(ClockChange::Set { at }) => Some(ClockSetting::Frozen(at)),
        Some(ClockChange::Advance { by }) => {
            let by = match parse_duration(&by) {
                Ok(by) => by,
                Err(why) => bail!("cannot advance the clock: {why}"),
            };
            Some(
                clock
                    .setting()
                    .unwrap_or(ClockSetting::Offset(0))
                    .advanced(by),
            )
        }
        Some(ClockChange::Real) => None,
    };
    clock
        .set(setting)
        .with_context(|| format!("cannot write {}", absolute(clock.path()).display()))?;
    printer::out(&describe(setting, &clock))?;
    Ok(Status::Success)
}

/// The clock in one line: the time it tells and why.
fn describe(setting: Option<ClockSetting>, clock: &ClockFile) -> String {
    let now = clock.now().format("%Y-%m-%dT%H:%M:%SZ");
    match setting {
        None => format!("clock: {now} (real time)"),
        Some(ClockSetting::Frozen(_)) => format!("clock: {now} (frozen)"),
        Some(ClockSetting::Offset(seconds)) => {
            format!("clock: {now} (real time + {})", words(seconds))
        }
    }
}

/// Seconds as `1h30m`, `45s`, `2d3h`.
fn words(seconds: i64) -> String {
    let sign = if seconds < 0 { "-" } else { "" };
    let mut rest = seconds.unsigned_abs();
    let mut text = String::new();
    for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] {
        if rest >= size {
            text.push_str(&format!("{}{unit}", rest / size));
            rest %= size;
        }
    }
    if text.is_empty() {
        text.push_str("0s");
    }
    format!("{sign}{text}")
}
