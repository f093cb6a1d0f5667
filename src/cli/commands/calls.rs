//! `careem-mcp calls`: the call journal as a table or JSON, filtered, followed live, or cleared.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;

use crate::cli::args::CallsArgs;
use crate::cli::project::Paths;
use crate::cli::{Status, printer};
use crate::engine::{
    Follower, Journal, JournalEntry as Entry, clear_journal, complete_end, last_lines, rotated_path,
};

pub fn run(paths: &Paths, args: &CallsArgs) -> anyhow::Result<Status> {
    let path = &paths.journal;
    if args.clear {
        clear_journal(path).with_context(|| format!("cannot clear {}", path.display()))?;
        eprintln!("cleared {}", path.display());
        return Ok(Status::Success);
    }
    let context = || format!("cannot read {}", path.display());
    let (current, end) = match std::fs::File::open(path) {
        Ok(mut file) => {
            let end = complete_end(&mut file).with_context(context)?;
            (Some(file), end)
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => (None, 0),
        Err(error) => return Err(error).with_context(context),
    };
    let entries = selected(path, args, current.as_ref(), end).with_context(context)?;
    if args.json {
        printer::out(&serde_json::to_string_pretty(&entries)?)?;
        return Ok(Status::Success);
    }
    let mut table = printer::table(&["time", "tool", "scenario", "forced", "arguments", "error"]);
    for entry in &entries {
        table.add_row(row(entry));
    }
    printer::out(&table.to_string())?;
    if args.follow {
        follow(path, args, current, end)?;
    }
    Ok(Status::Success)
}

/// The entries `calls` shows: read from the end of the journal (then of its rotated
/// predecessor) only as far as `--last` needs, so a large journal costs no more than a small
/// one.
fn selected(
    path: &Path,
    args: &CallsArgs,
    current: Option<&std::fs::File>,
    end: u64,
) -> std::io::Result<Vec<Entry>> {
    let wanted = |line: &[u8]| parse(line).is_some_and(|e| keep(args, &e));
    let mut lines = match current {
        Some(file) => last_lines(&mut file.try_clone()?, end, args.last, wanted)?,
        None => Vec::new(),
    };
    let more = args.last.map(|n| n.saturating_sub(lines.len()));
    if more != Some(0)
        && let Ok(mut older) = std::fs::File::open(rotated_path(path))
    {
        let older_end = complete_end(&mut older)?;
        let mut earlier = last_lines(&mut older, older_end, more, wanted)?;
        earlier.append(&mut lines);
        lines = earlier;
    }
    Ok(lines.iter().filter_map(|l| parse(l)).collect())
}

fn parse(line: &[u8]) -> Option<Entry> {
    serde_json::from_slice(line).ok()
}

fn keep(args: &CallsArgs, entry: &Entry) -> bool {
    args.tool.as_ref().is_none_or(|t| &entry.tool == t)
        && args
            .session
            .as_ref()
            .is_none_or(|s| entry.session.as_ref() == Some(s))
}

fn row(entry: &Entry) -> Vec<String> {
    let mut arguments = entry.received.to_string();
    if arguments.chars().count() > 60 {
        arguments = arguments.chars().take(57).collect::<String>() + "...";
    }
    vec![
        entry.time.clone(),
        entry.tool.clone(),
        entry.scenario.clone().unwrap_or_else(|| "-".into()),
        if entry.forced {
            "yes".into()
        } else {
            String::new()
        },
        arguments,
        if entry.is_error {
            "isError".into()
        } else {
            String::new()
        },
    ]
}

/// Prints each new call as it is journalled, one whole row at a time, until interrupted;
/// carries on from the start of the file when the journal is cleared or rotated.
fn follow(
    path: &Path,
    args: &CallsArgs,
    current: Option<std::fs::File>,
    end: u64,
) -> anyhow::Result<()> {
    let file = match current {
        Some(file) => file,
        None => {
            // Creating the journal up front lets a follower start before the server does.
            drop(Journal::open(path).with_context(|| format!("cannot open {}", path.display()))?);
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?
        }
    };
    let mut follower = Follower::new(path, file, end);
    loop {
        let lines = follower
            .poll()
            .with_context(|| format!("cannot read {}", path.display()))?;
        if lines.is_empty() {
            std::thread::sleep(Duration::from_millis(200));
        }
        for line in lines {
            if let Some(entry) = parse(&line)
                && keep(args, &entry)
            {
                printer::out(&row(&entry).join("  "))?;
            }
        }
    }
}
