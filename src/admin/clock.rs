//! `/runs/{run}/clock`: the run's clock shown, frozen at an instant, moved on, or back to the
//! real time, as `careem-mcp clock` does it. Every process serving the run reads it on its
//! next call.

use axum::Json;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody, JsonBody, blocking};
use super::run::InRun;
use crate::engine::{CLOCK_LATEST, ClockFile, ClockSetting, absolute, parse_duration, tellable};

/// The run's clock: the time it tells and how it is set.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ClockAnswer {
    /// The run's time now (RFC 3339).
    #[schema(value_type = String, format = DateTime)]
    pub now: DateTime<Utc>,
    /// `null` for the real time, `{"frozen": RFC3339}` or `{"offset": seconds}`.
    #[schema(value_type = Option<Object>)]
    pub setting: Option<ClockSetting>,
}

/// An instant to freeze the clock at.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct FreezeBody {
    /// RFC 3339, e.g. `2026-10-05T12:00:00Z`.
    #[schema(value_type = String, format = DateTime)]
    pub at: DateTime<Utc>,
}

/// How far to move the clock on.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AdvanceBody {
    /// Units d, h, m, s: `90m`, `1h30m`, `2d`.
    pub by: String,
}

/// How a run's clock is asked to move, by `careem-mcp clock` or the API.
#[derive(Debug, Clone)]
pub enum ClockMove {
    /// Frozen at this instant.
    Set(DateTime<Utc>),
    /// Moved on by a duration, as typed (`90m`, `1h30m`, `2d`).
    Advance(String),
    /// Back to the real time.
    Real,
}

/// Why the clock was not moved, in the words `careem-mcp clock` prints.
#[derive(Debug, thiserror::Error)]
pub enum ClockRefused {
    #[error("cannot advance the clock: {0}")]
    Duration(String),
    #[error(
        "cannot advance the clock by {0}: it would pass {CLOCK_LATEST}, the latest time a clock tells"
    )]
    PastLatest(String),
    #[error("{0}")]
    OutOfRange(String),
    #[error("cannot write {path}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// Moves the run's clock as `how` says, under the run's lock so that moves made at once all
/// count: the setting now written (`None`, the real time), or why not.
///
/// # Errors
///
/// A duration that does not read, a time a clock cannot tell, a file that cannot be written.
pub fn move_clock(
    clock: &ClockFile,
    how: &ClockMove,
) -> Result<Option<ClockSetting>, ClockRefused> {
    let by = match how {
        ClockMove::Advance(words) => Some(
            parse_duration(words)
                .map(|by| (words.trim().to_string(), by))
                .map_err(ClockRefused::Duration)?,
        ),
        _ => None,
    };
    clock
        .change(|setting| match (how, by) {
            (ClockMove::Set(at), _) => tellable(*at)
                .map(|at| Some(ClockSetting::Frozen(at)))
                .map_err(|error| ClockRefused::OutOfRange(error.to_string())),
            (ClockMove::Advance(_), Some((words, by))) => setting
                .unwrap_or(ClockSetting::Offset(0))
                .advanced(by, Utc::now())
                .map(Some)
                .map_err(|_| ClockRefused::PastLatest(words)),
            _ => Ok(None),
        })
        .map_err(|source| ClockRefused::Write {
            path: absolute(clock.path()).display().to_string(),
            source,
        })?
}

/// The time a clock set so tells now; the real time for `None`.
pub fn clock_now(setting: Option<ClockSetting>) -> DateTime<Utc> {
    let real = Utc::now();
    setting.and_then(|setting| setting.at(real)).unwrap_or(real)
}

const RUN: &str = "The run; `default` for plain /mcp";

#[utoipa::path(get, path = "/runs/{run}/clock", tag = "clock",
    params(("run" = String, Path, description = RUN)),
    responses((status = 200, body = ClockAnswer),
              (status = 404, description = "No such run", body = ErrorBody)))]
pub(crate) async fn show(run: InRun) -> Result<Json<ClockAnswer>, ApiError> {
    run.existing()?;
    let clock = ClockFile::of(&run.layout.run_files());
    blocking(move || Ok(Json(answer(clock.setting())))).await
}

/// Freezes the run's clock at an instant.
#[utoipa::path(put, path = "/runs/{run}/clock", tag = "clock",
    params(("run" = String, Path, description = RUN)),
    request_body = FreezeBody,
    responses((status = 200, body = ClockAnswer), (status = 400, body = ErrorBody)))]
pub(crate) async fn set(
    run: InRun,
    JsonBody(body): JsonBody<FreezeBody>,
) -> Result<Json<ClockAnswer>, ApiError> {
    change(run, ClockMove::Set(body.at)).await
}

/// Moves the run's clock on: a frozen clock by the duration, a running one ahead of the real
/// time by it.
#[utoipa::path(post, path = "/runs/{run}/clock/advance", tag = "clock",
    params(("run" = String, Path, description = RUN)),
    request_body = AdvanceBody,
    responses((status = 200, body = ClockAnswer),
              (status = 400, description = "Not a duration, or past the latest time", body = ErrorBody)))]
pub(crate) async fn advance(
    run: InRun,
    JsonBody(body): JsonBody<AdvanceBody>,
) -> Result<Json<ClockAnswer>, ApiError> {
    change(run, ClockMove::Advance(body.by)).await
}

/// Back to the real time.
#[utoipa::path(delete, path = "/runs/{run}/clock", tag = "clock",
    params(("run" = String, Path, description = RUN)),
    responses((status = 200, body = ClockAnswer),
              (status = 404, description = "No such run", body = ErrorBody)))]
pub(crate) async fn real(run: InRun) -> Result<Json<ClockAnswer>, ApiError> {
    run.existing()?;
    change(run, ClockMove::Real).await
}

/// Moves the clock and answers with it as it now is.
async fn change(run: InRun, how: ClockMove) -> Result<Json<ClockAnswer>, ApiError> {
    let clock = ClockFile::of(&run.layout.run_files());
    blocking(move || match move_clock(&clock, &how) {
        Ok(setting) => Ok(Json(answer(setting))),
        Err(ClockRefused::Write { path, source }) => {
            Err(ApiError::internal(format!("cannot write {path}"), &source))
        }
        Err(refused) => Err(ApiError::new(StatusCode::BAD_REQUEST, refused.to_string())),
    })
    .await
}

fn answer(setting: Option<ClockSetting>) -> ClockAnswer {
    ClockAnswer {
        now: clock_now(setting),
        setting,
    }
}
