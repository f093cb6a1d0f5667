//! How the CLI writes a duration, in every output: the largest units first, `1h30m`, `45s`,
//! `2d3h`, `-10m`, the way `clock advance` reads one.

/// Seconds as `1h30m`, `45s`, `2d3h`; `0s` for none.
pub fn words(seconds: i64) -> String {
    let sign = if seconds < 0 { "-" } else { "" };
    let mut rest = seconds.unsigned_abs();
    let mut text = String::new();
    for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] {
        if rest >= size {
            text.push_str(&format!("{}{unit}", rest / size));
            rest %= size;
        }
    }
    if text.is_empty() {
        text.push_str("0s");
    }
    format!("{sign}{text}")
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn largest_units_first() {
        let cases = [
            (0, "0s"),
            (45, "45s"),
            (5_400, "1h30m"),
            (86_400, "1d"),
            (93_784, "1d2h3m4s"),
            (-600, "-10m"),
            (i64::MIN, "-106751991167300d15h30m8s"),
        ];
        for (seconds, want) in cases {
            assert_eq!(words(seconds), want, "{seconds}");
        }
    }
}
