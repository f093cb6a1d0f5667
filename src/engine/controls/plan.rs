//! Each call's plan, drawn from the run's overrides file: the scenario it answers with, the
//! step of a sequence it is, how long it waits and the fault that fires instead of an answer.
//! [`RunControls`] holds what a run's plans are drawn from, and [`RunControls::plan`] draws
//! each: the overrides file as the server reads it ([`OverridesReader`], read again only when
//! its stamp says it may have changed), then [`plan`]. A tool that no entry applies to is
//! planned from the file's cached controls alone.

use std::io;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::RngExt;

use super::carried::CarriedFile;
use super::entries::{Controls, Fault, Step};
use super::overrides::{is_blank, parse, read_bytes};
use super::positions::{Place, Positions};
use crate::engine::run_files::RunFiles;
use crate::engine::stamp::Stamp;

/// A run's controls as the engine holds them: the reader of its overrides file, where each
/// session stands in each tool's story, the draws of its rates and what ended stdio servers
/// left for their clients.
#[derive(Debug)]
pub struct RunControls {
    overrides: OverridesReader,
    positions: Positions,
    /// What ended stdio servers left for their clients' next process.
    carried: CarriedFile,
    dice: PlanDraws,
}

impl RunControls {
    /// The controls of the run whose files are `files`, their draws from `seed` (`--seed`).
    pub fn new(files: &RunFiles, seed: Option<u64>) -> Self {
        Self {
            overrides: OverridesReader::new(files.overrides().to_path_buf()),
            positions: Positions::default(),
            carried: CarriedFile::of(files),
            dice: PlanDraws::new(seed),
        }
    }

    /// The plan for the next call of `tool` in `session` of `client`, from the overrides file
    /// as it is now (see [`crate::engine::Engine::plan_for`]).
    pub fn plan(&self, tool: &str, session: Option<&str>, client: Option<&str>) -> Plan {
        if let (None, Some(client)) = (session, client) {
            self.carried.bring(client, &self.positions);
        }
        plan(
            &self.overrides.controls(),
            tool,
            (session, client),
            &self.positions,
            &self.dice,
        )
    }

    /// The places of the session-less session of `client`, left in the carried file for its
    /// next process. Blocks on the file.
    pub fn carry_over(&self, client: &str) {
        let places = self.positions.leave(None);
        self.carried.leave(client, &places);
    }

    /// Where each session stands in each tool's controls.
    pub fn positions(&self) -> &Positions {
        &self.positions
    }
}

/// The overrides file as the server reads it: read again only when its stamp says it may have
/// changed, and parsed again only when its bytes changed; each change's problems are logged
/// once.
#[derive(Debug)]
pub struct OverridesReader {
    path: PathBuf,
    /// The bytes last read, what they ask for, and the file's stamp at that read.
    last: Mutex<(Vec<u8>, Arc<Controls>, Option<Stamp>)>,
}

impl OverridesReader {
    pub fn new(path: PathBuf) -> Self {
        Self {
            path,
            last: Mutex::new((Vec::new(), Arc::default(), None)),
        }
    }

    /// What the file asks for now: read again only when its stamp says it may have changed.
    pub fn controls(&self) -> Arc<Controls> {
        let look = Stamp::look(&self.path);
        let stamp = look.as_ref().ok().copied().flatten();
        {
            let last = self.lock();
            if stamp.is_some_and(|stamp| stamp.vouches_for(last.2.as_ref())) {
                return Arc::clone(&last.1);
            }
        }
        // No file is no overrides: a missing file is not opened again to learn that.
        let absent = look.is_err_and(|error| error.kind() == io::ErrorKind::NotFound);
        let bytes = if absent {
            Vec::new()
        } else {
            read_bytes(&self.path).unwrap_or_else(|error| {
                if error.kind() != io::ErrorKind::NotFound {
                    tracing::warn!(path = %self.path.display(), "cannot read the overrides file, ignoring it: {error}");
                }
                Vec::new()
            })
        };
        let mut last = self.lock();
        if last.0 != bytes {
            let controls = match parse(&bytes) {
                Some(overrides) => Controls::from_overrides(&overrides),
                None => {
                    if !is_blank(&bytes) {
                        tracing::warn!(path = %self.path.display(), "overrides file is not a JSON object: ignoring it");
                    }
                    Controls::default()
                }
            };
            for problem in &controls.problems {
                tracing::warn!(path = %self.path.display(), "{problem}");
            }
            last.0 = bytes;
            last.1 = Arc::new(controls);
        }
        last.2 = stamp;
        Arc::clone(&last.1)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (Vec<u8>, Arc<Controls>, Option<Stamp>)> {
        self.last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

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
    use crate::engine::controls::entries::{Control, Overrides};
    use crate::engine::controls::overrides::{OverridesError, read_strict, set_entry};

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

    #[test]
    fn write_then_read_and_reader_sees_edits() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/overrides.json");
        let reader = OverridesReader::new(path.clone());
        let forced = |reader: &OverridesReader| {
            reader
                .controls()
                .tool("t")
                .and_then(|entry| entry.control.each.scenario.clone())
        };
        assert_eq!(forced(&reader), None);
        set_entry(&path, "t", Some(&Control::scenario("one"))).unwrap();
        assert_eq!(forced(&reader).as_deref(), Some("one"));
        assert_eq!(read_strict(&path).unwrap()["t"], "one", "SPEC §6's form");
        set_entry(&path, "t", Some(&Control::scenario("two"))).unwrap();
        assert_eq!(forced(&reader).as_deref(), Some("two"));
        set_entry(&path, "t", None).unwrap();
        assert_eq!(forced(&reader), None);
        set_entry(&path, "t", Some(&Control::scenario("three"))).unwrap();
        assert_eq!(forced(&reader).as_deref(), Some("three"));
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            forced(&reader),
            None,
            "a file that is gone asks for nothing"
        );
        set_entry(&path, "t", Some(&Control::scenario("four"))).unwrap();
        assert_eq!(forced(&reader).as_deref(), Some("four"));
        std::fs::write(&path, "not json").unwrap();
        assert_eq!(forced(&reader), None);
        assert!(matches!(
            read_strict(&path),
            Err(OverridesError::Invalid { .. })
        ));
        let left: Vec<String> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "no temp file left: {left:?}");
    }
}
