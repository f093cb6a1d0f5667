//! Scenario selection (SPEC §3): the forced scenario, else the first matching one in file
//! order, else the first default.

use serde_json::Value;

use super::matcher::matches;
use crate::engine::toolfile::parse::{Program, Scenario};

/// The chosen scenario and whether it was forced out-of-band.
pub struct Selection<'a> {
    pub scenario: &'a Scenario,
    pub forced: bool,
}

/// The scenario for `args`: the forced one, else the first whose match rule and `jq when`
/// condition both hold (`holds` runs a condition), else the first default. A condition that
/// fails to run fails the selection.
pub fn select<'a, E>(
    scenarios: &'a [Scenario],
    args: &Value,
    forced: Option<&str>,
    mut holds: impl FnMut(&Program) -> Result<bool, E>,
) -> Result<Option<Selection<'a>>, E> {
    if let Some(name) = forced
        && let Some(scenario) = scenarios.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    {
        return Ok(Some(Selection {
            scenario,
            forced: true,
        }));
    }
    for scenario in scenarios.iter().filter(|s| !s.is_default()) {
        let matched = scenario
            .rule
            .as_ref()
            .is_none_or(|rule| matches(rule, Some(args)));
        let chosen = matched
            && match &scenario.when {
                Some(when) => holds(when)?,
                None => true,
            };
        if chosen {
            return Ok(Some(Selection {
                scenario,
                forced: false,
            }));
        }
    }
    Ok(scenarios
        .iter()
        .find(|s| s.is_default())
        .map(|scenario| Selection {
            scenario,
            forced: false,
        }))
}

/// `select` for files without conditions.
#[cfg(test)]
fn select_plain<'a>(
    scenarios: &'a [Scenario],
    args: &Value,
    forced: Option<&str>,
) -> Option<Selection<'a>> {
    select(scenarios, args, forced, |_| Ok::<_, ()>(false)).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::toolfile::parse::{Answer, Outcome};
    use crate::engine::toolfile::template::Template;
    use serde_json::json;

    fn scenario(name: &str, rule: Option<Value>) -> Scenario {
        Scenario {
            name: name.into(),
            line: 1,
            rule,
            when: None,
            outcome: Outcome::Response,
            answer: Answer::Template(Template::parse("{}").unwrap()),
            update: None,
            sample: None,
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
            let chosen = select_plain(&file, &args, forced).unwrap();
            assert_eq!(
                (chosen.scenario.name.as_str(), chosen.forced),
                (want, want_forced),
                "{why}"
            );
        }
    }
}
