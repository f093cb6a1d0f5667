//! Text from files and clients made safe to print on a terminal: control characters (ESC and
//! the sequences it starts — colours, cursor moves, OSC 52 clipboard writes, OSC 8 links —,
//! CR and LF that would forge rows, C1 codes) and bidi overrides (U+202E and its kin, which
//! reorder what follows them) are shown as escapes (`\u{1b}`, `\r`, `\u{202e}`), so a cell
//! shows what it holds and nothing else.

use std::borrow::Cow;

/// `text` with every character that could act on a terminal written as an escape.
pub fn printable(text: &str) -> Cow<'_, str> {
    escape(text, |_| false)
}

/// As [`printable`], but keeps the line breaks and tabs of a quoted file: its lines stay lines.
/// A CR is kept only as the first half of a CRLF.
pub fn printable_lines(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    escape(text, |(at, c)| match c {
        '\n' | '\t' => true,
        '\r' => bytes.get(at + 1) == Some(&b'\n'),
        _ => false,
    })
}

/// `text` cut to `max` characters (escapes included), ending in `...` when it was longer.
pub fn clipped(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(3)).collect();
    kept + "..."
}

fn escape(text: &str, keep: impl Fn((usize, char)) -> bool) -> Cow<'_, str> {
    let unsafe_at = |(at, c): (usize, char)| acts_on_a_terminal(c) && !keep((at, c));
    if !text.char_indices().any(unsafe_at) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for (at, c) in text.char_indices() {
        if !unsafe_at((at, c)) {
            shown.push(c);
            continue;
        }
        match c {
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            '\t' => shown.push_str("\\t"),
            _ => shown.extend(c.escape_unicode()),
        }
    }
    Cow::Owned(shown)
}

/// C0, DEL and C1 controls; the bidi embeddings, overrides, isolates and marks; the Unicode
/// line and paragraph separators.
fn acts_on_a_terminal(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_could_act_on_a_terminal_is_escaped_and_the_rest_kept() {
        let cases = [
            ("reverse_geocode", "reverse_geocode"),
            ("مطعم 🍣 café", "مطعم 🍣 café"),
            ("\u{1b}[2J\u{1b}[H", "\\u{1b}[2J\\u{1b}[H"),
            ("\u{1b}]52;c;aGk=\u{7}", "\\u{1b}]52;c;aGk=\\u{7}"),
            (
                "\u{1b}]8;;https://x.test\u{1b}\\link",
                "\\u{1b}]8;;https://x.test\\u{1b}\\link",
            ),
            ("row\r\nforged", "row\\r\\nforged"),
            ("a\tb", "a\\tb"),
            ("\u{9b}31m", "\\u{9b}31m"),
            ("abc\u{202e}fed", "abc\\u{202e}fed"),
            ("\u{2067}x\u{2069}\u{200f}", "\\u{2067}x\\u{2069}\\u{200f}"),
            ("one\u{2028}two", "one\\u{2028}two"),
            ("\u{7f}", "\\u{7f}"),
        ];
        for (text, shown) in cases {
            assert_eq!(printable(text), shown, "{text:?}");
        }
    }

    #[test]
    fn quoted_lines_keep_their_breaks_and_lose_the_rest() {
        let cases = [
            ("one\ntwo\n", "one\ntwo\n"),
            ("one\r\ntwo", "one\r\ntwo"),
            ("over\rwritten\n", "over\\rwritten\n"),
            ("\tindented \u{1b}[8mhidden", "\tindented \\u{1b}[8mhidden"),
        ];
        for (text, shown) in cases {
            assert_eq!(printable_lines(text), shown, "{text:?}");
        }
    }

    #[test]
    fn long_cells_are_clipped_with_an_ellipsis() {
        let cases = [("short", 10, "short"), ("0123456789abc", 10, "0123456...")];
        for (text, max, shown) in cases {
            assert_eq!(clipped(text, max), shown);
        }
    }
}
