//! A JSON value with SPEC placeholders in it, written as the text of a `json response` block:
//! indented as `serde_json` indents, placeholders in strings as text and bare ones as values.

use serde_json::Value;

/// A JSON template's tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A value written as it is.
    Literal(Value),
    Object(Vec<(String, Node)>),
    Array(Vec<Node>),
    /// A string with placeholders in it.
    Text(Vec<Piece>),
    /// A placeholder as a whole value (`"at": {{unix}}`).
    Bare(String),
}

/// A part of a string: words, or a placeholder's expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    Placeholder(String),
}

impl Node {
    /// The template's text, two spaces an indent.
    pub fn to_template(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        match self {
            Node::Literal(value) => write_literal(value, out, depth),
            Node::Bare(expression) => push_placeholder(out, expression),
            Node::Text(pieces) => {
                out.push('"');
                for (index, piece) in pieces.iter().enumerate() {
                    match piece {
                        Piece::Text(text) => {
                            let before_placeholder =
                                matches!(pieces.get(index + 1), Some(Piece::Placeholder(_)));
                            out.push_str(&string_body(text, before_placeholder));
                        }
                        Piece::Placeholder(expression) => push_placeholder(out, expression),
                    }
                }
                out.push('"');
            }
            Node::Array(items) => write_list(out, depth, '[', ']', items.iter(), |item, out| {
                item.write(out, depth + 1);
            }),
            Node::Object(entries) => {
                write_list(out, depth, '{', '}', entries.iter(), |(key, item), out| {
                    out.push('"');
                    out.push_str(&string_body(key, false));
                    out.push_str("\": ");
                    item.write(out, depth + 1);
                });
            }
        }
    }
}

fn push_placeholder(out: &mut String, expression: &str) {
    out.push_str("{{");
    out.push_str(expression);
    out.push_str("}}");
}

fn write_literal(value: &Value, out: &mut String, depth: usize) {
    match value {
        Value::String(text) => {
            out.push('"');
            out.push_str(&string_body(text, false));
            out.push('"');
        }
        Value::Array(items) => write_list(out, depth, '[', ']', items.iter(), |item, out| {
            write_literal(item, out, depth + 1);
        }),
        Value::Object(map) => write_list(out, depth, '{', '}', map.iter(), |(key, item), out| {
            out.push('"');
            out.push_str(&string_body(key, false));
            out.push_str("\": ");
            write_literal(item, out, depth + 1);
        }),
        other => out.push_str(&other.to_string()),
    }
}

fn write_list<T>(
    out: &mut String,
    depth: usize,
    open: char,
    close: char,
    items: impl ExactSizeIterator<Item = T>,
    mut each: impl FnMut(T, &mut String),
) {
    out.push(open);
    if items.len() == 0 {
        out.push(close);
        return;
    }
    let inner = "  ".repeat(depth + 1);
    for (index, item) in items.enumerate() {
        out.push_str(if index == 0 { "\n" } else { ",\n" });
        out.push_str(&inner);
        each(item, out);
    }
    out.push('\n');
    out.push_str(&"  ".repeat(depth));
    out.push(close);
}

/// `text` JSON-escaped without its quotes, with every `{` that would start a placeholder
/// written `\u007b`: SPEC has no other escape for a literal `{{`.
fn string_body(text: &str, before_placeholder: bool) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    let body = &quoted[1..quoted.len() - 1];
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        let opens = match chars.peek() {
            Some(next) => *next == '{',
            None => before_placeholder,
        };
        if c == '{' && opens {
            out.push_str("\\u007b");
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::engine::toolfile::entropy::Entropy;
    use crate::engine::toolfile::template::{RenderContext, Template};

    #[test]
    fn a_template_renders_back_to_its_value() {
        let node = Node::Object(vec![
            ("at".into(), Node::Bare("unix".into())),
            (
                "label".into(),
                Node::Text(vec![
                    Piece::Text("opens {at ".into()),
                    Piece::Placeholder("now|hhmm".into()),
                    Piece::Text(" {{ \"q\"".into()),
                ]),
            ),
            ("list".into(), Node::Array(vec![])),
            (
                "raw".into(),
                Node::Literal(json!({"a": [1, "x{{y"], "{{k": {}})),
            ),
        ]);
        let text = node.to_template();
        let template = Template::parse(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let now = chrono::DateTime::parse_from_rfc3339("2026-10-05T12:00:30Z")
            .unwrap()
            .to_utc();
        let context = RenderContext {
            args: &Value::Null,
            now,
            entropy: &Entropy::seeded(1),
        };
        assert_eq!(
            template.render(context).unwrap(),
            json!({"at": 1_791_201_630, "label": "opens {at 16:00 {{ \"q\"", "list": [],
                   "raw": {"a": [1, "x{{y"], "{{k": {}}})
        );
    }
}
