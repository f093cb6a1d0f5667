//! `careem-mcp verify`: the acceptance suite of [`crate::probe`], shown as a table for people
//! or as JSON for machines, with the summary line last.

use anyhow::bail;
use comfy_table::Color;

use anyhow::Context;

use super::engine_config;
use crate::cli::args::{GlobalArgs, TransportChoice, VerifyArgs};
use crate::cli::{Status, printer};
use crate::engine::ProjectLayout;
use crate::probe::{self, Finding, Plan, Transport, Verdict};
use crate::server::runtime;

pub fn run(
    global: &GlobalArgs,
    layout: &ProjectLayout,
    args: &VerifyArgs,
) -> anyhow::Result<Status> {
    let transports = match args.transport {
        TransportChoice::Http => vec![Transport::Http],
        TransportChoice::Sse => vec![Transport::Sse],
        TransportChoice::Stdio => vec![Transport::Stdio],
        TransportChoice::All => Transport::ALL.to_vec(),
    };
    if args.url.is_some() && args.transport == TransportChoice::Stdio {
        bail!(
            "--url checks a server that is already running over HTTP; --transport stdio starts its own, so leave out one of them"
        );
    }
    let plan = Plan {
        config: engine_config(global, layout)?,
        transports,
        url: args.url.clone(),
        overrides_given: layout.named.overrides,
    };
    let runtime = runtime().context("cannot start the async runtime")?;
    let findings = runtime.block_on(probe::run(&plan))?;
    print(&findings, args.json)?;
    Ok(if probe::failed(&findings) {
        Status::Findings
    } else {
        Status::Success
    })
}

/// The table (or JSON array) on stdout; the summary line last, on stderr under `--json` so
/// that stdout stays one JSON document.
fn print(findings: &[Finding], json: bool) -> anyhow::Result<()> {
    let count = |verdict| findings.iter().filter(|f| f.status == verdict).count();
    let summary = format!(
        "{} passed, {} failed, {} skipped",
        count(Verdict::Pass),
        count(Verdict::Fail),
        count(Verdict::Skip)
    );
    if json {
        printer::out(&serde_json::to_string_pretty(findings)?)?;
        eprintln!("{summary}");
        return Ok(());
    }
    let mut table = printer::table(&["check", "transport", "result", "detail"]);
    for finding in findings {
        table.add_row(vec![
            printer::cell(finding.check, None),
            printer::cell(finding.transport, None),
            printer::cell(finding.status.word(), Some(colour(finding.status))),
            printer::cell(&finding.detail, None),
        ]);
    }
    printer::out(&table.to_string())?;
    printer::out(&summary)?;
    Ok(())
}

fn colour(verdict: Verdict) -> Color {
    match verdict {
        Verdict::Pass => Color::Green,
        Verdict::Fail => Color::Red,
        Verdict::Skip => Color::Yellow,
    }
}
