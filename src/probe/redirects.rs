//! The redirects an upstream may answer with. Every request to an upstream carries the headers
//! the user gave (production's credentials) and often a body, both meant for the upstream's
//! origin alone, so a redirect is followed only on that origin (scheme, host and port) and
//! refused, with both origins named, to any other: not even a header-free copy goes there.
//! A redirect on the same origin leaves the other rules as they are: an SSE `endpoint` event
//! must still name the origin of the URL given.

use std::sync::{Arc, Mutex, PoisonError};

use reqwest::redirect::{Action, Attempt, Policy};

/// The most redirects one request follows, as browsers and reqwest's default allow.
const MOST: usize = 10;

/// Why a redirect was not followed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Refused {
    #[error(
        "{from} redirected to another origin, {to}; not followed, since every request carries \
         the headers and body meant for {from}"
    )]
    ForeignOrigin { from: String, to: String },
    #[error("{from} redirected more than {MOST} times; not followed")]
    TooMany { from: String },
}

/// The redirects refused to the clients of one [`super::RemoteAccess`]: the policy those
/// clients follow, and the last refusal, kept so that an error can say why a request failed
/// where the MCP client's own words stop at `error following redirect`.
#[derive(Debug, Clone, Default)]
pub struct Refusals(Arc<Mutex<Option<Refused>>>);

impl Refusals {
    /// The policy of an HTTP client that reaches the upstream.
    pub fn policy(&self) -> Policy {
        let kept = self.clone();
        Policy::custom(move |attempt| kept.decide(attempt))
    }

    /// `detail`, followed by the redirect refused since the last explanation when there was
    /// one and `detail` does not say it already.
    pub fn explain(&self, detail: String) -> String {
        let refused = self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
        match refused.map(|refused| refused.to_string()) {
            Some(refused) if !detail.contains(&refused) => format!("{detail}: {refused}"),
            _ => detail,
        }
    }

    fn decide(&self, attempt: Attempt<'_>) -> Action {
        let Some(first) = attempt.previous().first() else {
            return attempt.follow();
        };
        let from = first.origin();
        let to = attempt.url().origin();
        let refused = if to != from {
            Refused::ForeignOrigin {
                from: from.ascii_serialization(),
                to: to.ascii_serialization(),
            }
        } else if attempt.previous().len() > MOST {
            Refused::TooMany {
                from: from.ascii_serialization(),
            }
        } else {
            return attempt.follow();
        };
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(refused.clone());
        attempt.error(refused)
    }
}
