//! One jq program of a computed scenario (docs/FORMAT.md, "Computed answers"), compiled once
//! with the world's shared definitions in front of it, and run on a call's input document.
//!
//! jq through the jaq crates: a language that people who shape JSON already know, with no
//! I/O of its own. The natives that reach outside the program (the wall clock, the
//! environment, input, logging, `halt`) are left out, so an answer is a function of its input
//! alone, the run's clock is the only clock and no program ends the process. A program runs
//! on the program threads (`pool.rs`), metered (`bounds.rs`).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use jaq_core::load::{Arena, File, Import, Loader};
use jaq_core::{Compiler, Ctx, Vars};
use jaq_json::{Num, Val};
use serde_json::{Map, Number, Value};

use super::bounds::{self, Deadline, Meter, Metered, Run, Stopped};
use super::modules::{self, Definitions, Directives, blank_directives};
use super::names::{Library, Named, Reads};
use super::pool;

type Data = Metered;

/// Natives that would make an answer depend on something besides its input, or write to the
/// server's stderr, or end the server (`halt`, and `halt_error` through it).
const LEFT_OUT: &[&str] = &[
    "now",
    "env",
    "input",
    "inputs",
    "debug_empty",
    "stderr_empty",
    "localtime",
    "strflocaltime",
    "input_filename",
    "$__prog_args",
    "halt",
];

/// jq's definitions that only reach a native left out: a program that names one is told it
/// is undefined at its own line, not in jq's definitions.
const LEFT_OUT_DEFS: &[&str] = &["halt", "halt_error", "debug", "stderr"];

/// The names of jq's that would end the process, said so when a program names one.
const STOPPERS: &[&str] = &["halt", "halt_error"];

/// The deepest value a program may give: far past what a tool's answer nests, and shallow
/// enough for every thread that writes, keeps or drops the answer.
pub const MAX_DEPTH: usize = 512;

/// The definitions every program may use beside jq's own: the times in Asia/Dubai that SPEC
/// §3's placeholders print (UTC+4 all year: Dubai keeps no daylight saving time), and money,
/// computed in whole fils (`cents`) so that sums are exact, written as AED (`money`,
/// `cents_money`) or as text (`cents_text`, `56.30`). The shipped world's rules use these and
/// define no money of their own.
pub const PRELUDE: &str = r#"
def dubai: . + 14400;
def iso: floor | strftime("%Y-%m-%dT%H:%M:%SZ");
def date: dubai | floor | strftime("%Y-%m-%d");
def weekday: dubai | floor | strftime("%A");
def hhmm: dubai | floor | strftime("%H:%M");
def ordinal: tostring as $d | ($d | tonumber) as $n
  | if ($n % 100) >= 11 and ($n % 100) <= 13 then "th"
    elif $n % 10 == 1 then "st" elif $n % 10 == 2 then "nd" elif $n % 10 == 3 then "rd"
    else "th" end | $d + .;
def daylabel: dubai | floor | (strftime("%a, ") + (strftime("%d") | tonumber | ordinal) + strftime(" %b"));
def floor_to($step): (. / $step | floor) * $step;
def fromiso: sub("\\.[0-9]+"; "") | fromdateiso8601;
def money($amount): {amount: (($amount * 100 | round) / 100), currency: "AED"};
def cents: . * 100 | round;
def cents_money: money(. / 100);
def cents_text: round as $f | "\($f / 100 | floor).\("0\($f % 100)" | .[-2:])";
"#;

/// jq's standard definitions and the [`PRELUDE`], parsed once per process rather than once
/// per program: the loader's prelude, which every program and every module sees.
static STANDARD_DEFS: std::sync::LazyLock<Vec<jaq_core::load::parse::Def<&'static str>>> =
    std::sync::LazyLock::new(|| {
        let prelude = jaq_core::load::parse(PRELUDE, |p| p.defs()).unwrap_or_default();
        jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs())
            .filter(|def| !LEFT_OUT_DEFS.contains(&def.name))
            .chain(prelude)
            .collect()
    });

/// The global variable that picks a program out of programs compiled together.
const WHICH: &str = "$__program";

