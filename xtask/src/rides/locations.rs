//! The location tools: `search_locations` (what people type for each place, several places
//! nearest first with `limit` and the bias honoured), `reverse_geocode` and
//! `get_saved_locations`, all describing a place with the same fields.

use super::markdown::{Block, place_block, place_inline, quoted, scenario};
use super::world::{HOME, PLACES, SAVED, SEARCH_GROUPS, metres_between, saved_as};
use crate::area::{self, BOX_WORDS, Edge, Point};

pub const SEARCH: &str = "tools/location/search_locations.md";
pub const GEOCODE: &str = "tools/location/reverse_geocode.md";
pub const SAVED_PATH: &str = "tools/location/get_saved_locations.md";

const UPSTREAM_SEARCH: &str =
    "{\"error\": \"failed to search locations: unexpected response status 503\"}";

pub fn search_scenarios() -> Vec<String> {
    let mut out = Vec::new();
    for (i, place) in PLACES.iter().enumerate() {
        for (suffix, pattern) in place.aliases {
            let name = if suffix.is_empty() {
                place.search_scenario.to_string()
            } else {
                format!("{}-as-{suffix}", place.search_scenario)
            };
            out.push(scenario(
                &name,
                &format!(
                    "A query {}: {} (`{}`){}.",
                    describe(pattern),
                    place.title,
                    place.uuid,
                    saved_as(i)
                ),
                Some(&format!("{{\"query\": {}}}", quoted(pattern))),
                Block::Response,
                &found(&[i]),
            ));
        }
    }
    for (group, pattern, members) in SEARCH_GROUPS {
        let biases = (0..PLACES.len()).map(Some).chain([None]);
        for bias in biases {
            let reference = bias.unwrap_or(HOME);
            let mut ranked = members.to_vec();
            ranked.sort_by(|&a, &b| {
                let d = |p: usize| {
                    metres_between(
                        (PLACES[reference].latitude, PLACES[reference].longitude),
                        (PLACES[p].latitude, PLACES[p].longitude),
                    )
                };
                d(a).total_cmp(&d(b))
            });
            let near = bias.map_or(String::new(), |b| format!("-near-{}", PLACES[b].key));
            let bias_rule = bias.map_or(String::new(), |b| {
                format!(
                    ", \"latitude\": {}, \"longitude\": {}",
                    PLACES[b].latitude, PLACES[b].longitude
                )
            });
            let whom = bias.map_or_else(
                || "without a bias: nearest the user's Home first".to_string(),
                |b| format!("biased to {}: nearest it first", PLACES[b].title),
            );
            let limits = (1..ranked.len()).map(Some).chain([None]);
            for limit in limits {
                let shown = limit.unwrap_or(ranked.len());
                let (name, rule, words) = match limit {
                    Some(k) => (
                        format!("{group}{near}-limit-{k}"),
                        format!(", \"limit\": {k}"),
                        format!(", cut to `limit` {k}"),
                    ),
                    None => (format!("{group}{near}"), String::new(), String::new()),
                };
                out.push(scenario(
                    &name,
                    &format!("A query {}, {whom}{words}.", describe(pattern)),
                    Some(&format!(
                        "{{\"query\": {}{bias_rule}{rule}}}",
                        quoted(pattern)
                    )),
                    Block::Response,
                    &found(&ranked[..shown]),
                ));
            }
        }
    }
    out.push(scenario(
        "no-results",
        "Default: any other query finds nothing.",
        None,
        Block::Response,
        "{\n  \"query\": \"{{args.query}}\",\n  \"locations\": []\n}",
    ));
    out.push(scenario(
        "upstream-unavailable",
        "Forced only. Careem's location service is down.",
        None,
        Block::Response,
        UPSTREAM_SEARCH,
    ));
    out
}

/// "containing \"dxb\"" or "that is exactly \"DIC\"", for prose.
fn describe(pattern: &str) -> String {
    match pattern.split_at(1) {
        ("~", text) => format!("containing {}", quoted(text)),
        ("=", text) => format!("that is exactly {}", quoted(text)),
        _ => format!("matching {}", quoted(pattern)),
    }
}

fn found(places: &[usize]) -> String {
    let rows: Vec<String> = places
        .iter()
        .map(|&p| format!("    {}", place_inline(p)))
        .collect();
    [
        "{".to_string(),
        "  \"query\": \"{{args.query}}\",".to_string(),
        "  \"locations\": [".to_string(),
        rows.join(",\n"),
        "  ],".to_string(),
        "  \"cachedUntil\": \"{{now+1h30m}}\"".to_string(),
        "}".to_string(),
    ]
    .join("\n")
}

/// A point outside the area Careem serves: pinned where it is, with no address Careem knows and
/// no city (production's geocoder places only the cities Careem serves), its uuid starting
/// [`area::UNSERVED_PIN_PREFIX`].
const UNSERVED_PIN: &str = "{\n  \"location\": {\n    \"locationUuid\": \"LOC-PIN-0{{rand:1000-9999}}\",\n    \"title\": \"Pinned location\",\n    \"subtitle\": \"Outside Careem's service area\",\n    \"formattedAddress\": \"Pinned location ({{args.latitude}}, {{args.longitude}})\",\n    \"latitude\": {{args.latitude}},\n    \"longitude\": {{args.longitude}},\n    \"city\": \"\",\n    \"countryCode\": \"\",\n    \"serviceable\": false\n  }\n}";

