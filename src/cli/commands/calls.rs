//! `careem-mcp calls`: the call journal as a table or JSON, filtered, followed live, or cleared.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use comfy_table::{ColumnConstraint, Width};
use serde::Serialize;

use crate::cli::args::CallsArgs;
use crate::cli::printable::{clipped, printable};
use crate::cli::{Status, printer};
use crate::engine::journal::{Entry, Gap, JournalWatch};
use crate::engine::{ProjectLayout, Recent, RunName, absolute, journal, runs};

/// A run's journal as read, here or through the API: where it is (for messages), whether
/// there is one at all, its entries (filtered, oldest first) and where its writer lost lines.
pub struct Read {
    pub path: PathBuf,
    pub found: bool,
    pub entries: Vec<Entry>,
    /// Each gap with the index of the entry it comes before.
    pub gaps: Vec<(usize, Gap)>,
}

impl Read {
    /// The journal at `path`, as `args` filter it.
    fn of(path: &Path, args: &CallsArgs) -> anyhow::Result<(Self, Recent)> {
        let mut recent = journal::recent(path, args.last, |entry| keep(args, entry))
            .with_context(|| format!("cannot read {}", path.display()))?;
        let read = Self {
            path: absolute(path),
            found: recent.found,
            entries: std::mem::take(&mut recent.entries),
            gaps: std::mem::take(&mut recent.gaps),
        };
        Ok((read, recent))
    }
}

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
    let (read, recent) = Read::of(path, args)?;
    let status = print(&read, args)?;
    if args.follow {
        follow(path, args, recent)?;
    }
    Ok(status)
}

/// Prints a run's journal as `args` ask: a table, or JSON.
pub fn print(read: &Read, args: &CallsArgs) -> anyhow::Result<Status> {
    // "No calls" must not pass a test when nothing was ever journalled here; `--follow` waits
    // for the first call instead.
    if !read.found && !args.follow {
        bail!(
            "no journal at {}: no call has been journalled there. A server started with \
             --no-journal or another --journal, or one that cannot open this file (its banner \
             says so), writes none",
            read.path.display()
        );
    }
    say_gaps(&read.path, &read.gaps);
    if args.json {
        printer::out(&serde_json::to_string_pretty(&read.entries)?)?;
        return Ok(Status::Success);
    }
    let mut table = printer::table(&["time", "tool", "scenario", "forced", "arguments", "error"]);
    // A timestamp stays on one line, however narrow the terminal.
    if printer::stdout_is_terminal()
        && let Some(time) = table.column_mut(0)
    {
        time.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(TIME_WIDTH)));
    }
    let mut gaps = read.gaps.iter().peekable();
    for (at, entry) in read.entries.iter().enumerate() {
        while let Some((_, gap)) = gaps.next_if(|(before, _)| *before <= at) {
            table.add_row(gap_row(gap));
        }
        table.add_row(row(entry));
    }
    for (_, gap) in gaps {
        table.add_row(gap_row(gap));
    }
    printer::out(&table.to_string())?;
    Ok(Status::Success)
}

/// The default run's journal and every run's, merged by time, each entry with its run.
fn all_runs(project: &ProjectLayout, args: &CallsArgs) -> anyhow::Result<Status> {
    let runs_dir = project.runs_dir();
    let runs =
        runs::list(&runs_dir).with_context(|| format!("cannot list {}", runs_dir.display()))?;
    let mut read = Vec::new();
    for run in std::iter::once(None).chain(runs.into_iter().map(Some)) {
        let path = run
            .as_ref()
            .map_or_else(|| project.journal.clone(), |r| project.for_run(r).journal);
        read.push((run, Read::of(&path, args)?.0));
    }
    print_all_runs(read, args)
}

/// Prints every run's journal merged by time, each entry with its run.
pub fn print_all_runs(
    read: Vec<(Option<RunName>, Read)>,
    args: &CallsArgs,
) -> anyhow::Result<Status> {
    let mut entries = Vec::new();
    for (run, journal) in read {
        say_gaps(&journal.path, &journal.gaps);
        entries.extend(journal.entries.into_iter().map(|entry| RunEntry {
            run: run.clone(),
            entry,
        }));
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
        let mut cells = vec![
            run.as_ref()
                .map_or_else(|| DEFAULT_RUN.to_string(), ToString::to_string),
        ];
        cells.extend(row(entry));
        table.add_row(cells);
    }
    printer::out(&table.to_string())?;
    Ok(Status::Success)
}

/// The live stream's snapshot (the latest calls, newest first) as the table `calls --follow`
/// starts with, filtered as `args` say.
pub fn print_snapshot(snapshot: serde_json::Value, args: &CallsArgs) -> anyhow::Result<Status> {
    let mut entries = Vec::new();
    let mut gaps = Vec::new();
    let lines = serde_json::from_value::<Vec<serde_json::Value>>(snapshot).unwrap_or_default();
    for line in lines.into_iter().rev() {
        if let Ok(gap) = serde_json::from_value::<Gap>(line.clone()) {
            gaps.push((entries.len(), gap));
        } else if let Ok(entry) = serde_json::from_value::<Entry>(line)
            && keep(args, &entry)
        {
            entries.push(entry);
        }
    }
    if let Some(last) = args.last {
        let cut = entries.len().saturating_sub(last);
        entries.drain(..cut);
        gaps.retain(|(before, _)| *before >= cut);
        for (before, _) in &mut gaps {
            *before -= cut;
        }
    }
    let read = Read {
        path: PathBuf::new(),
        found: true,
        entries,
        gaps,
    };
    print(&read, args)
}

/// One line of the live stream as `calls --follow` prints it: a row, or where calls went
/// missing; nothing for a call `args` filter out.
pub fn print_line(line: &serde_json::Value, args: &CallsArgs) -> anyhow::Result<()> {
    if let Ok(gap) = serde_json::from_value::<Gap>(line.clone()) {
        printer::out(&gap_row(&gap).join("  "))?;
    } else if let Ok(entry) = serde_json::from_value::<Entry>(line.clone())
        && keep(args, &entry)
    {
        printer::out(&row(&entry).join("  "))?;
    }
    Ok(())
}

/// How the table names the default run: parentheses are in no run's name.
const DEFAULT_RUN: &str = "(default)";

/// A journal entry with the run it was made in (`null` for the default run).
#[derive(Serialize)]
struct RunEntry {
    run: Option<RunName>,
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
fn say_gaps(path: &Path, gaps: &[(usize, Gap)]) {
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
