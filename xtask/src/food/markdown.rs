//! A generated food tool file: its hand-written head (title, Flow, Definition) kept as it is,
//! then a `## Scenarios` note and the scenario sections the generator writes.

use super::json::J;
use std::path::Path;

use crate::Generated;
use crate::area::{self, BOX_WORDS, Edge, Point};
use crate::generated::{Generator, generated_file};

/// Production's refusal for a delivery point Careem Food does not serve.
pub const UNSERVICEABLE: &str =
    "location not serviceable: careem food does not deliver to this location yet";

/// The food generator, named in the note above the scenarios.
const GENERATOR: Generator = Generator {
    module: "food",
    tables: "the restaurants, menus, promotions and orders",
};

/// The file at `relative` as it should be: its head, then `scenarios`.
pub fn file(
    repo: &Path,
    relative: &'static str,
    scenarios: &[Scenario],
) -> anyhow::Result<Generated> {
    generated_file(
        repo,
        relative,
        &GENERATOR,
        scenarios.iter().map(Scenario::render),
    )
}

/// One `## Scenario:` section.
pub struct Scenario {
    pub name: String,
    /// One sentence: when it applies and what it answers.
    pub prose: String,
    pub rule: Option<J>,
    pub template: J,
    /// A `json error` block (`isError: true`) instead of a `json response`.
    pub is_error: bool,
}

impl Scenario {
    /// A scenario chosen by `rule`.
    pub fn matched(
        name: impl Into<String>,
        prose: impl Into<String>,
        rule: J,
        template: J,
    ) -> Self {
        Self {
            name: name.into(),
            prose: prose.into(),
            rule: Some(rule),
            template,
            is_error: false,
        }
    }

    /// A scenario without a rule: the default when first, forced-only after it.
    pub fn plain(name: impl Into<String>, prose: impl Into<String>, template: J) -> Self {
        Self {
            name: name.into(),
            prose: prose.into(),
            rule: None,
            template,
            is_error: false,
        }
    }

    /// The default for a restaurant id production does not know: `failed` with a 404.
    pub fn unknown_restaurant(failed: &str) -> Self {
        Self::plain(
            "not-found",
            "Default: any other restaurant id; production's answer for a restaurant it does not \
             know.",
            error(format!("{failed}: unexpected response status 404")),
        )
    }

    /// A scenario per rule for a delivery point Careem does not serve (outside the box or at
    /// sea), each refused as [`UNSERVICEABLE`]; they come before any rule on other arguments.
    pub fn unserved_points() -> Vec<Self> {
        area::unserved(Point::Location)
            .into_iter()
            .map(|rule| {
                let place = match rule.edge {
                    Edge::Outside => format!("outside the area Careem serves ({BOX_WORDS})"),
                    Edge::Sea => "open sea".to_string(),
                };
                let members = rule
                    .members
                    .into_iter()
                    .map(|(key, pattern)| (key, super::json::s(pattern)))
                    .collect();
                Self::matched(
                    rule.name,
                    format!(
                        "{}: {place}, where Careem Food does not deliver.",
                        rule.words
                    ),
                    super::json::obj(members),
                    error(UNSERVICEABLE),
                )
            })
            .collect()
    }

    /// A forced outage: `down` says what is down, and production answers `failed` with a 503.
    pub fn upstream_unavailable(down: &str, failed: &str) -> Self {
        Self::plain(
            "upstream-unavailable",
            format!("Forced only. {down}"),
            error(format!("{failed}: unexpected response status 503")),
        )
    }

    /// Production's answer to a call on an expired Careem session (forced only).
    pub fn session_expired() -> Self {
        Self {
            name: "session-expired".into(),
            prose: "Forced only. The user's Careem session is no longer valid.".into(),
            rule: None,
            template: super::json::obj(vec![(
                "error",
                super::json::s(
                    "unauthorized: careem session expired, reconnect your Careem account",
                ),
            )]),
            is_error: true,
        }
    }

    fn render(&self) -> String {
        let mut text = format!("## Scenario: {}\n\n{}\n\n", self.name, self.prose);
        if let Some(rule) = &self.rule {
            text.push_str(&format!("```json match\n{}\n```\n\n", rule.render()));
        }
        let kind = if self.is_error { "error" } else { "response" };
        text.push_str(&format!(
            "```json {kind}\n{}\n```\n",
            self.template.render()
        ));
        text
    }
}

/// A business error as production answers it: a normal result carrying `error`.
pub fn error(text: impl Into<String>) -> J {
    super::json::obj(vec![("error", super::json::s(text))])
}
