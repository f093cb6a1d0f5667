//! `careem-mcp clock [set|advance|real]`: the run's clock, shown or moved.

use anyhow::{Context, bail};

use crate::cli::args::ClockChange;
use crate::cli::{Status, duration, printer};
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
            format!("clock: {now} (real time + {})", duration::words(seconds))
        }
    }
}
