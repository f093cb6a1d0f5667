//! The ride journey as an agent walks it: an MCP client talking to the real binary over stdio
//! with a frozen clock finds the places by what a person types, prices the trip, books every
//! product, follows and cancels the new ride. Each step takes its ids and coordinates from the
//! previous answer, so a broken link between two tools fails here. The invariants are those of
//! `docs/DATA_WORLD.md`.

use serde_json::{Value, json};

use crate::support::{Agent, Unserved, dubai_pin, time, unserved_points};

/// Dubai is UTC+4: 09:05, 20:40 and 23:55 there.
const CLOCKS: [&str; 3] = [
    "2026-12-02T05:05:00Z",
    "2026-12-02T16:40:00Z",
    "2026-12-02T19:55:00Z",
];

/// The first location a search for `query` finds.
fn find(agent: &Agent, query: &str) -> Value {
    let found = agent.answer("search_locations", &json!({"query": query}));
    let first = found["locations"][0].clone();
    assert!(first.is_object(), "{query:?} finds nothing: {found}");
    first
}

fn trip(from: &Value, to: &Value) -> Value {
    json!({
        "pickupLatitude": from["latitude"],
        "pickupLongitude": from["longitude"],
        "dropoffLatitude": to["latitude"],
        "dropoffLongitude": to["longitude"],
    })
}

fn with(mut args: Value, key: &str, value: Value) -> Value {
    args[key] = value;
    args
}

fn amount(money: &Value) -> f64 {
    money["amount"]
        .as_f64()
        .unwrap_or_else(|| panic!("no amount in {money}"))
}

/// Books `product` (an entry of the estimates) for `trip`, then reads the status of the new
/// id: both must tell the estimated ride, now.
fn book_and_follow(
    agent: &Agent,
    trip: &Value,
    from: &Value,
    to: &Value,
    product: &Value,
) -> String {
    let booked = agent.answer(
        "ride_book",
        &with(trip.clone(), "productId", product["productId"].clone()),
    );
    let ride = &booked["ride"];
    let context = format!(
        "{} from {} to {}: {booked}",
        product["name"], from["title"], to["title"]
    );
    assert_eq!(ride["status"], "SEARCHING", "{context}");
    assert_eq!(ride["productId"], product["productId"], "{context}");
    for (end, place) in [("pickup", from), ("dropoff", to)] {
        for field in ["locationUuid", "title", "latitude", "longitude"] {
            assert_eq!(ride[end][field], place[field], "{end} {field}: {context}");
        }
    }
    assert_eq!(ride["fareEstimate"], product["fare"], "{context}");
    assert_eq!(time(&ride["createdAt"]), agent.now, "{context}");

    let id = ride["rideId"].as_str().expect("a ride id").to_string();
    let status = agent.answer("ride_get_status", &json!({"rideId": id}));
    let followed = &status["ride"];
    let context = format!("status of {id} ({context}): {status}");
    assert_eq!(followed["rideId"], id.as_str(), "{context}");
    assert_eq!(followed["status"], "SEARCHING", "{context}");
    assert_eq!(
        followed["product"]["productId"], product["productId"],
        "{context}"
    );
    assert_eq!(followed["product"]["name"], product["name"], "{context}");
    assert_eq!(followed["pickup"], ride["pickup"], "{context}");
    assert_eq!(followed["dropoff"], ride["dropoff"], "{context}");
    let fare = amount(&followed["fare"]);
    let (min, max) = (
        amount(&product["fare"]["min"]),
        amount(&product["fare"]["max"]),
    );
    assert!(
        (min..=max).contains(&fare),
        "fare {fare} outside {min}–{max}: {context}"
    );
    assert!(
        time(&followed["createdAt"]) >= time(&ride["createdAt"]),
        "{context}"
    );
    assert!(
        followed.get("captain").is_none(),
        "a captain while searching: {context}"
    );
    id
}

