//! "Did you mean" for names typed by hand (a tool, a scenario): one measure of closeness and
//! one wording wherever a name can be mistyped.

/// The candidate closest to `typed`, if any is close enough to be what was meant.
pub fn closest<'a>(typed: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let typed = typed.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&typed, &c.to_lowercase()), c))
        .filter(|(score, _)| *score > 0.75)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// `; did you mean "name"?` to follow an "unknown …" message, or nothing when no name is close.
pub fn did_you_mean<'a>(typed: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(typed, candidates)
        .map(|c| format!("; did you mean {c:?}?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_near_name_is_offered_and_a_far_one_is_not() {
        let names = ["ride_book", "ride_get_status", "food_search"];
        let cases = [
            ("ride_bok", "; did you mean \"ride_book\"?"),
            ("RIDE_GET_STATUS", "; did you mean \"ride_get_status\"?"),
            ("weather", ""),
        ];
        for (typed, expected) in cases {
            assert_eq!(did_you_mean(typed, names), expected, "{typed}");
        }
    }
}
