//! What part a scenario plays in selection (SPEC §3): the default, a match rule, one reachable
//! only by forcing it, or an error. `careem-mcp scenarios` and the dashboard label them alike.

use serde::{Deserialize, Serialize};

use super::parse::{Outcome, Scenario};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScenarioKind {
    Default,
    Match,
    ForcedOnly,
    Error,
    ErrorForcedOnly,
}

impl ScenarioKind {
    pub fn label(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::Match => "match",
            Self::ForcedOnly => "forced only",
            Self::Error => "error",
            Self::ErrorForcedOnly => "error (forced only)",
        }
    }

    pub fn is_error(self) -> bool {
        matches!(self, Self::Error | Self::ErrorForcedOnly)
    }
}

/// Each scenario with its kind, in file order: a scenario with a match rule or a `jq when`
/// condition is chosen by it; the first with neither is the default, any later one can only be
/// forced.
pub fn kinds(scenarios: &[Scenario]) -> Vec<(&Scenario, ScenarioKind)> {
    let mut seen_default = false;
    scenarios
        .iter()
        .map(|scenario| {
            let chosen = !scenario.is_default();
            let kind = match (chosen, scenario.outcome) {
                (false, Outcome::Error) if seen_default => ScenarioKind::ErrorForcedOnly,
                (_, Outcome::Error) => ScenarioKind::Error,
                (true, _) => ScenarioKind::Match,
                (false, _) if seen_default => ScenarioKind::ForcedOnly,
                (false, _) => ScenarioKind::Default,
            };
            seen_default |= !chosen;
            (scenario, kind)
        })
        .collect()
}
