//! The pieces of a generated tool file: scenario sections, JSON fragments for places and
//! money, and the file itself (the hand-written head kept, the scenarios rewritten).

use super::world::{DUBAI_CENTRE, PLACES, Place, aed};
use std::path::Path;

use crate::Generated;
use crate::generated::{Generator, generated_file};

/// The rides generator, named in the note above the scenarios.
const GENERATOR: Generator = Generator {
    module: "rides",
    tables: "the tables of places, products, roads and captains",
};

/// The file at `relative` as it should be: its hand-written head, then `scenarios`.
pub fn file(
    repo: &Path,
    relative: &'static str,
    scenarios: &[String],
) -> anyhow::Result<Generated> {
    generated_file(repo, relative, &GENERATOR, scenarios.iter().cloned())
}

/// What a scenario's template block is.
#[derive(Clone, Copy)]
pub enum Block {
    Response,
    Error,
}

/// One `## Scenario:` section: a sentence saying when it applies, the match rule if any, and
/// the template.
pub fn scenario(
    name: &str,
    prose: &str,
    rule: Option<&str>,
    block: Block,
    template: &str,
) -> String {
    let mut text = format!("## Scenario: {name}\n\n{prose}\n\n");
    if let Some(rule) = rule {
        text.push_str(&format!("```json match\n{rule}\n```\n\n"));
    }
    let kind = match block {
        Block::Response => "response",
        Block::Error => "error",
    };
    text.push_str(&format!("```json {kind}\n{template}\n```\n"));
    text
}

/// A JSON string literal.
pub fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}

/// `{"amount": 12.50, "currency": "AED"}`.
pub fn money(fils: u32) -> String {
    format!("{{\"amount\": {}, \"currency\": \"AED\"}}", aed(fils))
}

/// A time placeholder `minutes` from now (negative: in the past).
pub fn at(minutes: i64) -> String {
    match minutes {
        0 => "{{now}}".to_string(),
        m if m > 0 => format!("{{{{now+{m}m}}}}"),
        m => format!("{{{{now-{}m}}}}", -m),
    }
}

/// The same, as Dubai wall-clock `HH:MM`.
pub fn hhmm(minutes: i64) -> String {
    match minutes {
        0 => "{{now|hhmm}}".to_string(),
        m if m > 0 => format!("{{{{now+{m}m|hhmm}}}}"),
        m => format!("{{{{now-{}m|hhmm}}}}", -m),
    }
}

/// The fields of a Careem location object for a place, as `(key, JSON)` pairs.
fn place_fields(place: &Place) -> Vec<(&'static str, String)> {
    vec![
        ("locationUuid", quoted(place.uuid)),
        ("title", quoted(place.title)),
        ("subtitle", quoted(place.subtitle)),
        ("formattedAddress", quoted(place.address)),
        ("latitude", place.latitude.to_string()),
        ("longitude", place.longitude.to_string()),
        ("city", quoted("Dubai")),
        ("countryCode", quoted("AE")),
        ("serviceable", "true".to_string()),
    ]
}

