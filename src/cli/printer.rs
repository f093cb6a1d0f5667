//! Output helpers: colour only on a terminal without `NO_COLOR`, tables, JSON, and a quiet
//! exit when the reader of a pipe goes away (`careem-mcp scenarios | head`).

use std::io::{IsTerminal, Write};

use comfy_table::{Cell, Color, ContentArrangement, Table, presets};
use owo_colors::{OwoColorize, Stream};

pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

pub fn stderr_colours() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Writes `text` and a newline to stdout.
pub fn out(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.write_all(b"\n")?;
    stdout.flush()
}

pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The width a table fits on a terminal that reports none, or a width of 0 (`script`, some CI
/// consoles): without it every column would be one character wide.
const FALLBACK_WIDTH: u16 = 80;

/// A table that fits the terminal's width on a terminal, and grows as wide as it needs in a pipe.
pub fn table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table
        .load_style(presets::UTF8_FULL_CONDENSED)
        .set_header(header.to_vec());
    if stdout_is_terminal() {
        table.set_content_arrangement(ContentArrangement::Dynamic);
        if table.width().is_none_or(|width| width == 0) {
            table.set_width(FALLBACK_WIDTH);
        }
    }
    table
}

/// A table cell, coloured only where stdout takes colour.
pub fn cell(text: impl Into<String>, colour: Option<Color>) -> Cell {
    let cell = Cell::new(text.into());
    match colour {
        Some(colour) if stdout_colours() => cell.fg(colour),
        _ => cell,
    }
}

pub fn stdout_colours() -> bool {
    stdout_is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Status words on stderr, coloured where stderr takes colour.
pub fn green(text: &str) -> String {
    text.if_supports_color(Stream::Stderr, |t| t.green())
        .to_string()
}

pub fn red(text: &str) -> String {
    text.if_supports_color(Stream::Stderr, |t| t.red())
        .to_string()
}

pub fn yellow(text: &str) -> String {
    text.if_supports_color(Stream::Stderr, |t| t.yellow())
        .to_string()
}
