//! Answering from a tool file that uses the world (docs/FORMAT.md, "Computed answers"), the
//! world's front door ([`RunWorld::answer`]): the scenario is chosen with its `jq when`
//! conditions, its `jq update` gives the run's state after the call, and its value comes from
//! its template or its `jq response` / `jq error` program; or one `jq change` program gives
//! both, the state and the response. Its programs see whether the call forced it (`.forced`):
//! reached unforced, the conditions before it did not hold; and what its own condition gave
//! (`.when`), so that a rule the condition computed is not computed again.
//! In stateful mode a file that changes the world answers under the run's lock, so that the
//! state it reads is the state it replaces. Programs run on the program threads, within the
//! call's deadline (`world/bounds.rs`, `world/pool.rs`); a call answered in place (on an async
//! worker) runs none, and answers only from values kept.

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::answers::{Computed, Key, StateId};
use super::bounds::Deadline;
use super::expr::ExprError;
use super::run::RunWorld;
use super::store::{Current, StoreError};
use super::{Generation, Input};
use crate::engine::select::selection::{Selection, select};
use crate::engine::toolfile::entropy::Entropy;
use crate::engine::toolfile::template::{RenderContext, RenderError};
use crate::engine::toolfile::{Answer, Program, Scenario, ToolFile};

/// Why a scenario gave no value. The client sees `internal server error`; this goes to stderr.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error("the world cannot be read: {0}")]
    World(String),
    #[error("scenario {scenario:?}, jq program at line {line}: {error}")]
    Program {
        scenario: String,
        line: usize,
        error: String,
    },
    #[error("{0}")]
    Store(String),
    /// A program must run for this answer, and the call is answered in place, where none runs.
    #[error("a program must run, and none runs in place")]
    NotInPlace,
}

/// Whether a call may run programs, or must answer from the values kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Programs {
    Run,
    /// In place, on an async worker: a program that must run is [`AnswerError::NotInPlace`].
    KeptOnly,
}

/// A chosen scenario and its value.
pub struct Answered<'a> {
    pub selection: Selection<'a>,
    pub value: Arc<Computed>,
}

/// Whether any scenario of `file` reads or changes the world.
pub fn uses_world(file: &ToolFile) -> bool {
    file.scenarios
        .iter()
        .any(|s| s.when.is_some() || s.changes() || s.is_computed())
}

