//! JSON templates with `{{ … }}` placeholders. A template is split once into literal text and
//! placeholders, each marked as inside a JSON string or bare, so that rendering is a single
//! pass of appends followed by one JSON parse.

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
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    #[error("placeholder opened with '{{{{' is never closed")]
    Unclosed,
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
        Ok(Self { pieces })
    }

    pub fn render(&self, ctx: RenderContext<'_>) -> Result<Value, RenderError> {
        Ok(serde_json::from_str(&self.render_text(ctx))?)
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
