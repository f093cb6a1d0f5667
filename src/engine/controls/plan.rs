//! One call's plan, drawn from the overrides file: the scenario it answers with, the step of
//! a sequence it is, how long it waits and the fault that fires instead of an answer.

use std::time::Duration;

use rand::RngExt;

use super::entries::{Controls, Fault, Step};
use super::positions::{Place, Positions};

/// What the controls ask of one call. The default is a plain call: normal selection, no wait.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// The scenario forced for this call.
    pub scenario: Option<String>,
    /// The step of the tool's sequence, counted from 0.
    pub step: Option<usize>,
    pub delay: Duration,
    /// The fault that fires instead of an answer.
    pub fault: Option<Fault>,
}

impl Plan {
    /// A call forced into `scenario` by its caller, with nothing else.
    pub fn forced(scenario: &str) -> Self {
        Self {
            scenario: Some(scenario.to_string()),
            ..Self::default()
        }
    }
}

/// What a draw is for: the delay and the fault of one call draw independently.
#[derive(Debug, Clone, Copy)]
enum Purpose {
    Delay = 1,
    Fault = 2,
}

/// Draws in `[0, 1)`: the thread's generator normally; under `--seed` a pure function of the
/// seed, the tool, the session's ordinal and the call's position, so that a session sees the
/// same delays and faults on every run however its calls interleave with other sessions', and
/// each new session draws afresh (not the first session's draws again).
#[derive(Debug, Default)]
pub struct PlanDraws {
    seed: Option<u64>,
}

impl PlanDraws {
    pub fn new(seed: Option<u64>) -> Self {
        Self { seed }
    }

    fn unit(&self, tool: &str, place: Place, purpose: Purpose) -> f64 {
        let Some(seed) = self.seed else {
            return rand::rng().random::<f64>();
        };
        let mut state = seed ^ (purpose as u64).wrapping_mul(0xA076_1D64_78BD_642F);
        for byte in tool.bytes() {
            state = splitmix(state ^ u64::from(byte));
        }
        state = splitmix(state ^ place.session);
        state = splitmix(state ^ place.call);
        // The top 53 bits, as a double in [0, 1).
        (splitmix(state) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// SplitMix64's finaliser: a cheap, well-mixed step from one state to the next.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The plan for the next call of `tool` in `session` of `client` (see
/// [`Positions::advance_for`]). The step of the tool's sequence comes first, then the tool's
/// entry, then `"*"`: the first of them that sets a delay or a fault decides it. Positions
/// advance only for tools that some entry applies to, so an empty file leaves no trace.
pub fn plan(
    controls: &Controls,
    tool: &str,
    (session, client): (Option<&str>, Option<&str>),
    positions: &Positions,
    dice: &PlanDraws,
) -> Plan {
    let own = controls.tool(tool);
    let default = controls.default_entry().map(|entry| &entry.control.each);
    if own.is_none() && default.is_none() {
        return Plan::default();
    }
    let entry = own.map_or("", |entry| entry.text.as_str());
    let place = positions.advance_for(session, client, tool, entry);
    let (step, current) = own
        .and_then(|entry| entry.control.step_at(place.call))
        .unzip();
    let layers: Vec<&Step> = [current, own.map(|entry| &entry.control.each), default]
        .into_iter()
        .flatten()
        .collect();
    // `"*"` names no scenario: scenario names belong to one tool's file.
    let scenario = current
        .and_then(|step| step.scenario.clone())
        .or_else(|| own.and_then(|entry| entry.control.each.scenario.clone()));
    let delay = layers
        .iter()
        .find_map(|layer| layer.delay)
        .map_or(Duration::ZERO, |delay| {
            delay.at(dice.unit(tool, place, Purpose::Delay))
        });
    let fault = layers
        .iter()
        .find(|layer| layer.fault.is_some())
        .and_then(|layer| {
            let fires = layer
                .rate
                .is_none_or(|rate| dice.unit(tool, place, Purpose::Fault) < rate);
            layer.fault.filter(|_| fires)
        });
    Plan {
        scenario,
        step,
        delay,
        fault,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::engine::controls::entries::Overrides;

    fn controls(file: serde_json::Value) -> Controls {
        let overrides: Overrides = serde_json::from_value(file).unwrap();
        Controls::from_overrides(&overrides)
    }

    fn plans(file: serde_json::Value, tool: &str, calls: usize, seed: u64) -> Vec<Plan> {
        let controls = controls(file);
        let positions = Positions::default();
        let dice = PlanDraws::new(Some(seed));
        (0..calls)
            .map(|_| plan(&controls, tool, (Some("s"), None), &positions, &dice))
            .collect()
    }

    #[test]
    fn layers_in_order_step_then_entry_then_default() {
        let file = json!({
            "t": {"sequence": [{"fault": "http-503"}, "a", {"scenario": "b", "delay": "5ms"}], "delay": "1s"},
            "*": {"delay": "2s", "fault": "hang"},
        });
        let got = plans(file, "t", 4, 1);
        let want = [
            (None, Some(0), 1000, Some(Fault::Http503)),
            (Some("a"), Some(1), 1000, Some(Fault::Hang)),
            (Some("b"), Some(2), 5, Some(Fault::Hang)),
            (Some("b"), Some(2), 5, Some(Fault::Hang)),
        ];
        for (plan, (scenario, step, ms, fault)) in got.iter().zip(want) {
            assert_eq!(
                (plan.scenario.as_deref(), plan.step, plan.delay, plan.fault),
                (scenario, step, Duration::from_millis(ms), fault)
            );
        }
    }

    #[test]
    fn the_default_entry_applies_to_tools_without_their_own() {
        let got = plans(json!({"*": {"delay": "3s"}, "t": "x"}), "u", 1, 1);
        assert_eq!(
            got[0],
            Plan {
                delay: Duration::from_secs(3),
                ..Plan::default()
            }
        );
        assert_eq!(plans(json!({"t": "x"}), "u", 1, 1)[0], Plan::default());
    }

    #[test]
    fn seeded_draws_are_stable_and_near_their_rate() {
        let file = json!({"t": {"fault": "http-502", "rate": 0.2, "delay": "100ms..200ms"}});
        let first = plans(file.clone(), "t", 500, 7);
        assert_eq!(
            first,
            plans(file.clone(), "t", 500, 7),
            "same seed, same draws"
        );
        assert_ne!(first, plans(file, "t", 500, 8), "another seed, other draws");
        let fired = first.iter().filter(|p| p.fault.is_some()).count();
        assert!((60..=140).contains(&fired), "{fired} of 500 at rate 0.2");
        assert!(
            first
                .iter()
                .all(|p| (100..=200).contains(&p.delay.as_millis()))
        );
        let distinct: std::collections::HashSet<_> = first.iter().map(|p| p.delay).collect();
        assert!(distinct.len() > 50, "drawn across the range");
    }
}
