//! Time and money that belong to the run (docs/DATA_WORLD.md, "Time" and "Account"): the seed's
//! times are fixed from the run's epoch and move on with its clock, restaurants open and close
//! by their weekly hours, and Careem Pay is debited and refunded. Each test drives the real
//! binary's `call` and `clock` on a copy of the repository, as a developer does.

use serde_json::{Value, json};

use crate::support::{Project, Run};

/// A copy of the repository and its default run, called through `careem-mcp call`.
struct World {
    project: Project,
    stateful: bool,
}

impl World {
    fn new(stateful: bool, clock: &str) -> Self {
        let world = Self {
            project: Project::copy_of_repo(),
            stateful,
        };
        world.clock(&["set", clock]);
        world
    }

    fn clock(&self, args: &[&str]) {
        let mut all = vec!["clock"];
        all.extend(args);
        let run = self.project.run(&all);
        assert_eq!(run.code, 0, "clock {args:?}: {}", run.stderr);
    }

    fn run(&self, args: &[&str]) -> Run {
        let mut all = Vec::new();
        if self.stateful {
            all.push("--stateful");
        }
        all.extend(args);
        self.project.run(&all)
    }

    /// The `structuredContent` of a call that is not `isError`.
    fn call(&self, tool: &str, args: &Value) -> Value {
        let run = self.run(&["call", tool, &args.to_string()]);
        let result = run.json();
        assert_ne!(result["isError"], true, "{tool} {args}: {result}");
        result["structuredContent"].clone()
    }

    fn ok(&self, tool: &str, args: &Value) -> Value {
        let value = self.call(tool, args);
        assert!(value.get("error").is_none(), "{tool} {args}: {value}");
        value
    }

    fn refused(&self, tool: &str, args: &Value) -> String {
        let value = self.call(tool, args);
        value["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{tool} {args} was not refused: {value}"))
            .to_string()
    }

    /// `food_list_orders`: each order's id, status and `placedAt`.
    fn orders(&self) -> Vec<(i64, String, String)> {
        self.ok("food_list_orders", &json!({}))["orders"]
            .as_array()
            .expect("orders")
            .iter()
            .map(|o| {
                (
                    o["id"].as_i64().expect("an id"),
                    o["status"].as_str().expect("a status").to_string(),
                    o["placedAt"].as_str().expect("a time").to_string(),
                )
            })
            .collect()
    }
}

fn owned(rows: &[(i64, &str, &str)]) -> Vec<(i64, String, String)> {
    rows.iter()
        .map(|(id, status, at)| (*id, (*status).to_string(), (*at).to_string()))
        .collect()
}

#[test]
fn seed_orders_keep_their_times_and_move_on_with_the_run_clock() {
    let world = World::new(true, "2026-12-05T08:30:00Z");
    let seeded = owned(&[
        (700001, "PREPARING", "2026-12-05T08:18:00Z"),
        (700002, "ON_THE_WAY", "2026-12-05T07:56:00Z"),
        (700004, "CANCELLED", "2026-12-05T05:30:00Z"),
        (700003, "DELIVERED", "2026-12-04T06:30:00Z"),
    ]);
    assert_eq!(world.orders(), seeded);
    world.clock(&["advance", "20m"]);
    let status = world.ok("food_get_order_status", &json!({"order_id": 700001}))["order"].clone();
    assert_eq!(status["status"], "ON_THE_WAY", "{status}");
    assert_eq!(status["placedAt"], "2026-12-05T08:18:00Z");
    assert_eq!(status["estimatedDeliveryAt"], "2026-12-05T08:53:00Z");
    assert_eq!(status["captain"]["name"], "Rahul Das", "{status}");
    world.clock(&["advance", "2h40m"]);
    let placed = world.ok(
        "food_place_order",
        &json!({"basket_id": 880001, "payment_method_id": "PM-9001", "delivery_location_uuid": "LOC-50001"}),
    )["order"]["id"]
        .as_i64()
        .expect("an order id");
    let mut after = owned(&[(placed, "PLACED", "2026-12-05T11:30:00Z")]);
    after.extend(owned(&[
        (700001, "DELIVERED", "2026-12-05T08:18:00Z"),
        (700002, "DELIVERED", "2026-12-05T07:56:00Z"),
        (700004, "CANCELLED", "2026-12-05T05:30:00Z"),
        (700003, "DELIVERED", "2026-12-04T06:30:00Z"),
    ]));
    assert_eq!(world.orders(), after);
    // After `reset` the next call seeds the world again, at the clock's now.
    assert_eq!(world.run(&["reset"]).code, 0);
    world.clock(&["set", "2026-12-06T09:00:00Z"]);
    let again = world.orders();
    assert_eq!(
        again[0],
        (700001, "PREPARING".into(), "2026-12-06T08:48:00Z".into())
    );
}

