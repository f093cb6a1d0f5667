//! Lone UTF-16 surrogates in `\u` escapes, read as Go's decoder reads them: a high surrogate
//! not followed by its low half, or a low one on its own, is U+FFFD. serde refuses such a
//! string outright (JavaScript's `JSON.stringify` writes one for a cut-off emoji), so each is
//! rewritten to `\ufffd` before serde reads the text; the text keeps its length, and so do
//! the places any later complaint names.

use std::borrow::Cow;

/// `text` with every lone surrogate escape replaced by `\ufffd`; borrowed when it has none.
pub(crate) fn mend(text: &[u8]) -> Cow<'_, [u8]> {
    let mut mended: Option<Vec<u8>> = None;
    let mut at = 0;
    while let Some(offset) = text[at..].iter().position(|&byte| byte == b'\\') {
        at += offset;
        let Some(unit) = escape(text, at) else {
            // `\\`, `\"` and the like: skip the escaped character with the backslash.
            at += 2;
            continue;
        };
        if !is_surrogate(unit) {
            at += 6;
            continue;
        }
        let paired = (0xD800..0xDC00).contains(&unit)
            && escape(text, at + 6).is_some_and(|low| (0xDC00..0xE000).contains(&low));
        if paired {
            at += 12;
            continue;
        }
        mended.get_or_insert_with(|| text.to_vec())[at..at + 6].copy_from_slice(br"\ufffd");
        at += 6;
    }
    mended.map_or(Cow::Borrowed(text), Cow::Owned)
}

/// The code unit of the `\uXXXX` escape at `at`, if there is one.
fn escape(text: &[u8], at: usize) -> Option<u16> {
    let hex = text.get(at..at + 6)?.strip_prefix(br"\u")?;
    u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
}

fn is_surrogate(unit: u16) -> bool {
    (0xD800..0xE000).contains(&unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_become_the_replacement_character_and_pairs_stay() {
        let cases = [
            (r#""sushi \ud83d""#, r#""sushi \ufffd""#),
            (r#""\ude00 x""#, r#""\ufffd x""#),
            (r#""\ud83d\ude00""#, r#""\ud83d\ude00""#),
            (r#""\ud83d\ud83d\ude00""#, r#""\ufffd\ud83d\ude00""#),
            (r#""\ud83d\u0041""#, r#""\ufffd\u0041""#),
            (r#""\\ud83d""#, r#""\\ud83d""#),
            (r#""\\\ud83d""#, r#""\\\ufffd""#),
            (r#""plain \u00e9 \n""#, r#""plain \u00e9 \n""#),
            (r#""\ud83"#, r#""\ud83"#),
        ];
        for (text, want) in cases {
            assert_eq!(mend(text.as_bytes()).as_ref(), want.as_bytes(), "{text}");
        }
        assert!(matches!(mend(br#""\ud83d\ude00""#), Cow::Borrowed(_)));
    }
}
