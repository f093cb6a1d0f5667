//! The area Careem serves in the world, and the match rules that tell a point outside it.
//!
//! The served area is a box around Dubai in whole degrees (latitude 24.x–25.x, longitude
//! 54.x–55.x) less the open Gulf inside it. The matcher compares nothing: it only finds text
//! (`"~…"`) in a number's compact JSON (`25.0866`) or equals it (`"=…"`), so a coordinate is
//! outside the box when its text holds a piece that no coordinate inside can hold: a `-`, or
//! whole degrees ending in digits no served degree ends in, followed by the decimal point. The
//! sea is a list of cells, each a latitude and a longitude prefix. Every tool that takes a
//! point has one scenario per rule, so that the geocoder, food and rides agree on what is
//! served.

/// The box in words, for a scenario's prose and the docs.
pub const BOX_WORDS: &str = "latitude 24 to 26 and longitude 54 to 56 around Dubai";

/// One axis of a coordinate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Axis {
    Latitude,
    Longitude,
}

impl Axis {
    /// The whole degrees of the served box along this axis.
    pub fn served(self) -> [u32; 2] {
        match self {
            Self::Latitude => [24, 25],
            Self::Longitude => [54, 55],
        }
    }

    /// The largest whole degree a coordinate on this axis can have.
    fn limit(self) -> u32 {
        match self {
            Self::Latitude => 90,
            Self::Longitude => 180,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Self::Latitude => "latitude",
            Self::Longitude => "longitude",
        }
    }
}

/// The `"~…"` and `"=…"` patterns that only a coordinate outside the box matches along `axis`:
/// a negative one, whole degrees whose shortest distinguishing ending is not that of a served
/// degree (`"~3."` for 3, 13, 23, …; `"~14."` for 14 and 114; `"~154."`), and a whole-number 0.
/// Whole degrees whose every ending is one of a served degree's (4 and 5 beside 24 and 25) have
/// no pattern, nor have other whole numbers: the text has no decimal point to anchor on.
pub fn outside_patterns(axis: Axis) -> Vec<String> {
    let served: Vec<String> = axis.served().iter().map(u32::to_string).collect();
    let mut patterns = vec!["~-".to_string()];
    for degree in 0..=axis.limit() {
        let digits = degree.to_string();
        if served.contains(&digits) {
            continue;
        }
        let ending = (1..=digits.len())
            .map(|n| &digits[digits.len() - n..])
            .find(|ending| !served.iter().any(|s| s.ends_with(ending)));
        if let Some(ending) = ending {
            let pattern = format!("~{ending}.");
            if !patterns.contains(&pattern) {
                patterns.push(pattern);
            }
        }
    }
    patterns.sort_by_key(String::len);
    patterns.push("=0".to_string());
    patterns
}

/// The open Gulf inside the box: cells of a tenth of a degree of latitude by a longitude
/// prefix (`"54."` is the whole degree, `"55.0"` a tenth), north-west of the coast from Jebel
/// Ali to Sharjah, clear of every island (Sir Bu Nu'ayr at 25.2, 54.2; The World at 25.2,
/// 55.1–55.2; Abu Musa and Sirri north of 25.8) and of every place of the world.
pub fn sea_cells() -> Vec<(String, String)> {
    let mut cells = Vec::new();
    for tenth in 3..=7 {
        for longitude in ["54.", "55.0", "55.1"] {
            cells.push((format!("25.{tenth}"), longitude.to_string()));
        }
    }
    for longitude in ["54.5", "54.6", "54.7", "54.8", "54.9", "55.0"] {
        cells.push(("25.2".to_string(), longitude.to_string()));
    }
    cells
}

/// A point a tool takes: its two arguments and how a scenario names it.
#[derive(Clone, Copy)]
pub enum Point {
    /// `latitude` and `longitude`: the geocoder's and the food tools' point.
    Location,
    Pickup,
    Dropoff,
}

