//! What each check found, shown as a table for people or as JSON for machines, with the
//! summary line last.

use comfy_table::Color;
use serde::Serialize;

use crate::cli::printer;

/// A check's outcome. `Skip` is never a pass: it says the check could not be run here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Fail,
    Skip,
}

impl Verdict {
    fn word(self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::Fail => "fail",
            Self::Skip => "skip",
        }
    }

    fn colour(self) -> Color {
        match self {
            Self::Pass => Color::Green,
            Self::Fail => Color::Red,
            Self::Skip => Color::Yellow,
        }
    }
}

/// One row: one check over one transport.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub check: &'static str,
    pub transport: &'static str,
    pub status: Verdict,
    pub detail: String,
}

pub fn failed(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.status == Verdict::Fail)
}

/// The table (or JSON array) on stdout; the summary line last, on stderr under `--json` so
/// that stdout stays one JSON document.
pub fn print(findings: &[Finding], json: bool) -> anyhow::Result<()> {
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
            printer::cell(finding.status.word(), Some(finding.status.colour())),
            printer::cell(&finding.detail, None),
        ]);
    }
    printer::out(&table.to_string())?;
    printer::out(&summary)?;
    Ok(())
}
