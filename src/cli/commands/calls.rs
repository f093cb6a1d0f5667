//! `careem-mcp calls`: the call journal as a table or JSON, filtered, followed live, or cleared.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, bail};
use comfy_table::{ColumnConstraint, Width};

use crate::cli::args::CallsArgs;
use crate::cli::printable::{clipped, printable};
use crate::cli::{Status, printer};
use crate::engine::{ProjectLayout, Recent, absolute, journal};

pub fn run(layout: &ProjectLayout, args: &CallsArgs) -> anyhow::Result<Status> {
    let path = &layout.journal;
    if args.clear {
        journal::clear(path).with_context(|| format!("cannot clear {}", path.display()))?;
        eprintln!("cleared {}", path.display());
        return Ok(Status::Success);
    }
    let recent = journal::recent(path, args.last, |entry| keep(args, entry))
        .with_context(|| format!("cannot read {}", path.display()))?;
    // "No calls" must not pass a test when nothing was ever journalled here; `--follow` waits
    // for the first call instead.
    if !recent.found && !args.follow {
        bail!(
            "no journal at {}: no call has been journalled there. A server started with \
             --no-journal or another --journal, or one that cannot open this file (its banner \
             says so), writes none",
            absolute(path).display()
        );
    }
    let entries = &recent.entries;
    if args.json {
        printer::out(&serde_json::to_string_pretty(entries)?)?;
        return Ok(Status::Success);
    }
    let mut table = printer::table(&["time", "tool", "scenario", "forced", "arguments", "error"]);
    // A timestamp stays on one line, however narrow the terminal.
    if printer::stdout_is_terminal()
        && let Some(time) = table.column_mut(0)
    {
        time.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(TIME_WIDTH)));
    }
    for entry in entries {
        table.add_row(row(entry));
    }
    printer::out(&table.to_string())?;
    if args.follow {
        follow(path, args, recent)?;
    }
    Ok(Status::Success)
}

fn keep(args: &CallsArgs, entry: &journal::Entry) -> bool {
    args.tool.as_ref().is_none_or(|t| &entry.tool == t)
        && args
            .session
            .as_ref()
            .is_none_or(|s| entry.session.as_ref() == Some(s))
}

/// A journal timestamp (`2026-12-03T17:56:42.134Z`) and the cell's padding.
const TIME_WIDTH: u16 = 26;

/// The longest a tool name or the arguments may be in a cell, escapes included.
const CELL_MAX: usize = 60;

/// One call as cells, each escaped for the terminal (a journal is written by other processes,
/// and a tool name or argument by any client); the tool and arguments clipped.
fn row(entry: &journal::Entry) -> Vec<String> {
    let cell = |text: &str| printable(text).into_owned();
    vec![
        cell(&entry.time),
        clipped(&printable(&entry.tool), CELL_MAX),
        entry.scenario.as_deref().map_or_else(|| "-".into(), cell),
        if entry.forced {
            "yes".into()
        } else {
            String::new()
        },
        clipped(&printable(&entry.received.to_string()), CELL_MAX),
        if entry.is_error {
            "isError".into()
        } else {
            String::new()
        },
    ]
}

/// Prints each new call as it is journalled, one whole row at a time, until interrupted;
/// carries on from the start of the file when the journal is cleared or rotated.
fn follow(path: &Path, args: &CallsArgs, recent: Recent) -> anyhow::Result<()> {
    let mut follower = recent
        .follow()
        .with_context(|| format!("cannot open {}", path.display()))?;
    loop {
        let lines = follower
            .poll()
            .with_context(|| format!("cannot read {}", path.display()))?;
        if lines.is_empty() {
            std::thread::sleep(Duration::from_millis(200));
        }
        for line in lines {
            if let Some(entry) = journal::parse(&line)
                && keep(args, &entry)
            {
                printer::out(&row(&entry).join("  "))?;
            }
        }
    }
}
