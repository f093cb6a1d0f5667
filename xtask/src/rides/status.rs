//! `ride_get_status`: the rides of the world, every ride `ride_book` can hand out (recognised
//! by its id), and the forced lifecycle of one ride from booking to drop-off.

use super::estimates::{trip_fare, trip_road};
use super::markdown::{
    Block, at, empty_ride_id, hhmm, money, pin_in_dubai, place_inline, quoted, ride_id_required,
    route_slug, route_words, scenario,
};
use super::world::{
    ANY_OTHER_RIDE, CAPTAINS, PLACES, PRODUCTS, RIDES, Ride, Stage, lifecycle, ride_key, trips,
};

pub const PATH: &str = "tools/rides/ride_get_status.md";

pub fn scenarios() -> Vec<String> {
    let mut out = vec![empty_ride_id()];
    for (id, name, ride) in &RIDES {
        out.push(scenario(
            name,
            &format!("Ride {id}: {}.", story(ride)),
            Some(&format!("{{\"rideId\": \"{id}\"}}")),
            Block::Response,
            &status(id, ride),
        ));
    }
    for scheduled in [false, true] {
        for (from, to) in trips() {
            for (product, p) in PRODUCTS.iter().enumerate() {
                let key = ride_key(scheduled, p, from, to);
                let ride = Ride {
                    product,
                    from,
                    to,
                    captain: None,
                    booked_ago: 0,
                    stage: if scheduled {
                        Stage::Scheduled
                    } else {
                        Stage::Searching
                    },
                };
                let pinned = if from.is_none() {
                    " The pinned pickup's coordinates are not in the id, so it is reported at city level."
                } else {
                    ""
                };
                out.push(scenario(
                    &format!(
                        "{}-{}-{}",
                        if scheduled { "scheduled" } else { "searching" },
                        p.key,
                        route_slug(from, to)
                    ),
                    &format!(
                        "A ride id starting `{key}`: the {} ride {} that `ride_book` just booked{}; \
                         echoes the id.{pinned}",
                        p.name,
                        route_words(from, to),
                        if scheduled { " for later" } else { ", still looking for a captain" },
                    ),
                    Some(&format!("{{\"rideId\": \"~{key}\"}}")),
                    Block::Response,
                    &status("{{args.rideId}}", &ride),
                ));
            }
        }
    }
    out.push(scenario(
        "captain-on-the-way",
        &format!(
            "Any other ride id: {}; echoes the id.",
            story(&ANY_OTHER_RIDE)
        ),
        Some("{\"rideId\": \"*\"}"),
        Block::Response,
        &status("{{args.rideId}}", &ANY_OTHER_RIDE),
    ));
    out.push(ride_id_required());
    for (name, ride) in lifecycle() {
        out.push(scenario(
            name,
            &format!(
                "Forced only. The ride `ride_book` just booked, one stage of its life: {}; echoes the id.",
                story(&ride)
            ),
            None,
            Block::Response,
            &status("{{args.rideId}}", &ride),
        ));
    }
    out
}

/// One line of prose about a ride.
fn story(ride: &Ride) -> String {
    let p = &PRODUCTS[ride.product];
    let route = route_words(ride.from, ride.to);
    let captain = ride.captain.map_or("", |c| CAPTAINS[c].name);
    match ride.stage {
        Stage::Searching => format!(
            "a {} {route}, Careem is still looking for a captain",
            p.name
        ),
        Stage::Scheduled => format!("a {} {route}, booked for later", p.name),
        Stage::OnTheWay { eta } => {
            format!(
                "a {} {route}; captain {captain} is on the way, {eta} minutes from the pickup",
                p.name
            )
        }
        Stage::Arrived { .. } => format!(
            "a {} {route}; captain {captain} is waiting at the pickup",
            p.name
        ),
        Stage::OnTrip { .. } => format!("a {} {route} with captain {captain}, on its trip", p.name),
        Stage::Completed { .. } => format!(
            "a {} {route} with captain {captain}, completed, with the final fare",
            p.name
        ),
        Stage::CancelledByCaptain { .. } => {
            format!(
                "a {} {route}; captain {captain} cancelled before pickup and the user was not charged",
                p.name
            )
        }
    }
}