/// The name under which a program loads the flat definitions, in front of its own directives.
const FLAT: &str = "world/*.jq";

/// A compiled program and its source, for messages. Programs compiled together
/// ([`Expr::compile_all`]) share one filter: jq's definitions, the world's and its modules are
/// compiled once for all of them, and each program is a module of its own, with the modules
/// it loads, whose one definition [`WHICH`] picks.
pub struct Expr {
    pub(super) filter: Arc<jaq_core::Filter<Data>>,
    which: isize,
    source: String,
    /// The per-call keys of the document it names: the rest are left out of its document.
    reads: Reads,
    /// Tells it apart from every other program this process compiled: the key of its answers.
    id: u64,
}

/// The next [`Expr::id`].
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Expr")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

/// Why a program did not give one value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExprError {
    #[error("{0}")]
    Failed(String),
    #[error("the program gave no value")]
    Empty,
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// Which text of the compilation a piece of code is in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
enum Source {
    /// The text that picks a program.
    #[default]
    Main,
    /// The flat definitions.
    Flat,
    /// The program of this index, as a module: its directives, then its one definition.
    Program(usize),
    /// The world's module of this index.
    Module(usize),
}

/// A problem of a compilation, and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub place: Place,
    pub message: String,
}

/// Where a [`Problem`] is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A line of the program, counted from 1.
    Program(usize),
    /// A line of the world's module file.
    Module(PathBuf, usize),
    /// A line of the flat definitions, all files together.
    Definitions(usize),
    Nowhere,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.place {
            Place::Program(line) => write!(f, "line {line}: ")?,
            Place::Module(path, line) => write!(f, "{}:{line}: ", path.display())?,
            Place::Definitions(line) => write!(f, "line {line} of the definitions: ")?,
            Place::Nowhere => {}
        }
        f.write_str(&self.message)
    }
}

