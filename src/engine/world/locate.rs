//! The line on which a value of a JSON text starts, found by its JSON pointer
//! (`/restaurants/2/minimumOrder`), so that a data file's problem is named by its file, line and
//! field. A small scanner over text that already parsed: it follows the pointer and skips
//! everything else.

/// The 1-based line of the value at `pointer` in `text`; the line of the nearest enclosing
/// value that exists when the pointer goes further than the text.
pub fn line_of(text: &str, pointer: &str) -> usize {
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    for token in &tokens {
        match bytes.get(at) {
            Some(b'{') => match member(bytes, at, token) {
                Some(value) => at = value,
                None => break,
            },
            Some(b'[') => match token
                .parse::<usize>()
                .ok()
                .and_then(|i| element(bytes, at, i))
            {
                Some(value) => at = value,
                None => break,
            },
            _ => break,
        }
    }
    text[..at.min(text.len())].matches('\n').count() + 1
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The end of the string that starts at `at` (just past its closing quote).
fn string_end(bytes: &[u8], mut at: usize) -> usize {
    at += 1;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    at
}

/// The end of the value that starts at `at`.
fn value_end(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b'"') => string_end(bytes, at),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut i = at;
            while let Some(&byte) = bytes.get(i) {
                match byte {
                    b'"' => {
                        i = string_end(bytes, i);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            i
        }
        _ => {
            let mut i = at;
            while bytes
                .get(i)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
            {
                i += 1;
            }
            i
        }
    }
}

/// Where the value of member `key` of the object at `at` starts.
fn member(bytes: &[u8], at: usize, key: &str) -> Option<usize> {
    let mut i = skip_space(bytes, at + 1);
    while bytes.get(i) == Some(&b'"') {
        let end = string_end(bytes, i);
        let name: String = serde_json::from_slice(&bytes[i..end]).ok()?;
        let colon = skip_space(bytes, end);
        let value = skip_space(bytes, colon + 1);
        if name == key {
            return Some(value);
        }
        i = skip_space(bytes, value_end(bytes, value));
        if bytes.get(i) == Some(&b',') {
            i = skip_space(bytes, i + 1);
        }
    }
    None
}

/// Where element `index` of the array at `at` starts.
fn element(bytes: &[u8], at: usize, index: usize) -> Option<usize> {
    let mut i = skip_space(bytes, at + 1);
    for _ in 0..index {
        if matches!(bytes.get(i), None | Some(b']')) {
            return None;
        }
        i = skip_space(bytes, value_end(bytes, i));
        if bytes.get(i) != Some(&b',') {
            return None;
        }
        i = skip_space(bytes, i + 1);
    }
    (!matches!(bytes.get(i), None | Some(b']'))).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_find_their_lines() {
        let text = "{\n  \"a\": {\"x\": 1},\n  \"list\": [\n    {\"id\": 1, \"s\": \"q\\\"]\"},\n    {\"id\": 2,\n     \"price\": 3}\n  ],\n  \"a/b\": 5\n}\n";
        let cases = [
            ("", 1),
            ("/a", 2),
            ("/a/x", 2),
            ("/list", 3),
            ("/list/0", 4),
            ("/list/1", 5),
            ("/list/1/price", 6),
            ("/list/9", 3),
            ("/a~1b", 8),
            ("/missing", 1),
        ];
        for (pointer, line) in cases {
            assert_eq!(line_of(text, pointer), line, "{pointer}");
        }
    }
}
