//! One jq program of a computed scenario (docs/FORMAT.md, "Computed answers"), compiled once
//! with the world's shared definitions in front of it, and run on a call's input document.
//!
//! jq through the jaq crates: a language that people who shape JSON already know, with no
//! I/O of its own. The natives that reach outside the program (the wall clock, the
//! environment, input, logging, `halt`) are left out, so an answer is a function of its input
//! alone and the run's clock is the only clock.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars, data};
use jaq_json::{Num, Val};
use serde_json::{Map, Number, Value};

use super::names::{Library, Reads};

type Data = data::JustLut<Val>;

/// Natives that would make an answer depend on something besides its input.
const LEFT_OUT: &[&str] = &[
    "now",
    "env",
    "input",
    "inputs",
    "debug",
    "stderr",
    "localtime",
    "strflocaltime",
    "input_filename",
    "$__prog_args",
];

/// The definitions every program may use beside jq's own, for the times in Asia/Dubai that
/// SPEC §3's placeholders print (UTC+4 all year: Dubai keeps no daylight saving time).
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
"#;

/// jq's standard definitions, parsed once per process rather than once per program.
static STANDARD_DEFS: std::sync::LazyLock<Vec<jaq_core::load::parse::Def<&'static str>>> =
    std::sync::LazyLock::new(|| {
        jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs())
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
            .filter(|(name, _, _)| !LEFT_OUT.contains(name));
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
                        format!("{line}undefined {} `{name}`", undefined.as_str())
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

    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn reads(&self) -> Reads {
        self.reads
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// The program's first value for `input`, as JSON.
    pub fn run(&self, input: Val) -> Result<Value, ExprError> {
        let ctx = Ctx::<Data>::new(&self.filter.lut, Vars::new([Val::from(self.which)]));
        let mut outputs = self.filter.id.run((ctx, input)).map(jaq_core::unwrap_valr);
        match outputs.next() {
            Some(Ok(value)) => to_json(&value).map_err(ExprError::Failed),
            Some(Err(error)) => Err(ExprError::Failed(match to_json(&error.into_val()) {
                Ok(Value::String(text)) => text,
                Ok(other) => other.to_string(),
                Err(text) => text,
            })),
            None => Err(ExprError::Empty),
        }
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
/// writes a `float64` such as 25.0: `25`.
pub fn to_json(value: &Val) -> Result<Value, String> {
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
        Val::Arr(items) => Value::Array(items.iter().map(to_json).collect::<Result<_, _>>()?),
        Val::Obj(map) => {
            let mut object = Map::with_capacity(map.len());
            for (key, value) in map.iter() {
                let Value::String(key) = to_json(key)? else {
                    return Err(format!("an object key that is not a string: {key}"));
                };
                object.insert(key, to_json(value)?);
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
    use serde_json::json;

    fn run(source: &str, input: Value) -> Result<Value, ExprError> {
        Expr::compile("", source).unwrap().run(to_val(&input))
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
        let compiled = Expr::compile_all("def three: 3;", &sources).unwrap();
        let answers: Vec<Value> = compiled
            .iter()
            .map(|expr| expr.run(to_val(&json!({"a": 5}))).unwrap())
            .collect();
        assert_eq!(answers, [json!(6), json!(10), json!("5"), json!(-5)]);
        for (expr, source) in compiled.iter().zip(sources) {
            assert_eq!(expr.source(), source);
            let alone = Expr::compile("def three: 3;", source).unwrap();
            assert_eq!(
                alone.run(to_val(&json!({"a": 5}))),
                expr.run(to_val(&json!({"a": 5})))
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
        for source in ["now", "env", "input", "$ENV"] {
            assert!(Expr::compile("", source).is_err(), "{source} compiled");
        }
    }
}
