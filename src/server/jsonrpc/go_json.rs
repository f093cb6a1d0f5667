//! JSON written as Go's `encoding/json` writes it, so that every byte a client reads is the one
//! production's SDK sends: U+2028 and U+2029 always escaped, and `<`, `>`, `&` too where Go's
//! `json.Marshal` escapes HTML (a tool's text content and its structured result).

use std::io;

use serde::Serialize;
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
        for (at, c) in fragment.char_indices() {
            let escaped = match c {
                '\u{2028}' => "\\u2028",
                '\u{2029}' => "\\u2029",
                '<' if html => "\\u003c",
                '>' if html => "\\u003e",
                '&' if html => "\\u0026",
                _ => continue,
            };
            writer.write_all(&fragment.as_bytes()[start..at])?;
            writer.write_all(escaped.as_bytes())?;
            start = at + c.len_utf8();
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

/// Compact JSON text (serde's) as Go's `json.Marshal` would have written the same value. In
/// compact JSON the characters Go escapes can only stand inside strings, so replacing them where
/// they stand is exact.
pub(crate) fn html_escaped(text: &str) -> std::borrow::Cow<'_, str> {
    let needs = text
        .chars()
        .any(|c| matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}'));
    if !needs {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            other => out.push(other),
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn strings_escape_as_go_escapes_them() {
        let value =
            json!({"a": "Fish & Chips <b>", "s": "line\u{2028}sep\u{2029}", "c": "\u{1}\n\""});
        let cases = [
            (
                Escaping::Envelope,
                r#"{"a":"Fish & Chips <b>","s":"line\u2028sep\u2029","c":"\u0001\n\""}"#,
            ),
            (
                Escaping::Html,
                r#"{"a":"Fish \u0026 Chips \u003cb\u003e","s":"line\u2028sep\u2029","c":"\u0001\n\""}"#,
            ),
        ];
        for (escaping, want) in cases {
            let got = String::from_utf8(to_vec(&value, escaping)).unwrap();
            assert_eq!(got, want, "{escaping:?}");
        }
    }

    #[test]
    fn compact_text_escapes_as_the_value_would() {
        let value = json!({"title": "Dubai Marina Walk & Co <x>", "n": [1, 2.5], "t": "\u{2029}"});
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
