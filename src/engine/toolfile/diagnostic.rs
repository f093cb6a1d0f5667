//! Problems found in tool files, as plain data: the CLI renders them, the server refuses to
//! start on them, and a call that meets one answers `internal server error`.

use std::fmt;
use std::path::PathBuf;

/// One problem in one tool file, located precisely enough for an editor to jump to it.
/// Serialised as `lint --format json` prints it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub path: PathBuf,
    /// 1-based; 0 for a problem of the whole file.
    pub line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    pub message: String,
}

impl Diagnostic {
    pub fn new(path: impl Into<PathBuf>, line: usize, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            line,
            scenario: None,
            message: message.into(),
        }
    }

    pub fn in_scenario(mut self, scenario: &str) -> Self {
        self.scenario = Some(scenario.to_string());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.path.display(), self.line)?;
        if let Some(name) = &self.scenario {
            write!(f, "scenario \"{name}\": ")?;
        }
        f.write_str(&self.message)
    }
}

/// Several diagnostics treated as one error, for callers that only need to refuse.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", render(.0))]
pub struct Diagnostics(pub Vec<Diagnostic>);

fn render(list: &[Diagnostic]) -> String {
    list.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}