#[test]
fn without_stateful_every_call_is_a_fresh_seed_at_the_clock() {
    let world = World::new(false, "2026-12-05T08:30:00Z");
    world.clock(&["advance", "3h"]);
    let orders = world.orders();
    assert_eq!(
        orders[0],
        (700001, "PREPARING".into(), "2026-12-05T11:18:00Z".into())
    );
    assert_eq!(
        orders[1],
        (700002, "ON_THE_WAY".into(), "2026-12-05T10:56:00Z".into())
    );
}

/// The restaurant's menu at the world's clock: whether it is open, when it opens, its label.
fn opening(world: &World, restaurant: i64) -> (bool, Option<String>, Option<String>) {
    let menu = world.ok(
        "food_get_restaurant_menu",
        &json!({"restaurant_id": restaurant, "latitude": 25.0866, "longitude": 55.1474}),
    )["restaurant"]
        .clone();
    let text = |key: &str| menu[key].as_str().map(str::to_string);
    (menu["isOpen"] == true, text("opensAt"), text("statusLabel"))
}

#[test]
fn green_bowl_kitchen_opens_when_it_says_it_will() {
    // Its hours: 11:00–15:00 and 18:00–22:30, Fridays 13:30–22:30 (Dubai, UTC+4).
    for (clock, open, opens_at, label) in [
        (
            "2026-12-02T06:30:00Z",
            false,
            Some("2026-12-02T07:00:00Z"),
            Some("Closed now · opens at 11:00"),
        ),
        ("2026-12-02T07:00:00Z", true, None, None),
        ("2026-12-02T10:59:00Z", true, None, None),
        (
            "2026-12-02T11:00:00Z",
            false,
            Some("2026-12-02T14:00:00Z"),
            Some("Closed now · opens at 18:00"),
        ),
        (
            "2026-12-02T18:40:00Z",
            false,
            Some("2026-12-03T07:00:00Z"),
            Some("Closed now · opens at 11:00 tomorrow"),
        ),
        (
            "2026-12-04T05:00:00Z",
            false,
            Some("2026-12-04T09:30:00Z"),
            Some("Closed now · opens at 13:30"),
        ),
    ] {
        let world = World::new(false, clock);
        let (is_open, at, words) = opening(&world, 30106);
        assert_eq!(
            (is_open, at.as_deref(), words.as_deref()),
            (open, opens_at, label),
            "at {clock}"
        );
    }
    // Shawarma Station never closes; Smash Yard Burgers closes at 03:00, past midnight.
    let world = World::new(false, "2026-12-02T23:30:00Z");
    assert!(opening(&world, 30101).0);
    assert_eq!(
        opening(&world, 30103),
        (
            false,
            Some("2026-12-03T06:00:00Z".into()),
            Some("Closed now · opens at 10:00".into())
        )
    );
}

#[test]
fn a_scheduled_order_is_prepared_only_once_the_restaurant_opens() {
    let world = World::new(true, "2026-12-02T06:30:00Z");
    world.ok("cart_clear", &json!({}));
    let basket = world.ok(
        "cart_add_item",
        &json!({"restaurant_id": 30106, "item_id": 3010602, "quantity": 3}),
    )["basket"]
        .clone();
    let slots = world.ok(
        "food_get_delivery_slots",
        &json!({"restaurant_id": 30106, "latitude": 25.0866, "longitude": 55.1474}),
    );
    assert_eq!(slots["asap"]["available"], false, "{slots}");
    let slot = slots["days"][0]["slots"][0].clone();
    assert_eq!(slot["start"], "2026-12-02T07:20:00Z", "{slots}");
    let order = world.ok(
        "food_place_order",
        &json!({"basket_id": basket["id"], "payment_method_id": "PM-9001",
                "delivery_location_uuid": "LOC-50001", "scheduled_slot_start": slot["start"]}),
    )["order"]
        .clone();
    // The label of the answer is the status's, in Dubai time, with its ETA.
    assert_eq!(
        order["statusLabel"],
        "Scheduled for Wed, 2nd Dec, 11:20 – 11:40"
    );
    assert_eq!(order["estimatedDeliveryAt"], "2026-12-02T07:40:00Z");
    let status = |world: &World| {
        world.ok("food_get_order_status", &json!({"order_id": order["id"]}))["order"].clone()
    };
    assert_eq!(status(&world)["statusLabel"], order["statusLabel"]);
    for (advance, expected) in [("29m", "PLACED"), ("1m", "PREPARING"), ("40m", "DELIVERED")] {
        world.clock(&["advance", advance]);
        assert_eq!(status(&world)["status"], expected, "after {advance}");
    }
}

