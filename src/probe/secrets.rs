//! Credentials kept out of every message: the values of the headers sent upstream and the
//! password of the upstream's URL are masked wherever they would be shown (an error, a log
//! line, the `record` banner, an upstream's refusal that echoes them back) or kept (a recorded
//! scenario, the journal).

use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::Value;

/// What a masked credential becomes.
const MASK: &str = "***";
/// A word of a header's value shorter than this is not masked on its own: masking it would
/// blank ordinary words of a message.
const SHORTEST: usize = 4;

/// The texts to mask.
#[derive(Debug, Clone, Default)]
pub struct Secrets(Vec<String>);

impl Secrets {
    /// The credentials of `headers` (each value, and each word of it after the scheme: the
    /// token of `Bearer TOKEN`) and of `url` (its password, as written and decoded, and the `Basic`
    /// credential the HTTP client makes of it).
    pub fn of(url: &str, headers: &HeaderMap) -> Self {
        let mut secrets = Vec::new();
        for value in headers.values() {
            let text = String::from_utf8_lossy(value.as_bytes()).into_owned();
            // The first of several words is the scheme (`Bearer`, `Basic`), not the secret.
            let words: Vec<&str> = text.split_whitespace().collect();
            secrets.extend(
                words
                    .iter()
                    .skip(usize::from(words.len() > 1))
                    .filter(|word| word.len() >= SHORTEST)
                    .map(ToString::to_string),
            );
            secrets.push(text);
        }
        if let Ok(parsed) = reqwest::Url::parse(url)
            && let Some(password) = parsed.password()
        {
            let user = parsed.username();
            for (user, password) in [
                (user.to_string(), password.to_string()),
                (percent_decoded(user), percent_decoded(password)),
            ] {
                secrets.push(base64(format!("{user}:{password}").as_bytes()));
                secrets.push(password);
            }
        }
        secrets.retain(|secret| !secret.trim().is_empty());
        // Longest first, so that a value is masked whole before its words are.
        secrets.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
        secrets.dedup();
        Self(secrets)
    }

    /// `text` with every credential replaced by `***` where it stands as a value (see
    /// [`mask_standing`]).
    pub fn mask(&self, text: &str) -> String {
        self.0.iter().fold(text.to_string(), |text, secret| {
            mask_standing(&text, secret)
        })
    }

    /// `value` with every credential in its strings (keys too) replaced by `***`.
    pub fn mask_value(&self, value: Value) -> Value {
        match value {
            Value::String(text) => Value::String(self.mask(&text)),
            Value::Array(items) => {
                Value::Array(items.into_iter().map(|v| self.mask_value(v)).collect())
            }
            Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(key, v)| (self.mask(&key), self.mask_value(v)))
                    .collect(),
            ),
            other => other,
        }
    }
}

/// `text` with `secret` replaced by `***` wherever it stands as a value, not inside a longer
/// word: an edge of the secret that is a letter or a digit must meet a character that is
/// neither, or the text's end. So a header value `1` is masked in `got 1` and `"1"`, but leaves
/// `HTTP 401` as it is.
fn mask_standing(text: &str, secret: &str) -> String {
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let (first, last) = (secret.chars().next(), secret.chars().next_back());
    let mut out = String::with_capacity(text.len());
    let mut kept = 0;
    for (at, _) in text.match_indices(secret) {
        let end = at + secret.len();
        let joined_before = word(first) && word(text[..at].chars().next_back());
        let joined_after = word(last) && word(text[end..].chars().next());
        if !joined_before && !joined_after {
            out.push_str(&text[kept..at]);
            out.push_str(MASK);
            kept = end;
        }
    }
    out.push_str(&text[kept..]);
    out
}

/// `url` without its user and password, and the `Basic` credential they make, for a client
/// that then never holds them in a URL (which an HTTP library's errors and logs would show);
/// `None` when the URL has neither.
pub fn userinfo_as_header(url: &str) -> Option<(String, HeaderValue)> {
    let mut parsed = reqwest::Url::parse(url).ok()?;
    if parsed.username().is_empty() && parsed.password().is_none() {
        return None;
    }
    let user = percent_decoded(parsed.username());
    let password = parsed.password().map(percent_decoded).unwrap_or_default();
    let mut value = HeaderValue::from_str(&format!(
        "Basic {}",
        base64(format!("{user}:{password}").as_bytes())
    ))
    .ok()?;
    value.set_sensitive(true);
    parsed.set_username("").ok()?;
    parsed.set_password(None).ok()?;
    Some((parsed.to_string(), value))
}

