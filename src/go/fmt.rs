//! How Go's `fmt` prints the JSON values that `encoding/json` decodes into `any`, so that
//! validation messages quote an agent's arguments exactly as production's Go service does.
//!
//! Go decodes every JSON number into a `float64`, a string into `string`, an array into
//! `[]any` and an object into `map[string]any`; `null` in an object is a nil `any`. The verbs
//! production's validator uses on them are `%v`, `%q`, `%f` and `big.Rat`'s `%s`.

use std::fmt::Write;

use serde_json::Value;

/// `%v` of the decoded value at the top of a `fmt` call. A `null` there reaches `fmt` as an
/// invalid `reflect.Value`, which Go prints as `<invalid reflect.Value>`.
pub fn v(value: &Value) -> String {
    match value {
        Value::Null => "<invalid reflect.Value>".to_string(),
        _ => v_nested(value),
    }
}

/// `%v` inside a slice or map: a nil `any` is `<nil>`, maps list their keys sorted.
fn v_nested(value: &Value) -> String {
    match value {
        Value::Null => "<nil>".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => float(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(v_nested).collect();
            format!("[{}]", items.join(" "))
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let entries: Vec<String> = keys
                .into_iter()
                .map(|key| format!("{key}:{}", v_nested(&map[key])))
                .collect();
            format!("map[{}]", entries.join(" "))
        }
    }
}

/// `%v` of a `float64`: `%g` with the shortest digits that round-trip, switching to an
/// exponent below 1e-4 and from 1e6 up (`1e+06`, `1.5e-05`).
pub fn float(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // Rust's `{:e}` gives the same shortest round-trip digits Go's strconv chooses.
    let scientific = format!("{:e}", x.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if x < 0.0 { "-" } else { "" };
    if !(-4..6).contains(&exponent) {
        let (first, rest) = digits.split_at(1);
        let fraction = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        return format!(
            "{sign}{first}{fraction}e{exponent_sign}{:02}",
            exponent.abs()
        );
    }
    let point = exponent + 1; // digits before the decimal point
    let plain = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if point as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        let (whole, fraction) = digits.split_at(point as usize);
        format!("{whole}.{fraction}")
    };
    format!("{sign}{plain}")
}

/// `%f` of a `float64`: six decimals.
pub fn fixed(x: f64) -> String {
    format!("{x:.6}")
}

/// `%s` of the `big.Rat` Go builds from a `float64` with `SetFloat64`: the exact binary
/// fraction in lowest terms, always as `a/b` (`0/1`, `-3/1`, `1/2`).
pub fn rational(x: f64) -> String {
    if x == 0.0 {
        return "0/1".to_string();
    }
    let bits = x.to_bits();
    let sign = if x < 0.0 { "-" } else { "" };
    let raw_exponent = i32::try_from((bits >> 52) & 0x7ff).unwrap_or(0);
    let fraction = bits & ((1 << 52) - 1);
    let (mut mantissa, mut exponent) = if raw_exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), raw_exponent - 1075)
    };
    while mantissa & 1 == 0 && exponent < 0 {
        mantissa >>= 1;
        exponent += 1;
    }
    if exponent >= 0 {
        format!("{sign}{}/1", shifted(mantissa, exponent.unsigned_abs()))
    } else {
        format!("{sign}{mantissa}/{}", shifted(1, exponent.unsigned_abs()))
    }
}

/// `m × 2^k` in decimal, for any `k` a `float64` can carry.
fn shifted(m: u64, k: u32) -> String {
    // Little-endian base-10^9 limbs.
    let mut limbs: Vec<u64> = vec![m % 1_000_000_000, m / 1_000_000_000 % 1_000_000_000];
    limbs.push(m / 1_000_000_000_000_000_000);
    for _ in 0..k {
        let mut carry = 0;
        for limb in &mut limbs {
            let doubled = *limb * 2 + carry;
            *limb = doubled % 1_000_000_000;
            carry = doubled / 1_000_000_000;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut text = limbs.last().copied().unwrap_or(0).to_string();
    for limb in limbs.iter().rev().skip(1) {
        let _ = write!(text, "{limb:09}");
    }
    text
}

/// `%q` of a string: Go's `strconv.Quote`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if printable(c) => out.push(c),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// `%q` of a `[]string`: each element quoted, space-separated, in brackets.
pub fn quote_all<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let quoted: Vec<String> = items.into_iter().map(quote).collect();
    format!("[{}]", quoted.join(" "))
}

/// Go's `unicode.IsPrint`, close enough for the text agents send: the ASCII space prints,
/// control characters, other spaces and invisible format characters do not.
fn printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    !(c.is_control()
        || c.is_whitespace()
        || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2060}'..='\u{2064}' | '\u{feff}'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_print_as_go_prints_decoded_json() {
        let cases = [
            (json!("30104"), "30104"),
            (json!(30104), "30104"),
            (json!(-2.5), "-2.5"),
            (json!(123_456), "123456"),
            (json!(1_234_567), "1.234567e+06"),
            (json!(1_000_000), "1e+06"),
            (json!(1e21), "1e+21"),
            (json!(0.0001), "0.0001"),
            (json!(0.00001), "1e-05"),
            (json!(25.204_8), "25.2048"),
            (json!(0), "0"),
            (json!(u64::MAX), "1.8446744073709552e+19"),
            (json!(true), "true"),
            (json!(null), "<invalid reflect.Value>"),
            (json!([1, "a", null, [2]]), "[1 a <nil> [2]]"),
            (
                json!({"b": 1, "a": "x y", "c": null}),
                "map[a:x y b:1 c:<nil>]",
            ),
            (json!({}), "map[]"),
            (json!([]), "[]"),
        ];
        for (value, want) in cases {
            assert_eq!(v(&value), want, "{value}");
        }
    }

    #[test]
    fn rationals_are_exact_binary_fractions() {
        let cases = [
            (0.0, "0/1"),
            (1.0, "1/1"),
            (-3.0, "-3/1"),
            (0.5, "1/2"),
            (2.5, "5/2"),
            (0.1, "3602879701896397/36028797018963968"),
            (1e20, "100000000000000000000/1"),
        ];
        for (x, want) in cases {
            assert_eq!(rational(x), want, "{x}");
        }
    }

    #[test]
    fn quoting_follows_strconv_quote() {
        let cases = [
            ("tomorrow 8pm", r#""tomorrow 8pm""#),
            ("say \"hi\"\n", r#""say \"hi\"\n""#),
            ("back\\slash\ttab", r#""back\\slash\ttab""#),
            ("\u{1}", r#""\x01""#),
            ("\u{a0}", r#""\u00a0""#),
            ("شاورما", "\"شاورما\""),
        ];
        for (s, want) in cases {
            assert_eq!(quote(s), want, "{s:?}");
        }
        assert_eq!(quote_all(["lang", "x"]), r#"["lang" "x"]"#);
        assert_eq!(fixed(1.0), "1.000000");
    }
}
