//! A run's name: the last segment of `/mcp/<run>`, the `--run` of the command line, and the
//! name of the run's folder. Checked before anything touches the disk, so that no name can
//! leave `<project>/.run/runs/` or stand for another run.

use std::fmt;
use std::str::FromStr;

/// The longest name a run can have.
pub const MAX_LEN: usize = 64;

/// 1 to 64 characters of `[a-z0-9_-]`: no separator, no dot, no escape, no upper case (two
/// names that differ only in case would be one folder on some file systems).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct RunName(String);

/// Why a text is not a run name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunNameError {
    #[error("a run name cannot be empty")]
    Empty,
    #[error("a run name has at most {MAX_LEN} characters, not {0}")]
    TooLong(usize),
    #[error("a run name is lower-case letters, digits, `-` and `_`; {0:?} is not one of them")]
    Character(char),
}

impl RunName {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for RunName {
    type Err = RunNameError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let length = text.chars().count();
        if length == 0 {
            return Err(RunNameError::Empty);
        }
        if length > MAX_LEN {
            return Err(RunNameError::TooLong(length));
        }
        match text
            .chars()
            .find(|c| !matches!(c, 'a'..='z' | '0'..='9' | '-' | '_'))
        {
            Some(c) => Err(RunNameError::Character(c)),
            None => Ok(Self(text.to_string())),
        }
    }
}

impl TryFrom<&str> for RunName {
    type Error = RunNameError;

    fn try_from(text: &str) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl AsRef<str> for RunName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RunName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_before_they_reach_a_path() {
        let long = "a".repeat(MAX_LEN);
        let too_long = "a".repeat(MAX_LEN + 1);
        let cases: [(&str, Result<(), RunNameError>); 16] = [
            ("a", Ok(())),
            ("ci-4711_retry", Ok(())),
            ("0", Ok(())),
            ("-", Ok(())),
            (&long, Ok(())),
            ("", Err(RunNameError::Empty)),
            (&too_long, Err(RunNameError::TooLong(MAX_LEN + 1))),
            ("..", Err(RunNameError::Character('.'))),
            ("a/b", Err(RunNameError::Character('/'))),
            ("..%2f", Err(RunNameError::Character('.'))),
            ("%2e%2e", Err(RunNameError::Character('%'))),
            ("A", Err(RunNameError::Character('A'))),
            ("run-B", Err(RunNameError::Character('B'))),
            ("a b", Err(RunNameError::Character(' '))),
            ("a\\b", Err(RunNameError::Character('\\'))),
            ("é", Err(RunNameError::Character('é'))),
        ];
        for (text, want) in cases {
            let got = RunName::try_from(text).map(|name| assert_eq!(name.as_str(), text));
            assert_eq!(got, want, "{text:?}");
        }
    }
}
