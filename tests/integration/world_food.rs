//! The food world as data (`tools/world/food*.json`) held to the rules of `docs/DATA_WORLD.md`,
//! and the world that remembers: with `--stateful` an agent's basket and orders stay done, over
//! stdio and over Streamable HTTP, and an order follows the run's clock.

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};

use crate::support::{
    Agent, Client, Project, call, http_client, repo, serve_binary, stdio_client, time,
};

fn food() -> Value {
    let text = std::fs::read_to_string(repo().join("tools/world/food.json")).expect("food.json");
    serde_json::from_str(&text).expect("food.json is JSON")
}

fn fils(amount: &Value) -> i64 {
    (amount
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {amount}"))
        * 100.0)
        .round() as i64
}

#[test]
fn ids_options_and_prices_keep_their_rules() {
    let food = food();
    let mut items = BTreeSet::new();
    let mut minimums = BTreeSet::new();
    for r in food["restaurants"].as_array().expect("restaurants") {
        let id = r["id"].as_i64().expect("an id");
        minimums.insert(fils(&r["minimumOrder"]));
        let all: Vec<&Value> = r["categories"]
            .as_array()
            .expect("categories")
            .iter()
            .flat_map(|c| c["items"].as_array().expect("items"))
            .collect();
        assert!(
            all.iter().any(|i| fils(&i["price"]) % 100 != 0),
            "{id} charges no fils"
        );
        if r["isOpen"] == true {
            assert_eq!(
                all.iter().filter(|i| i["isAvailable"] == false).count(),
                1,
                "{id}"
            );
        }
        for item in all {
            let item_id = item["id"].as_i64().expect("an item id");
            assert!(items.insert(item_id), "item {item_id} listed twice");
            assert_eq!(item_id / 100, id, "item {item_id} is not numbered for {id}");
            for (g, group) in item["optionGroups"]
                .as_array()
                .expect("groups")
                .iter()
                .enumerate()
            {
                assert_eq!(group["id"], item_id * 10 + g as i64 + 1);
                let options = group["options"].as_array().expect("options");
                let (min, max) = (
                    group["minSelections"].as_u64(),
                    group["maxSelections"].as_u64(),
                );
                assert!(min <= max && max <= Some(options.len() as u64), "{group}");
                for (o, option) in options.iter().enumerate() {
                    assert_eq!(
                        option["id"],
                        group["id"].as_i64().expect("an id") * 10 + o as i64 + 1
                    );
                }
            }
        }
    }
    assert_eq!(
        minimums.len(),
        food["restaurants"].as_array().map_or(0, Vec::len)
    );
}

#[test]
fn every_cuisine_and_name_finds_its_restaurant() {
    let agent = Agent::at("2026-12-02T12:10:00Z");
    let home = agent.home();
    for r in food()["restaurants"].as_array().expect("restaurants") {
        let mut words: Vec<String> = r["cuisines"]
            .as_array()
            .expect("cuisines")
            .iter()
            .map(|c| c.as_str().expect("a cuisine").to_lowercase())
            .collect();
        words.push(r["name"]["value"].as_str().expect("a name").to_string());
        for word in words {
            let found = agent.ok(
                "food_merchant_search",
                &json!({"query": word, "latitude": home["latitude"], "longitude": home["longitude"]}),
            );
            let ids: Vec<&Value> = found["restaurants"]
                .as_array()
                .expect("restaurants")
                .iter()
                .map(|c| &c["id"])
                .collect();
            assert!(
                ids.contains(&&r["id"]),
                "{word:?} does not find {}: {ids:?}",
                r["id"]
            );
        }
    }
}

/// When the stateful journeys start, Dubai 16:10.
const START: &str = "2026-12-02T12:10:00Z";

/// A stateful run's agent: a client and the project whose `.run/clock.json` it moves on.
struct Walker<'a> {
    client: &'a Client,
    project: &'a Project,
    now: DateTime<Utc>,
}

impl Walker<'_> {
    async fn answer(&self, tool: &str, args: Value) -> Value {
        let result = call(self.client, tool, args.clone())
            .await
            .unwrap_or_else(|e| panic!("{tool} {args}: {e}"));
        assert_ne!(result["isError"], true, "{tool} {args}: {result}");
        result["structuredContent"].clone()
    }

    async fn ok(&self, tool: &str, args: Value) -> Value {
        let value = self.answer(tool, args.clone()).await;
        assert!(value.get("error").is_none(), "{tool} {args}: {value}");
        value
    }

    async fn refused(&self, tool: &str, args: Value) -> String {
        let value = self.answer(tool, args.clone()).await;
        value["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{tool} {args} was not refused: {value}"))
            .to_string()
    }

    fn advance(&mut self, minutes: i64) {
        self.now += Duration::minutes(minutes);
        let clock = json!({"frozen": self.now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)});
        self.project.write(".run/clock.json", &clock.to_string());
    }

    async fn basket(&self) -> Value {
        self.ok("cart_get_basket", json!({})).await["basket"].clone()
    }

    async fn status(&self, order: &Value) -> Value {
        self.ok("food_get_order_status", json!({"order_id": order}))
            .await["order"]
            .clone()
    }
}