#[test]
fn every_product_to_the_airport_is_booked_followed_and_cancelled_at_any_hour() {
    for clock in CLOCKS {
        let agent = Agent::at(clock);
        let airport = find(&agent, "DXB");
        let home = agent.home();
        let trip = trip(&home, &airport);
        let estimates = agent.answer("ride_get_estimates", &trip);
        let products = estimates["products"].as_array().expect("products");
        assert_eq!(products.len(), 5, "{estimates}");
        assert!(time(&estimates["expiresAt"]) > agent.now, "{estimates}");
        for product in products {
            let id = book_and_follow(&agent, &trip, &home, &airport, product);
            let cancelled = agent.answer(
                "ride_cancel",
                &json!({"rideId": id, "reason": "plans changed"}),
            );
            assert_eq!(cancelled["cancelled"], true, "{cancelled}");
            assert_eq!(cancelled["rideId"], id.as_str(), "{cancelled}");
            assert_eq!(amount(&cancelled["cancellationFee"]), 0.0, "{cancelled}");
            assert_eq!(time(&cancelled["cancelledAt"]), agent.now, "{cancelled}");
        }
    }
}

/// What people type for each of the five places, and a word of the title it must find.
const TYPED: [(&str, &str); 5] = [
    ("Dubai Marina", "Marina"),
    ("dubai mall", "Dubai Mall"),
    ("airport T3", "Airport"),
    ("MOE", "Emirates"),
    ("Internet City", "Internet City"),
];

#[test]
fn every_route_is_priced_by_distance_and_product_and_booked_as_quoted() {
    let agent = Agent::at(CLOCKS[1]);
    let places: Vec<Value> = TYPED
        .iter()
        .map(|(query, word)| {
            let place = find(&agent, query);
            assert!(
                place["title"].as_str().unwrap_or_default().contains(word),
                "{query:?}: {place}"
            );
            place
        })
        .collect();
    let mut priced = Vec::new();
    for (a, from) in places.iter().enumerate() {
        for (b, to) in places.iter().enumerate().filter(|(b, _)| *b != a) {
            let trip = trip(from, to);
            let estimates = agent.answer("ride_get_estimates", &trip);
            let products = estimates["products"].as_array().expect("products").clone();
            let mids: Vec<(i64, f64)> = products
                .iter()
                .map(|p| {
                    let mid = (amount(&p["fare"]["min"]) + amount(&p["fare"]["max"])) / 2.0;
                    (p["productId"].as_i64().expect("an id"), mid)
                })
                .collect();
            let mut distinct: Vec<i64> = mids.iter().map(|(_, m)| (m * 100.0) as i64).collect();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), 5, "two products cost the same: {estimates}");
            let product = &products[(a + b) % products.len()];
            book_and_follow(&agent, &trip, from, to, product);
            priced.push((metres(from, to), mids));
        }
    }
    for (d1, fares1) in &priced {
        for (d2, fares2) in priced.iter().filter(|(d2, _)| *d2 > d1 * 1.3) {
            for (id, fare1) in fares1 {
                let fare2 = fares2
                    .iter()
                    .find(|(i, _)| i == id)
                    .expect("same products")
                    .1;
                assert!(
                    fare2 > *fare1,
                    "product {id}: {fare2} over {d2} m, {fare1} over {d1} m"
                );
            }
        }
    }
}

fn metres(a: &Value, b: &Value) -> f64 {
    let coord = |v: &Value, k: &str| v[k].as_f64().expect("a coordinate").to_radians();
    let (lat1, lat2) = (coord(a, "latitude"), coord(b, "latitude"));
    let dlng = coord(b, "longitude") - coord(a, "longitude");
    let h =
        ((lat2 - lat1) / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlng / 2.0).sin().powi(2);
    2.0 * 6_371_000.0 * h.sqrt().asin()
}

/// Queries and what they must find, in order: `(arguments, uuids)`.
fn searches() -> Vec<(Value, Vec<&'static str>)> {
    let marina = json!({"latitude": 25.0866, "longitude": 55.1474});
    let airport = json!({"latitude": 25.2528, "longitude": 55.3644});
    let q = |query: &str| json!({"query": query});
    vec![
        (q("DXB"), vec!["LOC-50003"]),
        (q("airport"), vec!["LOC-50003"]),
        (q("T3"), vec!["LOC-50003"]),
        (q("The Dubai Mall"), vec!["LOC-50002"]),
        (q("Downtown"), vec!["LOC-50002"]),
        (q("Mall of the Emirates"), vec!["LOC-50004"]),
        (q("MOE"), vec!["LOC-50004"]),
        (q("Dubai Marina"), vec!["LOC-50001"]),
        (q("home"), vec!["LOC-50001"]),
        (q("Dubai Internet City"), vec!["LOC-50005"]),
        (q("DIC"), vec!["LOC-50005"]),
        (q("work"), vec!["LOC-50005"]),
        (q("Kaizen"), vec![]),
        (
            with(
                with(q("mall"), "latitude", marina["latitude"].clone()),
                "longitude",
                marina["longitude"].clone(),
            ),
            vec!["LOC-50004", "LOC-50002"],
        ),
        (
            with(
                with(q("mall"), "latitude", airport["latitude"].clone()),
                "longitude",
                airport["longitude"].clone(),
            ),
            vec!["LOC-50002", "LOC-50004"],
        ),
        (with(q("mall"), "limit", json!(1)), vec!["LOC-50004"]),
        (
            with(
                with(
                    with(q("Dubai"), "latitude", airport["latitude"].clone()),
                    "longitude",
                    airport["longitude"].clone(),
                ),
                "limit",
                json!(3),
            ),
            vec!["LOC-50003", "LOC-50002", "LOC-50004"],
        ),
    ]
}