impl RunWorld {
    /// Chooses and answers a scenario of `file` for `args` (defaults applied), `force` winning,
    /// the call's numbers drawn from `entropy`.
    pub fn answer<'a>(
        &self,
        file: &'a ToolFile,
        args: &Value,
        force: Option<&str>,
        entropy: &Entropy,
        programs: Programs,
    ) -> Result<Option<Answered<'a>>, AnswerError> {
        self.with_call(args, entropy, programs, |call, seed| {
            let changes = file.scenarios.iter().any(Scenario::changes);
            if self.stateful && changes {
                // Under the lock the state is read afresh, and nothing computed from it is kept.
                return self
                    .world_store()
                    .update(seed, self.now(), |state| {
                        call.answer(
                            file,
                            force,
                            State {
                                value: state,
                                id: None,
                            },
                        )
                    })
                    .map_err(|error| match error {
                        StoreError::Rejected(error) => error,
                        StoreError::Io { .. } => AnswerError::Store(error.to_string()),
                    });
            }
            let current = if self.stateful {
                let store = self.world_store();
                let current = store.current();
                // Seeding writes under the run's lock: never on an async worker.
                if programs == Programs::KeptOnly && store.would_seed(&current) {
                    return Err(AnswerError::NotInPlace);
                }
                store
                    .seeded_now(current, seed, self.now())
                    .map_err(|error| AnswerError::Store(error.to_string()))?
            } else {
                Current::Seed
            };
            let state = State {
                value: current.state(seed),
                id: Some(current.id()),
            };
            call.answer(file, force, state)
                .map(|(_, answered)| answered)
        })
    }

    /// The value of `scenario` as if it were forced, on the seed world (no run's state is read
    /// or changed): for the honesty check and `call --scenario`'s previews.
    pub fn value_of(
        &self,
        scenario: &Scenario,
        args: &Value,
        entropy: &Entropy,
    ) -> Result<Value, AnswerError> {
        match &scenario.answer {
            Answer::Template(template) if !scenario.changes() => {
                Ok(template.render(RenderContext {
                    args,
                    now: self.now(),
                    entropy,
                })?)
            }
            _ => self.value_on_seed(scenario, args, entropy),
        }
    }

    fn value_on_seed(
        &self,
        scenario: &Scenario,
        args: &Value,
        entropy: &Entropy,
    ) -> Result<Value, AnswerError> {
        self.with_call(args, entropy, Programs::Run, |call, seed| {
            call.value(scenario, State::seed(seed), Chosen::FORCED)
                .map(|(_, value)| value.into_value())
        })
    }

    /// Whether `scenario`'s `jq when` holds for `args` on the seed world (`true` without one):
    /// the honesty check holds a scenario only to the arguments that reach it.
    pub fn reaches(
        &self,
        scenario: &Scenario,
        args: &Value,
        entropy: &Entropy,
    ) -> Result<bool, AnswerError> {
        let Some(when) = &scenario.when else {
            return Ok(true);
        };
        self.with_call(args, entropy, Programs::Run, |call, seed| {
            call.holds(scenario, when, State::seed(seed))
        })
    }

    /// `with` given this call's view of the world as it is now, and the seed state. The call
    /// draws its random number once, before anything else of it draws (a program that reads
    /// it, a template's placeholders), whether or not it is read; a call refused in place
    /// draws nothing, so that under `--seed` the numbers are those of the calls answered.
    fn with_call<T>(
        &self,
        args: &Value,
        entropy: &Entropy,
        programs: Programs,
        with: impl FnOnce(&Call<'_>, &Value) -> Result<T, AnswerError>,
    ) -> Result<T, AnswerError> {
        let generation = self
            .world()
            .map_err(|problems| AnswerError::World(describe(&problems)))?;
        let call = Call {
            world: self,
            entropy,
            generation: &generation,
            args,
            args_key: OnceLock::new(),
            now: self.now().timestamp(),
            random: OnceLock::new(),
            programs,
            deadline: Deadline::from_now(),
        };
        let answered = with(&call, generation.seed());
        if !matches!(answered, Err(AnswerError::NotInPlace)) {
            call.random();
        }
        answered
    }
}

fn describe(problems: &[crate::engine::Diagnostic]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// One call's view of the world.
struct Call<'c> {
    world: &'c RunWorld,
    entropy: &'c Entropy,
    generation: &'c Generation,
    args: &'c Value,
    /// The arguments' compact JSON, made when a kept value is first looked for.
    args_key: OnceLock<Arc<str>>,
    now: i64,
    /// Drawn when first needed ([`Call::random`]).
    random: OnceLock<u64>,
    programs: Programs,
    /// When this call's programs must have given their values.
    deadline: Deadline,
}

/// How the scenario was chosen, as its programs see it (`.forced`, `.when`).
#[derive(Clone, Copy)]
struct Chosen<'w> {
    forced: bool,
    /// What the scenario's `jq when` gave when it chose the scenario.
    when: Option<&'w Computed>,
}

impl Chosen<'_> {
    /// Forced: no condition ran.
    const FORCED: Self = Self {
        forced: true,
        when: None,
    };
    /// A program of the choice itself, a `jq when`.
    const CHOOSING: Self = Self {
        forced: false,
        when: None,
    };
}

/// The state a program runs on, and which state it is when values computed from it may be kept
/// (`None`: the state under a run's lock, about to change).
#[derive(Clone, Copy)]
struct State<'s> {
    value: &'s Value,
    id: Option<StateId>,
}

impl<'s> State<'s> {
    fn seed(seed: &'s Value) -> Self {
        Self {
            value: seed,
            id: Some(StateId::Seed),
        }
    }
}

