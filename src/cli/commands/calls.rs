//! `careem-mcp calls`: the call journal as a table or JSON, filtered, followed live, or cleared.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;

use crate::cli::args::CallsArgs;
use crate::cli::{Status, printer};
use crate::engine::{ProjectLayout, Recent, journal};

pub fn run(layout: &ProjectLayout, args: &CallsArgs) -> anyhow::Result<Status> {
    let path = &layout.journal;
    if args.clear {
        journal::clear(path).with_context(|| format!("cannot clear {}", path.display()))?;
        eprintln!("cleared {}", path.display());
        return Ok(Status::Success);
    }
    let recent = journal::recent(path, args.last, |entry| keep(args, entry))
        .with_context(|| format!("cannot read {}", path.display()))?;
    let entries = &recent.entries;
    if args.json {
        printer::out(&serde_json::to_string_pretty(entries)?)?;
        return Ok(Status::Success);
    }
    let mut table = printer::table(&["time", "tool", "scenario", "forced", "arguments", "error"]);
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

fn row(entry: &journal::Entry) -> Vec<String> {
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
