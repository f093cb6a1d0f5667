//! JSON templates with `{{ … }}` placeholders. A template is split once into literal text and
//! placeholders, each marked as inside a JSON string or bare. Almost every template is also
//! compiled once into its JSON value with holes where the placeholders go, and into its compact
//! JSON text cut at those holes: a render then evaluates the placeholders, fills the holes of a
//! copy of the value and joins the text, with no JSON parsing or serialising of the literal
//! parts. A template that does not have that shape (a placeholder inside an object key, a
//! backslash right before a placeholder, …) is rendered as text and parsed; both ways give the
//! same value and text.

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::entropy::Entropy;
use super::placeholder::{Expr, UnknownExpr};

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Placeholder { expr: Expr, in_string: bool },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pieces: Vec<Piece>,
    /// `None` when the template is not a JSON value with whole placeholders in it; rendering
    /// then goes through text.
    compiled: Option<Compiled>,
}

/// A template as a JSON value with holes, and as compact JSON text cut at the holes.
#[derive(Debug, Clone, PartialEq)]
struct Compiled {
    /// The value with every hole `null`.
    skeleton: Value,
    /// Where the placeholders go, in document order.
    slots: Vec<Slot>,
    /// The compact JSON of the value, cut at every placeholder: `text[0]`, the text of
    /// placeholder `gaps[0]`, `text[1]`, …, `text[gaps.len()]`.
    text: Vec<String>,
    gaps: Vec<usize>,
    /// What the literal parts of `text` add up to, to size the output once.
    text_len: usize,
}

#[derive(Debug, Clone, PartialEq)]
struct Slot {
    path: Vec<PathSegment>,
    content: Content,
}

#[derive(Debug, Clone, PartialEq)]
enum PathSegment {
    Key(String),
    Index(usize),
}

#[derive(Debug, Clone, PartialEq)]
/// What fills a slot of the compiled value.
enum Content {
    /// A bare placeholder: its value, whatever JSON it is.
    Value(usize),
    /// A string of literal text and placeholders inside it.
    Text(Vec<Part>),
}

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Literal(String),
    Placeholder(usize),
}

/// One evaluated placeholder, in the form its place needs.
enum Evaluated {
    Bare(Value),
    InString(String),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    #[error("placeholder opened with '{{{{' is never closed")]
    Unclosed,
    /// The backslash would escape the first character of whatever the placeholder inserts:
    /// valid for some arguments, broken JSON for others, so it is refused before any call.
    #[error("a placeholder right after a backslash inside a string: write '\\\\' for a backslash")]
    AfterBackslash,
    #[error(transparent)]
    Unknown(#[from] UnknownExpr),
}

#[derive(Debug, thiserror::Error)]
#[error("the rendered response is not valid JSON: {0}")]
pub struct RenderError(#[from] pub serde_json::Error);

/// What a render needs besides the template: the arguments and the sources of time and chance.
#[derive(Clone, Copy)]
pub struct RenderContext<'a> {
    pub args: &'a Value,
    pub now: DateTime<Utc>,
    pub entropy: &'a Entropy,
}

impl Template {
    /// Splits `source` into pieces. String context is decided by one scan that tracks
    /// unescaped `"` outside placeholders.
    pub fn parse(source: &str) -> Result<Self, TemplateError> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut in_string = false;
        let mut escaped = false;
        let mut rest = source;
        while let Some(c) = rest.chars().next() {
            if rest.starts_with("{{") {
                if escaped {
                    return Err(TemplateError::AfterBackslash);
                }
                let end = rest.find("}}").ok_or(TemplateError::Unclosed)?;
                let expr = Expr::parse(rest[2..end].trim())?;
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                pieces.push(Piece::Placeholder { expr, in_string });
                rest = &rest[end + 2..];
                escaped = false;
                continue;
            }
            if in_string && escaped {
                escaped = false;
            } else if in_string && c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = !in_string;
            }
            text.push(c);
            rest = &rest[c.len_utf8()..];
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        let compiled = Compiled::new(source, &pieces);
        Ok(Self { pieces, compiled })
    }

    pub fn render(&self, ctx: RenderContext<'_>) -> Result<Value, RenderError> {
        match &self.compiled {
            Some(_) => Ok(self.render_with_text(ctx)?.0),
            None => Ok(serde_json::from_str(&self.render_text(ctx))?),
        }
    }

