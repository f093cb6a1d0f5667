//! `careem-mcp clock [set|advance|real]`: the run's clock, shown or moved through the same
//! function the admin API moves it with ([`move_clock`]).

use crate::admin::{ClockMove, clock_now, move_clock};
use crate::cli::args::ClockChange;
use crate::cli::{Status, printer};
use crate::engine::duration::{self, Unit};
use crate::engine::{ClockFile, ClockSetting, ProjectLayout};

pub fn run(layout: &ProjectLayout, change: Option<ClockChange>) -> anyhow::Result<Status> {
    let clock = ClockFile::of(&layout.run_files());
    let Some(change) = change else {
        return print(clock.setting());
    };
    print(move_clock(&clock, &clock_move(change))?)
}

/// Prints the clock set so, here or through the API.
pub fn print(setting: Option<ClockSetting>) -> anyhow::Result<Status> {
    printer::out(&describe(setting))?;
    Ok(Status::Success)
}

/// The command line's change as the API names it.
pub fn clock_move(change: ClockChange) -> ClockMove {
    match change {
        ClockChange::Set { at } => ClockMove::Set(at),
        ClockChange::Advance { by } => ClockMove::Advance(by),
        ClockChange::Real => ClockMove::Real,
    }
}

/// The clock in one line: the time it tells and why.
fn describe(setting: Option<ClockSetting>) -> String {
    let now = clock_now(setting).format("%Y-%m-%dT%H:%M:%SZ");
    match setting {
        None => format!("clock: {now} (real time)"),
        Some(ClockSetting::Frozen(_)) => format!("clock: {now} (frozen)"),
        Some(ClockSetting::Offset(seconds)) => {
            format!(
                "clock: {now} (real time + {})",
                duration::words(seconds.saturating_mul(1_000), Unit::Day)
            )
        }
    }
}