/// `url` with its password (if any) shown as `***`, for a banner or a message.
pub fn without_password(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some(MASK));
            parsed.to_string()
        }
        _ => url.to_string(),
    }
}

/// Standard base64 with padding, as a `Basic` credential is written.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for group in bytes.chunks(3) {
        let bits = group.iter().enumerate().fold(0u32, |bits, (i, &byte)| {
            bits | u32::from(byte) << (16 - 8 * i)
        });
        for index in 0..4 {
            if index <= group.len() {
                out.push(char::from(
                    ALPHABET[(bits >> (18 - 6 * index) & 63) as usize],
                ));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let hex = bytes
            .get(index + 1..index + 3)
            .and_then(|pair| std::str::from_utf8(pair).ok())
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match (bytes[index], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                index += 3;
            }
            (byte, _) => {
                out.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use reqwest::header::AUTHORIZATION;

    use super::*;

    #[test]
    fn header_values_their_tokens_and_url_passwords_are_masked() {
        let mut headers = HeaderMap::new();
        headers.insert(AUTHORIZATION, HeaderValue::from_static("Bearer tok-7f3a9c"));
        let secrets = Secrets::of("http://user:p%40ss@host/mcp", &headers);
        let cases = [
            ("got Bearer tok-7f3a9c back", "got *** back"),
            ("token tok-7f3a9c", "token ***"),
            ("http://user:p%40ss@host/mcp", "http://user:***@host/mcp"),
            ("password p@ss", "password ***"),
            ("Basic dXNlcjpwQHNz", "Basic ***"),
            ("Bearer alone", "Bearer alone"),
            ("tok-7f3a9c1 and xtok-7f3a9c", "tok-7f3a9c1 and xtok-7f3a9c"),
            ("\"tok-7f3a9c\"", "\"***\""),
        ];
        for (text, want) in cases {
            assert_eq!(secrets.mask(text), want, "{text}");
        }
    }

    #[test]
    fn a_value_is_masked_only_where_it_stands_alone() {
        let mut headers = HeaderMap::new();
        headers.insert("x-trace", HeaderValue::from_static("1"));
        let secrets = Secrets::of("http://host/mcp", &headers);
        let cases = [
            (
                "HTTP 401 Unauthorized: got 1",
                "HTTP 401 Unauthorized: got ***",
            ),
            ("{\"trace\":\"1\",\"n\":10}", "{\"trace\":\"***\",\"n\":10}"),
            ("1", "***"),
            ("v1.2", "v1.2"),
        ];
        for (text, want) in cases {
            assert_eq!(secrets.mask(text), want, "{text}");
        }
    }

    #[test]
    fn base64_is_the_standard_one() {
        let cases = [
            ("", ""),
            ("u", "dQ=="),
            ("u:", "dTo="),
            ("u:pw", "dTpwdw=="),
        ];
        for (text, want) in cases {
            assert_eq!(base64(text.as_bytes()), want, "{text}");
        }
    }

    #[test]
    fn a_urls_user_and_password_become_a_basic_header() {
        let (url, value) = userinfo_as_header("http://user:p%40ss@host:1/mcp").unwrap();
        assert_eq!(url, "http://host:1/mcp");
        assert_eq!(value, "Basic dXNlcjpwQHNz");
        assert!(userinfo_as_header("http://host/mcp").is_none());
    }

    #[test]
    fn a_url_is_shown_without_its_password() {
        let cases = [
            ("http://user:pw@host:1/mcp", "http://user:***@host:1/mcp"),
            ("http://host/mcp", "http://host/mcp"),
            ("not a url", "not a url"),
        ];
        for (url, want) in cases {
            assert_eq!(without_password(url), want, "{url}");
        }
    }
}
