//! `careem-mcp drift`: production read through [`crate::probe::drift`], compared with the
//! project by the engine, shown grouped by tool (or as JSON); `--write` has the engine bring
//! the tool files in line, and what it wrote goes to stderr.

use anyhow::Context;
use serde_json::{Value, json};

use super::engine_config;
use super::reach::reach;
use crate::cli::args::{DriftArgs, DriftFormat, GlobalArgs, UpstreamTransport};
use crate::cli::{Status, printer};
use crate::engine::drift_write::{self, Written};
use crate::engine::{
    self, Drift, FieldChange, Presence, ProjectLayout, SubjectDrift, absolute, journal,
};
use crate::probe::drift::{self, Bounds, Upstream};
use crate::probe::release::{self, Release};
use crate::probe::without_password;
use crate::server::{WireProfile, runtime};

/// How much of one value the terminal report shows.
const VALUE_LIMIT: usize = 2000;

pub fn run(
    global: &GlobalArgs,
    layout: &ProjectLayout,
    args: &DriftArgs,
) -> anyhow::Result<Status> {
    let config = engine_config(global, layout)?;
    let reach = reach(&args.reach)?;
    let bounds = Bounds {
        pages: args.max_pages,
        bytes: args.max_bytes,
    };
    let via = match args.transport {
        UpstreamTransport::Http => Upstream::Http,
        UpstreamTransport::Sse => Upstream::Sse,
    };
    let runtime = runtime().context("cannot start the async runtime")?;
    let (production, project, release) = runtime.block_on(async {
        let production = drift::production(&args.url, via, &reach, bounds).await?;
        let release = match via {
            Upstream::Http => Some(
                release::observe(&args.url, &reach)
                    .await
                    .map(Release::of)
                    .map_err(|why| why.replace(&args.url, &without_password(&args.url))),
            ),
            Upstream::Sse => None,
        };
        let wire = match &release {
            Some(Ok(Release {
                profile: Some(profile),
                ..
            })) => *profile,
            _ => WireProfile::default(),
        };
        let project = drift::project(&config, wire).await?;
        anyhow::Ok((production, project, release))
    })?;
    let drift = engine::drift::compare(&project, &production);
    let written = if args.write && !drift.is_empty() {
        Some(drift_write::write(&config.tools_dir, &drift, &production)?)
    } else {
        None
    };
    match args.format {
        DriftFormat::Text => {
            let counts = (project.tools.len(), project.resources.len());
            printer::out(&wire_line(release.as_ref()))?;
            printer::out(&report(&drift, counts))?;
        }
        DriftFormat::Json => {
            let wire = match &release {
                Some(Ok(release)) => json!(release),
                Some(Err(why)) => {
                    json!({"profile": null, "description": format!("not determined: {why}")})
                }
                None => json!({"profile": null, "description": SSE_ONLY}),
            };
            let document = json!({"url": without_password(&args.url), "wire": wire, "differences": drift.differences, "written": written});
            printer::out(&serde_json::to_string_pretty(&document)?)?;
        }
    }
    if let Some(written) = &written {
        show_written(written);
    }
    Ok(if drift.is_empty() {
        Status::Success
    } else {
        Status::Findings
    })
}

/// Why the release is not told over legacy SSE.
const SSE_ONLY: &str = "not determined over legacy SSE: drift tells the release from production's Streamable HTTP endpoint";

/// The report's first line: the wire profile production's answers match.
fn wire_line(release: Option<&Result<Release, String>>) -> String {
    match release {
        Some(Ok(Release {
            profile: Some(profile),
            description,
            ..
        })) => format!(
            "wire: {profile} ({description}); serve --wire {profile} answers as production does"
        ),
        Some(Ok(Release { observed, .. })) => format!(
            "wire: matches no profile (session id {}, server/discover {}, list cache hints {})",
            yes_no(observed.session_id),
            if observed.discover_answered {
                format!("offers {}", observed.discover_versions.join(","))
            } else {
                "refused".to_string()
            },
            yes_no(observed.list_cache_hints)
        ),
        Some(Err(why)) => format!("wire: not determined: {why}"),
        None => format!("wire: {SSE_ONLY}"),
    }
}

fn yes_no(flag: bool) -> &'static str {
    if flag { "yes" } else { "no" }
}

/// The terminal report: one block per subject, each place with both values, then a summary.
fn report(drift: &Drift, (tools, resources): (usize, usize)) -> String {
    if drift.is_empty() {
        return format!(
            "no differences: initialize, {tools} tools and {resources} resource(s) as production has them"
        );
    }
    let mut out = String::new();
    for subject in &drift.differences {
        out.push_str(&heading(subject));
        out.push('\n');
        for change in &subject.changes {
            out.push_str(&place(change));
        }
    }
    let count = |presence| {
        drift
            .differences
            .iter()
            .filter(|d| d.presence == presence)
            .count()
    };
    out.push_str(&format!(
        "\n{} difference(s): {} changed, {} only in production, {} only in the project",
        drift.places(),
        count(Presence::Changed),
        count(Presence::OnlyInProduction),
        count(Presence::OnlyInProject),
    ));
    out
}

fn heading(subject: &SubjectDrift) -> String {
    let name = shown(&subject.name);
    let word = subject.subject.word();
    let what = match subject.presence {
        Presence::Changed if name == word => return word.to_string(),
        Presence::Changed => format!("{} change(s)", subject.changes.len()),
        Presence::OnlyInProduction => "only in production".to_string(),
        Presence::OnlyInProject => "only in the project (production no longer has it)".to_string(),
    };
    format!("{word} {name}: {what}")
}

fn place(change: &FieldChange) -> String {
    let path = if change.path.is_empty() {
        "(the whole)".to_string()
    } else {
        shown(&change.path)
    };
    format!(
        "  {path}\n    project:    {}\n    production: {}\n",
        value(change.project.as_ref()),
        value(change.production.as_ref())
    )
}

/// A value as compact JSON (which escapes control characters), cut when long.
fn value(value: Option<&Value>) -> String {
    match value {
        None => "(absent)".to_string(),
        Some(value) => journal::clip(&value.to_string(), VALUE_LIMIT).into_owned(),
    }
}

/// A name or path from the server, with control characters escaped so that it cannot steer
/// the terminal.
fn shown(text: &str) -> String {
    if text.chars().any(char::is_control) {
        text.escape_debug().to_string()
    } else {
        text.to_string()
    }
}

fn show_written(written: &Written) {
    for path in &written.rewritten {
        eprintln!("rewrote the definition in {}", absolute(path).display());
    }
    for path in &written.created {
        eprintln!("created {}", absolute(path).display());
    }
    if let Some(path) = &written.source_listing {
        eprintln!("rewrote {}", absolute(path).display());
    }
    for (tool, path) in &written.kept {
        eprintln!(
            "{} production no longer lists {tool}; {} is kept (delete it by hand if it is gone for good)",
            printer::yellow("note:"),
            absolute(path).display()
        );
    }
}