impl Call<'_> {
    /// This call's random number, drawn on first use.
    fn random(&self) -> u64 {
        *self
            .random
            .get_or_init(|| self.entropy.in_range(0, u64::from(u32::MAX)))
    }

    /// `program`'s value on `state` (and `before`, the state an update replaced), kept for the
    /// calls after this one when the document it sees is theirs too (`world/answers.rs`).
    fn run(
        &self,
        scenario: &Scenario,
        program: &Program,
        state: State<'_>,
        before: Option<&Value>,
        chosen: Chosen<'_>,
    ) -> Result<Arc<Computed>, AnswerError> {
        self.run_as(scenario, program, state, before, chosen, |value| {
            Ok((None, value))
        })
        .map(|(_, value)| value)
    }

    /// As [`Call::run`], with `shape` making the value kept, and the state after the call,
    /// from what the program gave (a `jq change` gives both). Only a state under a run's lock
    /// is replaced, and nothing computed from it is kept: a value kept comes back without one.
    fn run_as(
        &self,
        scenario: &Scenario,
        program: &Program,
        state: State<'_>,
        before: Option<&Value>,
        chosen: Chosen<'_>,
        shape: impl FnOnce(Value) -> Result<(Option<Value>, Value), AnswerError>,
    ) -> Result<(Option<Value>, Arc<Computed>), AnswerError> {
        let failed = |error: String| AnswerError::Program {
            scenario: scenario.name.clone(),
            line: program.line,
            error,
        };
        let compiled = self.generation.program(&program.source).map_err(failed)?;
        let reads = compiled.reads();
        let key = state
            .id
            .filter(|_| before.is_none() && !reads.random)
            .map(|state| Key {
                program: compiled.id(),
                args: Arc::clone(
                    self.args_key
                        .get_or_init(|| Arc::from(self.args.to_string())),
                ),
                state,
                now: reads.now.then_some(self.now),
                forced: reads.forced.then_some(chosen.forced),
                when: reads
                    .when
                    .then(|| Arc::from(chosen.when.map_or("null", Computed::text))),
                stateful: self.world.stateful,
            });
        let answers = self.generation.answers();
        if let Some(kept) = key.as_ref().and_then(|key| answers.get(key)) {
            return Ok((None, kept));
        }
        if self.programs == Programs::KeptOnly {
            return Err(AnswerError::NotInPlace);
        }
        let input = self.generation.input(
            Input {
                args: self.args,
                state: state.value,
                before,
                now: self.now,
                stateful: self.world.stateful,
                random: if reads.random { self.random() } else { 0 },
                forced: chosen.forced,
                when: chosen.when.map(Computed::value),
            },
            reads,
        );
        tracing::debug!(scenario = %scenario.name, line = program.line, "a jq program runs");
        let (after, value) = shape(
            compiled
                .run(input, self.deadline)
                .map_err(|error: ExprError| failed(error.to_string()))?,
        )?;
        let value = Computed::new(value);
        if let Some(key) = key {
            answers.keep(key, &value);
        }
        Ok((after, value))
    }

    fn holds(
        &self,
        scenario: &Scenario,
        when: &Program,
        state: State<'_>,
    ) -> Result<bool, AnswerError> {
        self.condition(scenario, when, state)
            .map(|value| value.is_some())
    }

    /// What `scenario`'s `jq when` gives on `state` when it holds (neither `false` nor `null`).
    fn condition(
        &self,
        scenario: &Scenario,
        when: &Program,
        state: State<'_>,
    ) -> Result<Option<Arc<Computed>>, AnswerError> {
        self.run(scenario, when, state, None, Chosen::CHOOSING)
            .map(|value| {
                (!matches!(value.value(), Value::Null | Value::Bool(false))).then_some(value)
            })
    }

    /// Selection and value on `state`; the new state when the scenario changes it. The
    /// chosen scenario's programs see what its `jq when` gave as `.when`, so that a rule the
    /// condition computed runs once.
    fn answer<'a>(
        &self,
        file: &'a ToolFile,
        force: Option<&str>,
        state: State<'_>,
    ) -> Result<(Option<Value>, Option<Answered<'a>>), AnswerError> {
        // Selection stops at the first condition that holds: the last one held is the choice's.
        let mut held = None;
        let selection = select(&file.scenarios, self.args, force, |when| {
            let scenario = file
                .scenarios
                .iter()
                .find(|s| s.when.as_ref() == Some(when))
                .expect("the condition is a scenario's");
            held = self.condition(scenario, when, state)?;
            Ok::<_, AnswerError>(held.is_some())
        })?;
        let Some(selection) = selection else {
            return Ok((None, None));
        };
        let chosen = Chosen {
            forced: selection.forced,
            when: held
                .as_deref()
                .filter(|_| !selection.forced && selection.scenario.when.is_some()),
        };
        let (after, value) = self.value(selection.scenario, state, chosen)?;
        Ok((after, Some(Answered { selection, value })))
    }

    /// The scenario's value on `state`, and the state after it when it has an update or a
    /// change.
    fn value(
        &self,
        scenario: &Scenario,
        state: State<'_>,
        chosen: Chosen<'_>,
    ) -> Result<(Option<Value>, Arc<Computed>), AnswerError> {
        if let Answer::Change(program) = &scenario.answer {
            return self.change(scenario, program, state, chosen);
        }
        let after = match &scenario.update {
            Some(update) => {
                let new = self
                    .run(scenario, update, state, None, chosen)?
                    .into_value();
                Some(new_state(scenario, update, "update", new)?)
            }
            None => None,
        };
        let value = match &scenario.answer {
            Answer::Template(template) => {
                // The call's number is drawn before the template's placeholders draw theirs.
                self.random();
                Computed::new(template.render(RenderContext {
                    args: self.args,
                    now: self.world.now(),
                    entropy: self.entropy,
                })?)
            }
            Answer::Computed(program) => match &after {
                Some(after) => {
                    let after = State {
                        value: after,
                        id: None,
                    };
                    self.run(scenario, program, after, Some(state.value), chosen)?
                }
                None => self.run(scenario, program, state, None, chosen)?,
            },
            Answer::Change(_) => unreachable!("a change is answered above"),
        };
        Ok((after, value))
    }

    /// A `jq change`'s value on `state`: `{response: …}`, with the state after the call as
    /// `state` when the call changes it (absent or `null`: unchanged).
    fn change(
        &self,
        scenario: &Scenario,
        program: &Program,
        state: State<'_>,
        chosen: Chosen<'_>,
    ) -> Result<(Option<Value>, Arc<Computed>), AnswerError> {
        let failed = |error: String| AnswerError::Program {
            scenario: scenario.name.clone(),
            line: program.line,
            error,
        };
        self.run_as(scenario, program, state, None, chosen, |changed| {
            let Value::Object(mut change) = changed else {
                return Err(failed(format!(
                    "the change gave {changed}, not an object of `state` and `response`"
                )));
            };
            if let Some(key) = change
                .keys()
                .find(|key| !CHANGE_KEYS.contains(&key.as_str()))
            {
                return Err(failed(format!(
                    "the change gave a key `{key}`: it gives only `state` and `response`"
                )));
            }
            let Some(response) = change.remove("response") else {
                return Err(failed("the change gave no `response`".to_string()));
            };
            let after = match change.remove("state") {
                None | Some(Value::Null) => None,
                Some(new) => Some(new_state(scenario, program, "change", new)?),
            };
            Ok((after, response))
        })
    }
}

/// The keys a `jq change` gives.
const CHANGE_KEYS: [&str; 2] = ["state", "response"];

/// `new`, the state a program (`what`: an update, a change) gave, when it is one: an object.
fn new_state(
    scenario: &Scenario,
    program: &Program,
    what: &str,
    new: Value,
) -> Result<Value, AnswerError> {
    if new.is_object() {
        return Ok(new);
    }
    Err(AnswerError::Program {
        scenario: scenario.name.clone(),
        line: program.line,
        error: format!("the {what} gave a state that is not an object: {new}"),
    })
}
