//! `careem-mcp clock [set|advance|real]`: the run's clock, shown or moved.

use anyhow::{Context, anyhow, bail};
use chrono::Utc;

use crate::cli::args::ClockChange;
use crate::cli::{Status, duration, printer};
use crate::engine::{
    CLOCK_LATEST, ClockFile, ClockSetting, ProjectLayout, absolute, parse_duration,
};

pub fn run(layout: &ProjectLayout, change: Option<ClockChange>) -> anyhow::Result<Status> {
    let clock = ClockFile::beside(&layout.overrides);
    let change = match change {
        None => {
            printer::out(&describe(clock.setting()))?;
            return Ok(Status::Success);
        }
        Some(change) => change,
    };
    let by = match &change {
        ClockChange::Advance { by } => match parse_duration(by) {
            Ok(duration) => Some((by.trim(), duration)),
            Err(why) => bail!("cannot advance the clock: {why}"),
        },
        _ => None,
    };
    let changed = clock
        .change(|setting| match (&change, by) {
            (ClockChange::Set { at }, _) => Ok(Some(ClockSetting::Frozen(*at))),
            (ClockChange::Advance { .. }, Some((words, by))) => setting
                .unwrap_or(ClockSetting::Offset(0))
                .advanced(by, Utc::now())
                .map(Some)
                .map_err(|_| {
                    anyhow!(
                        "cannot advance the clock by {words}: it would pass {CLOCK_LATEST}, the \
                         latest time a clock tells"
                    )
                }),
            _ => Ok(None),
        })
        .with_context(|| format!("cannot write {}", absolute(clock.path()).display()))?;
    printer::out(&describe(changed?))?;
    Ok(Status::Success)
}

/// The clock in one line: the time it tells and why.
fn describe(setting: Option<ClockSetting>) -> String {
    let real = Utc::now();
    let now = setting
        .and_then(|setting| setting.at(real))
        .unwrap_or(real)
        .format("%Y-%m-%dT%H:%M:%SZ");
    match setting {
        None => format!("clock: {now} (real time)"),
        Some(ClockSetting::Frozen(_)) => format!("clock: {now} (frozen)"),
        Some(ClockSetting::Offset(seconds)) => {
            format!("clock: {now} (real time + {})", duration::words(seconds))
        }
    }
}
