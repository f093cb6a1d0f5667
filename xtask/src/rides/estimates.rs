//! `ride_get_estimates`: one scenario per route between the five places with every product's
//! fare for that road, the same-place refusals, and the pinned-point fallbacks.

use super::markdown::{
    Block, at, money, point_rule, route_slug, route_words, same_place, scenario,
};
use super::world::{
    AIRPORT, Fare, PINNED_TRIP, PLACES, PRODUCTS, Product, Road, aed, fare, pickup_eta, road,
    routes,
};

use crate::area::{self, BOX_WORDS, Edge, Point};

pub const PATH: &str = "tools/rides/ride_get_estimates.md";

/// Production's refusal to price a trip from or to a point Careem does not serve.
const OUT_OF_AREA: &str = "{\"error\": \"failed to get ride estimates: pickup or drop-off location is outside the service area\"}";

const AIRPORT_NOTICE: &str = "Fixed fares apply for trips to Dubai International Airport. Hala Taxi is charged by the meter.";

/// The fare every product has for a trip: a road between places, or the pinned fallback.
pub fn trip_fare(product: &Product, from: Option<usize>, to: Option<usize>) -> Fare {
    fare(product, trip_road(from, to), to == Some(AIRPORT))
}

pub fn scenarios() -> Vec<String> {
    let mut out = same_place("there is no trip to price", "failed to get ride estimates");
    for (from, to) in routes() {
        let road = road(from, to);
        out.push(scenario(
            &route_slug(Some(from), Some(to)),
            &format!(
                "A trip {} ({} km, about {} minutes): every product's fare for that road.",
                route_words(Some(from), Some(to)),
                road.km(),
                road.minutes
            ),
            Some(&format!(
                "{{{}, {}}}",
                point_rule("pickup", from),
                point_rule("dropoff", to)
            )),
            Block::Response,
            &quote(Some(from), Some(to), None),
        ));
    }
    out.extend(unserved_ends("nothing is priced", OUT_OF_AREA));
    out.push(scenario(
        "airport-fixed-fares",
        &format!(
            "Drop-off at Dubai International Airport Terminal 3 from a pinned point: fixed airport \
             fares for every product except the metered Hala Taxi, priced as a typical {} km trip.",
            PINNED_TRIP.km()
        ),
        Some(&format!("{{{}}}", point_rule("dropoff", AIRPORT))),
        Block::Response,
        &quote(None, Some(AIRPORT), None),
    ));
    out.push(scenario(
        "all-products",
        &format!(
            "Default: a trip from or to a pinned point. All five products, priced as a typical {} \
             km trip (the files cannot measure the distance between arbitrary coordinates).",
            PINNED_TRIP.km()
        ),
        None,
        Block::Response,
        &quote(None, None, None),
    ));
    out.push(scenario(
        "surge",
        "Forced only. High demand: the pinned-trip fares raised by a 1.6 surge multiplier (Hala \
         Taxi stays on the meter), longer pickup times.",
        None,
        Block::Response,
        &quote(None, None, Some(16)),
    ));
    out.push(scenario(
        "no-captains-nearby",
        "Forced only. Every captain near the pickup point is busy.",
        None,
        Block::Response,
        "{\"error\": \"no captains nearby: all captains around the pickup point are busy, try again in a few minutes\"}",
    ));
    out.push(scenario(
        "out-of-service-area",
        "Forced only. The pickup or drop-off point is outside the area Careem serves.",
        None,
        Block::Response,
        OUT_OF_AREA,
    ));
    out
}

/// A scenario per rule for a pickup or drop-off Careem does not serve (outside the box or at
/// sea), each answering `refusal`; the prose says `outcome`.
pub fn unserved_ends(outcome: &str, refusal: &str) -> Vec<String> {
    [Point::Pickup, Point::Dropoff]
        .into_iter()
        .flat_map(area::unserved)
        .map(|rule| {
            let place = match rule.edge {
                Edge::Outside => format!("outside the area Careem serves ({BOX_WORDS})"),
                Edge::Sea => "open sea, outside the area Careem serves".to_string(),
            };
            scenario(
                &rule.name,
                &format!("{}: {place}, so {outcome}.", rule.words),
                Some(&rule.json()),
                Block::Response,
                refusal,
            )
        })
        .collect()
}

/// A point of the answer: the place's coordinates, or the argument's.
fn point(place: Option<usize>, prefix: &str) -> String {
    match place {
        Some(p) => format!(
            "{{\"latitude\": {}, \"longitude\": {}}}",
            PLACES[p].latitude, PLACES[p].longitude
        ),
        None => format!(
            "{{\"latitude\": {{{{args.{prefix}Latitude}}}}, \"longitude\": {{{{args.{prefix}Longitude}}}}}}"
        ),
    }
}

/// The estimates for a trip; `surge` in tenths (16 = ×1.6) raises every fare but the meter.
fn quote(from: Option<usize>, to: Option<usize>, surge: Option<u32>) -> String {
    let mut rows: Vec<(u32, String)> = PRODUCTS
        .iter()
        .map(|product| {
            let fare = trip_fare(product, from, to);
            let multiplier = surge.filter(|_| !product.metered).unwrap_or(10);
            let (min, max) = (fare.min * multiplier / 10, fare.max * multiplier / 10);
            let eta = pickup_eta(product, from) + surge.map_or(0, |_| 5);
            let row = format!(
                "    {{\"productId\": {}, \"name\": \"{}\", \"description\": \"{}\", \"capacity\": {}, \"etaMinutes\": {eta}, \"fare\": {{\"min\": {}, \"max\": {}}}, \"fixedFare\": {}, \"surgeMultiplier\": {}.{}}}",
                product.id,
                product.name,
                product.description,
                product.capacity,
                money(min),
                money(max),
                fare.fixed,
                multiplier / 10,
                multiplier % 10
            );
            (min, row)
        })
        .collect();
    rows.sort_by_key(|(min, _)| *min);
    let products: Vec<String> = rows.into_iter().map(|(_, row)| row).collect();
    let expiry = if surge.is_some() { 2 } else { 5 };
    let mut lines = vec![
        "{".to_string(),
        "  \"estimateId\": \"{{uuid}}\",".to_string(),
        format!("  \"expiresAt\": \"{}\",", at(expiry)),
        format!("  \"quoteExpiresAtMs\": {{{{unixms+{expiry}m}}}},"),
        format!("  \"pickup\": {},", point(from, "pickup")),
        format!("  \"dropoff\": {},", point(to, "dropoff")),
    ];
    if surge.is_some() {
        lines.push(
            "  \"notice\": \"Demand is high right now, so fares are higher than usual.\","
                .to_string(),
        );
    } else if to == Some(AIRPORT) {
        lines.push(format!("  \"notice\": \"{AIRPORT_NOTICE}\","));
    }
    lines.push("  \"products\": [".to_string());
    lines.push(products.join(",\n"));
    lines.push("  ]".to_string());
    lines.push("}".to_string());
    lines.join("\n")
}

/// The road of a trip: between places, or the typical trip for a pin.
pub fn trip_road(from: Option<usize>, to: Option<usize>) -> Road {
    match (from, to) {
        (Some(a), Some(b)) => road(a, b),
        _ => PINNED_TRIP,
    }
}

/// "AED 34.00–42.00" or "a fixed AED 83.00", for prose.
pub fn fare_words(fare: &Fare) -> String {
    if fare.fixed {
        format!("a fixed AED {}", aed(fare.min))
    } else {
        format!("AED {}–{}", aed(fare.min), aed(fare.max))
    }
}
