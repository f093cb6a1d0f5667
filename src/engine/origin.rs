//! Where a call comes from: the transport or the command that made it, as the journal's
//! `transport` field names it.

use serde::Serialize;

/// Where a call comes from, as the journal's `transport` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// Streamable HTTP (`/mcp`).
    Http,
    /// The legacy SSE transport.
    Sse,
    Stdio,
    /// `careem-mcp call`.
    Cli,
    /// The dashboard's "try a call".
    Dashboard,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Http => "http",
            Self::Sse => "sse",
            Self::Stdio => "stdio",
            Self::Cli => "cli",
            Self::Dashboard => "dashboard",
        }
    }

    /// Whether an agent made the call over MCP. Only such a call of a tool that does not exist
    /// is journalled: `call` and the dashboard refuse an unknown name before it is a call.
    pub fn is_mcp(self) -> bool {
        matches!(self, Self::Http | Self::Sse | Self::Stdio)
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
