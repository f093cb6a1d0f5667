//! One jq program of a computed scenario (docs/FORMAT.md, "Computed answers"), compiled once
//! with the world's shared definitions in front of it, and run on a call's input document.
//!
//! jq through the jaq crates: a language that people who shape JSON already know, with no
//! I/O of its own. The natives that reach outside the program (the wall clock, the
//! environment, input, logging, `halt`) are left out, so an answer is a function of its input
//! alone, the run's clock is the only clock and no program ends the process. A program runs
//! on the program threads (`pool.rs`), metered (`bounds.rs`).

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars};
use jaq_json::{Num, Val};
use serde_json::{Map, Number, Value};

use super::bounds::{self, Deadline, Meter, Metered, Run, Stopped};
use super::names::{Library, Reads};
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

/// jq's standard definitions, parsed once per process rather than once per program.
static STANDARD_DEFS: std::sync::LazyLock<Vec<jaq_core::load::parse::Def<&'static str>>> =
    std::sync::LazyLock::new(|| {
        jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs())
            .filter(|def| !LEFT_OUT_DEFS.contains(&def.name))
            .collect()
    });

/// The global variable that picks a program out of programs compiled together.
const WHICH: &str = "$__program";

/// A compiled program and its source, for messages. Programs compiled together
/// ([`Expr::compile_all`]) share one filter: jq's definitions and the world's are compiled
/// once for all of them, and each program is a definition of it that [`WHICH`] picks.
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

impl Expr {
    /// Compiles `source` with `defs` (the world's `*.jq` files) and the [`PRELUDE`] in front
    /// of it. The error names the line of `source` where it can, counted from 1.
    pub fn compile(defs: &str, source: &str) -> Result<Self, String> {
        let mut compiled = Self::compile_all(defs, &[source])?;
        Ok(compiled.remove(0))
    }

