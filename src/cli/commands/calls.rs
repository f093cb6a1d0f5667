//! `careem-mcp calls`: the call journal as a table or JSON, filtered, followed live, or cleared.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, bail};
use comfy_table::{ColumnConstraint, Width};
use serde::Serialize;

use crate::cli::args::CallsArgs;
use crate::cli::printable::{clipped, printable};
use crate::cli::{Status, printer};
use crate::engine::journal::{Entry, JournalWatch};
use crate::engine::{ProjectLayout, Recent, RunName, absolute, journal, runs};

/// The journal of `layout` (the run's, when `run` is named), or every run's with `--all-runs`.
pub fn run(
    project: &ProjectLayout,
    layout: &ProjectLayout,
    run: Option<&RunName>,
    args: &CallsArgs,
) -> anyhow::Result<Status> {
    if args.all_runs {
        if let Some(run) = run {
            bail!("--all-runs reads every run's journal; leave out --run {run}");
        }
        return all_runs(project, args);
    }
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
    say_gaps(path, &recent.gaps);
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
    let mut gaps = recent.gaps.iter().peekable();
    for (at, entry) in entries.iter().enumerate() {
        while let Some((_, gap)) = gaps.next_if(|(before, _)| *before <= at) {
            table.add_row(gap_row(gap));
        }
        table.add_row(row(entry));
    }
    for (_, gap) in gaps {
        table.add_row(gap_row(gap));
    }
    printer::out(&table.to_string())?;
    if args.follow {
        follow(path, args, recent)?;
    }
    Ok(Status::Success)
}

/// The default run's journal and every run's, merged by time, each entry with its run.
fn all_runs(project: &ProjectLayout, args: &CallsArgs) -> anyhow::Result<Status> {
    let runs_dir = project.runs_dir();
    let runs =
        runs::list(&runs_dir).with_context(|| format!("cannot list {}", runs_dir.display()))?;
    let mut entries = Vec::new();
    for run in std::iter::once(None).chain(runs.iter().map(Some)) {
        let path = run.map_or_else(|| project.journal.clone(), |r| project.for_run(r).journal);
        let recent = journal::recent(&path, args.last, |entry| keep(args, entry))
            .with_context(|| format!("cannot read {}", path.display()))?;
        say_gaps(&path, &recent.gaps);
        entries.extend(
            recent
                .entries
                .into_iter()
                .map(|entry| RunEntry { run, entry }),
        );
    }
    // RFC 3339 times in UTC with a fixed precision sort as text; the sort is stable, so one
    // journal's entries of the same millisecond keep their order.
    entries.sort_by(|a, b| a.entry.time.cmp(&b.entry.time));
    if let Some(last) = args.last {
        entries.drain(..entries.len().saturating_sub(last));
    }
    if args.json {
        printer::out(&serde_json::to_string_pretty(&entries)?)?;
        return Ok(Status::Success);
    }
    let mut table = printer::table(&[
        "run",
        "time",
        "tool",
        "scenario",
        "forced",
        "arguments",
        "error",
    ]);
    for RunEntry { run, entry } in &entries {
        let mut cells = vec![run.map_or_else(|| DEFAULT_RUN.to_string(), ToString::to_string)];
        cells.extend(row(entry));
        table.add_row(cells);
    }
    printer::out(&table.to_string())?;
    Ok(Status::Success)
}

/// How the table names the default run: parentheses are in no run's name.
const DEFAULT_RUN: &str = "(default)";

/// A journal entry with the run it was made in (`null` for the default run).
#[derive(Serialize)]
struct RunEntry<'a> {
    run: Option<&'a RunName>,
    #[serde(flatten)]
    entry: Entry,
}

fn keep(args: &CallsArgs, entry: &Entry) -> bool {
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

/// Says on stderr how many calls the writer of the journal at `path` could not journal.
fn say_gaps(path: &Path, gaps: &[(usize, journal::Gap)]) {
    let lost: u64 = gaps.iter().map(|(_, gap)| gap.lost).sum();
    if lost > 0 {
        eprintln!(
            "careem-mcp: {lost} calls are missing from {}: its writer could not write them \
             (a full disk, a folder that was gone)",
            absolute(path).display()
        );
    }
}

/// The row that marks where the writer lost lines.
fn gap_row(gap: &journal::Gap) -> Vec<String> {
    vec![
        printable(&gap.time).into_owned(),
        format!("({} calls missing)", gap.lost),
        "-".into(),
        String::new(),
        "not journalled: the journal could not be written".into(),
        String::new(),
    ]
}

/// How long `--follow` waits for a change before it looks anyway.
const LOOK_AGAIN: Duration = Duration::from_secs(2);

/// Prints each new call as it is journalled, one whole row at a time, until interrupted;
/// carries on from the start of the file when the journal is cleared or rotated. It looks
/// when the journal's folder changes ([`JournalWatch`]), and every [`LOOK_AGAIN`] besides.
fn follow(path: &Path, args: &CallsArgs, recent: Recent) -> anyhow::Result<()> {
    let mut follower = recent
        .follow()
        .with_context(|| format!("cannot open {}", path.display()))?;
    let (changed, change) = std::sync::mpsc::sync_channel(1);
    let watch = JournalWatch::new(path, move || {
        let _ = changed.try_send(());
    });
    let wait = match &watch {
        Ok(_) => LOOK_AGAIN,
        Err(error) => {
            tracing::warn!(
                "cannot watch {}: {error}; looking every 200 ms",
                path.display()
            );
            Duration::from_millis(200)
        }
    };
    loop {
        let lines = follower
            .poll()
            .with_context(|| format!("cannot read {}", path.display()))?;
        if lines.is_empty() {
            let _ = change.recv_timeout(wait);
        }
        for line in lines {
            if let Some(entry) = journal::parse(&line)
                && keep(args, &entry)
            {
                printer::out(&row(&entry).join("  "))?;
            } else if let Some(gap) = journal::parse_gap(&line) {
                printer::out(&gap_row(&gap).join("  "))?;
            }
        }
    }
}
