//! Cutting long texts for the log and the journal, so that a call with a 4 MiB argument costs
//! a line, not megabytes. What is kept says how long the whole was.

use std::borrow::Cow;

/// How much of a call's arguments the per-call log line shows.
pub const LOG_LIMIT: usize = 1024;

/// How much of a tool's name the log line and a journal entry keep: real names are under 40
/// bytes, and a client may send one of megabytes.
pub const NAME_LIMIT: usize = 256;

/// How much of a value (arguments, result) a journal entry keeps.
pub const JOURNAL_LIMIT: usize = 64 * 1024;

/// `text` when it is at most `limit` bytes; otherwise its first `limit` bytes (cut at a
/// character boundary) followed by `… (N bytes)`, N the whole text's length.
pub fn clip(text: &str, limit: usize) -> Cow<'_, str> {
    if text.len() <= limit {
        return Cow::Borrowed(text);
    }
    let mut cut = limit;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    Cow::Owned(format!("{}… ({} bytes)", &text[..cut], text.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_at_a_character_and_say_their_length() {
        let cases: [(&str, usize, &str); 4] = [
            ("short", 5, "short"),
            ("longer", 4, "long… (6 bytes)"),
            ("aé", 2, "a… (3 bytes)"),
            ("", 0, ""),
        ];
        for (text, limit, want) in cases {
            assert_eq!(clip(text, limit), want, "{text}");
        }
    }
}