#[test]
fn search_geocoding_and_saved_places_describe_each_place_alike() {
    let agent = Agent::at(CLOCKS[2]);
    let mut seen: Vec<Value> = Vec::new();
    for (args, want) in searches() {
        let found = agent.answer("search_locations", &args);
        let uuids: Vec<&str> = found["locations"]
            .as_array()
            .expect("locations")
            .iter()
            .map(|l| l["locationUuid"].as_str().expect("a uuid"))
            .collect();
        assert_eq!(uuids, want, "{args}: {found}");
        assert_eq!(found["query"], args["query"], "{found}");
        seen.extend(
            found["locations"]
                .as_array()
                .expect("locations")
                .iter()
                .cloned(),
        );
    }
    let saved = agent.answer("get_saved_locations", &json!({}));
    for entry in saved["savedLocations"].as_array().expect("saved locations") {
        assert!(time(&entry["lastUsedAt"]) < agent.now, "{entry}");
        seen.push(entry["location"].clone());
    }
    seen.sort_by_key(|l| l["locationUuid"].as_str().unwrap_or_default().to_string());
    seen.dedup();
    let uuids: Vec<&str> = seen
        .iter()
        .map(|l| l["locationUuid"].as_str().unwrap_or_default())
        .collect();
    let mut distinct = uuids.clone();
    distinct.dedup();
    assert_eq!(uuids, distinct, "one uuid, two descriptions: {seen:#?}");
    assert_eq!(uuids.len(), 5, "{uuids:?}");
    for place in &seen {
        let geocoded = agent.answer(
            "reverse_geocode",
            &json!({"latitude": place["latitude"], "longitude": place["longitude"]}),
        );
        assert_eq!(&geocoded["location"], place, "reverse geocoding {place}");
    }
    let off_the_map = agent.answer("reverse_geocode", &json!({"latitude": 91, "longitude": 55}));
    assert!(off_the_map["error"].is_string(), "{off_the_map}");
}