    /// Whether renders fill a compiled value instead of parsing text (see the module docs).
    pub fn is_compiled(&self) -> bool {
        self.compiled.is_some()
    }

    /// The rendered value and its compact JSON text (what `value.to_string()` gives).
    pub fn render_with_text(&self, ctx: RenderContext<'_>) -> Result<(Value, String), RenderError> {
        let Some(compiled) = &self.compiled else {
            let value: Value = serde_json::from_str(&self.render_text(ctx))?;
            let text = value.to_string();
            return Ok((value, text));
        };
        let evaluated = self.evaluate(ctx);
        if compiled.nests_too_deep(&evaluated) {
            // Parsing the text is what refuses a response nested past serde_json's limit (128
            // levels); the same values go through the same parse, so it is refused alike.
            let value: Value = serde_json::from_str(&self.text_of(&evaluated))?;
            let text = value.to_string();
            return Ok((value, text));
        }
        Ok(compiled.render(evaluated))
    }

    /// The rendered value's compact JSON text (what [`Template::render_with_text`] gives) and
    /// whether that value is an object, without building the value: for a caller that sends
    /// the text as it is, the value's copy and its allocations are most of a render's cost.
    pub fn render_json_text(&self, ctx: RenderContext<'_>) -> Result<(String, bool), RenderError> {
        let Some(compiled) = &self.compiled else {
            let (value, text) = self.render_with_text(ctx)?;
            return Ok((text, value.is_object()));
        };
        let evaluated = self.evaluate(ctx);
        if compiled.nests_too_deep(&evaluated) {
            let value: Value = serde_json::from_str(&self.text_of(&evaluated))?;
            return Ok((value.to_string(), value.is_object()));
        }
        Ok((compiled.text(&evaluated), compiled.is_object(&evaluated)))
    }

    /// [`Template::render_text`] with the placeholders already evaluated.
    fn text_of(&self, evaluated: &[Evaluated]) -> String {
        let mut out = String::new();
        let mut values = evaluated.iter();
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Placeholder { .. } => match values.next() {
                    Some(Evaluated::Bare(value)) => out.push_str(&value.to_string()),
                    Some(Evaluated::InString(text)) => push_escaped_str(&mut out, text),
                    None => {}
                },
            }
        }
        out
    }

    /// Every placeholder evaluated once, in source order (the order `--seed` draws in), in the
    /// form the text path would have put it into the JSON text and parsed it back.
    fn evaluate(&self, ctx: RenderContext<'_>) -> Vec<Evaluated> {
        let placeholders = self.pieces.iter().filter_map(|piece| match piece {
            Piece::Placeholder { expr, in_string } => Some((expr, *in_string)),
            Piece::Text(_) => None,
        });
        placeholders
            .map(|(expr, in_string)| {
                let value = expr.evaluate(ctx.args, ctx.now, ctx.entropy);
                if in_string {
                    Evaluated::InString(match value {
                        Value::String(text) => text,
                        other => other.to_string(),
                    })
                } else {
                    Evaluated::Bare(as_reparsed(value))
                }
            })
            .collect()
    }

    /// The template with every placeholder replaced, before JSON parsing.
    pub fn render_text(&self, ctx: RenderContext<'_>) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Placeholder { expr, in_string } => {
                    let value = expr.evaluate(ctx.args, ctx.now, ctx.entropy);
                    if *in_string {
                        push_escaped(&mut out, &value);
                    } else {
                        out.push_str(&value.to_string());
                    }
                }
            }
        }
        out
    }
}

/// A bare value as the text path gives it: written as JSON and parsed back. Only numbers that
/// are not integers could come back different (float parsing), so only values holding one pay
/// for the round trip.
fn as_reparsed(value: Value) -> Value {
    fn has_float(value: &Value) -> bool {
        match value {
            Value::Number(n) => n.is_f64(),
            Value::Array(items) => items.iter().any(has_float),
            Value::Object(map) => map.values().any(has_float),
            _ => false,
        }
    }
    if has_float(&value) {
        serde_json::from_str(&value.to_string()).unwrap_or(value)
    } else {
        value
    }
}

/// The placeholder `index` stands in the compiled source as this private-use character
/// (planes 15, U+F0000 and on), which the source itself may not hold.
const SENTINEL_BASE: u32 = 0xF_0000;
const SENTINEL_END: u32 = 0xF_FFFD;

