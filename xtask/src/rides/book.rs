//! `ride_book`: one scenario per product and route, for now and scheduled, each with the
//! fare `ride_get_estimates` quotes for it and a ride id that encodes product and route.

use super::estimates::{fare_words, trip_fare, trip_road, unserved_ends};
use super::markdown::{
    Block, end_inline, money, point_rule, quoted, route_slug, route_words, same_place, scenario,
};
use super::world::{AIRPORT, COMFORT, MARINA, PRODUCTS, ride_id_template, ride_key, trips};

pub const PATH: &str = "tools/rides/ride_book.md";

pub fn scenarios() -> Vec<String> {
    let mut out = vec![scenario(
        "invalid-scheduled-at",
        "An empty `scheduledAt`: production cannot read a pickup time from it.",
        Some("{\"scheduledAt\": \"=\"}"),
        Block::Response,
        "{\"error\": \"invalid scheduledAt: want an RFC 3339 time at least 30 minutes from now\"}",
    )];
    out.extend(same_place("nothing to book", "failed to book ride"));
    out.extend(unserved_ends(
        "nothing is booked",
        "{\"error\": \"failed to book ride: pickup or drop-off location is outside the service area\"}",
    ));
    for scheduled in [true, false] {
        for (from, to) in trips() {
            for product in 0..PRODUCTS.len() {
                out.push(booking(scheduled, product, from, to));
            }
        }
    }
    out.push(scenario(
        "unknown-product",
        "Default: a `productId` that `ride_get_estimates` never offers; nothing is booked.",
        None,
        Block::Response,
        "{\"error\": \"failed to book ride: product {{args.productId}} is not available for this trip\"}",
    ));
    out.push(scenario(
        "searching",
        "Forced only. Books the ride that `ride_get_status`'s forced lifecycle scenarios follow: a \
         Comfort now from Home to the airport, whatever the arguments.",
        None,
        Block::Response,
        &response(false, COMFORT, Some(MARINA), Some(AIRPORT), false),
    ));
    out.push(scenario(
        "scheduled",
        "Forced only. The same Comfort from Home to the airport, booked for later.",
        None,
        Block::Response,
        &response(true, COMFORT, Some(MARINA), Some(AIRPORT), false),
    ));
    out.push(scenario(
        "no-captains-available",
        "Forced only. No captain accepted the ride; nothing was booked or charged.",
        None,
        Block::Response,
        "{\"error\": \"no captains available: all captains nearby are busy, please try again in a few minutes\"}",
    ));
    out.push(scenario(
        "payment-declined",
        "Forced only. The card on file was declined when the fare was authorised.",
        None,
        Block::Response,
        "{\"error\": \"payment declined: card ending 1881 was declined by the issuer\"}",
    ));
    out.push(scenario(
        "session-expired",
        "Forced only. The user's Careem session is no longer valid.",
        None,
        Block::Error,
        "{\"error\": \"unauthorized: careem session expired, reconnect your Careem account\"}",
    ));
    out
}

fn booking(scheduled: bool, product: usize, from: Option<usize>, to: Option<usize>) -> String {
    let p = &PRODUCTS[product];
    let fare = trip_fare(p, from, to);
    let key = ride_key(scheduled, p, from, to);
    let mut rule = vec![];
    if scheduled {
        rule.push("\"scheduledAt\": \"*\"".to_string());
    }
    rule.push(format!("\"productId\": {}", p.id));
    if let Some(a) = from {
        rule.push(point_rule("pickup", a));
    }
    if let Some(b) = to {
        rule.push(point_rule("dropoff", b));
    }
    let distance = match (from, to) {
        (Some(_), Some(_)) => format!("{} km", trip_road(from, to).km()),
        _ => format!("priced as a typical {} km trip", trip_road(from, to).km()),
    };
    let prose = format!(
        "A {} ride {} {} ({distance}): {}, as `ride_get_estimates` quotes it. Its id starts \
         `{key}`, which `ride_get_status` recognises.",
        p.name,
        if scheduled { "booked for later" } else { "now" },
        route_words(from, to),
        fare_words(&fare),
    );
    let name = format!(
        "{}{}-{}",
        if scheduled { "scheduled-" } else { "" },
        p.key,
        route_slug(from, to)
    );
    scenario(
        &name,
        &prose,
        Some(&format!("{{{}}}", rule.join(", "))),
        Block::Response,
        &response(scheduled, product, from, to, scheduled),
    )
}

/// The booked ride; `echo_time` puts the requested `scheduledAt` in the status label (a
/// free-text argument goes only into free text, never into a `date-time` field).
fn response(
    scheduled: bool,
    product: usize,
    from: Option<usize>,
    to: Option<usize>,
    echo_time: bool,
) -> String {
    let p = &PRODUCTS[product];
    let fare = trip_fare(p, from, to);
    let (status, label) = match (scheduled, echo_time) {
        (false, _) => ("SEARCHING", "Finding you a captain".to_string()),
        (true, true) => (
            "SCHEDULED",
            "Scheduled for {{args.scheduledAt}}. Careem starts looking for a captain 15 minutes before pickup.".to_string(),
        ),
        (true, false) => (
            "SCHEDULED",
            "Scheduled. Careem starts looking for a captain 15 minutes before pickup.".to_string(),
        ),
    };
    [
        "{".to_string(),
        "  \"ride\": {".to_string(),
        format!(
            "    \"rideId\": \"{}\",",
            ride_id_template(&ride_key(scheduled, p, from, to))
        ),
        format!("    \"status\": \"{status}\","),
        format!("    \"statusLabel\": {},", quoted(&label)),
        format!("    \"productId\": {},", p.id),
        format!("    \"pickup\": {},", end_inline(from, "pickup")),
        format!("    \"dropoff\": {},", end_inline(to, "dropoff")),
        format!(
            "    \"fareEstimate\": {{\"min\": {}, \"max\": {}}},",
            money(fare.min),
            money(fare.max)
        ),
        "    \"createdAt\": \"{{now}}\"".to_string(),
        "  }".to_string(),
        "}".to_string(),
    ]
    .join("\n")
}
