//! `/api/runs/{run}/verdict`: the run graded against its expected file, for the Calls view
//! (`dashboard --expected DIR`, docs/GRADING.md). The file is `DIR/NAME.json`, or
//! `DIR/default.json` for the default run. It is read and the run graded on every request,
//! so an edited expected file counts at once; grading never changes the run.

use std::path::{Path, PathBuf};

use axum::Json;
use axum::extract::State;
use serde::Serialize;

use crate::admin::{self, ApiError, InRun, blocking};
use crate::dashboard::Dashboard;
use crate::engine::Engine;
use crate::grade::{self, Verdict};

/// What the page shows for the run.
#[derive(Debug, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub(super) enum RunVerdict {
    /// The dashboard was started without `--expected`: the page shows no verdict.
    Off,
    /// No expected file for this run.
    NoExpectedFile { expected: PathBuf },
    /// The run was graded.
    Graded {
        expected: PathBuf,
        #[serde(flatten)]
        verdict: Verdict,
    },
    /// The expected file is broken, or an expected action is refused: the reason, as
    /// `careem-mcp grade` exits 2 with it.
    CannotGrade { expected: PathBuf, error: String },
}

pub(super) async fn show(
    State(dashboard): State<Dashboard>,
    run: InRun,
) -> Result<Json<RunVerdict>, ApiError> {
    let Some(folder) = dashboard.expected.clone() else {
        return Ok(Json(RunVerdict::Off));
    };
    blocking(move || {
        let expected = folder.join(format!("{}.json", run.name()));
        Ok(Json(verdict(&run.engine, &run.layout.journal, expected)))
    })
    .await
}

fn verdict(engine: &Engine, journal: &Path, expected: PathBuf) -> RunVerdict {
    let text = match grade::read_expected(&expected) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return RunVerdict::NoExpectedFile { expected };
        }
        Err(error) => {
            return RunVerdict::CannotGrade {
                error: format!("cannot read it: {error}"),
                expected,
            };
        }
    };
    match admin::verdict(engine, journal, &text) {
        Ok(verdict) => RunVerdict::Graded { expected, verdict },
        Err(error) => RunVerdict::CannotGrade {
            error: error.one_line(),
            expected,
        },
    }
}
