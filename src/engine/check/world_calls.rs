//! The world lint (docs/DATA_WORLD.md, "Checking the world"): every call that
//! `tools/world/lint/calls.jq` makes from the data (every restaurant's menu, every item's
//! details and add, every search word, place, product, estimate …) is answered as a client's
//! would be, once as `serve` answers and once as `serve --stateful`, on the seed state and
//! without touching a run. A program that fails, or an answer that breaks its tool's
//! `outputSchema`, is a problem at the program's file and line that names the call and the
//! entity of the data it was computing, so that a data edit that passes the schemas cannot
//! answer `internal server error` later. The engine knows no tool or field here: which calls to
//! make is the world's to say.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::honesty::violations;
use crate::engine::clip::clip;
use crate::engine::line_ends;
use crate::engine::select::arguments;
use crate::engine::select::selection::select;
use crate::engine::toolfile::diagnostic::Diagnostic;
use crate::engine::toolfile::parse::{Outcome, ToolFile};
use crate::engine::world::{self, AnswerError, SeedRun};
use crate::engine::{Engine, EngineConfig};

/// The program that gives the calls, under the world folder.
pub const CALLS: &str = "lint/calls.jq";

/// How much of a program's complaint a problem quotes.
const REASON_LIMIT: usize = 300;
/// How much of a call's arguments a problem quotes.
const ARGUMENTS_LIMIT: usize = 400;

/// The two ways a server answers: forgetting (`serve`) and remembering (`serve --stateful`).
const MODES: [(bool, &str); 2] = [(false, "static"), (true, "stateful")];

/// One way a call failed, and the first call that showed it.
struct Failure {
    at: Diagnostic,
    call: String,
    entity: Option<String>,
    modes: Vec<&'static str>,
    /// The other calls that failed the same way.
    more: BTreeSet<String>,
}

/// Every problem the calls of the world's `lint/calls.jq` find in `files` (the tool files that
/// parsed, by tool). Nothing when the world has no such program or cannot be read (its own
/// problems say why).
pub fn check(engine: &Engine, files: &BTreeMap<&str, &ToolFile>) -> Vec<Diagnostic> {
    let tools = &engine.config().tools_dir;
    let path = world::folder(tools).join(CALLS);
    let Ok(source) = std::fs::read_to_string(&path) else {
        return Vec::new();
    };
    // As a Windows editor writes it, as the world's other `*.jq` files are read.
    let source = line_ends::as_lf(&source);
    if engine.world().is_err() {
        return Vec::new();
    }
    let engines = MODES.map(|(stateful, _)| {
        engine.sharing_with(EngineConfig {
            stateful,
            ..engine.config().clone()
        })
    });
    let mut problems = Vec::new();
    let mut jobs: Vec<Job<'_>> = Vec::new();
    for (engine, (_, mode)) in engines.iter().zip(MODES) {
        let calls = match calls(engine, &path, &source) {
            Ok(calls) => calls,
            Err(problem) => {
                problems.push(problem);
                break;
            }
        };
        for (name, list) in calls {
            // A tool the project no longer has (removed after `drift`, say) is not tried.
            let (Some(tool), Some(file)) = (engine.tool(&name), files.get(name.as_str())) else {
                continue;
            };
            if !world::uses_world(file) {
                continue;
            }
            for mut args in list {
                arguments::apply_defaults(&tool.input_schema, &mut args);
                let call = format!("{name} {}", clip(&args.to_string(), ARGUMENTS_LIMIT));
                match arguments::validate(&tool.input_schema, &tool.input_validator, &args) {
                    Ok(()) => jobs.push(Job {
                        engine,
                        mode,
                        file,
                        output: tool.output_validator.as_ref(),
                        args,
                        call,
                    }),
                    Err(error) => {
                        problems.push(Diagnostic::new(
                            &path,
                            1,
                            format!("{call} ({mode}): {error}"),
                        ));
                    }
                }
            }
        }
    }
    let found = in_parallel(&jobs, |job| {
        failure(job.engine, job.file, job.output, &job.args)
    });
    let mut failures: Vec<Failure> = Vec::new();
    for (job, at) in jobs.into_iter().zip(found) {
        let Some(at) = at else {
            continue;
        };
        match failures.iter_mut().find(|f| f.at == at) {
            Some(known) if known.call == job.call => known.modes.push(job.mode),
            Some(known) => {
                known.more.insert(job.call);
            }
            None => failures.push(Failure {
                at,
                entity: engine
                    .world()
                    .ok()
                    .and_then(|world| world.entity(tools, &job.args)),
                call: job.call,
                modes: vec![job.mode],
                more: BTreeSet::new(),
            }),
        }
    }
    problems.extend(failures.into_iter().map(described));
    problems
}