impl Point {
    /// The point's latitude and longitude argument names.
    pub fn keys(self) -> (&'static str, &'static str) {
        match self {
            Self::Location => ("latitude", "longitude"),
            Self::Pickup => ("pickupLatitude", "pickupLongitude"),
            Self::Dropoff => ("dropoffLatitude", "dropoffLongitude"),
        }
    }

    fn key(self, axis: Axis) -> &'static str {
        let (latitude, longitude) = self.keys();
        match axis {
            Axis::Latitude => latitude,
            Axis::Longitude => longitude,
        }
    }

    /// The prefix of a scenario name and of the words: `pickup-`, `drop-off `.
    fn prefix(self, words: bool) -> &'static str {
        match (self, words) {
            (Self::Location, _) => "",
            (Self::Pickup, false) => "pickup-",
            (Self::Pickup, true) => "pickup ",
            (Self::Dropoff, false) => "dropoff-",
            (Self::Dropoff, true) => "drop-off ",
        }
    }
}

/// Whether a rule tells a point outside the box or one at sea.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Edge {
    Outside,
    Sea,
}

/// One match rule for a point Careem does not serve.
pub struct Rule {
    pub edge: Edge,
    /// The scenario's name: `pickup-outside-latitude-ending-3`, `at-sea-25.3-54`.
    pub name: String,
    /// When it applies, for the prose: "A pickup latitude whose whole degrees end in 3".
    pub words: String,
    /// The match object's members: argument name and pattern.
    pub members: Vec<(&'static str, String)>,
}

impl Rule {
    /// The match object on one line: `{"pickupLatitude": "~3."}`.
    pub fn json(&self) -> String {
        let members: Vec<String> = self
            .members
            .iter()
            .map(|(key, pattern)| format!("\"{key}\": \"{pattern}\""))
            .collect();
        format!("{{{}}}", members.join(", "))
    }
}

/// Every rule for `point`: outside the box along either axis, then the cells of sea.
pub fn unserved(point: Point) -> Vec<Rule> {
    let mut rules = Vec::new();
    for axis in [Axis::Latitude, Axis::Longitude] {
        for pattern in outside_patterns(axis) {
            let (what, words) = describe(&pattern);
            rules.push(Rule {
                edge: Edge::Outside,
                name: format!("{}outside-{}-{what}", point.prefix(false), axis.word()),
                words: words.replace("{}", &format!("{}{}", point.prefix(true), axis.word())),
                members: vec![(point.key(axis), pattern)],
            });
        }
    }
    for (latitude, longitude) in sea_cells() {
        let whole = longitude.trim_end_matches('.');
        let (lat_key, lng_key) = point.keys();
        rules.push(Rule {
            edge: Edge::Sea,
            name: format!("{}at-sea-{latitude}-{whole}", point.prefix(false)),
            words: format!(
                "A {}point in the open Gulf (latitude {latitude}x, longitude {longitude}x)",
                point.prefix(true),
            ),
            members: vec![
                (lat_key, format!("~{latitude}")),
                (lng_key, format!("~{longitude}")),
            ],
        });
    }
    rules
}

/// A pattern's part of a scenario name, and its words with `{}` for the coordinate's name.
fn describe(pattern: &str) -> (String, String) {
    match pattern {
        "~-" => ("negative".into(), "A negative {}".into()),
        "=0" => ("zero".into(), "A {} of exactly 0".into()),
        _ => {
            let ending = pattern.trim_start_matches('~').trim_end_matches('.');
            (
                format!("ending-{ending}"),
                format!("A {{}} whose whole degrees end in {ending}"),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rides::world::{DUBAI_CENTRE, PLACES};

    /// A coordinate's text as the matcher sees it: the compact JSON of the number.
    fn text(value: f64) -> String {
        serde_json::to_string(&value).expect("a number")
    }

    fn matches(pattern: &str, value: f64) -> bool {
        let got = text(value);
        match pattern.split_at(1) {
            ("~", piece) => got.contains(piece),
            ("=", whole) => got == whole,
            _ => unreachable!("a rule's pattern starts with ~ or ="),
        }
    }

    fn caught(axis: Axis, value: f64) -> bool {
        outside_patterns(axis).iter().any(|p| matches(p, value))
    }

    fn at_sea(latitude: f64, longitude: f64) -> bool {
        sea_cells()
            .iter()
            .any(|(lat, lng)| text(latitude).contains(lat) && text(longitude).contains(lng))
    }

    #[test]
    fn no_pattern_matches_a_coordinate_inside_the_box() {
        for axis in [Axis::Latitude, Axis::Longitude] {
            for degree in axis.served() {
                for step in 0..10_000 {
                    let value = f64::from(degree) + f64::from(step) / 10_000.0;
                    assert!(!caught(axis, value), "{axis:?} {value} is caught");
                }
            }
        }
    }

    #[test]
    fn every_whole_degree_outside_but_the_lookalikes_is_caught() {
        // 4.x and 5.x read as the end of 24.x and 25.x, or of 54.x and 55.x.
        let lookalikes = [4, 5];
        for axis in [Axis::Latitude, Axis::Longitude] {
            for degree in 0..=axis.limit() {
                let inside = axis.served().contains(&degree) || lookalikes.contains(&degree);
                for value in [f64::from(degree) + 0.5, -f64::from(degree) - 0.25] {
                    let want = !inside || value < 0.0;
                    assert_eq!(caught(axis, value), want, "{axis:?} {value}");
                }
            }
            assert!(caught(axis, 0.0), "{axis:?} 0.0");
            assert!(outside_patterns(axis).contains(&"=0".to_string()));
        }
    }

    #[test]
    fn places_abroad_are_caught_and_the_worlds_points_are_served_on_land() {
        let abroad = [
            ("London", 51.5074, -0.1278),
            ("Riyadh", 24.7136, 46.6753),
            ("Doha", 25.2854, 51.531),
            ("Muscat", 23.588, 58.3829),
            ("Mumbai", 19.076, 72.8777),
            ("Tokyo", 35.6762, 139.6503),
            ("Null Island", 0.0, 0.0),
        ];
        for (name, lat, lng) in abroad {
            assert!(
                caught(Axis::Latitude, lat) || caught(Axis::Longitude, lng),
                "{name} is served"
            );
        }
        let pins = [DUBAI_CENTRE, (25.0712, 55.1388)];
        let places = PLACES.iter().map(|p| (p.latitude, p.longitude));
        for (lat, lng) in places.chain(pins) {
            assert!(!caught(Axis::Latitude, lat), "{lat}");
            assert!(!caught(Axis::Longitude, lng), "{lng}");
            assert!(!at_sea(lat, lng), "{lat}, {lng} is at sea");
        }
    }

    #[test]
    fn the_gulf_is_sea_and_the_coast_is_not() {
        for (lat, lng) in [(25.5, 54.5), (25.35, 55.05), (25.25, 54.95), (25.7, 55.19)] {
            assert!(at_sea(lat, lng), "{lat}, {lng} is land");
        }
        let coast = [
            ("Palm Jumeirah", 25.1124, 55.139),
            ("The World", 25.2215, 55.1685),
            ("Sir Bu Nu'ayr", 25.23, 54.22),
            ("Deira Islands", 25.3, 55.3),
            ("Jebel Ali", 25.0, 55.05),
            ("Abu Dhabi", 24.4539, 54.3773),
        ];
        for (name, lat, lng) in coast {
            assert!(!at_sea(lat, lng), "{name} is at sea");
        }
    }

    #[test]
    fn every_rule_of_a_point_has_its_own_name() {
        for point in [Point::Location, Point::Pickup, Point::Dropoff] {
            let rules = unserved(point);
            let mut names: Vec<&str> = rules.iter().map(|r| r.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), rules.len());
        }
    }
}