    /// Compiles `sources` together, each as [`Expr::compile`] would: jq's definitions, the
    /// [`PRELUDE`] and `defs` are compiled once for all of them, which is most of the work of
    /// compiling one. The error is the first problem of any of them; line numbers are exact
    /// only for one source.
    pub fn compile_all(defs: &str, sources: &[&str]) -> Result<Vec<Self>, String> {
        let prefix = format!("{PRELUDE}\n{defs}\n");
        let library = Library::of(&prefix);
        let reads: Vec<Reads> = sources.iter().map(|source| library.reads(source)).collect();
        let offset_lines = prefix.matches('\n').count();
        let mut code = prefix;
        // Each program starts on the line after the definitions, so a lone program's line
        // numbers are its own; its `;` stands on a line of its own, after any comment.
        let mut first_end = None;
        for (index, source) in sources.iter().enumerate() {
            code.push_str(&format!("def __program{index}: {source}"));
            first_end.get_or_insert(code.len());
            code.push_str("\n;\n");
        }
        code.push_str(&dispatch(0, sources.len()));
        let code = Code {
            text: code.as_str(),
            offset_lines,
            first_end: first_end.unwrap_or(code.len()),
        };
        let std_defs = STANDARD_DEFS.iter().cloned();
        let funs = jaq_core::funs::<Data>()
            .chain(jaq_std::funs::<Data>())
            .chain(jaq_json::funs::<Data>())
            .filter(|(name, _, _)| !LEFT_OUT.contains(name) && !bounds::REPLACED.contains(name))
            .chain(bounds::natives());
        let loader = Loader::new(std_defs);
        let arena = Arena::default();
        let program = File {
            code: code.text,
            path: (),
        };
        let modules = loader.load(&arena, program).map_err(|errors| {
            errors
                .into_iter()
                .map(|(_, error)| code.load_error(&error))
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        let filter = Compiler::default()
            .with_funs(funs)
            .with_global_vars([WHICH])
            .compile(modules)
            .map_err(|errors| {
                errors
                    .into_iter()
                    .flat_map(|(_, errors)| errors)
                    .map(|(name, undefined)| {
                        let line = code.line_of(name);
                        let why = if STOPPERS.contains(&name) {
                            ": a program cannot stop the server"
                        } else {
                            ""
                        };
                        format!("{line}undefined {} `{name}`{why}", undefined.as_str())
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
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

/// The text compiled: jq's definitions, the world's, then the programs, and where the first
/// program ends.
struct Code<'a> {
    text: &'a str,
    /// Lines before the first program.
    offset_lines: usize,
    /// Where the first program's source ends in `text`.
    first_end: usize,
}

impl Code<'_> {
    /// Where `piece` starts in the first program, as `line N: ` (or in the definitions before
    /// it, counted back), or nothing when the piece is not a slice of the text. What lies past
    /// the first program's end counts as its last line.
    fn line_of(&self, piece: &str) -> String {
        let Some(at) = self.offset(piece) else {
            return String::new();
        };
        let line = self.text[..at.min(self.first_end)].matches('\n').count() + 1;
        match line.checked_sub(self.offset_lines) {
            Some(line) if line > 0 => format!("line {line}: "),
            _ => format!("line {line} of the definitions: "),
        }
    }

    fn offset(&self, piece: &str) -> Option<usize> {
        let start = self.text.as_ptr() as usize;
        let at = piece.as_ptr() as usize;
        (start..=start + self.text.len())
            .contains(&at)
            .then(|| at - start)
    }

    /// What the parser found: the text at `rest`, or "the end" past the first program's end.
    fn found(&self, rest: &str) -> String {
        let past_end = self.offset(rest).is_none_or(|at| at >= self.first_end);
        if rest.is_empty() || past_end {
            "the end".to_string()
        } else {
            format!("`{}`", rest.chars().take(20).collect::<String>())
        }
    }

    fn load_error(&self, error: &jaq_core::load::Error<&str>) -> String {
        use jaq_core::load::Error;
        match error {
            Error::Io(errors) => errors
                .iter()
                .map(|(path, message)| format!("cannot load {path}: {message}"))
                .collect::<Vec<_>>()
                .join("; "),
            Error::Lex(errors) => errors
                .iter()
                .map(|(expect, rest)| format!("{}expected {}", self.line_of(rest), expect.as_str()))
                .collect::<Vec<_>>()
                .join("; "),
            Error::Parse(errors) => errors
                .iter()
                .map(|(expect, rest)| {
                    format!(
                        "{}expected {}, found {}",
                        self.line_of(rest),
                        expect.as_str(),
                        self.found(rest)
                    )
                })
                .collect::<Vec<_>>()
                .join("; "),
        }
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
        Arc::new(Expr::compile("", source).unwrap()).run(to_val(&input), Deadline::from_now())
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
        let compiled: Vec<Arc<Expr>> = Expr::compile_all("def three: 3;", &sources)
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
            let alone = Arc::new(Expr::compile("def three: 3;", source).unwrap());
            assert_eq!(
                run_on(&alone, &json!({"a": 5})),
                run_on(expr, &json!({"a": 5}))
            );
        }
        assert!(Expr::compile_all("", &[".a", "nosuch"]).is_err());
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
        let undefined = Expr::compile("", ".a |\n nosuch(1)").unwrap_err();
        assert!(
            undefined.contains("line 2: undefined filter `nosuch`"),
            "{undefined}"
        );
        let syntax = Expr::compile("", ".a | {").unwrap_err();
        assert!(syntax.contains("line 1"), "{syntax}");
        let unfinished = Expr::compile("", ".a |\n .b |").unwrap_err();
        assert!(
            unfinished.contains("line 2: expected term, found the end"),
            "{unfinished}"
        );
    }

    #[test]
    fn the_world_outside_the_input_is_out_of_reach() {
        for source in ["now", "env", "input", "$ENV", "debug", "debug(1)", "stderr"] {
            assert!(Expr::compile("", source).is_err(), "{source} compiled");
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
            let error = Expr::compile("", source).unwrap_err();
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
        let expr =
            Arc::new(Expr::compile("", "[range(1000)] | until(false; tojson | fromjson)").unwrap());
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
