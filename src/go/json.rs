//! JSON written as Go's `encoding/json` writes it, so that every byte a client reads is the one
//! production's SDK sends: U+2028 and U+2029 always escaped, and `<`, `>`, `&` too where Go's
//! `json.Marshal` escapes HTML (a tool's text content and its structured result).

use std::io;

use serde::Serialize;
use serde_json::Value;
use serde_json::ser::{CompactFormatter, Formatter};

/// Which of Go's two string escapings a value gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Escaping {
    /// `json.Encoder` with `SetEscapeHTML(false)`: the SDK's JSON-RPC envelope.
    Envelope,
    /// `json.Marshal`: content text and typed tool results.
    Html,
}

struct GoFormatter(Escaping);

impl Formatter for GoFormatter {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let html = self.0 == Escaping::Html;
        let mut start = 0;
        while let Some((at, len, escaped)) = next_escape(fragment.as_bytes(), start, html) {
            writer.write_all(&fragment.as_bytes()[start..at])?;
            writer.write_all(escaped.as_bytes())?;
            start = at + len;
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        escape: serde_json::ser::CharEscape,
    ) -> io::Result<()> {
        CompactFormatter.write_char_escape(writer, escape)
    }
}

/// Appends `value` to `out` as Go writes it.
pub(crate) fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T, escaping: Escaping) {
    let mut serializer = serde_json::Serializer::with_formatter(out, GoFormatter(escaping));
    // Serialising into memory fails only for maps with non-string keys, which no caller has.
    if let Err(error) = value.serialize(&mut serializer) {
        tracing::error!("cannot write a JSON value: {error}");
    }
}

/// `value` as Go writes it.
pub(crate) fn to_vec<T: Serialize + ?Sized>(value: &T, escaping: Escaping) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    write(&mut out, value, escaping);
    out
}

/// A value as Go writes a `map[string]any`: every object's keys sorted.
pub(crate) fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|key| (key.clone(), sorted(&map[key])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// Compact JSON text (serde's) as Go's `json.Marshal` would have written the same value. In
/// compact JSON the characters Go escapes can only stand inside strings, so replacing them where
/// they stand is exact.
pub(crate) fn html_escaped(text: &str) -> std::borrow::Cow<'_, str> {
    let Some(first) = next_escape(text.as_bytes(), 0, true) else {
        return std::borrow::Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 64);
    let (mut start, mut next) = (0, Some(first));
    while let Some((at, len, escaped)) = next {
        out.push_str(&text[start..at]);
        out.push_str(escaped);
        start = at + len;
        next = next_escape(text.as_bytes(), start, true);
    }
    out.push_str(&text[start..]);
    std::borrow::Cow::Owned(out)
}

/// The next character from byte `from` on that Go escapes beyond JSON's own rules: where it
/// starts, its length in bytes and its escape. Every one starts at a character boundary (an
/// ASCII byte, or the lead byte of U+2028/U+2029), so the text around it slices as `str`.
fn next_escape(bytes: &[u8], from: usize, html: bool) -> Option<(usize, usize, &'static str)> {
    let mut at = from;
    while at < bytes.len() {
        match bytes[at] {
            b'<' if html => return Some((at, 1, "\\u003c")),
            b'>' if html => return Some((at, 1, "\\u003e")),
            b'&' if html => return Some((at, 1, "\\u0026")),
            0xE2 if bytes.get(at + 1) == Some(&0x80) => match bytes.get(at + 2) {
                Some(0xA8) => return Some((at, 3, "\\u2028")),
                Some(0xA9) => return Some((at, 3, "\\u2029")),
                _ => {}
            },
            _ => {}
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn strings_escape_as_go_escapes_them() {
        let value = json!({"a": "Fish & Chips <b>", "s": "line\u{2028}sep\u{2029}", "c": "\u{1}\n\"", "e": "…—"});
        let cases = [
            (
                Escaping::Envelope,
                r#"{"a":"Fish & Chips <b>","s":"line\u2028sep\u2029","c":"\u0001\n\"","e":"…—"}"#,
            ),
            (
                Escaping::Html,
                r#"{"a":"Fish \u0026 Chips \u003cb\u003e","s":"line\u2028sep\u2029","c":"\u0001\n\"","e":"…—"}"#,
            ),
        ];
        for (escaping, want) in cases {
            let got = String::from_utf8(to_vec(&value, escaping)).unwrap();
            assert_eq!(got, want, "{escaping:?}");
        }
    }

    #[test]
    fn compact_text_escapes_as_the_value_would() {
        let value =
            json!({"title": "Dubai Marina Walk & Co <x>", "n": [1, 2.5], "t": "\u{2029}…\u{2028}"});
        let text = value.to_string();
        assert_eq!(
            html_escaped(&text),
            String::from_utf8(to_vec(&value, Escaping::Html)).unwrap()
        );
        assert!(matches!(
            html_escaped("{\"plain\":1}"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
