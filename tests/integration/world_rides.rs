//! The ride world remembers (`--stateful`): over the real binary, through Streamable HTTP and
//! stdio, a booked ride follows the run's clock (`clock.json`) from searching to completed, a
//! cancelled ride stays cancelled, a completed one cannot be cancelled, and a refusal changes
//! nothing (catalog "The world's clock").

use serde_json::{Value, json};

use crate::support::{Client, Project, call, http_client, serve_binary, stdio_client};

/// Home (Dubai Marina Walk) to the airport's Terminal 3.
fn to_the_airport(product: u32) -> Value {
    json!({
        "productId": product,
        "pickupLatitude": 25.0866,
        "pickupLongitude": 55.1474,
        "dropoffLatitude": 25.2528,
        "dropoffLongitude": 55.3644,
    })
}

/// Freezes the run's clock at 2026-10-05 `hhmm`:00 UTC, as `careem-mcp clock set` does.
fn clock(project: &Project, hhmm: &str) {
    project.write(
        ".run/clock.json",
        &format!("{{\"frozen\":\"2026-10-05T{hhmm}:00Z\"}}"),
    );
}

async fn answer(client: &Client, tool: &str, args: Value) -> Value {
    let result = call(client, tool, args.clone())
        .await
        .unwrap_or_else(|e| panic!("{tool} {args}: {e}"));
    result["structuredContent"].clone()
}

async fn status(client: &Client, id: &str) -> Value {
    answer(client, "ride_get_status", json!({"rideId": id})).await["ride"].clone()
}

async fn cancel(client: &Client, id: &str) -> Value {
    answer(
        client,
        "ride_cancel",
        json!({"rideId": id, "reason": "plans changed"}),
    )
    .await
}

/// The journey; the clock starts at 12:00.
async fn journey(project: &Project, client: &Client) {
    let mut with_wallet = to_the_airport(1103);
    with_wallet["paymentMethodId"] = json!("PM-CAREEM-PAY");
    let declined = answer(client, "ride_book", with_wallet).await;
    assert!(
        declined["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("payment declined: Careem Pay balance AED 57.20")),
        "{declined}"
    );

    let booked = answer(client, "ride_book", to_the_airport(1103)).await["ride"].clone();
    let business = booked["rideId"].as_str().expect("an id").to_string();
    assert_eq!(business, "6313001", "the refusal took a number: {booked}");
    assert_eq!(status(client, &business).await["status"], "SEARCHING");

    clock(project, "12:02");
    let on_the_way = status(client, &business).await;
    assert_eq!(on_the_way["status"], "CAPTAIN_ON_THE_WAY", "{on_the_way}");
    assert!(on_the_way["captain"]["name"].is_string(), "{on_the_way}");
    let go = answer(client, "ride_book", to_the_airport(1101)).await["ride"]["rideId"]
        .as_str()
        .expect("an id")
        .to_string();
    assert_eq!(go, "6113002");

    clock(project, "12:05");
    let fee = cancel(client, &go).await;
    assert_eq!(fee["cancelled"], true, "{fee}");
    assert_eq!(fee["cancellationFee"]["amount"], 10, "{fee}");
    let searching = answer(client, "ride_book", to_the_airport(1102)).await["ride"]["rideId"]
        .as_str()
        .expect("an id")
        .to_string();
    let free = cancel(client, &searching).await;
    assert_eq!(free["cancellationFee"]["amount"], 0, "{free}");

    clock(project, "12:20");
    assert_eq!(status(client, &business).await["status"], "ON_TRIP");

    clock(project, "13:40");
    let done = status(client, &business).await;
    assert_eq!(done["status"], "COMPLETED", "{done}");
    assert_eq!(done["fare"], booked["fareEstimate"]["min"], "{done}");
    let refused = cancel(client, &business).await;
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.ends_with("is already completed")),
        "{refused}"
    );
    assert_eq!(status(client, &business).await["status"], "COMPLETED");
    for id in [&go, &searching] {
        let ride = status(client, id).await;
        assert_eq!(ride["status"], "CANCELLED", "{id}: {ride}");
        let again = cancel(client, id).await;
        assert!(
            again["error"]
                .as_str()
                .is_some_and(|e| e.ends_with("is already cancelled")),
            "{id}: {again}"
        );
    }
    assert_eq!(
        status(client, &go).await["fare"]["amount"],
        10,
        "the fee is what the cancelled ride cost"
    );
}

fn stateful_project() -> Project {
    let project = Project::copy_of_repo();
    clock(&project, "12:00");
    project
}

#[tokio::test]
async fn a_booked_ride_follows_the_clock_and_stays_cancelled_over_http() {
    let project = stateful_project();
    let (_server, url, _stderr) = serve_binary(&project, &["--stateful"]);
    let client = http_client(&url).await;
    journey(&project, &client).await;
}

#[tokio::test]
async fn a_booked_ride_follows_the_clock_and_stays_cancelled_over_stdio() {
    let project = stateful_project();
    let mut command = project.command();
    command.args(["--stateful", "serve", "--stdio"]);
    let client = stdio_client(command).await;
    journey(&project, &client).await;
}