fn lines(basket: &Value) -> Vec<(i64, i64)> {
    basket["items"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| {
            (
                l["itemId"].as_i64().expect("an item"),
                l["quantity"].as_i64().expect("a quantity"),
            )
        })
        .collect()
}

fn money(value: &Value) -> i64 {
    fils(&value["amount"])
}

/// What an agent does stays done: two lines in one basket, refusals that change nothing, an
/// order that empties the basket, heads the list and follows the clock to its delivery, and a
/// scheduled order that waits for its slot.
async fn walk(client: &Client, project: &Project) {
    let mut agent = Walker {
        client,
        project,
        now: time(&json!(START)),
    };
    agent.ok("cart_clear", json!({})).await;
    // Salmon Nigiri ×2 and Salmon Sashimi ×1 at Kaizen Sushi Bar: both lines stay.
    agent
        .ok(
            "cart_add_item",
            json!({"restaurant_id": 30102, "item_id": 3010201, "quantity": 2}),
        )
        .await;
    let added = agent
        .ok(
            "cart_add_item",
            json!({"restaurant_id": 30102, "item_id": 3010205}),
        )
        .await["basket"]
        .clone();
    assert_eq!(lines(&added), [(3010201, 2), (3010205, 1)], "{added}");
    // 48.00 + 42.00, delivery 8.50 free with Careem Plus from 60.00, service 2.50.
    let amounts: Vec<i64> = ["subtotal", "deliveryFee", "serviceFee", "discount", "total"]
        .iter()
        .map(|key| money(&added[key]))
        .collect();
    assert_eq!(amounts, [9000, 850, 250, 850, 9250], "{added}");
    for args in [json!({}), json!({"restaurant_id": 30102})] {
        let shown = agent.ok("cart_get_basket", args).await["basket"].clone();
        assert_eq!(shown["id"], added["id"]);
        assert_eq!(lines(&shown), lines(&added));
    }
    let other = agent
        .refused(
            "cart_add_item",
            json!({"restaurant_id": 30101, "item_id": 3010104}),
        )
        .await;
    assert!(
        other.contains("already has items from Kaizen Sushi Bar (30102), clear it with cart_clear"),
        "{other}"
    );
    // The nigiri line to 3, the sashimi line out and back.
    let nigiri = added["items"][0]["basketItemId"].clone();
    let sashimi = added["items"][1]["basketItemId"].clone();
    let updated = agent
        .ok(
            "cart_update_item",
            json!({"basket_item_id": nigiri, "quantity": 3}),
        )
        .await["basket"]
        .clone();
    assert_eq!(money(&updated["subtotal"]), 11400);
    let removed = agent
        .ok(
            "cart_update_item",
            json!({"basket_item_id": sashimi, "quantity": 0}),
        )
        .await;
    assert_eq!(removed["removedBasketItemId"], sashimi);
    assert_eq!(lines(&agent.basket().await), [(3010201, 3)]);
    let basket = agent
        .ok(
            "cart_add_item",
            json!({"restaurant_id": 30102, "item_id": 3010205}),
        )
        .await["basket"]
        .clone();
    assert_eq!(money(&basket["total"]), 11650, "{basket}");
    // Refusals change nothing.
    let order = |payment: &str, address: &str| json!({"basket_id": basket["id"], "payment_method_id": payment, "delivery_location_uuid": address});
    for (args, words) in [
        (
            order("PM-CAREEM-PAY", "LOC-50001"),
            "payment declined: Careem Pay balance AED 57.20",
        ),
        (order("PM-0000", "LOC-50001"), "payment method"),
        (
            order("PM-9001", "LOC-PIN-01234"),
            "location not serviceable",
        ),
    ] {
        let error = agent.refused("food_place_order", args.clone()).await;
        assert!(error.contains(words), "{args}: {error}");
    }
    project.write(
        ".run/overrides.json",
        &json!({"food_place_order": "payment-declined"}).to_string(),
    );
    let declined = agent
        .refused("food_place_order", order("PM-9001", "LOC-50001"))
        .await;
    assert!(declined.contains("declined"), "{declined}");
    project.write(".run/overrides.json", "{}");
    assert_eq!(agent.basket().await["id"], basket["id"]);
    assert_eq!(lines(&agent.basket().await), lines(&basket));
    // The order takes the basket, empties it and heads the list.
    let placed = agent
        .ok("food_place_order", order("PM-9002", "LOC-50001"))
        .await["order"]
        .clone();
    assert_eq!(money(&placed["total"]), 11650);
    assert_eq!(
        time(&placed["estimatedDeliveryAt"]),
        agent.now + Duration::minutes(45)
    );
    assert_eq!(agent.basket().await["items"], json!([]));
    let listed = agent.ok("food_list_orders", json!({})).await["orders"][0].clone();
    assert_eq!(listed["id"], placed["id"]);
    assert_eq!(listed["itemCount"], 4);
    // Its life on the run's clock.
    let mut seen = Vec::new();
    for minutes in [0, 5, 35, 50] {
        agent.advance(minutes - seen.last().map_or(0, |(m, _)| *m));
        let status = agent.status(&placed["id"]).await;
        assert_eq!(money(&status["total"]), 11650);
        let steps = status["timeline"].as_array().expect("a timeline");
        assert_eq!(steps.last().expect("a step")["status"], status["status"]);
        assert!(
            steps.iter().all(|s| time(&s["time"]) <= agent.now),
            "{status}"
        );
        assert_eq!(status.get("captain").is_some(), minutes >= 35, "{status}");
        seen.push((minutes, status["status"].clone()));
    }
    let statuses: Vec<&Value> = seen.iter().map(|(_, s)| s).collect();
    assert_eq!(statuses, ["PLACED", "PREPARING", "ON_THE_WAY", "DELIVERED"]);
    let delivered = agent.status(&placed["id"]).await;
    assert_eq!(
        time(&delivered["deliveredAt"]),
        time(&placed["estimatedDeliveryAt"])
    );
    assert_eq!(
        agent.ok("food_list_orders", json!({})).await["orders"][0]["status"],
        "DELIVERED"
    );
    // One Falafel Wrap is below Shawarma Station's minimum; two are not. Scheduled, the order
    // waits for its slot.
    let falafel = agent
        .ok(
            "cart_add_item",
            json!({"restaurant_id": 30101, "item_id": 3010103}),
        )
        .await["basket"]
        .clone();
    let args = json!({"basket_id": falafel["id"], "payment_method_id": "PM-CASH", "delivery_location_uuid": "LOC-50005"});
    let below = agent.refused("food_place_order", args.clone()).await;
    assert!(
        below.contains("AED 12.50") && below.contains("AED 20.00"),
        "{below}"
    );
    let line = falafel["items"][0]["basketItemId"].clone();
    agent
        .ok(
            "cart_update_item",
            json!({"basket_item_id": line, "quantity": 2}),
        )
        .await;
    let slots = agent
        .ok(
            "food_get_delivery_slots",
            json!({"restaurant_id": 30101, "latitude": 25.0955, "longitude": 55.159}),
        )
        .await;
    let slot = slots["days"][0]["slots"][0].clone();
    let mut scheduled = args;
    scheduled["scheduled_slot_start"] = slot["start"].clone();
    let booked = agent.ok("food_place_order", scheduled).await["order"].clone();
    assert_eq!(booked["isScheduled"], true);
    let start = time(&slot["start"]);
    agent.advance((start - agent.now).num_minutes() - 31);
    assert_eq!(agent.status(&booked["id"]).await["status"], "PLACED");
    agent.advance(2);
    assert_eq!(agent.status(&booked["id"]).await["status"], "PREPARING");
    let orders = agent.ok("food_list_orders", json!({"limit": 2})).await["orders"].clone();
    assert_eq!(orders[0]["id"], booked["id"]);
    assert_eq!(orders[1]["id"], placed["id"]);
}

/// A copy of the repository whose run's clock stands at [`START`].
fn stateful_project() -> Project {
    let project = Project::copy_of_repo();
    project.write(".run/clock.json", &json!({"frozen": START}).to_string());
    project
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateful_journey_over_stdio_stays_done() {
    let project = stateful_project();
    let mut command = project.command();
    command.args(["--stateful", "serve", "--stdio"]);
    let client = stdio_client(command).await;
    walk(&client, &project).await;
    client.cancel().await.expect("the session closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateful_journey_over_streamable_http_stays_done() {
    let project = stateful_project();
    let (_server, url, _stderr) = serve_binary(&project, &["--stateful"]);
    let client = http_client(&url).await;
    walk(&client, &project).await;
    client.cancel().await.expect("the session closes");
}