fn inline(fields: &[(&str, String)]) -> String {
    let parts: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// A place's location object on one line.
pub fn place_inline(place: usize) -> String {
    inline(&place_fields(&PLACES[place]))
}

/// A place's location object, one field a line, its lines indented by `indent` spaces.
pub fn place_block(place: usize, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let fields: Vec<String> = place_fields(&PLACES[place])
        .iter()
        .map(|(k, v)| format!("{pad}  \"{k}\": {v}"))
        .collect();
    format!("{{\n{}\n{pad}}}", fields.join(",\n"))
}

/// A pinned point that the call's arguments `<prefix>Latitude`/`<prefix>Longitude` give,
/// echoed as numbers, the way `reverse_geocode` describes a dropped pin.
pub fn pin_from_args(prefix: &str) -> String {
    let (lat, lng) = (
        format!("{{{{args.{prefix}Latitude}}}}"),
        format!("{{{{args.{prefix}Longitude}}}}"),
    );
    inline(&[
        ("title", quoted("Pinned location")),
        ("subtitle", quoted("Dubai, United Arab Emirates")),
        (
            "formattedAddress",
            format!("\"Pinned location ({lat}, {lng}), Dubai, United Arab Emirates\""),
        ),
        ("latitude", lat),
        ("longitude", lng),
        ("city", quoted("Dubai")),
        ("countryCode", quoted("AE")),
        ("serviceable", "true".to_string()),
    ])
}

/// A pinned point a later call cannot know the coordinates of: reported at city level.
pub fn pin_in_dubai() -> String {
    inline(&[
        ("title", quoted("Pinned location")),
        ("subtitle", quoted("Dubai, United Arab Emirates")),
        (
            "formattedAddress",
            quoted("Pinned location, Dubai, United Arab Emirates"),
        ),
        ("latitude", DUBAI_CENTRE.0.to_string()),
        ("longitude", DUBAI_CENTRE.1.to_string()),
        ("city", quoted("Dubai")),
        ("countryCode", quoted("AE")),
        ("serviceable", "true".to_string()),
    ])
}

/// A route end: one of the places, or a pin.
pub fn end_inline(place: Option<usize>, prefix: &str) -> String {
    place.map_or_else(|| pin_from_args(prefix), place_inline)
}

/// The match rule fragment for a point at a place: `"<prefix>Latitude": …, "<prefix>Longitude": …`.
pub fn point_rule(prefix: &str, place: usize) -> String {
    let p = &PLACES[place];
    format!(
        "\"{prefix}Latitude\": {}, \"{prefix}Longitude\": {}",
        p.latitude, p.longitude
    )
}

/// Route prose: "from Dubai Marina Walk to The Dubai Mall".
pub fn route_words(from: Option<usize>, to: Option<usize>) -> String {
    let name = |p: Option<usize>| p.map_or("a pinned point", |p| PLACES[p].title);
    format!("from {} to {}", name(from), name(to))
}

/// Route slug for scenario names: `marina-to-airport`, `pinned-to-airport`, `pinned-points`.
pub fn route_slug(from: Option<usize>, to: Option<usize>) -> String {
    match (from, to) {
        (Some(a), Some(b)) => format!("{}-to-{}", PLACES[a].key, PLACES[b].key),
        (None, Some(b)) => format!("pinned-to-{}", PLACES[b].key),
        (Some(a), None) => format!("{}-to-pinned", PLACES[a].key),
        (None, None) => "pinned-points".to_string(),
    }
}

/// What production answers a ride tool called without a `rideId` or with an empty one.
const ID_REQUIRED: &str = "{\"error\": \"rideId is required\"}";

/// The scenario for an empty `rideId` (`""`).
pub fn empty_ride_id() -> String {
    scenario(
        "empty-ride-id",
        "An empty `rideId` (\"\"): production answers that the id is required.",
        Some("{\"rideId\": \"=\"}"),
        Block::Response,
        ID_REQUIRED,
    )
}

/// The default scenario for a call without a `rideId` at all.
pub fn ride_id_required() -> String {
    scenario(
        "ride-id-required",
        "Default: no `rideId` argument at all; production answers that the id is required.",
        None,
        Block::Response,
        ID_REQUIRED,
    )
}

/// A scenario per place for a trip that starts and ends there: production refuses it with
/// `failed` ("failed to book ride"), and the prose says `outcome`.
pub fn same_place(outcome: &str, failed: &str) -> Vec<String> {
    PLACES
        .iter()
        .enumerate()
        .map(|(i, place)| {
            scenario(
                &format!("same-place-{}", place.key),
                &format!("Pickup and drop-off both at {}: {outcome}.", place.title),
                Some(&format!(
                    "{{{}, {}}}",
                    point_rule("pickup", i),
                    point_rule("dropoff", i)
                )),
                Block::Response,
                &format!("{{\"error\": \"{failed}: pickup and drop-off are the same place\"}}"),
            )
        })
        .collect()
}