/// The geocoder's answer for a point with no address (open sea, desert).
const NO_ADDRESS: &str =
    "{\"error\": \"no address found for coordinates {{args.latitude}},{{args.longitude}}\"}";

pub fn geocode_scenarios() -> Vec<String> {
    let mut out: Vec<String> = PLACES
        .iter()
        .enumerate()
        .map(|(i, place)| {
            scenario(
                place.geocode_scenario,
                &format!(
                    "Coordinates of {}{}, `{}`.",
                    place.title,
                    saved_as(i),
                    place.uuid
                ),
                Some(&format!(
                    "{{\"latitude\": {}, \"longitude\": {}}}",
                    place.latitude, place.longitude
                )),
                Block::Response,
                &format!("{{\n  \"location\": {}\n}}", place_block(i, 2)),
            )
        })
        .collect();
    out.push(scenario(
        "invalid-coordinates",
        "A latitude of 91 (outside -90..90): production rejects it itself, as a business error.",
        Some("{\"latitude\": 91}"),
        Block::Response,
        "{\"error\": \"invalid coordinates: latitude must be between -90 and 90\"}",
    ));
    for rule in area::unserved(Point::Location) {
        let (prose, template) = match rule.edge {
            Edge::Outside => (
                format!(
                    "{}: outside the area Careem serves ({BOX_WORDS}), a pinned location that \
                     echoes the coordinates, with no city and `serviceable` false.",
                    rule.words
                ),
                UNSERVED_PIN,
            ),
            Edge::Sea => (
                format!(
                    "{}: open sea, where the geocoder finds no address.",
                    rule.words
                ),
                NO_ADDRESS,
            ),
        };
        out.push(scenario(
            &rule.name,
            &prose,
            Some(&rule.json()),
            Block::Response,
            template,
        ));
    }
    out.push(scenario(
        "dropped-pin",
        "Default: any other coordinates resolve to a new pinned location that echoes them.",
        None,
        Block::Response,
        "{\n  \"location\": {\n    \"locationUuid\": \"LOC-PIN-{{rand:10000-99999}}\",\n    \"title\": \"Pinned location\",\n    \"subtitle\": \"Dubai, United Arab Emirates\",\n    \"formattedAddress\": \"Pinned location ({{args.latitude}}, {{args.longitude}}), Dubai, United Arab Emirates\",\n    \"latitude\": {{args.latitude}},\n    \"longitude\": {{args.longitude}},\n    \"city\": \"Dubai\",\n    \"countryCode\": \"AE\",\n    \"serviceable\": true\n  }\n}",
    ));
    out.push(scenario(
        "no-address-found",
        "Forced only. The geocoder has no address for the coordinates (open sea, desert).",
        None,
        Block::Response,
        NO_ADDRESS,
    ));
    out.push(scenario(
        "upstream-unavailable",
        "Forced only. Careem's location service is down.",
        None,
        Block::Response,
        "{\"error\": \"failed to reverse geocode: unexpected response status 503\"}",
    ));
    out
}

pub fn saved_scenarios() -> Vec<String> {
    let entries: Vec<String> = SAVED
        .iter()
        .map(|(label, kind, place, instructions, last_used)| {
            let mut lines = vec![
                format!("      \"label\": {},", quoted(label)),
                format!("      \"type\": {},", quoted(kind)),
            ];
            if let Some(text) = instructions {
                lines.push(format!("      \"deliveryInstructions\": {},", quoted(text)));
            }
            lines.push(format!(
                "      \"lastUsedAt\": \"{{{{now-{last_used}}}}}\","
            ));
            lines.push(format!("      \"location\": {}", place_block(*place, 6)));
            format!("    {{\n{}\n    }}", lines.join("\n"))
        })
        .collect();
    let listed: Vec<String> = SAVED
        .iter()
        .map(|(label, _, place, _, _)| {
            format!(
                "{label} ({}, `{}`)",
                PLACES[*place].title, PLACES[*place].uuid
            )
        })
        .collect();
    vec![
        scenario(
            "home-and-work",
            &format!("Default: {}, most recently used first.", listed.join(", ")),
            None,
            Block::Response,
            &format!(
                "{{\n  \"savedLocations\": [\n{}\n  ]\n}}",
                entries.join(",\n")
            ),
        ),
        scenario(
            "none-saved",
            "Forced only. The user has not saved any places yet.",
            None,
            Block::Response,
            "{\"savedLocations\": []}",
        ),
        scenario(
            "session-expired",
            "Forced only. The user's Careem session is no longer valid.",
            None,
            Block::Error,
            "{\"error\": \"unauthorized: careem session expired, reconnect your Careem account\"}",
        ),
    ]
}
