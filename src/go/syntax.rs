//! Why a body is not JSON, in the words of Go's JSON scanner (`invalid character 'x' looking
//! for beginning of object key string`, `unexpected EOF`), for the SDK's `malformed payload`
//! refusal. It runs only on bodies serde has already refused.

/// Go's decoder's complaint about the first JSON value in `text`.
pub(crate) fn complaint(text: &[u8]) -> String {
    let mut scanner = Scanner { text, at: 0 };
    match scanner.value(0) {
        Err(Stop::Eof) => "unexpected EOF".to_string(),
        Err(Stop::Bad(c, context)) => {
            format!("invalid character {} {context}", quote_char(c))
        }
        // Valid to Go but deeper than serde reads: too deep either way.
        Err(Stop::Deep) | Ok(()) => "exceeded max depth".to_string(),
    }
}

/// Go's own nesting limit.
const MAX_DEPTH: usize = 10_000;

enum Stop {
    Eof,
    Bad(char, String),
    Deep,
}

struct Scanner<'a> {
    text: &'a [u8],
    at: usize,
}

impl Scanner<'_> {
    fn skip_space(&mut self) {
        while self
            .text
            .get(self.at)
            .is_some_and(|byte| matches!(byte, b' ' | b'\t' | b'\r' | b'\n'))
        {
            self.at += 1;
        }
    }

    fn peek(&self) -> Result<u8, Stop> {
        self.text.get(self.at).copied().ok_or(Stop::Eof)
    }

    fn bad(&self, context: impl Into<String>) -> Stop {
        let c = String::from_utf8_lossy(&self.text[self.at..])
            .chars()
            .next()
            .unwrap_or(' ');
        Stop::Bad(c, context.into())
    }

    fn value(&mut self, depth: usize) -> Result<(), Stop> {
        if depth > MAX_DEPTH {
            return Err(Stop::Deep);
        }
        self.skip_space();
        match self.peek()? {
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => self.string(),
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'n' => self.literal("null"),
            _ => Err(self.bad("looking for beginning of value")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<(), Stop> {
        self.at += 1;
        self.skip_space();
        if self.peek()? == b'}' {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.skip_space();
            if self.peek()? != b'"' {
                return Err(self.bad("looking for beginning of object key string"));
            }
            self.string()?;
            self.skip_space();
            if self.peek()? != b':' {
                return Err(self.bad("after object key"));
            }
            self.at += 1;
            self.value(depth)?;
            self.skip_space();
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.bad("after object key:value pair")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<(), Stop> {
        self.at += 1;
        self.skip_space();
        if self.peek()? == b']' {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.value(depth)?;
            self.skip_space();
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.bad("after array element")),
            }
        }
    }

    fn string(&mut self) -> Result<(), Stop> {
        self.at += 1;
        loop {
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return Ok(());
                }
                b'\\' => {
                    self.at += 1;
                    match self.peek()? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.at += 1,
                        b'u' => {
                            self.at += 1;
                            for _ in 0..4 {
                                if !self.peek()?.is_ascii_hexdigit() {
                                    return Err(self.bad("in \\u hexadecimal character escape"));
                                }
                                self.at += 1;
                            }
                        }
                        _ => return Err(self.bad("in string escape code")),
                    }
                }
                byte if byte < 0x20 => return Err(self.bad("in string literal")),
                _ => self.at += 1,
            }
        }
    }

    fn number(&mut self) -> Result<(), Stop> {
        if self.peek()? == b'-' {
            self.at += 1;
            if !self.peek()?.is_ascii_digit() {
                return Err(self.bad("in numeric literal"));
            }
        }
        if self.peek()? == b'0' {
            self.at += 1;
        } else {
            self.digits();
        }
        if self.text.get(self.at) == Some(&b'.') {
            self.at += 1;
            if !self.peek()?.is_ascii_digit() {
                return Err(self.bad("after decimal point in numeric literal"));
            }
            self.digits();
        }
        if matches!(self.text.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.text.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if !self.peek()?.is_ascii_digit() {
                return Err(self.bad("in exponent of numeric literal"));
            }
            self.digits();
        }
        Ok(())
    }

    fn digits(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
    }

    fn literal(&mut self, word: &'static str) -> Result<(), Stop> {
        for expected in word.bytes() {
            if self.peek()? != expected {
                return Err(self.bad(format!(
                    "in literal {word} (expecting {})",
                    quote_char(char::from(expected))
                )));
            }
            self.at += 1;
        }
        Ok(())
    }
}

/// A character as Go's `quoteChar` shows it.
fn quote_char(c: char) -> String {
    match c {
        '\'' => r"'\''".to_string(),
        '"' => r#"'"'"#.to_string(),
        c if c.is_control() => {
            let quoted = super::fmt::quote(&c.to_string());
            format!("'{}'", &quoted[1..quoted.len() - 1])
        }
        c => format!("'{c}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complaints_are_worded_as_gos_scanner_words_them() {
        let cases = [
            (r#"{"jsonrpc":"2.0","id":1,"method":"#, "unexpected EOF"),
            (
                "{not json",
                "invalid character 'n' looking for beginning of object key string",
            ),
            (
                "nope",
                "invalid character 'o' in literal null (expecting 'u')",
            ),
            (
                "hello",
                "invalid character 'h' looking for beginning of value",
            ),
            (r#"{"a" 1}"#, "invalid character '1' after object key"),
            (
                r#"{"a":1 "b"}"#,
                r#"invalid character '"' after object key:value pair"#,
            ),
            ("[1 2]", "invalid character '2' after array element"),
            ("[-x]", "invalid character 'x' in numeric literal"),
            ("\"a\tb\"", r"invalid character '\t' in string literal"),
        ];
        for (text, want) in cases {
            assert_eq!(complaint(text.as_bytes()), want, "{text}");
        }
    }
}