/// Careem Pay's balance as `get_payment_methods` shows it.
fn careem_pay(world: &World) -> Value {
    let methods = world.ok("get_payment_methods", &json!({}));
    methods["paymentMethods"]
        .as_array()
        .and_then(|all| all.iter().find(|m| m["id"] == "PM-CAREEM-PAY"))
        .unwrap_or_else(|| panic!("no Careem Pay in {methods}"))["balance"]["amount"]
        .clone()
}

#[test]
fn careem_pay_is_debited_held_and_refunded() {
    let world = World::new(true, "2026-12-02T12:10:00Z");
    let ride = json!({"productId": 1101, "paymentMethodId": "PM-CAREEM-PAY",
        "pickupLatitude": 25.0866, "pickupLongitude": 55.1474,
        "dropoffLatitude": 25.0955, "dropoffLongitude": 55.159});
    assert_eq!(careem_pay(&world), json!(57.2));
    // A ride holds its upper estimate; cancelled while searching, the hold is released.
    let booked = world.ok("ride_book", &ride)["ride"].clone();
    assert_eq!(careem_pay(&world), json!(57.2 - 16.0));
    world.ok("ride_cancel", &json!({"rideId": booked["rideId"]}));
    assert_eq!(careem_pay(&world), json!(57.2));
    // Completed, it costs its metered fare.
    let booked = world.ok("ride_book", &ride)["ride"].clone();
    world.clock(&["advance", "1h"]);
    let done = world.ok("ride_get_status", &json!({"rideId": booked["rideId"]}))["ride"].clone();
    assert_eq!(done["status"], "COMPLETED");
    assert_eq!(done["fare"]["amount"], json!(14));
    assert_eq!(careem_pay(&world), json!(43.2));
    // The balance refuses an order it cannot cover; in a fresh run it pays for it.
    let order = json!({"basket_id": 880001, "payment_method_id": "PM-CAREEM-PAY", "delivery_location_uuid": "LOC-50001"});
    assert_eq!(
        world.refused("food_place_order", &order),
        "payment declined: Careem Pay balance AED 43.20 is less than the order total of AED 56.30; choose another payment method"
    );
    assert_eq!(world.run(&["reset"]).code, 0);
    world.clock(&["set", "2026-12-02T12:10:00Z"]);
    let placed = world.ok("food_place_order", &order)["order"].clone();
    assert_eq!(placed["total"]["amount"], json!(56.3));
    assert_eq!(careem_pay(&world), json!(0.9));
    assert_eq!(
        world.refused("ride_book", &ride),
        "payment declined: Careem Pay balance AED 0.90 is less than the fare of AED 16.00; choose another payment method"
    );
}

#[test]
fn a_declined_payment_names_the_method_chosen() {
    let world = World::new(false, "2026-12-02T12:10:00Z");
    world.project.write(
        ".run/overrides.json",
        &json!({"food_place_order": "payment-declined", "ride_book": "payment-declined"})
            .to_string(),
    );
    for (method, words) in [
        (
            Some("PM-9001"),
            "payment declined: card ending 1881 was declined by the issuer",
        ),
        (
            Some("PM-9002"),
            "payment declined: card ending 5520 was declined by the issuer",
        ),
        (
            Some("PM-CAREEM-PAY"),
            "payment declined: Careem Pay could not be charged",
        ),
        (
            Some("PM-CASH"),
            "payment declined: cash is not accepted for this payment; choose another payment method",
        ),
        (
            None,
            "payment declined: card ending 1881 was declined by the issuer",
        ),
    ] {
        let mut ride = json!({"productId": 1101, "pickupLatitude": 25.0866, "pickupLongitude": 55.1474,
            "dropoffLatitude": 25.0955, "dropoffLongitude": 55.159});
        if let Some(method) = method {
            ride["paymentMethodId"] = json!(method);
            let order = json!({"basket_id": 880001, "payment_method_id": method, "delivery_location_uuid": "LOC-50001"});
            assert_eq!(world.refused("food_place_order", &order), words, "{method}");
        }
        assert_eq!(world.refused("ride_book", &ride), words, "{method:?}");
    }
}