/// One call to make: the tool's file, its output schema and the arguments, in one mode.
struct Job<'a> {
    engine: &'a Engine,
    mode: &'static str,
    file: &'a ToolFile,
    output: Option<&'a jsonschema::Validator>,
    args: Value,
    call: String,
}

/// `run` of every job, in order, the jobs shared out over the machine's cores: a world of a
/// few hundred calls in each mode takes seconds on one.
fn in_parallel<T: Send>(jobs: &[Job<'_>], run: impl Fn(&Job<'_>) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let share = jobs.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let run = &run;
        let handles: Vec<_> = jobs
            .chunks(share)
            .map(|chunk| scope.spawn(move || chunk.iter().map(run).collect::<Vec<T>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().expect("a world lint thread ends"))
            .collect()
    })
}

/// The calls `source` gives, by tool: run with the world's definitions on the seed state.
fn calls(
    engine: &Engine,
    path: &Path,
    source: &str,
) -> Result<Vec<(String, Vec<Value>)>, Diagnostic> {
    let at = |line: usize, message: String| Diagnostic::new(path, line, message);
    let world = engine
        .world()
        .map_err(|_| at(1, "the world cannot be read".to_string()))?;
    let value = world
        .run_on_seed(source, engine.now().timestamp(), engine.config().stateful)
        .map_err(|error| match error {
            SeedRun::Compile(error) => match error
                .strip_prefix("line ")
                .and_then(|rest| rest.split_once(": "))
            {
                Some((line, message)) => at(line.parse().unwrap_or(1), format!("jq: {message}")),
                None => at(1, format!("jq: {error}")),
            },
            SeedRun::Run(error) => at(1, format!("jq: {error}")),
        })?;
    let Value::Object(by_tool) = value else {
        return Err(at(
            1,
            "the calls are not an object of tools (`{\"<tool>\": [<arguments>, …]}`)".to_string(),
        ));
    };
    by_tool
        .into_iter()
        .map(|(name, list)| match list {
            Value::Array(list) if list.iter().all(Value::is_object) => Ok((name, list)),
            _ => Err(at(
                1,
                format!("the calls for `{name}` are not a list of argument objects"),
            )),
        })
        .collect()
}

/// How the call of `file` with `args` fails, as the problem's place and reason; `None` when it
/// answers, and its answer keeps the `outputSchema`.
fn failure(
    engine: &Engine,
    file: &ToolFile,
    output: Option<&jsonschema::Validator>,
    args: &Value,
) -> Option<Diagnostic> {
    let selected = select(&file.scenarios, args, None, |when| {
        let scenario = file
            .scenarios
            .iter()
            .find(|s| s.when.as_ref() == Some(when))
            .expect("the condition is a scenario's");
        engine.reaches(scenario, args)
    });
    let scenario = match selected {
        Ok(Some(selection)) => selection.scenario,
        Ok(None) => return None,
        Err(error) => return at_error(file, None, error),
    };
    match engine.render(scenario, args) {
        Ok(value) => {
            let output = output.filter(|_| scenario.outcome == Outcome::Response)?;
            let (pointer, reason) = violations(output, &value).next()?;
            Some(
                Diagnostic::new(
                    &file.path,
                    scenario.line,
                    format!("the answer at {pointer} breaks the outputSchema: {reason}"),
                )
                .in_scenario(&scenario.name),
            )
        }
        Err(error) => at_error(file, Some((&scenario.name, scenario.line)), error),
    }
}

/// The problem an answer's error is: at its program's line, else at the scenario's heading.
fn at_error(
    file: &ToolFile,
    scenario: Option<(&str, usize)>,
    error: AnswerError,
) -> Option<Diagnostic> {
    let (name, line, reason) = match error {
        AnswerError::Program {
            scenario,
            line,
            error,
        } => (scenario, line, format!("jq: {error}")),
        AnswerError::World(_) => return None,
        other => {
            let (name, line) = scenario?;
            (name.to_string(), line, other.to_string())
        }
    };
    Some(
        Diagnostic::new(PathBuf::from(&file.path), line, clip(&reason, REASON_LIMIT))
            .in_scenario(&name),
    )
}

/// The problem of a failure: its reason, then the call and the modes that showed it, the entity
/// it was computing and how many other calls failed the same way.
fn described(failure: Failure) -> Diagnostic {
    let Failure {
        mut at,
        call,
        entity,
        modes,
        more,
    } = failure;
    let mut message = format!("{} (in {call}, {}", at.message, modes.join(" and "));
    if let Some(entity) = entity {
        message.push_str(&format!("; computing {entity}"));
    }
    message.push(')');
    if !more.is_empty() {
        message.push_str(&format!(", and {} more call(s) the same way", more.len()));
    }
    at.message = message;
    at
}
