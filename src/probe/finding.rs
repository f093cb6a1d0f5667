//! What each check found, as plain data: the CLI decides how to show it.

use serde::Serialize;

/// A check's outcome. `Skip` is never a pass: it says the check could not be run here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Fail,
    Skip,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::Fail => "fail",
            Self::Skip => "skip",
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