/// The status answer for a ride; `id` is the text of `rideId` (a literal or a placeholder).
fn status(id: &str, ride: &Ride) -> String {
    let p = &PRODUCTS[ride.product];
    let (from, to) = (ride.from, ride.to);
    let fare = trip_fare(p, from, to);
    let trip = i64::from(trip_road(from, to).minutes);
    let end = |place: Option<usize>| place.map_or_else(pin_in_dubai, place_inline);
    let assigned = !matches!(ride.stage, Stage::Searching | Stage::Scheduled);
    let captain = ride.captain.filter(|_| assigned).map(|c| &CAPTAINS[c]);
    let first = captain.map_or("", |c| c.first_name());
    let title = |place: Option<usize>| place.map_or("the pinned point", |p| PLACES[p].title);
    let (status, label, mut times, amount) = match ride.stage {
        Stage::Searching => (
            "SEARCHING",
            "Finding you a captain".to_string(),
            vec![],
            fare.estimate,
        ),
        Stage::Scheduled => (
            "SCHEDULED",
            "Scheduled. Careem starts looking for a captain 15 minutes before pickup.".to_string(),
            vec![],
            fare.estimate,
        ),
        Stage::OnTheWay { eta } => {
            let c = captain.expect("a captain on the way");
            let eta = i64::from(eta);
            (
                "CAPTAIN_ON_THE_WAY",
                format!(
                    "{first} is on the way in a {} {} {} ({}), arriving at {}",
                    c.colour.to_lowercase(),
                    c.make,
                    c.model,
                    c.plate,
                    hhmm(eta)
                ),
                vec![
                    ("pickupEtaMinutes", eta.to_string()),
                    ("pickupEta", quoted_time(eta)),
                    ("dropoffEta", quoted_time(eta + trip)),
                ],
                fare.estimate,
            )
        }
        Stage::Arrived {
            arrived_ago,
            free_wait_left,
        } => (
            "CAPTAIN_ARRIVED",
            format!(
                "{first} has arrived at {} and is waiting, free waiting until {}",
                title(from),
                hhmm(i64::from(free_wait_left))
            ),
            vec![
                ("pickupEtaMinutes", "0".to_string()),
                ("pickupEta", quoted_time(-i64::from(arrived_ago))),
                ("dropoffEta", quoted_time(trip + 1)),
            ],
            fare.estimate,
        ),
        Stage::OnTrip { picked_up_ago } => {
            let ago = i64::from(picked_up_ago);
            assert!(trip > ago, "{id}: the trip has ended");
            (
                "ON_TRIP",
                format!(
                    "On your way, arriving at {} at {}",
                    title(to),
                    hhmm(trip - ago)
                ),
                vec![
                    ("pickupEta", quoted_time(-(ago + 2))),
                    ("pickedUpAt", quoted_time(-ago)),
                    ("dropoffEta", quoted_time(trip - ago)),
                ],
                fare.estimate,
            )
        }
        Stage::Completed { completed_ago } => {
            let ago = i64::from(completed_ago);
            (
                "COMPLETED",
                format!("Trip completed at {}", hhmm(-ago)),
                vec![
                    ("pickupEta", quoted_time(-(ago + trip + 2))),
                    ("pickedUpAt", quoted_time(-(ago + trip))),
                    ("completedAt", quoted_time(-ago)),
                    ("distanceKm", trip_road(from, to).km()),
                ],
                fare.exact,
            )
        }
        Stage::CancelledByCaptain { cancelled_ago } => {
            let ago = -i64::from(cancelled_ago);
            (
                "CANCELLED",
                format!("Cancelled by the captain at {}", hhmm(ago)),
                vec![
                    ("cancelledAt", quoted_time(ago)),
                    ("cancelledBy", quoted("CAPTAIN")),
                    (
                        "cancellationReason",
                        quoted(
                            "Your captain cancelled the ride. You were not charged; book again to get a new captain.",
                        ),
                    ),
                ],
                0,
            )
        }
    };
    let earliest = match ride.stage {
        Stage::Searching | Stage::Scheduled | Stage::OnTheWay { .. } => 0,
        Stage::Arrived { arrived_ago, .. } => i64::from(arrived_ago),
        Stage::OnTrip { picked_up_ago } => i64::from(picked_up_ago) + 2,
        Stage::Completed { completed_ago } => i64::from(completed_ago) + trip + 2,
        Stage::CancelledByCaptain { cancelled_ago } => i64::from(cancelled_ago),
    };
    assert!(
        i64::from(ride.booked_ago) > earliest || ride.booked_ago == 0 && earliest == 0,
        "{id}: booked after its {status} stage began"
    );
    let mut lines = vec![
        "{".to_string(),
        "  \"ride\": {".to_string(),
        format!("    \"rideId\": \"{id}\","),
        format!("    \"status\": \"{status}\","),
        format!("    \"statusLabel\": {},", quoted(&label)),
        format!(
            "    \"product\": {{\"productId\": {}, \"name\": \"{}\"}},",
            p.id, p.name
        ),
        format!("    \"pickup\": {},", end(from)),
        format!("    \"dropoff\": {},", end(to)),
    ];
    if let Some(c) = captain {
        lines.push(format!(
            "    \"captain\": {{\"name\": {}, \"rating\": {}, \"phone\": {}}},",
            quoted(c.name),
            c.rating,
            quoted(c.phone)
        ));
        lines.push(format!(
            "    \"car\": {{\"make\": {}, \"model\": {}, \"colour\": {}, \"plate\": {}}},",
            quoted(c.make),
            quoted(c.model),
            quoted(c.colour),
            quoted(c.plate)
        ));
    }
    for (key, value) in times.drain(..) {
        lines.push(format!("    \"{key}\": {value},"));
    }
    lines.push(format!("    \"fare\": {},", money(amount)));
    lines.push(format!(
        "    \"createdAt\": \"{}\"",
        at(-i64::from(ride.booked_ago))
    ));
    lines.push("  }".to_string());
    lines.push("}".to_string());
    lines.join("\n")
}

fn quoted_time(minutes: i64) -> String {
    format!("\"{}\"", at(minutes))
}