fn sentinel(index: usize) -> Option<char> {
    let code = SENTINEL_BASE.checked_add(u32::try_from(index).ok()?)?;
    (code <= SENTINEL_END)
        .then(|| char::from_u32(code))
        .flatten()
}

fn sentinel_index(c: char) -> Option<usize> {
    let code = u32::from(c);
    (SENTINEL_BASE..=SENTINEL_END)
        .contains(&code)
        .then(|| (code - SENTINEL_BASE) as usize)
}

impl Compiled {
    /// The template with each bare placeholder as a one-character JSON string and each
    /// placeholder inside a string as one character, parsed; `None` if that is not valid JSON
    /// or does not hold every placeholder exactly once, outside object keys.
    fn new(source: &str, pieces: &[Piece]) -> Option<Self> {
        // The source must not already hold a sentinel, raw or as a `\uDBxx` surrogate escape.
        let lower = source.to_ascii_lowercase();
        if source.chars().any(|c| sentinel_index(c).is_some()) || lower.contains("\\udb") {
            return None;
        }
        let mut kinds = Vec::new();
        let mut marked = String::with_capacity(source.len());
        for piece in pieces {
            match piece {
                Piece::Text(text) => marked.push_str(text),
                Piece::Placeholder { in_string, .. } => {
                    let mark = sentinel(kinds.len())?;
                    if *in_string {
                        marked.push(mark);
                    } else {
                        marked.push('"');
                        marked.push(mark);
                        marked.push('"');
                    }
                    kinds.push(*in_string);
                }
            }
        }
        let mut skeleton: Value = serde_json::from_str(&marked).ok()?;
        let mut slots = Vec::new();
        let mut seen = vec![false; kinds.len()];
        find_slots(&skeleton, &mut Vec::new(), &kinds, &mut seen, &mut slots)?;
        if seen.iter().any(|seen| !seen) {
            return None;
        }
        let (text, gaps) = cut(&skeleton.to_string(), &kinds)?;
        for slot in &slots {
            *slot_mut(&mut skeleton, &slot.path)? = Value::Null;
        }
        Some(Self {
            skeleton,
            slots,
            text_len: text.iter().map(String::len).sum(),
            text,
            gaps,
        })
    }

    /// Whether a bare value would nest the response past what parsing its text allows:
    /// serde_json refuses a 128th level of arrays and objects. Erring on the safe side only
    /// sends a render through the text, which gives the same answer.
    fn nests_too_deep(&self, evaluated: &[Evaluated]) -> bool {
        fn depth(value: &Value) -> usize {
            match value {
                Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
                Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
                _ => 0,
            }
        }
        self.slots.iter().any(|slot| match slot.content {
            Content::Value(index) => match &evaluated[index] {
                Evaluated::Bare(value @ (Value::Array(_) | Value::Object(_))) => {
                    slot.path.len() + depth(value) >= 120
                }
                _ => false,
            },
            Content::Text(_) => false,
        })
    }

    /// The filled value's compact JSON: the literal text joined with the placeholders'.
    fn text(&self, evaluated: &[Evaluated]) -> String {
        let mut text = String::with_capacity(self.text_len + 32 * self.gaps.len());
        for (literal, &gap) in self.text.iter().zip(&self.gaps) {
            text.push_str(literal);
            match &evaluated[gap] {
                Evaluated::Bare(value) => text.push_str(&value.to_string()),
                Evaluated::InString(inner) => push_escaped_str(&mut text, inner),
            }
        }
        if let Some(last) = self.text.last() {
            text.push_str(last);
        }
        text
    }

    /// Whether the filled value is an object: the skeleton's kind, unless one placeholder is
    /// the whole template.
    fn is_object(&self, evaluated: &[Evaluated]) -> bool {
        let whole = self.slots.iter().find(|slot| slot.path.is_empty());
        match whole.map(|slot| &slot.content) {
            Some(Content::Value(index)) => {
                matches!(evaluated[*index], Evaluated::Bare(Value::Object(_)))
            }
            Some(Content::Text(_)) => false,
            None => self.skeleton.is_object(),
        }
    }

