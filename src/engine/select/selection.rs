//! Scenario selection (SPEC §3): the forced scenario, else the first matching one in file
//! order, else the first default.

use serde_json::Value;

use super::matcher::matches;
use crate::engine::toolfile::parse::Scenario;

/// The chosen scenario and whether it was forced out-of-band.
pub struct Selection<'a> {
    pub scenario: &'a Scenario,
    pub forced: bool,
}

pub fn select<'a>(
    scenarios: &'a [Scenario],
    args: &Value,
    forced: Option<&str>,
) -> Option<Selection<'a>> {
    if let Some(name) = forced
        && let Some(scenario) = scenarios.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    {
        return Some(Selection {
            scenario,
            forced: true,
        });
    }
    scenarios
        .iter()
        .find(|s| {
            s.rule
                .as_ref()
                .is_some_and(|rule| matches(rule, Some(args)))
        })
        .or_else(|| scenarios.iter().find(|s| s.rule.is_none()))
        .map(|scenario| Selection {
            scenario,
            forced: false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::toolfile::parse::Outcome;
    use crate::engine::toolfile::template::Template;
    use serde_json::json;

    fn scenario(name: &str, rule: Option<Value>) -> Scenario {
        Scenario {
            name: name.into(),
            line: 1,
            rule,
            outcome: Outcome::Response,
            template: Template::parse("{}").unwrap(),
        }
    }

    #[test]
    fn selection_rules() {
        let file = vec![
            scenario("sushi", Some(json!({"query": "~sushi"}))),
            scenario("no-results", None),
            scenario("upstream-unavailable", None),
            scenario("sushi-too", Some(json!({"query": "~su"}))),
        ];
        let cases = [
            (
                json!({"query": "Sushi"}),
                None,
                "sushi",
                false,
                "first match in file order",
            ),
            (
                json!({"query": "sumo"}),
                None,
                "sushi-too",
                false,
                "a later match beats the default",
            ),
            (
                json!({"query": "pizza"}),
                None,
                "no-results",
                false,
                "first default",
            ),
            (
                json!({}),
                None,
                "no-results",
                false,
                "absent key falls to default",
            ),
            (
                json!({"query": "sushi"}),
                Some("UPSTREAM-unavailable"),
                "upstream-unavailable",
                true,
                "forced, any case",
            ),
            (
                json!({"query": "sushi"}),
                Some("gone"),
                "sushi",
                false,
                "unknown forced name ignored",
            ),
        ];
        for (args, forced, want, want_forced, why) in cases {
            let chosen = select(&file, &args, forced).unwrap();
            assert_eq!(
                (chosen.scenario.name.as_str(), chosen.forced),
                (want, want_forced),
                "{why}"
            );
        }
    }
}
