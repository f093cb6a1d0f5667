//! Answering from a tool file that uses the world (docs/FORMAT.md, "Computed answers"): the
//! scenario is chosen with its `jq when` conditions, its `jq update` gives the run's state after
//! the call, and its value comes from its template or its `jq response` / `jq error` program.
//! In stateful mode a file that changes the world answers under the run's lock, so that the
//! state it reads is the state it replaces.

use serde_json::Value;

use super::Engine;
use super::select::selection::{Selection, select};
use super::toolfile::template::{RenderContext, RenderError};
use super::toolfile::{Answer, Program, Scenario, ToolFile};
use super::world::expr::ExprError;
use super::world::store::StoreError;
use super::world::{Generation, Input};

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
}

/// A chosen scenario and its value.
pub struct Answered<'a> {
    pub selection: Selection<'a>,
    pub value: Value,
}

/// Whether any scenario of `file` reads or changes the world.
pub fn uses_world(file: &ToolFile) -> bool {
    file.scenarios
        .iter()
        .any(|s| s.when.is_some() || s.update.is_some() || s.is_computed())
}

impl Engine {
    /// Chooses and answers a scenario of `file` for `args` (defaults applied), `force` winning.
    pub(super) fn answer_with_world<'a>(
        &self,
        file: &'a ToolFile,
        args: &Value,
        force: Option<&str>,
    ) -> Result<Option<Answered<'a>>, AnswerError> {
        self.with_call(args, |call, seed| {
            let changes = file.scenarios.iter().any(|s| s.update.is_some());
            if self.config.stateful && changes {
                return self
                    .world_store()
                    .update(seed, self.now(), |state| call.answer(file, force, state))
                    .map_err(|error| match error {
                        StoreError::Rejected(error) => error,
                        StoreError::Io { .. } => AnswerError::Store(error.to_string()),
                    });
            }
            let state = if self.config.stateful {
                self.world_store().read(seed)
            } else {
                seed.clone()
            };
            call.answer(file, force, &state)
                .map(|(_, answered)| answered)
        })
    }

    /// The value of `scenario` as if it were forced, on the seed world (no run's state is read
    /// or changed): for the honesty check and `call --scenario`'s previews.
    pub(super) fn value_of(&self, scenario: &Scenario, args: &Value) -> Result<Value, AnswerError> {
        match (&scenario.answer, &scenario.update) {
            (Answer::Template(template), None) => Ok(template.render(self.render_context(args))?),
            _ => self.value_on_seed(scenario, args),
        }
    }

    fn value_on_seed(&self, scenario: &Scenario, args: &Value) -> Result<Value, AnswerError> {
        self.with_call(args, |call, seed| {
            call.value(scenario, seed).map(|(_, value)| value)
        })
    }

    /// Whether `scenario`'s `jq when` holds for `args` on the seed world (`true` without one):
    /// the honesty check holds a scenario only to the arguments that reach it.
    pub fn reaches(&self, scenario: &Scenario, args: &Value) -> Result<bool, AnswerError> {
        let Some(when) = &scenario.when else {
            return Ok(true);
        };
        self.with_call(args, |call, seed| call.holds(scenario, when, seed))
    }

    /// `with` given this call's view of the world as it is now, and the seed state.
    fn with_call<T>(
        &self,
        args: &Value,
        with: impl FnOnce(&Call<'_>, &Value) -> Result<T, AnswerError>,
    ) -> Result<T, AnswerError> {
        let generation = self
            .world()
            .map_err(|problems| AnswerError::World(describe(&problems)))?;
        let call = Call {
            engine: self,
            generation: &generation,
            args,
            now: self.now().timestamp(),
            random: self.entropy.in_range(0, u64::from(u32::MAX)),
        };
        with(&call, generation.seed())
    }
}

fn describe(problems: &[super::Diagnostic]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// One call's view of the world.
struct Call<'c> {
    engine: &'c Engine,
    generation: &'c Generation,
    args: &'c Value,
    now: i64,
    random: u64,
}

impl Call<'_> {
    fn input(&self, state: &Value, before: Option<&Value>) -> jaq_json::Val {
        self.generation.input(Input {
            args: self.args,
            state,
            before,
            now: self.now,
            stateful: self.engine.config.stateful,
            random: self.random,
        })
    }

    fn run(
        &self,
        scenario: &Scenario,
        program: &Program,
        input: jaq_json::Val,
    ) -> Result<Value, AnswerError> {
        let failed = |error: String| AnswerError::Program {
            scenario: scenario.name.clone(),
            line: program.line,
            error,
        };
        let compiled = self.generation.program(&program.source).map_err(failed)?;
        compiled
            .run(input)
            .map_err(|error: ExprError| failed(error.to_string()))
    }

    fn holds(
        &self,
        scenario: &Scenario,
        when: &Program,
        state: &Value,
    ) -> Result<bool, AnswerError> {
        self.run(scenario, when, self.input(state, None))
            .map(|value| !matches!(value, Value::Null | Value::Bool(false)))
    }

    /// Selection and value on `state`; the new state when the scenario changes it.
    fn answer<'a>(
        &self,
        file: &'a ToolFile,
        force: Option<&str>,
        state: &Value,
    ) -> Result<(Option<Value>, Option<Answered<'a>>), AnswerError> {
        let selection = select(&file.scenarios, self.args, force, |when| {
            let scenario = file
                .scenarios
                .iter()
                .find(|s| s.when.as_ref() == Some(when))
                .expect("the condition is a scenario's");
            self.holds(scenario, when, state)
        })?;
        let Some(selection) = selection else {
            return Ok((None, None));
        };
        let (after, value) = self.value(selection.scenario, state)?;
        Ok((after, Some(Answered { selection, value })))
    }

    /// The scenario's value on `state`, and the state after it when it has an update.
    fn value(
        &self,
        scenario: &Scenario,
        state: &Value,
    ) -> Result<(Option<Value>, Value), AnswerError> {
        let after = match &scenario.update {
            Some(update) => {
                let new = self.run(scenario, update, self.input(state, None))?;
                if !new.is_object() {
                    return Err(AnswerError::Program {
                        scenario: scenario.name.clone(),
                        line: update.line,
                        error: format!("the update gave a state that is not an object: {new}"),
                    });
                }
                Some(new)
            }
            None => None,
        };
        let value = match &scenario.answer {
            Answer::Template(template) => template.render(RenderContext {
                args: self.args,
                now: self.engine.now(),
                entropy: &self.engine.entropy,
            })?,
            Answer::Computed(program) => self.run(
                scenario,
                program,
                self.input(after.as_ref().unwrap_or(state), Some(state)),
            )?,
        };
        Ok((after, value))
    }
}