#[test]
fn a_basket_version_changes_with_every_change_under_a_frozen_clock() {
    let world = World::new(true, "2026-12-02T12:10:00Z");
    let add = json!({"restaurant_id": 30101, "item_id": 3010102, "quantity": 1});
    let mut versions = vec![world.ok("cart_get_basket", &json!({}))["basket"]["version"].clone()];
    for _ in 0..2 {
        versions.push(world.ok("cart_add_item", &add)["basket"]["version"].clone());
    }
    let line =
        world.ok("cart_get_basket", &json!({}))["basket"]["items"][2]["basketItemId"].clone();
    versions.push(
        world.ok(
            "cart_update_item",
            &json!({"basket_item_id": line, "quantity": 5}),
        )["basket"]["version"]
            .clone(),
    );
    let unique: std::collections::BTreeSet<String> =
        versions.iter().map(Value::to_string).collect();
    assert_eq!(unique.len(), versions.len(), "{versions:?}");
    // An emptied basket was last changed when it was cleared.
    world.clock(&["advance", "5m"]);
    world.ok("cart_clear", &json!({}));
    world.clock(&["advance", "5m"]);
    let empty = world.ok("cart_get_basket", &json!({}))["basket"].clone();
    assert_eq!(empty["updatedAt"], "2026-12-02T12:15:00Z", "{empty}");
}

#[test]
fn a_scheduled_ride_reads_in_dubai_time_in_every_tool() {
    let world = World::new(true, "2026-12-02T12:10:00Z");
    let booked = world.ok(
        "ride_book",
        &json!({"productId": 1101, "pickupLatitude": 25.0866, "pickupLongitude": 55.1474,
            "dropoffLatitude": 25.0955, "dropoffLongitude": 55.159, "scheduledAt": "2026-12-05T16:00:00Z"}),
    )["ride"]
        .clone();
    let words = "Scheduled for Sat, 5th Dec, 20:00. Careem starts looking for a captain 10 minutes before pickup.";
    assert_eq!(booked["statusLabel"], words);
    let status = world.ok("ride_get_status", &json!({"rideId": booked["rideId"]}))["ride"].clone();
    assert_eq!(status["statusLabel"], words);
}

#[test]
fn seed_rides_move_on_from_the_run_epoch() {
    let world = World::new(true, "2026-12-02T12:10:00Z");
    let statuses = |world: &World| -> Vec<String> {
        (1..=6)
            .map(|n| {
                let ride = world.ok("ride_get_status", &json!({"rideId": format!("500100{n}")}));
                ride["ride"]["status"]
                    .as_str()
                    .expect("a status")
                    .to_string()
            })
            .collect()
    };
    let at_epoch = [
        "SEARCHING",
        "CAPTAIN_ON_THE_WAY",
        "CAPTAIN_ARRIVED",
        "ON_TRIP",
        "COMPLETED",
        "CANCELLED",
    ];
    assert_eq!(statuses(&world), at_epoch);
    world.clock(&["advance", "10m"]);
    assert_eq!(
        statuses(&world),
        [
            "ON_TRIP",
            "ON_TRIP",
            "ON_TRIP",
            "COMPLETED",
            "COMPLETED",
            "CANCELLED"
        ]
    );
    world.clock(&["advance", "1h"]);
    let done = world.ok("ride_get_status", &json!({"rideId": "5001001"}))["ride"].clone();
    assert_eq!(done["status"], "COMPLETED");
    assert_eq!(done["completedAt"], "2026-12-02T12:48:00Z");
    assert_eq!(done["captain"]["name"], "Hamza Siddiqui");
    // Without --stateful the seed is told at the clock's now, whatever came before.
    let fresh = World::new(false, "2026-12-02T13:10:00Z");
    assert_eq!(statuses(&fresh), at_epoch);
}

#[test]
fn viewing_the_world_does_not_seed_it() {
    let world = World::new(true, "2026-12-05T08:30:00Z");
    assert_eq!(world.project.run(&["world"]).code, 0);
    assert!(
        !world.project.path().join(".run/world.json").exists(),
        "`careem-mcp world` seeded the run"
    );
    // The run's first call seeds it, an hour later.
    world.clock(&["advance", "1h"]);
    assert_eq!(
        world.orders()[0],
        (700001, "PREPARING".into(), "2026-12-05T09:18:00Z".into())
    );
}