    fn render(&self, mut evaluated: Vec<Evaluated>) -> (Value, String) {
        let text = self.text(&evaluated);
        let mut value = self.skeleton.clone();
        for slot in &self.slots {
            let Some(target) = slot_mut(&mut value, &slot.path) else {
                continue;
            };
            *target = match &slot.content {
                Content::Value(index) => {
                    match std::mem::replace(&mut evaluated[*index], Evaluated::Bare(Value::Null)) {
                        Evaluated::Bare(value) => value,
                        Evaluated::InString(text) => Value::String(text),
                    }
                }
                Content::Text(parts) => {
                    let mut joined = String::new();
                    for part in parts {
                        match part {
                            Part::Literal(literal) => joined.push_str(literal),
                            Part::Placeholder(index) => match &evaluated[*index] {
                                Evaluated::InString(inner) => joined.push_str(inner),
                                Evaluated::Bare(value) => joined.push_str(&value.to_string()),
                            },
                        }
                    }
                    Value::String(joined)
                }
            };
        }
        (value, text)
    }
}

/// Records where every sentinel sits; `None` for a sentinel in a key, a bare one inside a
/// longer string, one inside a string that is not one, or one seen twice.
fn find_slots(
    value: &Value,
    path: &mut Vec<PathSegment>,
    kinds: &[bool],
    seen: &mut [bool],
    slots: &mut Vec<Slot>,
) -> Option<()> {
    let mut see = |index: usize| -> Option<()> {
        let seen = seen.get_mut(index)?;
        if *seen {
            return None;
        }
        *seen = true;
        Some(())
    };
    match value {
        Value::String(text) => {
            if !text.chars().any(|c| sentinel_index(c).is_some()) {
                return Some(());
            }
            let mut chars = text.chars();
            if let (Some(only), None) = (chars.next(), chars.next())
                && let Some(index) = sentinel_index(only)
                && !*kinds.get(index)?
            {
                see(index)?;
                slots.push(Slot {
                    path: path.clone(),
                    content: Content::Value(index),
                });
                return Some(());
            }
            let mut parts = Vec::new();
            let mut literal = String::new();
            for c in text.chars() {
                match sentinel_index(c) {
                    Some(index) => {
                        if !*kinds.get(index)? {
                            return None;
                        }
                        see(index)?;
                        if !literal.is_empty() {
                            parts.push(Part::Literal(std::mem::take(&mut literal)));
                        }
                        parts.push(Part::Placeholder(index));
                    }
                    None => literal.push(c),
                }
            }
            if !literal.is_empty() {
                parts.push(Part::Literal(literal));
            }
            slots.push(Slot {
                path: path.clone(),
                content: Content::Text(parts),
            });
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(PathSegment::Index(index));
                find_slots(item, path, kinds, seen, slots)?;
                path.pop();
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                if key.chars().any(|c| sentinel_index(c).is_some()) {
                    return None;
                }
                path.push(PathSegment::Key(key.clone()));
                find_slots(item, path, kinds, seen, slots)?;
                path.pop();
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
    Some(())
}

fn slot_mut<'a>(mut value: &'a mut Value, path: &[PathSegment]) -> Option<&'a mut Value> {
    for step in path {
        value = match (step, value) {
            (PathSegment::Key(key), Value::Object(map)) => map.get_mut(key)?,
            (PathSegment::Index(index), Value::Array(items)) => items.get_mut(*index)?,
            _ => return None,
        };
    }
    Some(value)
}

/// The compact JSON of the marked skeleton cut at its sentinels (a bare one with the quotes
/// around it): the literal pieces and, for each cut, the placeholder that fills it.
fn cut(marked: &str, kinds: &[bool]) -> Option<(Vec<String>, Vec<usize>)> {
    let mut text = Vec::new();
    let mut gaps = Vec::new();
    let mut current = String::new();
    let mut chars = marked.chars().peekable();
    while let Some(c) = chars.next() {
        let Some(index) = sentinel_index(c) else {
            current.push(c);
            continue;
        };
        if !*kinds.get(index)? {
            // `"<sentinel>"`: the quotes belong to the hole.
            if current.pop() != Some('"') || chars.next() != Some('"') {
                return None;
            }
        }
        text.push(std::mem::take(&mut current));
        gaps.push(index);
    }
    text.push(current);
    Some((text, gaps))
}

/// `text` JSON-string-escaped, without the quotes.
fn push_escaped_str(out: &mut String, text: &str) {
    let quoted = serde_json::to_string(text).expect("a string serialises");
    out.push_str(&quoted[1..quoted.len() - 1]);
}

