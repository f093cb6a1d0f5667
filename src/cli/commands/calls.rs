//! `careem-mcp calls`: the call journal as a table or JSON, filtered, followed live, or cleared.

use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::Path;
use std::time::Duration;

use anyhow::Context;

use crate::cli::args::CallsArgs;
use crate::cli::project::Paths;
use crate::cli::{Status, printer};
use crate::engine::journal::{self, Entry, Journal};

pub fn run(paths: &Paths, args: &CallsArgs) -> anyhow::Result<Status> {
    let path = &paths.journal;
    if args.clear {
        // Truncating in place keeps a running server's append handle valid.
        if path.exists() {
            std::fs::write(path, b"")
                .with_context(|| format!("cannot clear {}", path.display()))?;
        }
        eprintln!("cleared {}", path.display());
        return Ok(Status::Success);
    }
    let entries = journal::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut selected: Vec<&Entry> = entries.iter().filter(|e| keep(args, e)).collect();
    if let Some(last) = args.last {
        selected = selected.split_off(selected.len().saturating_sub(last));
    }
    if args.json {
        printer::out(&serde_json::to_string_pretty(&selected)?)?;
        return Ok(Status::Success);
    }
    let mut table = printer::table(&["time", "tool", "scenario", "forced", "arguments", "error"]);
    for entry in &selected {
        table.add_row(row(entry));
    }
    printer::out(&table.to_string())?;
    if args.follow {
        follow(path, args)?;
    }
    Ok(Status::Success)
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

/// Prints each new line as it is appended, one row at a time, until interrupted.
fn follow(path: &Path, args: &CallsArgs) -> anyhow::Result<()> {
    // Creating the journal up front lets a follower start before the server does.
    drop(Journal::open(path).with_context(|| format!("cannot open {}", path.display()))?);
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut reader = BufReader::new(file);
    reader.seek(SeekFrom::End(0))?;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            std::thread::sleep(Duration::from_millis(200));
            continue;
        }
        if let Ok(entry) = serde_json::from_str::<Entry>(&line)
            && keep(args, &entry)
        {
            printer::out(&row(&entry).join("  "))?;
        }
    }
}
