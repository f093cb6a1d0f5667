//! Which Go SDK release the server answers as: production's wire is whatever release its
//! operators run, so the server speaks one whole release, never a mix of their options. Every
//! difference between releases is a question asked of the profile here, so that the transports
//! branch on what a release does, not on its name.

use std::fmt;
use std::str::FromStr;

/// A Go SDK release (and its options) that production may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum WireProfile {
    /// v1.6.1, stateful Streamable HTTP: production as last recorded.
    #[default]
    #[serde(rename = "go-sdk-1.6.1")]
    GoSdk161,
    /// v1.7.0 (July 2026), stateful.
    #[serde(rename = "go-sdk-1.7.0")]
    GoSdk170,
    /// v1.7.0 with `StreamableHTTPOptions.Stateless`: protocol 2026-07-28 over Streamable HTTP.
    #[serde(rename = "go-sdk-1.7.0-stateless")]
    GoSdk170Stateless,
}

/// The protocol revision of per-request `_meta`, `server/discover` and the `Mcp-Method` header.
pub(crate) const PROTOCOL_2026: &str = "2026-07-28";

/// The revisions v1.6.1 speaks, newest first.
const VERSIONS_161: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// The revisions v1.7.0 knows, newest first.
const VERSIONS_170: [&str; 5] = [
    PROTOCOL_2026,
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
];

/// Where a message came in: a release may answer the same request differently on each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    Streamable,
    Sse,
    Stdio,
}

impl WireProfile {
    /// Every profile, the default first.
    pub const ALL: [Self; 3] = [Self::GoSdk161, Self::GoSdk170, Self::GoSdk170Stateless];

    /// The name `--wire` takes.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::GoSdk161 => "go-sdk-1.6.1",
            Self::GoSdk170 => "go-sdk-1.7.0",
            Self::GoSdk170Stateless => "go-sdk-1.7.0-stateless",
        }
    }

    /// The release in words, for `serve`'s banner and `drift`.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Self::GoSdk161 => "Go SDK v1.6.1, stateful",
            Self::GoSdk170 => "Go SDK v1.7.0, stateful",
            Self::GoSdk170Stateless => "Go SDK v1.7.0, stateless (protocol 2026-07-28)",
        }
    }

    /// v1.7.0 knows `server/discover` and per-request `_meta` (protocol 2026-07-28).
    pub(crate) fn answers_discover(self) -> bool {
        self != Self::GoSdk161
    }

    /// Streamable HTTP keeps no sessions: no id, every POST served on its own.
    pub(crate) fn is_stateless(self) -> bool {
        self == Self::GoSdk170Stateless
    }

    /// v1.7.0's `ToolAnnotations` sends `readOnlyHint` and `idempotentHint` even when false.
    pub(crate) fn sends_false_hints(self) -> bool {
        self != Self::GoSdk161
    }

    /// v1.7.0's list and read results carry `ttlMs` and `cacheScope`.
    pub(crate) fn caches_results(self) -> bool {
        self != Self::GoSdk161
    }

    /// Whether an unknown resource is refused as invalid params: v1.7.0's
    /// `ResourceNotFoundError` is -32602, v1.6.1's its own code.
    pub(crate) fn unknown_resource_is_invalid_params(self) -> bool {
        self != Self::GoSdk161
    }

    /// v1.7.0 refuses an `initialize` in a session that has initialized.
    pub(crate) fn refuses_second_initialize(self) -> bool {
        self != Self::GoSdk161
    }

    /// v1.7.0 opens the standalone GET stream with the comment `: ok`.
    pub(crate) fn primes_standalone_stream(self) -> bool {
        self != Self::GoSdk161
    }

    /// v1.7.0 checks `Mcp-Protocol-Version` before anything else on `/mcp`, and lets any
    /// revision from 2026-07-28 on through to the later checks.
    pub(crate) fn checks_version_first(self) -> bool {
        self != Self::GoSdk161
    }

    /// Over stdio, v1.7.0 answers an unknown method -32601 `method not found: "…"`; v1.6.1
    /// code 0 with the dispatcher's own words.
    pub(crate) fn not_handled_is_method_not_found(self) -> bool {
        self != Self::GoSdk161
    }

    /// The revisions an `Mcp-Protocol-Version` header may name, as its refusal lists them.
    pub(crate) fn header_versions(self) -> &'static [&'static str] {
        match self {
            Self::GoSdk161 => &VERSIONS_161,
            Self::GoSdk170 | Self::GoSdk170Stateless => &VERSIONS_170,
        }
    }

    /// The revisions `server/discover` offers on `transport`: stateful Streamable HTTP cannot
    /// serve 2026-07-28, so it leaves it out; every other transport offers it first.
    pub(crate) fn discover_versions(self, transport: Transport) -> &'static [&'static str] {
        match (self, transport) {
            (Self::GoSdk170, Transport::Streamable) => &VERSIONS_161,
            _ => &VERSIONS_170,
        }
    }
}

impl fmt::Display for WireProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--wire` value that names no profile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown wire profile {given:?} (expected one of: go-sdk-1.6.1, go-sdk-1.7.0, go-sdk-1.7.0-stateless)"
)]
pub struct UnknownProfile {
    given: String,
}

impl FromStr for WireProfile {
    type Err = UnknownProfile;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|profile| profile.name() == text)
            .ok_or_else(|| UnknownProfile {
                given: text.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_is_found_by_its_name() {
        for profile in WireProfile::ALL {
            assert_eq!(profile.name().parse::<WireProfile>(), Ok(profile));
        }
        assert!("go-sdk-1.8.0".parse::<WireProfile>().is_err());
        assert_eq!(WireProfile::default(), WireProfile::GoSdk161);
        for profile in WireProfile::ALL {
            assert_eq!(serde_json::json!(profile), profile.name());
        }
    }

    #[test]
    fn discover_offers_2026_wherever_the_release_can_serve_it() {
        let stateful = WireProfile::GoSdk170;
        assert_eq!(
            stateful.discover_versions(Transport::Streamable)[0],
            "2025-11-25"
        );
        assert_eq!(stateful.discover_versions(Transport::Sse)[0], PROTOCOL_2026);
        let stateless = WireProfile::GoSdk170Stateless;
        assert_eq!(
            stateless.discover_versions(Transport::Streamable)[0],
            PROTOCOL_2026
        );
    }
}
