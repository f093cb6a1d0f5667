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
use crate::engine::{ClockFile, ClockSetting, absolute, parse_duration};

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

const RUN: &str = "The run; `default` for plain /mcp";

#[utoipa::path(get, path = "/runs/{run}/clock", tag = "clock",
    params(("run" = String, Path, description = RUN)),
    responses((status = 200, body = ClockAnswer),
              (status = 404, description = "No such run", body = ErrorBody)))]
pub(crate) async fn show(run: InRun) -> Result<Json<ClockAnswer>, ApiError> {
    run.existing()?;
    let clock = ClockFile::beside(&run.layout.overrides);
    blocking(move || Ok(Json(answer(clock.setting(), &clock)))).await
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
    change(run, move |_| Ok(Some(ClockSetting::Frozen(body.at)))).await
}

/// Moves the run's clock on: a frozen clock by the duration, a running one ahead of the real
/// time by it.
#[utoipa::path(post, path = "/runs/{run}/clock/advance", tag = "clock",
    params(("run" = String, Path, description = RUN)),
    request_body = AdvanceBody,
    responses((status = 200, body = ClockAnswer),
              (status = 400, description = "Not a duration", body = ErrorBody)))]
pub(crate) async fn advance(
    run: InRun,
    JsonBody(body): JsonBody<AdvanceBody>,
) -> Result<Json<ClockAnswer>, ApiError> {
    let by = parse_duration(&body.by).map_err(|why| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("cannot advance the clock: {why}"),
        )
    })?;
    change(run, move |clock| {
        Ok(Some(
            clock
                .setting()
                .unwrap_or(ClockSetting::Offset(0))
                .advanced(by),
        ))
    })
    .await
}

/// Back to the real time.
#[utoipa::path(delete, path = "/runs/{run}/clock", tag = "clock",
    params(("run" = String, Path, description = RUN)),
    responses((status = 200, body = ClockAnswer),
              (status = 404, description = "No such run", body = ErrorBody)))]
pub(crate) async fn real(run: InRun) -> Result<Json<ClockAnswer>, ApiError> {
    run.existing()?;
    change(run, |_| Ok(None)).await
}

/// Writes the setting `to` makes of the clock's, and answers with the clock as it now is.
async fn change(
    run: InRun,
    to: impl FnOnce(&ClockFile) -> Result<Option<ClockSetting>, ApiError> + Send + 'static,
) -> Result<Json<ClockAnswer>, ApiError> {
    let clock = ClockFile::beside(&run.layout.overrides);
    blocking(move || {
        let setting = to(&clock)?;
        clock.set(setting).map_err(|error| {
            ApiError::internal(
                format!("cannot write {}", absolute(clock.path()).display()),
                &error,
            )
        })?;
        Ok(Json(answer(setting, &clock)))
    })
    .await
}

fn answer(setting: Option<ClockSetting>, clock: &ClockFile) -> ClockAnswer {
    ClockAnswer {
        now: clock.now(),
        setting,
    }
}
