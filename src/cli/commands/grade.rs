//! `careem-mcp grade [--run R | --runs PATTERN] [--format human|json|junit] EXPECTED…`: each run
//! against each expected file, the verdicts, and over several runs the pass rate and pass^k.
//! The report and its JUnit form are the admin API's ([`Report`]), which answers the same.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::{engine_config, existing_run};
use crate::admin::{Graded, Report};
use crate::cli::args::{GlobalArgs, GradeArgs, GradeFormat};
use crate::cli::{Status, printer};
use crate::engine::{Engine, ProjectLayout, RunName, runs};
use crate::grade::{self, Expected};

pub fn run(
    global: &GlobalArgs,
    project: &ProjectLayout,
    args: &GradeArgs,
) -> anyhow::Result<Status> {
    let names = runs_to_grade(global, project, args)?;
    let mut config = engine_config(global, project)?;
    config.stateful = true;
    let engine = Engine::load(config).with_context(|| {
        format!(
            "the tool files in {} have problems (run `careem-mcp lint`)",
            project.tools.display()
        )
    })?;
    let expected = read_all(&args.expected)?;
    let mut verdicts = Vec::new();
    for name in &names {
        let layout = match name {
            Some(run) => project.for_run(run),
            None => project.clone(),
        };
        let run_engine = engine.for_run(layout.overrides.clone());
        for (path, _, expected) in &expected {
            let scratch = tempfile::tempdir().context("cannot make a scratch folder")?;
            let verdict = grade::grade(&run_engine, &layout.journal, expected, scratch.path())
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            verdicts.push(Graded {
                run: name
                    .as_ref()
                    .map_or("default".to_string(), ToString::to_string),
                expected: path.clone(),
                verdict,
            });
        }
    }
    print(&Report::of(verdicts, names.len()), args.format)
}

/// Each expected file: its path, its text and what it expects; the first that cannot be read
/// or does not parse ends the command, as it names the file.
pub fn read_all(paths: &[PathBuf]) -> anyhow::Result<Vec<(PathBuf, String, Expected)>> {
    paths
        .iter()
        .map(|path| {
            let text = grade::read_expected(path)
                .with_context(|| format!("{}: cannot read", path.display()))?;
            let expected =
                Expected::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            Ok((path.clone(), text, expected))
        })
        .collect()
}

/// Prints the report in `format`, here or through the API; exit 0 when every verdict passed.
pub fn print(report: &Report, format: GradeFormat) -> anyhow::Result<Status> {
    let text = match format {
        GradeFormat::Human => human(report),
        GradeFormat::Json => serde_json::to_string_pretty(report)?,
        GradeFormat::Junit => report.junit(),
    };
    printer::out(&text)?;
    Ok(if report.passed {
        Status::Success
    } else {
        Status::Findings
    })
}

/// The runs named: `--runs PATTERN`'s matches, `--run`'s one, or the default run (`None`).
fn runs_to_grade(
    global: &GlobalArgs,
    project: &ProjectLayout,
    args: &GradeArgs,
) -> anyhow::Result<Vec<Option<RunName>>> {
    match (&args.runs, &global.run) {
        (Some(_), Some(_)) => bail!("name the runs with --run or with --runs, not both"),
        (Some(pattern), None) => {
            let all = runs::list(&project.runs_dir()).unwrap_or_default();
            let matching: Vec<Option<RunName>> = all
                .into_iter()
                .filter(|run| matches(pattern, run.as_ref()))
                .map(Some)
                .collect();
            if matching.is_empty() {
                bail!(
                    "no run matches {pattern:?} in {}",
                    absolute_display(&project.runs_dir())
                );
            }
            Ok(matching)
        }
        (None, run) => {
            existing_run(project, run.as_ref())?;
            Ok(vec![run.clone()])
        }
    }
}

fn absolute_display(path: &Path) -> String {
    crate::engine::absolute(path).display().to_string()
}

/// Whether `name` matches `pattern`, where `*` stands for any characters.
pub fn matches(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let [first, middle @ .., last] = parts.as_slice() else {
        return pattern == name;
    };
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

fn human(report: &Report) -> String {
    let mut lines = Vec::new();
    for graded in &report.verdicts {
        let word = if graded.verdict.passed {
            printer::green("passed")
        } else {
            printer::red("failed")
        };
        lines.push(format!(
            "{} ({}): {word}, {} calls",
            graded.run,
            graded.expected.display(),
            graded.verdict.calls
        ));
        for line in graded
            .verdict
            .differences
            .iter()
            .chain(&graded.verdict.broken_checks)
        {
            lines.push(format!("  {line}"));
        }
    }
    if report.runs > 1 {
        let passed = report.verdicts.iter().filter(|v| v.verdict.passed).count();
        lines.push(format!(
            "pass rate {passed}/{} ({:.0}%), pass^{}: {}",
            report.verdicts.len(),
            report.pass_rate * 100.0,
            report.runs,
            report.pass_k
        ));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        let cases = [
            ("task7-try*", "task7-try1", true),
            ("task7-try*", "task7-try12", true),
            ("task7-try*", "task8-try1", false),
            ("*try*", "a-try-b", true),
            ("exact", "exact", true),
            ("exact", "exactly", false),
            ("a*b", "ab", true),
            ("a*b*b", "ab", false),
        ];
        for (pattern, name, want) in cases {
            assert_eq!(matches(pattern, name), want, "{pattern} {name}");
        }
    }
}
