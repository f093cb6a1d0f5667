//! Text as a Windows editor writes it, read as its LF twin: CRLF line ends (a checkout with
//! `autocrlf`, a file saved in Notepad) and a byte-order mark at the start. A tool file or an
//! overrides file written either way answers exactly as the file it was made from, with the
//! same line numbers in every message.

use std::borrow::Cow;

/// The byte-order mark UTF-8 text may start with.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `text` without a leading byte-order mark and with every CRLF as LF; borrowed when it has
/// neither.
pub fn as_lf(text: &str) -> Cow<'_, str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains("\r\n") {
        Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

/// `bytes` without a leading byte-order mark: JSON reads CR as white space already, but not a
/// mark.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_and_a_mark_read_as_lf() {
        let cases = [
            ("a\nb\n", "a\nb\n"),
            ("a\r\nb\r\n", "a\nb\n"),
            ("\u{feff}a\r\nb", "a\nb"),
            ("\u{feff}a\n", "a\n"),
            ("a\rb\r\r\n", "a\rb\r\n"),
            ("a\u{feff}b", "a\u{feff}b"),
        ];
        for (text, want) in cases {
            assert_eq!(as_lf(text), want, "{text:?}");
        }
        assert_eq!(without_bom(b"\xEF\xBB\xBF{}"), b"{}");
        assert_eq!(without_bom(b"{}"), b"{}");
    }
}