#[test]
fn the_worlds_rides_agree_with_the_estimates_and_refuse_a_late_cancellation() {
    let agent = Agent::at(CLOCKS[2]);
    let mut captains: Vec<Value> = Vec::new();
    // (ride id, what cancelling it does: fee in AED, or the refusal's words)
    let cases: [(&str, Result<f64, &str>); 6] = [
        ("5001001", Ok(0.0)),
        ("5001002", Ok(10.0)),
        ("5001003", Ok(10.0)),
        ("5001004", Err("on its trip")),
        ("5001005", Err("already completed")),
        ("5001006", Err("already cancelled")),
    ];
    for (id, cancel) in cases {
        let status = agent.answer("ride_get_status", &json!({"rideId": id}));
        let ride = &status["ride"];
        let estimates = agent.answer(
            "ride_get_estimates",
            &trip(&ride["pickup"], &ride["dropoff"]),
        );
        let product = estimates["products"]
            .as_array()
            .and_then(|all| {
                all.iter()
                    .find(|p| p["productId"] == ride["product"]["productId"])
            })
            .unwrap_or_else(|| panic!("{id}'s product is not offered: {estimates}"));
        let (min, max) = (
            amount(&product["fare"]["min"]),
            amount(&product["fare"]["max"]),
        );
        let fare = amount(&ride["fare"]);
        match ride["status"].as_str() {
            Some("CANCELLED") => assert_eq!(fare, 0.0, "{status}"),
            _ => assert!(
                (min..=max).contains(&fare),
                "{id}: {fare} outside {min}–{max}"
            ),
        }
        assert!(time(&ride["createdAt"]) <= agent.now, "{status}");
        for (key, future) in [
            ("pickupEta", ride["status"] == "CAPTAIN_ON_THE_WAY"),
            ("dropoffEta", true),
        ] {
            if ride.get(key).is_some() && future {
                assert!(time(&ride[key]) > agent.now, "{key} in the past: {status}");
            }
        }
        if let Some(captain) = ride.get("captain") {
            captains.push(json!({"captain": captain, "car": ride["car"]}));
        }
        let answer = agent.answer("ride_cancel", &json!({"rideId": id}));
        match cancel {
            Ok(fee) => {
                assert_eq!(answer["cancelled"], true, "{id}: {answer}");
                assert_eq!(amount(&answer["cancellationFee"]), fee, "{id}: {answer}");
            }
            Err(words) => {
                let error = answer["error"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{id} cancelled: {answer}"));
                assert!(
                    error.starts_with("failed to cancel ride") && error.contains(words),
                    "{error}"
                );
            }
        }
    }
    let any = agent.answer("ride_get_status", &json!({"rideId": "5009999"}));
    captains.push(json!({"captain": any["ride"]["captain"], "car": any["ride"]["car"]}));
    for (i, a) in captains.iter().enumerate() {
        for b in &captains[i + 1..] {
            for (x, y) in [("captain", "name"), ("captain", "phone"), ("car", "plate")] {
                assert_ne!(
                    a[x][y], b[x][y],
                    "two rides at once share a captain or car: {a} {b}"
                );
            }
        }
    }
}

#[test]
fn the_forced_lifecycle_follows_the_booked_ride_with_one_captain() {
    let agent = Agent::at(CLOCKS[1]);
    let (home, airport) = (agent.home(), find(&agent, "airport"));
    let trip = trip(&home, &airport);
    let declined = agent.forced(
        "ride_book",
        "payment-declined",
        &with(trip.clone(), "productId", json!(1102)),
    );
    assert!(
        declined["error"]
            .as_str()
            .unwrap_or_default()
            .starts_with("payment declined"),
        "{declined}"
    );
    let booked = agent.answer("ride_book", &with(trip, "productId", json!(1102)));
    let id = booked["ride"]["rideId"].as_str().expect("an id");
    let mut story: Vec<Value> = Vec::new();
    for stage in [
        "searching",
        "driver-assigned",
        "arriving",
        "on-trip",
        "completed",
    ] {
        let status = agent.forced("ride_get_status", stage, &json!({"rideId": id}));
        let ride = &status["ride"];
        assert_eq!(ride["rideId"], id, "{stage}: {status}");
        assert_eq!(ride["product"]["productId"], 1102, "{stage}: {status}");
        assert_eq!(
            ride["pickup"], booked["ride"]["pickup"],
            "{stage}: {status}"
        );
        assert_eq!(
            ride["dropoff"], booked["ride"]["dropoff"],
            "{stage}: {status}"
        );
        assert_eq!(
            ride["fare"], booked["ride"]["fareEstimate"]["min"],
            "{stage}: {status}"
        );
        story.push(json!({"captain": ride["captain"], "car": ride["car"]}));
    }
    assert_eq!(
        story[0],
        json!({"captain": null, "car": null}),
        "a captain while searching"
    );
    assert!(
        story[1..].windows(2).all(|w| w[0] == w[1]),
        "the captain changes: {story:#?}"
    );
}

#[test]
fn free_text_and_pinned_points_are_never_passed_off_as_something_else() {
    let agent = Agent::at(CLOCKS[2]);
    let (home, airport) = (agent.home(), find(&agent, "DXB"));
    let later = with(
        with(trip(&home, &airport), "productId", json!(1103)),
        "scheduledAt",
        json!("tomorrow 8pm"),
    );
    let booked = agent.answer("ride_book", &later);
    let ride = &booked["ride"];
    assert_eq!(ride["status"], "SCHEDULED", "{booked}");
    assert!(
        ride.get("scheduledAt").is_none(),
        "free text in a date-time field: {booked}"
    );
    assert!(
        ride["statusLabel"]
            .as_str()
            .unwrap_or_default()
            .contains("tomorrow 8pm"),
        "{booked}"
    );
    let status = agent.answer("ride_get_status", &json!({"rideId": ride["rideId"]}));
    assert_eq!(status["ride"]["status"], "SCHEDULED", "{status}");
    assert_eq!(status["ride"]["product"]["productId"], 1103, "{status}");
    assert_eq!(status["ride"]["dropoff"], ride["dropoff"], "{status}");

    let pin = json!({"latitude": 25.0712, "longitude": 55.1388});
    let pinned = trip(&pin, &airport);
    let estimates = agent.answer("ride_get_estimates", &pinned);
    for product in estimates["products"].as_array().expect("products") {
        let booked = agent.answer(
            "ride_book",
            &with(pinned.clone(), "productId", product["productId"].clone()),
        );
        let ride = &booked["ride"];
        assert_eq!(ride["productId"], product["productId"], "{booked}");
        assert_eq!(ride["fareEstimate"], product["fare"], "{booked}");
        assert_eq!(ride["pickup"]["title"], "Pinned location", "{booked}");
        assert_eq!(ride["pickup"]["latitude"], pin["latitude"], "{booked}");
        assert!(ride["pickup"].get("locationUuid").is_none(), "{booked}");
        assert_eq!(
            ride["dropoff"]["locationUuid"], airport["locationUuid"],
            "{booked}"
        );
    }
    let unknown = agent.answer("ride_book", &with(pinned, "productId", json!(1999)));
    assert!(
        unknown["error"]
            .as_str()
            .unwrap_or_default()
            .contains("1999"),
        "{unknown}"
    );
}

/// Production's refusal of a trip from or to a point Careem does not serve, by the tool's verb.
fn outside_the_area(failed: &str) -> String {
    format!("failed to {failed}: pickup or drop-off location is outside the service area")
}

#[test]
fn a_point_careem_does_not_serve_is_unserved_by_the_geocoder_the_estimates_and_the_booking() {
    let agent = Agent::at(CLOCKS[0]);
    let (home, mall) = (agent.home(), find(&agent, "dubai mall"));
    for edge in unserved_points() {
        let name = edge.name;
        let geocoded = agent.answer("reverse_geocode", &edge.point);
        match edge.lies {
            Unserved::Abroad => {
                let location = &geocoded["location"];
                assert_eq!(location["serviceable"], false, "{name}: {geocoded}");
                for key in ["latitude", "longitude"] {
                    // As Go writes a float64: 0.0 reads back as 0.
                    assert_eq!(
                        location[key].as_f64(),
                        edge.point[key].as_f64(),
                        "{name}: {geocoded}"
                    );
                }
                assert!(
                    !geocoded.to_string().contains("Dubai"),
                    "{name} reads as Dubai: {geocoded}"
                );
            }
            Unserved::AtSea => assert!(
                geocoded["error"]
                    .as_str()
                    .unwrap_or_default()
                    .starts_with("no address found for coordinates"),
                "{name}: {geocoded}"
            ),
        }
        for (from, to) in [(&edge.point, &mall), (&home, &edge.point)] {
            let trip = trip(from, to);
            assert_eq!(
                agent.refused("ride_get_estimates", &trip),
                outside_the_area("get ride estimates"),
                "{name}: {trip}"
            );
            for product in [1101, 1104] {
                assert_eq!(
                    agent.refused(
                        "ride_book",
                        &with(trip.clone(), "productId", json!(product))
                    ),
                    outside_the_area("book ride"),
                    "{name}: {product} {trip}"
                );
            }
        }
        // Search finds Dubai's places, which Careem serves, wherever the bias points.
        let found = agent.ok(
            "search_locations",
            &with(edge.point.clone(), "query", json!("dubai mall")),
        );
        assert_eq!(found["locations"][0], mall, "{name}: {found}");
    }

    let pin = dubai_pin();
    let geocoded = agent.ok("reverse_geocode", &pin)["location"].clone();
    assert_eq!(geocoded["serviceable"], true, "{geocoded}");
    assert_eq!(geocoded["city"], "Dubai", "{geocoded}");
    let trip = trip(&pin, &mall);
    let estimates = agent.ok("ride_get_estimates", &trip);
    let products = estimates["products"].as_array().expect("products");
    assert_eq!(products.len(), 5, "{estimates}");
    let booked = agent.ok(
        "ride_book",
        &with(trip, "productId", products[0]["productId"].clone()),
    );
    assert_eq!(booked["ride"]["status"], "SEARCHING", "{booked}");
    assert_eq!(
        booked["ride"]["pickup"]["latitude"], pin["latitude"],
        "{booked}"
    );
    assert_eq!(
        booked["ride"]["fareEstimate"], products[0]["fare"],
        "{booked}"
    );
}
