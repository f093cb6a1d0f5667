//! The `---` block at the top of a tool file: flat `key: value` lines.

use std::collections::BTreeMap;

/// The frontmatter's keys and values, and the line after its closing `---` (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontmatter {
    pub fields: BTreeMap<String, String>,
    pub body_line: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrontmatterError {
    #[error("the file must start with a '---' frontmatter block")]
    Missing,
    #[error("the frontmatter block opened on line 1 is never closed with '---'")]
    Unclosed,
}

pub fn parse(lines: &[&str]) -> Result<Frontmatter, FrontmatterError> {
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return Err(FrontmatterError::Missing);
    }
    let mut fields = BTreeMap::new();
    for (index, line) in lines.iter().enumerate().skip(1) {
        if line.trim_end() == "---" {
            return Ok(Frontmatter {
                fields,
                body_line: index + 2,
            });
        }
        if let Some((key, value)) = line.split_once(':') {
            fields.insert(key.trim().to_string(), clean_value(value));
        }
    }
    Err(FrontmatterError::Unclosed)
}

/// A trailing ` # comment` goes first, then one pair of surrounding quotes.
fn clean_value(raw: &str) -> String {
    let without_comment = raw.find(" #").map_or(raw, |at| &raw[..at]);
    let value = without_comment.trim();
    for quote in ['"', '\''] {
        if value.len() >= 2 && value.starts_with(quote) && value.ends_with(quote) {
            return value[1..value.len() - 1].to_string();
        }
    }
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_cleaned() {
        let cases = [
            ("tool: reverse_geocode", "reverse_geocode"),
            ("tool: \"reverse_geocode\"", "reverse_geocode"),
            ("tool: 'reverse_geocode'", "reverse_geocode"),
            ("tool: reverse_geocode # the tool", "reverse_geocode"),
            (
                "tool: \"reverse_geocode\"   # quoted, then a comment",
                "reverse_geocode",
            ),
            ("tool:   spaced  ", "spaced"),
            ("tool: a#b", "a#b"),
        ];
        for (line, want) in cases {
            let parsed = parse(&["---", line, "---"]).unwrap();
            assert_eq!(parsed.fields["tool"], want, "{line}");
            assert_eq!(parsed.body_line, 4);
        }
    }

    #[test]
    fn missing_and_unclosed() {
        assert_eq!(parse(&["tool: x"]), Err(FrontmatterError::Missing));
        assert_eq!(parse(&[]), Err(FrontmatterError::Missing));
        assert_eq!(parse(&["---", "tool: x"]), Err(FrontmatterError::Unclosed));
    }
}
