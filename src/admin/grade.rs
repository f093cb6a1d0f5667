//! `POST /runs/{run}/grade`: the run graded against the expected file in the body
//! (docs/GRADING.md), as `careem-mcp grade` grades it; the report as JSON (what `grade --format
//! json` prints) or, asked with `?format=junit`, as JUnit XML. Grading replays the expected
//! actions on a scratch world and never changes the run. The report and its JUnit form are the
//! CLI's own: `grade` prints them.

use std::path::{Path, PathBuf};

use axum::extract::Query;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::error::{ApiError, ErrorBody, blocking};
use super::run::InRun;
use crate::engine::Engine;
use crate::grade::{self, Expected, Verdict};

/// One verdict, with what it is about.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Graded {
    pub run: String,
    /// The expected file.
    #[schema(value_type = String)]
    pub expected: PathBuf,
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub verdict: Verdict,
}

/// Every verdict, and over several runs the pass rate and pass^k.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Report {
    pub passed: bool,
    /// Verdicts passed of verdicts given.
    pub pass_rate: f64,
    /// Whether every run passed (pass^k, k the number of runs).
    pub pass_k: bool,
    pub runs: usize,
    pub verdicts: Vec<Graded>,
}

impl Report {
    /// The report of `verdicts` over `runs` runs.
    pub fn of(verdicts: Vec<Graded>, runs: usize) -> Self {
        let passed = verdicts.iter().filter(|v| v.verdict.passed).count();
        Self {
            passed: passed == verdicts.len(),
            #[allow(clippy::cast_precision_loss)]
            pass_rate: if verdicts.is_empty() {
                0.0
            } else {
                passed as f64 / verdicts.len() as f64
            },
            pass_k: passed == verdicts.len(),
            runs,
            verdicts,
        }
    }

    /// The report as JUnit XML, one test case per verdict, that CI systems read.
    pub fn junit(&self) -> String {
        let failures = self.verdicts.iter().filter(|v| !v.verdict.passed).count();
        let mut xml = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"{}\" failures=\"{failures}\">\n  <testsuite name=\"careem-mcp grade\" tests=\"{}\" failures=\"{failures}\">\n",
            self.verdicts.len(),
            self.verdicts.len()
        );
        for graded in &self.verdicts {
            let name = format!("{}: {}", graded.run, graded.expected.display());
            xml.push_str(&format!(
                "    <testcase classname=\"careem-mcp.grade\" name=\"{}\">\n      <properties>\n        <property name=\"run\" value=\"{}\"/>\n        <property name=\"calls\" value=\"{}\"/>\n      </properties>\n",
                escape(&name),
                escape(&graded.run),
                graded.verdict.calls
            ));
            if !graded.verdict.passed {
                let lines: Vec<&str> = graded
                    .verdict
                    .differences
                    .iter()
                    .chain(&graded.verdict.broken_checks)
                    .map(String::as_str)
                    .collect();
                xml.push_str(&format!(
                    "      <failure message=\"{}\">{}</failure>\n",
                    escape(lines.first().copied().unwrap_or("the end states differ")),
                    escape(&lines.join("\n"))
                ));
            }
            xml.push_str("    </testcase>\n");
        }
        xml.push_str("  </testsuite>\n</testsuites>");
        xml
    }
}

/// Text as XML character data or an attribute value.
fn escape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '&' => "&amp;".to_string(),
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '"' => "&quot;".to_string(),
            '\'' => "&apos;".to_string(),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => String::new(),
            c => c.to_string(),
        })
        .collect()
}

/// The run of `engine` and `journal` graded against the expected file `text`, on a scratch
/// world: the API's grade and the dashboard's verdict.
pub(crate) fn verdict(engine: &Engine, journal: &Path, text: &str) -> Result<Verdict, ApiError> {
    let expected = Expected::parse(text)
        .map_err(|error| ApiError::new(StatusCode::BAD_REQUEST, error.to_string()))?;
    let scratch = tempfile::tempdir()
        .map_err(|error| ApiError::internal("cannot make a scratch folder", &error))?;
    grade::grade(engine, journal, &expected, scratch.path())
        .map_err(|error| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, error.to_string()))
}

/// The report's form.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GradeFormat {
    #[default]
    Json,
    Junit,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct GradeQuery {
    /// `json` (the default) or `junit`.
    #[serde(default)]
    #[param(inline)]
    format: GradeFormat,
    /// What the report calls the expected file (its path on the client) [default:
    /// `expected.json`].
    expected: Option<String>,
}

/// Grades the run against the expected file sent as the body (JSON, docs/GRADING.md).
#[utoipa::path(post, path = "/runs/{run}/grade", tag = "grade",
    params(("run" = String, Path, description = "The run; `default` for plain /mcp"), GradeQuery),
    request_body(content = Object, description = "An expected file", content_type = "application/json"),
    responses((status = 200, description = "Graded; `passed` says how (JUnit XML with ?format=junit)", body = Report),
              (status = 400, description = "The expected file is not valid", body = ErrorBody),
              (status = 404, description = "No such run", body = ErrorBody),
              (status = 422, description = "An expected action is refused", body = ErrorBody)))]
pub(crate) async fn grade(
    run: InRun,
    Query(query): Query<GradeQuery>,
    body: String,
) -> Result<Response, ApiError> {
    run.existing()?;
    let report = blocking(move || {
        let verdict = verdict(&run.engine, &run.layout.journal, &body)?;
        let graded = Graded {
            run: run.name().to_string(),
            expected: PathBuf::from(query.expected.as_deref().unwrap_or("expected.json")),
            verdict,
        };
        Ok(Report::of(vec![graded], 1))
    })
    .await?;
    Ok(match query.format {
        GradeFormat::Json => axum::Json(report).into_response(),
        GradeFormat::Junit => (
            [(header::CONTENT_TYPE, "application/xml; charset=utf-8")],
            report.junit(),
        )
            .into_response(),
    })
}