/// Problems as one message.
fn joined(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(Problem::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

impl Expr {
    /// Compiles `source` with `defs` (the world's `*.jq` files, and the modules it loads) and
    /// the [`PRELUDE`] in front of it. The error names the line of `source` where it can,
    /// counted from 1, or the module file and its line.
    pub fn compile(defs: &Definitions, source: &str) -> Result<Self, String> {
        let mut compiled = Self::compile_all(defs, &[source])?;
        Ok(compiled.remove(0))
    }

    /// Compiles `sources` together, each as [`Expr::compile`] would: jq's definitions, the
    /// [`PRELUDE`], the flat definitions and the modules are compiled once for all of them,
    /// which is most of the work of compiling one. The error is every problem of any of them.
    pub fn compile_all(defs: &Definitions, sources: &[&str]) -> Result<Vec<Self>, String> {
        Self::compile_checked(defs, sources).map_err(|problems| joined(&problems))
    }

    /// The first problem of the world's definitions: the flat ones and every module, loaded by
    /// one program.
    pub fn check(defs: &Definitions) -> Option<Problem> {
        let loads: String = defs
            .modules
            .iter()
            .map(|module| format!("include {};", Value::String(module.name.clone())))
            .collect();
        let program = format!("{loads}\n.");
        Self::compile_checked(defs, &[program.as_str()])
            .err()
            .and_then(|problems| problems.into_iter().next())
    }

    fn compile_checked(defs: &Definitions, sources: &[&str]) -> Result<Vec<Self>, Vec<Problem>> {
        let directives: Vec<Directives<'_>> = sources
            .iter()
            .map(|source| Directives::of(source))
            .collect();
        let reads = reads(defs, sources, &directives);
        // Each program is a module that loads the flat definitions, then its own directives,
        // then defines the program on the line they end on, so that its lines are its own.
        let programs: Vec<(String, usize)> = sources
            .iter()
            .zip(&directives)
            .enumerate()
            .map(|(index, (source, directives))| {
                let end = directives.end;
                let loads = format!("include \"{FLAT}\"; ");
                let code = format!(
                    "{loads}{} def __program{index}: {}\n;\n",
                    &source[..end],
                    &source[end..]
                );
                let program_end = code.len() - "\n;\n".len();
                (code, program_end)
            })
            .collect();
        let mut main: String = (0..sources.len())
            .map(|index| format!("include \"{index}\";\n"))
            .collect();
        main.push_str(&dispatch(0, sources.len()));
        // The loader reads a text again for each module that loads it, and keeps the first
        // reading alone: a text is copied the first time only.
        let mut handed = HashSet::new();
        let read = |import: Import<&str, Source>| -> Result<File<String, Source>, String> {
            let mut file = |code: &str, path| {
                let code = if handed.insert(path) {
                    code.to_string()
                } else {
                    String::new()
                };
                Ok(File { code, path })
            };
            match (import.parent, *import.path) {
                (Source::Main, index) => {
                    let index: usize = index.parse().map_err(|_| "no such program")?;
                    file(&programs[index].0, Source::Program(index))
                }
                (Source::Program(_), FLAT) => file(&defs.flat, Source::Flat),
                (_, name) => match defs.module(name) {
                    Some((index, module)) => file(&module.text, Source::Module(index)),
                    None => Err(format!(
                        "no module {}: the world has no {}/{name}.jq",
                        Value::String(name.to_string()),
                        modules::FOLDER
                    )),
                },
            }
        };
        let std_defs = STANDARD_DEFS.iter().cloned();
        let funs = jaq_core::funs::<Data>()
            .chain(jaq_std::funs::<Data>())
            .chain(jaq_json::funs::<Data>())
            .filter(|(name, _, _)| !LEFT_OUT.contains(name) && !bounds::REPLACED.contains(name))
            .chain(bounds::natives());
        let loader = Loader::new(std_defs).with_read(read);
        let arena = Arena::default();
        let program = File {
            code: main.as_str(),
            path: Source::Main,
        };
        let place = |file: &File<&str, Source>, piece: &str| place(defs, &programs, file, piece);
        let modules = loader.load(&arena, program).map_err(|errors| {
            errors
                .iter()
                .flat_map(|(file, error)| load_problems(file, error, &place, &programs))
                .collect::<Vec<_>>()
        })?;
        let filter = Compiler::default()
            .with_funs(funs)
            .with_global_vars([WHICH])
            .compile(modules)
            .map_err(|errors| {
                errors
                    .iter()
                    .flat_map(|(file, errors)| {
                        errors.iter().map(|(name, undefined)| {
                            let why = if STOPPERS.contains(name) {
                                ": a program cannot stop the server"
                            } else {
                                ""
                            };
                            Problem {
                                place: place(file, name),
                                message: format!("undefined {} `{name}`{why}", undefined.as_str()),
                            }
                        })
                    })
                    .collect::<Vec<_>>()
            })?;
        let filter = Arc::new(filter);
        Ok(sources
            .iter()
            .enumerate()
            .zip(reads)
            .map(|((index, source), reads)| Self {
                filter: Arc::clone(&filter),
                which: isize::try_from(index).unwrap_or(isize::MAX),
                source: (*source).to_string(),
                reads,
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            })
            .collect())
    }

    #[cfg(test)]
    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn reads(&self) -> Reads {
        self.reads
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// The program's first value for `input`, as JSON, given by a program thread
    /// (`pool.rs`) before `deadline`.
    pub fn run(self: &Arc<Self>, input: Val, deadline: Deadline) -> Result<Value, ExprError> {
        let expr = Arc::clone(self);
        pool::run(deadline, move || expr.run_here(input, deadline)).unwrap_or(Err(
            ExprError::Stopped(Stopped::Limit(bounds::Limit::Deadline(deadline.after))),
        ))
    }

    /// As [`Expr::run`], on this thread: metered, and every value it made dropped before the
    /// answer comes back, within the same bounds.
    fn run_here(&self, input: Val, deadline: Deadline) -> Result<Value, ExprError> {
        let meter = Meter::new(deadline);
        bounds::metered(|| {
            meter.check_clock();
            let run = Run {
                lut: &self.filter.lut,
                meter: &meter,
            };
            let ctx = Ctx::<Data>::new(run, Vars::new([Val::from(self.which)]));
            let mut outputs = self.filter.id.run((ctx, input));
            match outputs.next() {
                Some(Ok(value)) => to_json(&value).map_err(ExprError::Failed),
                Some(Err(error)) => Err(ExprError::Failed(
                    match error.get_err().map(|error| to_json(&error.into_val())) {
                        Ok(Ok(Value::String(text))) => text,
                        Ok(Ok(other)) => other.to_string(),
                        Ok(Err(text)) => text,
                        Err(_) => "the program stopped with no value".to_string(),
                    },
                )),
                None => Err(ExprError::Empty),
            }
        })
        .unwrap_or_else(|stopped| Err(ExprError::Stopped(stopped)))
    }
}

/// The per-call keys each of `sources` (whose directives are `directives`) names, itself or
/// through the definitions it can call: the [`PRELUDE`], the flat ones and those of the
/// modules it loads, as far as they load others. Each text is read once; programs that reach
/// the same modules share one library.
fn reads(defs: &Definitions, sources: &[&str], directives: &[Directives<'_>]) -> Vec<Reads> {
    let blanked: Vec<String> = defs
        .modules
        .iter()
        .map(|module| blank_directives(&module.text))
        .collect();
    let prelude = Named::of(PRELUDE);
    let flat = Named::of(&defs.flat);
    let modules: Vec<Named<'_>> = blanked.iter().map(|text| Named::of(text)).collect();
    // When no name is defined twice (the prelude, the flat files and the modules together),
    // what a program reaches through every module is what it reaches through its own, since a
    // name of a module it does not load does not compile in it: one library serves every
    // program, put together once.
    let mut defined = HashSet::new();
    let shared = [&prelude, &flat]
        .into_iter()
        .chain(&modules)
        .flat_map(Named::defines)
        .all(|name| defined.insert(name));
    let mut libraries: HashMap<BTreeSet<usize>, Library<'_>> = HashMap::new();
    sources
        .iter()
        .zip(directives)
        .map(|(source, directives)| {
            let reach = if shared {
                (0..modules.len()).collect()
            } else {
                defs.reach(directives.names.iter().copied())
            };
            let library = libraries.entry(reach).or_insert_with_key(|reach| {
                let parts: Vec<&Named<'_>> = [&prelude, &flat]
                    .into_iter()
                    .chain(reach.iter().map(|index| &modules[*index]))
                    .collect();
                Library::of_parts(&parts)
            });
            library.reads(&directives.blank(source))
        })
        .collect()
}

/// The program of `lo..hi` that [`WHICH`] names, by halves: a call looks at about log2(n)
/// numbers to find its program.
fn dispatch(lo: usize, hi: usize) -> String {
    match hi - lo {
        0 => "empty".to_string(),
        1 => format!("__program{lo}"),
        _ => {
            let mid = lo + (hi - lo) / 2;
            format!(
                "if {WHICH} < {mid} then {} else {} end",
                dispatch(lo, mid),
                dispatch(mid, hi)
            )
        }
    }
}

/// Where `piece` is in `file`: its line in the program (what lies past the program's end
/// counts as its last line), in the module file or in the flat definitions. Nowhere when the
/// piece is not a slice of the file's text.
fn place(
    defs: &Definitions,
    programs: &[(String, usize)],
    file: &File<&str, Source>,
    piece: &str,
) -> Place {
    let Some(at) = offset(file.code, piece) else {
        return Place::Nowhere;
    };
    let line_at = |at: usize| file.code[..at].matches('\n').count() + 1;
    match file.path {
        Source::Program(index) => Place::Program(line_at(at.min(programs[index].1))),
        Source::Module(index) => Place::Module(defs.modules[index].path.clone(), line_at(at)),
        Source::Flat => Place::Definitions(line_at(at)),
        Source::Main => Place::Nowhere,
    }
}

/// Where `piece` starts in `text`, when it is a slice of it.
fn offset(text: &str, piece: &str) -> Option<usize> {
    let start = text.as_ptr() as usize;
    let at = piece.as_ptr() as usize;
    (start..=start + text.len())
        .contains(&at)
        .then(|| at - start)
}

/// What the parser found: the text at `rest`, or "the end" past a program's end.
fn found(file: &File<&str, Source>, rest: &str, programs: &[(String, usize)]) -> String {
    let end = match file.path {
        Source::Program(index) => programs[index].1,
        _ => file.code.len(),
    };
    let past_end = offset(file.code, rest).is_none_or(|at| at >= end);
    if rest.is_empty() || past_end {
        "the end".to_string()
    } else {
        format!("`{}`", rest.chars().take(20).collect::<String>())
    }
}

/// The problems of loading `file`: a module it loads that the world has not, or text that does
/// not lex or parse.
fn load_problems(
    file: &File<&str, Source>,
    error: &jaq_core::load::Error<&str>,
    place: &impl Fn(&File<&str, Source>, &str) -> Place,
    programs: &[(String, usize)],
) -> Vec<Problem> {
    use jaq_core::load::Error;
    let problem = |piece: &str, message: String| Problem {
        place: place(file, piece),
        message,
    };
    match error {
        Error::Io(errors) => errors
            .iter()
            .map(|(path, message)| problem(path, format!("cannot load {path}: {message}")))
            .collect(),
        Error::Lex(errors) => errors
            .iter()
            .map(|(expect, rest)| problem(rest, format!("expected {}", expect.as_str())))
            .collect(),
        Error::Parse(errors) => errors
            .iter()
            .map(|(expect, rest)| {
                let message = format!(
                    "expected {}, found {}",
                    expect.as_str(),
                    found(file, rest, programs)
                );
                problem(rest, message)
            })
            .collect(),
    }
}

/// A JSON value as jq sees it.
pub fn to_val(value: &Value) -> Val {
    match value {
        Value::Null => Val::Null,
        Value::Bool(b) => Val::Bool(*b),
        Value::Number(n) => match n.as_i64().and_then(|i| isize::try_from(i).ok()) {
            Some(i) => Val::from(i),
            None => Val::from(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Val::from(s.clone()),
        Value::Array(items) => items.iter().map(to_val).collect(),
        Value::Object(map) => Val::obj(
            map.iter()
                .map(|(key, value)| (Val::from(key.clone()), to_val(value)))
                .collect(),
        ),
    }
}

/// jq's value as JSON. A whole float within 2^53 becomes an integer, as Go's `json.Marshal`
/// writes a `float64` such as 25.0: `25`. A value nested deeper than [`MAX_DEPTH`] is refused.
pub fn to_json(value: &Val) -> Result<Value, String> {
    to_json_within(value, MAX_DEPTH)
}

fn to_json_within(value: &Val, depth: usize) -> Result<Value, String> {
    let inner = |value: &Val| match depth.checked_sub(1) {
        Some(depth) => to_json_within(value, depth),
        None => Err(format!("a value nested deeper than {MAX_DEPTH} levels")),
    };
    Ok(match value {
        Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(*b),
        Val::Num(num) => number(num)?,
        // A text string's bytes as UTF-8, invalid sequences replaced, as jq prints them.
        Val::TStr(bytes) => Value::String(String::from_utf8_lossy(bytes).into_owned()),
        Val::BStr(_) => {
            let text = value.to_string();
            serde_json::from_str(&text).map_err(|e| format!("a string jq wrote: {e}"))?
        }
        Val::Arr(items) => Value::Array(items.iter().map(inner).collect::<Result<_, _>>()?),
        Val::Obj(map) => {
            let mut object = Map::with_capacity(map.len());
            for (key, value) in map.iter() {
                let Value::String(key) = inner(key)? else {
                    return Err(format!("an object key that is not a string: {key}"));
                };
                object.insert(key, inner(value)?);
            }
            Value::Object(object)
        }
    })
}

fn number(num: &Num) -> Result<Value, String> {
    if let Some(i) = num.as_isize() {
        return Ok(Value::Number(Number::from(i as i64)));
    }
    let float = match num {
        Num::Float(float) if float.is_finite() => *float,
        other => {
            let text = other.to_string();
            text.parse::<f64>()
                .ok()
                .filter(|float| float.is_finite())
                .ok_or_else(|| format!("a number JSON cannot hold: {text}"))?
        }
    };
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if float.fract() == 0.0 && float.abs() < EXACT {
        return Ok(Value::Number(Number::from(float as i64)));
    }
    Number::from_f64(float)
        .map(Value::Number)
        .ok_or_else(|| format!("a number JSON cannot hold: {float}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::world::bounds::Limit;
    use serde_json::json;

    fn run(source: &str, input: Value) -> Result<Value, ExprError> {
        Arc::new(Expr::compile(&Definitions::default(), source).unwrap())
            .run(to_val(&input), Deadline::from_now())
    }

    fn run_on(expr: &Arc<Expr>, input: &Value) -> Result<Value, ExprError> {
        expr.run(to_val(input), Deadline::from_now())
    }

    #[test]
    fn programs_shape_json() {
        let cases = [
            (".a + 1", json!({"a": 2}), json!(3)),
            (
                "{b: .a, a: 1}",
                json!({"a": "x"}),
                json!({"b": "x", "a": 1}),
            ),
            ("12.5 * 2", json!(null), json!(25)),
            ("0.1 + 0.2 | . * 100 | round / 100", json!(null), json!(0.3)),
            (
                "money(12.345)",
                json!(null),
                json!({"amount": 12.35, "currency": "AED"}),
            ),
            (
                "[56.3, 0.1 + 0.2, 12.345] | map(cents)",
                json!(null),
                json!([5630, 30, 1235]),
            ),
            (
                "[5630, 7, 0] | map(cents_money.amount)",
                json!(null),
                json!([56.3, 0.07, 0]),
            ),
            (
                "[5630, 5607, 7, 0, 100000] | map(cents_text)",
                json!(null),
                json!(["56.30", "56.07", "0.07", "0.00", "1000.00"]),
            ),
            (
                "1791201600 | [iso, date, weekday, hhmm, daylabel]",
                json!(null),
                json!([
                    "2026-10-05T12:00:00Z",
                    "2026-10-05",
                    "Monday",
                    "16:00",
                    "Mon, 5th Oct"
                ]),
            ),
            (
                "1791201600 + 1000 | floor_to(1200) | iso",
                json!(null),
                json!("2026-10-05T12:00:00Z"),
            ),
            (
                "\"2026-10-05T12:00:00Z\" | fromiso",
                json!(null),
                json!(1791201600),
            ),
            (".s", json!({"s": "a\"b<\u{2028}"}), json!("a\"b<\u{2028}")),
            (".s + \"é\"", json!({"s": "\u{1F37D}"}), json!("\u{1F37D}é")),
            (
                "[2.5, 1e15 + 0.5, -0]",
                json!(null),
                json!([2.5, 1_000_000_000_000_000.5, 0]),
            ),
        ];
        for (source, input, want) in cases {
            assert_eq!(run(source, input).unwrap(), want, "{source}");
        }
    }

    #[test]
    fn programs_compiled_together_each_answer_as_alone() {
        let sources = [
            ".a + 1",
            "def twice: . * 2; .a | twice",
            ".a | tostring # a comment",
            "-.a",
        ];
        let compiled: Vec<Arc<Expr>> =
            Expr::compile_all(&Definitions::flat("def three: 3;"), &sources)
                .unwrap()
                .into_iter()
                .map(Arc::new)
                .collect();
        let answers: Vec<Value> = compiled
            .iter()
            .map(|expr| run_on(expr, &json!({"a": 5})).unwrap())
            .collect();
        assert_eq!(answers, [json!(6), json!(10), json!("5"), json!(-5)]);
        for (expr, source) in compiled.iter().zip(sources) {
            assert_eq!(expr.source(), source);
            let alone =
                Arc::new(Expr::compile(&Definitions::flat("def three: 3;"), source).unwrap());
            assert_eq!(
                run_on(&alone, &json!({"a": 5})),
                run_on(expr, &json!({"a": 5}))
            );
        }
        assert!(Expr::compile_all(&Definitions::default(), &[".a", "nosuch"]).is_err());
    }

    /// A world of flat definitions and three modules: `food` loads `clock`, `broken` breaks
    /// at its line 2.
    fn modular() -> Definitions {
        let module = |name: &str, text: &str| {
            modules::Module::new(name, PathBuf::from(format!("rules/{name}.jq")), text)
        };
        Definitions {
            flat: "def flat_one: 1;".to_string(),
            modules: vec![
                module("clock", "def clock_stamp: .now;"),
                module(
                    "food",
                    "include \"clock\";\ndef food_at: clock_stamp;\ndef food_plain: .args;",
                ),
                module("broken", "def fine: 1;\ndef broken: nosuch;"),
            ],
        }
    }

    #[test]
    fn a_program_calls_the_modules_it_loads_and_reads_what_they_read() {
        let cases = [
            ("include \"food\"; food_at", true, json!(7)),
            ("import \"food\" as f; f::food_at", true, json!(7)),
            ("include \"food\"; food_plain", false, json!("a")),
            (
                "include \"food\";\n[food_plain, flat_one]",
                false,
                json!(["a", 1]),
            ),
            (
                "# the time\ninclude \"clock\";\nclock_stamp + 1",
                true,
                json!(8),
            ),
        ];
        let defs = modular();
        for (source, now, want) in cases {
            let expr = Arc::new(Expr::compile(&defs, source).unwrap());
            assert_eq!(expr.reads().now, now, "{source}");
            assert_eq!(
                run_on(&expr, &json!({"now": 7, "args": "a"})),
                Ok(want),
                "{source}"
            );
        }
    }

    #[test]
    fn a_program_sees_only_the_modules_it_loads() {
        let defs = modular();
        let cases = [
            ("food_plain", "line 1: undefined filter `food_plain`"),
            (
                "include \"food\";\n\n.a | clock_stamp",
                "line 3: undefined filter `clock_stamp`",
            ),
            (
                "include \"nosuch\";\n.",
                "line 1: cannot load nosuch: no module \"nosuch\": the world has no rules/nosuch.jq",
            ),
            (
                "include \"broken\"; fine",
                "rules/broken.jq:2: undefined filter `nosuch`",
            ),
        ];
        for (source, want) in cases {
            assert_eq!(Expr::compile(&defs, source).unwrap_err(), want, "{source}");
        }
        let together = Expr::compile_all(&defs, &["include \"food\"; food_plain", "food_plain"]);
        assert_eq!(
            together.unwrap_err(),
            "line 1: undefined filter `food_plain`",
            "a neighbour's module is not the program's"
        );
        assert_eq!(
            Expr::check(&defs).map(|problem| problem.place),
            Some(Place::Module(PathBuf::from("rules/broken.jq"), 2))
        );
        assert_eq!(Expr::check(&Definitions::flat("def fine: 1;")), None);
        let looped = Definitions {
            flat: String::new(),
            modules: vec![modules::Module::new(
                "loop",
                PathBuf::from("rules/loop.jq"),
                "# Loads itself.\ninclude \"loop\"; def l: 1;",
            )],
        };
        assert_eq!(
            Expr::compile(&looped, "include \"loop\"; l").unwrap_err(),
            "rules/loop.jq:2: cannot load loop: circular include/import"
        );
    }

    #[test]
    fn ordinals() {
        for (day, want) in crate::engine::toolfile::placeholder::tests::ORDINALS {
            assert_eq!(
                run(&format!("{day} | ordinal"), json!(null)).unwrap(),
                json!(want)
            );
        }
    }

    #[test]
    fn failures_say_what_and_where() {
        let cases = [
            ("error(\"no such restaurant\")", "no such restaurant"),
            ("empty", "the program gave no value"),
            ("nan", "a number JSON cannot hold: NaN"),
            ("infinite", "a number JSON cannot hold: Infinity"),
        ];
        for (source, want) in cases {
            assert_eq!(
                run(source, json!(null)).unwrap_err().to_string(),
                want,
                "{source}"
            );
        }
        let undefined = Expr::compile(&Definitions::default(), ".a |\n nosuch(1)").unwrap_err();
        assert!(
            undefined.contains("line 2: undefined filter `nosuch`"),
            "{undefined}"
        );
        let syntax = Expr::compile(&Definitions::default(), ".a | {").unwrap_err();
        assert!(syntax.contains("line 1"), "{syntax}");
        let unfinished = Expr::compile(&Definitions::default(), ".a |\n .b |").unwrap_err();
        assert!(
            unfinished.contains("line 2: expected term, found the end"),
            "{unfinished}"
        );
    }

    #[test]
    fn the_world_outside_the_input_is_out_of_reach() {
        for source in ["now", "env", "input", "$ENV", "debug", "debug(1)", "stderr"] {
            assert!(
                Expr::compile(&Definitions::default(), source).is_err(),
                "{source} compiled"
            );
        }
    }

    #[test]
    fn no_program_stops_the_server() {
        let cases = [
            ("halt", "line 1: undefined filter `halt`"),
            (
                ". as $x |\n halt_error",
                "line 2: undefined filter `halt_error`",
            ),
            ("halt_error(1)", "line 1: undefined filter `halt_error`"),
        ];
        for (source, want) in cases {
            let error = Expr::compile(&Definitions::default(), source).unwrap_err();
            assert_eq!(
                error,
                format!("{want}: a program cannot stop the server"),
                "{source}"
            );
        }
    }

    fn stopped(limit: Limit) -> Result<Value, ExprError> {
        Err(ExprError::Stopped(Stopped::Limit(limit)))
    }

    #[test]
    fn runaway_programs_stop_at_a_limit() {
        let cases = [
            ("def f: f; f", stopped(Limit::Steps)),
            ("last(0 | while(true; . + 1))", stopped(Limit::Steps)),
            ("0 | until(false; . + 1)", stopped(Limit::Steps)),
            ("[range(1e9)] | length", stopped(Limit::Steps)),
            ("[limit(1e9; repeat(1))] | length", stopped(Limit::Steps)),
            ("reduce range(1e6) as $i (null; [.])", stopped(Limit::Steps)),
            ("def f: 1 + f; f", stopped(Limit::Depth)),
            ("def f: [f]; f", stopped(Limit::Depth)),
            (
                "\"[\" * 1000000 | fromjson",
                Err(ExprError::Failed(
                    "cannot parse a string nested deeper than 10000 levels as JSON".to_string(),
                )),
            ),
            (
                "\"[\" * 100 + \"]\" * 100 | fromjson | length",
                Ok(json!(1)),
            ),
            ("[range(3)]", Ok(json!([0, 1, 2]))),
            ("[range(0; 1; 0.5)]", Ok(json!([0, 0.5]))),
            ("[range(3; 0; -1)]", Ok(json!([3, 2, 1]))),
            ("[range(0; 1; 0)] | length", stopped(Limit::Steps)),
            (
                "reduce range(513) as $i (null; [.])",
                Err(ExprError::Failed(
                    "a value nested deeper than 512 levels".to_string(),
                )),
            ),
            // As deep as the steps allow: printed and dropped within the program's stack.
            (
                "reduce range(160000) as $i (null; [.]) | tojson | length",
                Ok(json!(320_004)),
            ),
        ];
        for (source, want) in cases {
            assert_eq!(run(source, json!(null)), want, "{source}");
        }
    }

    #[test]
    fn a_slow_program_stops_at_its_deadline() {
        let after = std::time::Duration::from_millis(300);
        let deadline = Deadline {
            at: std::time::Instant::now() + after,
            after,
        };
        let expr = Arc::new(
            Expr::compile(
                &Definitions::default(),
                "[range(1000)] | until(false; tojson | fromjson)",
            )
            .unwrap(),
        );
        assert_eq!(
            expr.run(to_val(&json!(null)), deadline),
            stopped(Limit::Deadline(after))
        );
        assert_eq!(
            Limit::Deadline(after).to_string(),
            "the call's programs ran past the deadline of 300 ms (--jq-deadline)"
        );
    }
}