/// A value as text inside a JSON string: strings by their characters, anything else by its
/// compact JSON, JSON-string-escaped in both cases.
fn push_escaped(out: &mut String, value: &Value) {
    let quoted = match value {
        Value::String(s) => Value::String(s.clone()).to_string(),
        other => Value::String(other.to_string()).to_string(),
    };
    out.push_str(&quoted[1..quoted.len() - 1]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn render(template: &str, args: Value) -> Value {
        let entropy = Entropy::seeded(3);
        let now = DateTime::parse_from_rfc3339("2026-10-05T12:00:00Z")
            .unwrap()
            .to_utc();
        let ctx = RenderContext {
            args: &args,
            now,
            entropy: &entropy,
        };
        Template::parse(template).unwrap().render(ctx).unwrap()
    }

    #[test]
    fn string_and_bare_context() {
        let cases = [
            (r#"{"q": {{args.q}}}"#, json!({"q": 3}), json!({"q": 3})),
            (
                r#"{"q": {{ args.q }}}"#,
                json!({"q": "abc"}),
                json!({"q": "abc"}),
            ),
            (r#"{"q": {{args.q}}}"#, json!({}), json!({"q": null})),
            (
                r#"{"q": {{args.q}}}"#,
                json!({"q": {"a": [1]}}),
                json!({"q": {"a": [1]}}),
            ),
            (
                r#"{"t": "ride {{args.q}}"}"#,
                json!({"q": "5001"}),
                json!({"t": "ride 5001"}),
            ),
            (
                r#"{"t": "n={{args.q}}"}"#,
                json!({"q": 3}),
                json!({"t": "n=3"}),
            ),
            (
                r#"{"t": "v={{args.q}}"}"#,
                json!({"q": {"a": "b"}}),
                json!({"t": r#"v={"a":"b"}"#}),
            ),
            (r#"{"t": "{{args.q}}"}"#, json!({}), json!({"t": "null"})),
            (
                r#"{"t": "a\"{{args.q}}\"b"}"#,
                json!({"q": 1}),
                json!({"t": "a\"1\"b"}),
            ),
            (
                r#"{"t": "a\\", "n": {{args.q}}}"#,
                json!({"q": 1}),
                json!({"t": "a\\", "n": 1}),
            ),
            (
                r#"{"t": "{{now|hhmm}} – {{now+20m|hhmm}}"}"#,
                json!({}),
                json!({"t": "16:00 – 16:20"}),
            ),
            (r#"{"t": {{unix}}}"#, json!({}), json!({"t": 1_791_201_600})),
        ];
        for (template, args, want) in cases {
            assert_eq!(
                render(template, args.clone()),
                want,
                "{template} with {args}"
            );
        }
    }

    #[test]
    fn escaping_inside_strings() {
        let cases = [
            "say \"hi\"",
            r"back\slash",
            "new\nline\ttab",
            "bell\u{7}nul\u{0}",
            "Café مرحبا 🍣",
            "{{args.q}}",
            "}}",
        ];
        for input in cases {
            let value = render(r#"{"t": "<{{args.q}}>"}"#, json!({"q": input}));
            assert_eq!(value, json!({"t": format!("<{input}>")}), "{input:?}");
        }
    }

    /// The compiled render and the text render agree on value and text, for every shape of
    /// template, and the templates that cannot be compiled say so.
    #[test]
    fn compiled_and_text_rendering_agree() {
        let args = json!({
            "q": "a \"quoted\" \\ back\nslash é 🍣 \u{7}",
            "n": 3,
            // 0.30000000000000004: seventeen digits.
            "f": 0.1_f64 + 0.2,
            "tiny": 1e-7,
            "big": 18_446_744_073_709_551_615_u64,
            "neg": -12,
            "o": {"a": [1, 2.5, {"b": null}], "c": "d"},
            "t": true,
        });
        let cases: &[(&str, bool)] = &[
            (r#"{"a": 1}"#, true),
            (
                r#"{"q": {{args.q}}, "n": {{args.n}}, "f": {{args.f}}}"#,
                true,
            ),
            (r#"{"t": "x {{args.q}} y {{args.n}} z {{args.o}}"}"#, true),
            (r#"{"t": "{{args.q}}"}"#, true),
            (r#"{"t": "{{args.f}}{{args.tiny}}"}"#, true),
            (
                r#"[{{args.o}}, {{args.missing}}, "{{args.missing}}", {{args.big}}, {{args.neg}}]"#,
                true,
            ),
            ("{{args.o}}", true),
            ("{{args.n}}", true),
            (r#""{{args.q}}""#, true),
            (r#""x {{args.q}}""#, true),
            ("[1, {{args.o}}]", true),
            (
                r#"{"now": "{{now}}", "u": {{unix}}, "id": "{{uuid}}", "r": {{rand:1-9}}}"#,
                true,
            ),
            (
                "{\n  \"a\" : [ 1.50 , 2e3, -0.0, 1E-2 ],\n  \"b\": \"\\u00e9\\/\"\n}",
                true,
            ),
            (r#"{"dup": 1, "dup": {{args.n}}}"#, true),
            (r#"{"dup": {{args.n}}, "dup": 2}"#, false),
            (r#"{"{{args.q}}": 1}"#, false),
            (r#"{"t": "a\\{{args.q}}"}"#, true),
            (r#"{"t": "\udb80\udc00 {{args.n}}"}"#, false),
            (r#"{"n": 1{{args.n}}}"#, false),
        ];
        for (template, compiles) in cases {
            let parsed = Template::parse(template).unwrap();
            assert_eq!(parsed.compiled.is_some(), *compiles, "{template}");
            let as_text = Template {
                pieces: parsed.pieces.clone(),
                compiled: None,
            };
            let render = |template: &Template| {
                let entropy = Entropy::seeded(11);
                let now = DateTime::parse_from_rfc3339("2026-10-05T12:00:00.5Z")
                    .unwrap()
                    .to_utc();
                template.render_with_text(RenderContext {
                    args: &args,
                    now,
                    entropy: &entropy,
                })
            };
            match (render(&parsed), render(&as_text)) {
                (Ok((value, text)), Ok((want_value, want_text))) => {
                    assert_eq!(value, want_value, "{template}");
                    assert_eq!(text, want_text, "{template}");
                    assert_eq!(text, value.to_string(), "{template}");
                    let only_text = parsed
                        .render_json_text(RenderContext {
                            args: &args,
                            now: DateTime::parse_from_rfc3339("2026-10-05T12:00:00.5Z")
                                .unwrap()
                                .to_utc(),
                            entropy: &Entropy::seeded(11),
                        })
                        .unwrap();
                    assert_eq!(only_text, (text, value.is_object()), "{template}");
                }
                (Err(_), Err(_)) => {}
                (got, want) => panic!("{template}: {:?} vs {:?}", got.is_ok(), want.is_ok()),
            }
        }
    }

    #[test]
    fn a_response_nested_past_the_parse_limit_is_refused_either_way() {
        let entropy = Entropy::seeded(1);
        let template = Template::parse(r#"{"v": {"w": {{args.q}}}}"#).unwrap();
        assert!(template.is_compiled());
        for (depth, renders) in [(100, true), (125, true), (126, false), (300, false)] {
            let nested = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
            let args = json!({"q": serde_json::from_str::<Value>(&nested).unwrap_or(Value::Null)});
            let args = if depth < 128 {
                args
            } else {
                // Deeper than serde_json parses: built by hand.
                let mut q = json!(1);
                for _ in 0..depth {
                    q = Value::Array(vec![q]);
                }
                json!({"q": q})
            };
            let ctx = RenderContext {
                args: &args,
                now: Utc::now(),
                entropy: &entropy,
            };
            let as_text = Template {
                pieces: template.pieces.clone(),
                compiled: None,
            };
            assert_eq!(template.render_with_text(ctx).is_ok(), renders, "{depth}");
            assert_eq!(as_text.render_with_text(ctx).is_ok(), renders, "{depth}");
            assert_eq!(template.render(ctx).is_ok(), renders, "{depth}");
        }
    }

    #[test]
    fn parse_errors() {
        assert_eq!(
            Template::parse(r#"{"a": {{now"#),
            Err(TemplateError::Unclosed)
        );
        assert!(matches!(
            Template::parse(r#"{"a": {{ tomorrow }}}"#),
            Err(TemplateError::Unknown(_))
        ));
        assert_eq!(
            Template::parse(r#"{"a": "\{{args.q}}"}"#),
            Err(TemplateError::AfterBackslash)
        );
        assert!(Template::parse(r#"{"a": "\\{{args.q}}"}"#).is_ok());
    }

    #[test]
    fn invalid_json_after_rendering_is_reported() {
        let entropy = Entropy::default();
        let args = json!({});
        let ctx = RenderContext {
            args: &args,
            now: Utc::now(),
            entropy: &entropy,
        };
        assert!(Template::parse(r#"{"a": }"#).unwrap().render(ctx).is_err());
    }
}
