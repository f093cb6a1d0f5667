//! The words of a refused edit of the overrides file, which `careem-mcp scenario` prints and
//! the API answers with, so that a test sees the same message either way: a typo names what it
//! may have meant and every name there is.

use axum::http::StatusCode;

use super::error::ApiError;
use crate::engine::{ForceError, did_you_mean};

/// What went wrong, and the causes under it (`caused by: …`).
pub fn force_refusal(error: &ForceError) -> (String, Vec<String>) {
    let message = match error {
        ForceError::UnknownTool { tool, known } => format!(
            "unknown tool {tool:?}{}\nknown tools: {}",
            did_you_mean(tool, known.iter().map(String::as_str)),
            known.join(", ")
        ),
        ForceError::UnknownScenario { tool, name, known } => format!(
            "{tool} has no scenario {name:?}{}\nits scenarios: {}\n(a step `fault:KIND` fails \
             instead, e.g. fault:http-503)",
            did_you_mean(name, known.iter().map(String::as_str)),
            known.join(", ")
        ),
        ForceError::Overrides(cause) => {
            let mut causes = Vec::new();
            let mut next: Option<&dyn std::error::Error> = Some(cause);
            while let Some(cause) = next {
                causes.push(cause.to_string());
                next = cause.source();
            }
            return ("cannot save the overrides".to_string(), causes);
        }
        ForceError::Invalid(why) => why.clone(),
    };
    (message, Vec::new())
}

/// The API's answer to a refused edit: unknown names offer the known ones, a bad entry says
/// what is wrong with it, a broken file is a conflict the person must resolve.
pub(crate) fn force_answer(error: ForceError) -> ApiError {
    let (message, causes) = force_refusal(&error);
    let status = match &error {
        ForceError::UnknownTool { .. } | ForceError::UnknownScenario { .. } => {
            StatusCode::NOT_FOUND
        }
        ForceError::Invalid(_) => StatusCode::BAD_REQUEST,
        ForceError::Overrides(_) => StatusCode::CONFLICT,
    };
    let mut answer = ApiError::new(status, message);
    answer.body.causes = causes;
    match error {
        ForceError::UnknownTool { known, .. } | ForceError::UnknownScenario { known, .. } => {
            answer.offering(known)
        }
        _ => answer,
    }
}
