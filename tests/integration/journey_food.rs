//! The food journey as an agent walks it: an MCP client talking to the real binary over stdio
//! with a frozen clock searches by what a person types, reads the menu and an item's options,
//! fills a basket, changes a quantity, asks for slots, pays with each payment method and
//! follows the new order. Each step takes its ids from the previous answer, so a broken link
//! between two tools fails here; every answer is also held to its tool's `outputSchema`,
//! formats included. The invariants are those of `docs/DATA_WORLD.md`.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, Utc};
use chrono_tz::Asia::Dubai;
use serde_json::{Value, json};

use crate::support::{Agent, Unserved, dubai_pin, time, unserved_points};

/// Dubai is UTC+4: 10:30, 16:10, 20:45 and 23:50 there.
const CLOCKS: [&str; 4] = [
    "2026-12-02T06:30:00Z",
    "2026-12-02T12:10:00Z",
    "2026-12-02T16:45:00Z",
    "2026-12-02T19:50:00Z",
];

/// The walks: what a person types, and the restaurant it must find first.
const SEARCHES: [(&str, &str); 6] = [
    ("lebanese", "Shawarma Station"),
    ("Kaizen", "Kaizen Sushi Bar"),
    ("japanese", "Kaizen Sushi Bar"),
    ("burger and fries", "Smash Yard Burgers"),
    ("coffee", "Morning Syrniki Café"),
    ("indian curry", "Saffron Biryani House"),
];

/// Money in fils, so that sums are exact.
fn fils(money: &Value) -> i64 {
    let amount = money["amount"]
        .as_f64()
        .unwrap_or_else(|| panic!("not money: {money}"));
    assert_eq!(money["currency"], "AED", "{money}");
    (amount * 100.0).round() as i64
}

/// `AED 57.20` in a sentence.
fn aed(fils: i64) -> String {
    format!("AED {}.{:02}", fils / 100, fils % 100)
}

/// The first `AED n` amount a sentence names, in fils.
fn amount_in(text: &str) -> i64 {
    let found = regex::Regex::new(r"AED ([0-9]+)\.([0-9]{2})")
        .expect("a pattern")
        .captures(text)
        .unwrap_or_else(|| panic!("no amount in {text:?}"));
    found[1].parse::<i64>().expect("digits") * 100 + found[2].parse::<i64>().expect("digits")
}

fn hhmm(at: DateTime<Utc>) -> String {
    at.with_timezone(&Dubai).format("%H:%M").to_string()
}

/// `Thu, 3rd Dec`, as the slots label a Dubai day.
fn day_label(at: DateTime<Utc>) -> String {
    let local = at.with_timezone(&Dubai);
    let day: u32 = local.format("%-d").to_string().parse().expect("a day");
    let suffix = match (day % 10, day % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!(
        "{}, {day}{suffix} {}",
        local.format("%a"),
        local.format("%b")
    )
}

fn near(at: &Value) -> Value {
    json!({"latitude": at["latitude"], "longitude": at["longitude"]})
}

fn with(mut args: Value, key: &str, value: Value) -> Value {
    args[key] = value;
    args
}

/// A restaurant as the agent has read it: its search card, menu and item details.
struct Restaurant {
    card: Value,
    menu: Value,
    /// Option id → surcharge, from `food_get_item_details`.
    surcharges: BTreeMap<i64, i64>,
}

impl Restaurant {
    fn id(&self) -> i64 {
        self.card["id"].as_i64().expect("an id")
    }

    fn items(&self) -> Vec<&Value> {
        self.menu["menu"]["categories"]
            .as_array()
            .expect("categories")
            .iter()
            .flat_map(|c| c["items"].as_array().expect("items"))
            .collect()
    }

    fn item(&self, id: i64) -> &Value {
        self.items()
            .into_iter()
            .find(|i| i["id"] == id)
            .unwrap_or_else(|| panic!("the menu of {} lists no item {id}", self.id()))
    }
}

/// Search, then the menu of the first restaurant found: both describe it alike.
fn find(agent: &Agent, at: &Value, query: &str) -> Restaurant {
    let found = agent.ok(
        "food_merchant_search",
        &with(near(at), "query", json!(query)),
    );
    let card = found["restaurants"][0].clone();
    assert!(card.is_object(), "{query:?} finds nothing: {found}");
    let menu = agent.ok(
        "food_get_restaurant_menu",
        &with(near(at), "restaurant_id", card["id"].clone()),
    )["restaurant"]
        .clone();
    for key in [
        "id",
        "name",
        "cuisines",
        "rating",
        "ratingCount",
        "deliveryTime",
        "deliveryFee",
        "minimumOrder",
        "isOpen",
        "opensAt",
        "imageUrl",
    ] {
        assert_eq!(card.get(key), menu.get(key), "{key} of {}", card["id"]);
    }
    Restaurant {
        card,
        menu,
        surcharges: BTreeMap::new(),
    }
}

/// `food_get_item_details` of a menu item: the same item, and its option prices noted.
fn details(agent: &Agent, restaurant: &mut Restaurant, item: &Value) -> Value {
    let details = agent.ok(
        "food_get_item_details",
        &json!({"restaurant_id": restaurant.id(), "item_id": item["id"]}),
    )["item"]
        .clone();
    for key in [
        "id",
        "name",
        "description",
        "price",
        "imageUrl",
        "isAvailable",
    ] {
        assert_eq!(details[key], item[key], "{key} of item {}", item["id"]);
    }
    assert_eq!(details["restaurantId"], restaurant.id());
    let groups = details["optionGroups"].as_array().expect("option groups");
    assert_eq!(item["hasOptions"], !groups.is_empty(), "{}", item["id"]);
    for option in groups
        .iter()
        .flat_map(|g| g["options"].as_array().expect("options"))
    {
        restaurant.surcharges.insert(
            option["id"].as_i64().expect("an id"),
            fils(&option["price"]),
        );
    }
    details
}

/// Every choice of options an agent may send for the item: each group's selections within
/// its bounds, the groups combined.
fn choices(details: &Value) -> Vec<Vec<i64>> {
    let mut all = vec![Vec::new()];
    for group in details["optionGroups"].as_array().expect("groups") {
        let ids: Vec<i64> = group["options"]
            .as_array()
            .expect("options")
            .iter()
            .map(|o| o["id"].as_i64().expect("an id"))
            .collect();
        let (min, max) = (
            group["minSelections"].as_u64().expect("min") as usize,
            group["maxSelections"].as_u64().expect("max") as usize,
        );
        let picks: Vec<Vec<i64>> = (0..1u32 << ids.len())
            .map(|bits| {
                (0..ids.len())
                    .filter(|i| bits & (1 << i) != 0)
                    .map(|i| ids[i])
                    .collect::<Vec<i64>>()
            })
            .filter(|p| (min..=max).contains(&p.len()))
            .collect();
        all = all
            .into_iter()
            .flat_map(|chosen| {
                picks.iter().map(move |p| {
                    let mut next = chosen.clone();
                    next.extend(p);
                    next
                })
            })
            .collect();
    }
    all
}

/// The discount a shown promotion (or Careem Plus) promises for this basket.
fn promised_discount(card: &Value, basket: &Value, plus: bool) -> i64 {
    let Some(promotion) = card.get("promotion") else {
        return 0;
    };
    let label = promotion["label"].as_str().expect("a label");
    let description = promotion["description"].as_str().expect("a description");
    let subtotal = fils(&basket["subtotal"]);
    if let Some(rest) = label.strip_suffix("% off wraps") {
        let percent: i64 = rest.parse().expect("a percentage");
        let wraps: i64 = basket["items"]
            .as_array()
            .expect("lines")
            .iter()
            .filter(|l| l["name"].as_str().is_some_and(|n| n.contains("Wrap")))
            .map(|l| fils(&l["total"]))
            .sum();
        ((wraps * percent + 50) / 100).min(amount_in(description))
    } else if label == "Free delivery with Careem Plus" {
        if plus && subtotal >= amount_in(description) {
            fils(&basket["deliveryFee"])
        } else {
            0
        }
    } else if label.ends_with(" off") {
        let from = amount_in(description.split("orders of").nth(1).expect("a threshold"));
        if subtotal >= from {
            amount_in(label)
        } else {
            0
        }
    } else {
        panic!("a promotion the journey does not know: {label}")
    }
}

/// A basket answer against the menu it came from: names and prices, line = unit × quantity,
/// subtotal = Σ lines, total = subtotal + fees − discount, the promotion applied, the minimum.
fn check_basket(restaurant: &Restaurant, basket: &Value, plus: bool) {
    assert_eq!(basket["restaurant"]["id"], restaurant.id(), "{basket}");
    assert_eq!(basket["restaurant"]["name"], restaurant.card["name"]);
    let mut subtotal = 0;
    for line in basket["items"].as_array().expect("lines") {
        let item = restaurant.item(line["itemId"].as_i64().expect("an item id"));
        assert_eq!(line["name"], item["name"], "{line}");
        let options: i64 = line["options"]
            .as_array()
            .expect("options")
            .iter()
            .map(|o| {
                let id = o["id"].as_i64().expect("an option id");
                assert_eq!(
                    Some(&fils(&o["price"])),
                    restaurant.surcharges.get(&id),
                    "{o}"
                );
                fils(&o["price"])
            })
            .sum();
        let unit = fils(&line["unitPrice"]);
        assert_eq!(unit, fils(&item["price"]) + options, "unit price of {line}");
        let quantity = line["quantity"].as_i64().expect("a quantity");
        assert_eq!(
            fils(&line["total"]),
            unit * quantity,
            "line total of {line}"
        );
        subtotal += fils(&line["total"]);
    }
    assert_eq!(fils(&basket["subtotal"]), subtotal, "{basket}");
    assert_eq!(basket["deliveryFee"], restaurant.card["deliveryFee"]);
    let discount = fils(&basket["discount"]);
    assert_eq!(
        discount,
        promised_discount(&restaurant.card, basket, plus),
        "the promotion of {} in {basket}",
        restaurant.id()
    );
    assert_eq!(
        fils(&basket["total"]),
        subtotal + fils(&basket["deliveryFee"]) + fils(&basket["serviceFee"]) - discount,
        "{basket}"
    );
    let minimum = fils(&restaurant.card["minimumOrder"]);
    assert_eq!(basket["meetsMinimumOrder"], subtotal >= minimum, "{basket}");
    if subtotal < minimum {
        assert_eq!(basket["minimumOrder"], restaurant.card["minimumOrder"]);
    }
}

/// The status of an order just placed: the same restaurant, lines and money as its basket.
fn check_new_order(agent: &Agent, order_id: &Value, basket: &Value) {
    let status = agent.ok("food_get_order_status", &json!({"order_id": order_id}))["order"].clone();
    assert_eq!(&status["id"], order_id);
    assert_eq!(status["status"], "PLACED");
    assert_eq!(status["restaurant"], basket["restaurant"]);
    for key in ["subtotal", "deliveryFee", "serviceFee", "discount", "total"] {
        assert_eq!(fils(&status[key]), fils(&basket[key]), "{key}: {status}");
    }
    // (item, quantity, line total) of each line.
    let lines = |list: &Value| -> Vec<(Value, Value, i64)> {
        list.as_array()
            .unwrap_or_else(|| panic!("lines: {list}"))
            .iter()
            .map(|l| {
                (
                    l["itemId"].clone(),
                    l["quantity"].clone(),
                    fils(&l["total"]),
                )
            })
            .collect()
    };
    assert_eq!(lines(&status["items"]), lines(&basket["items"]));
    assert_eq!(
        time(&status["placedAt"]),
        agent.now,
        "placed when food_place_order said: {status}"
    );
}

/// Slots never lie in the past and each sits under the Dubai day it starts on.
fn check_slots(agent: &Agent, restaurant: &Restaurant, at: &Value) -> Vec<String> {
    let slots = agent.ok(
        "food_get_delivery_slots",
        &with(near(at), "restaurant_id", json!(restaurant.id())),
    );
    assert_eq!(slots["restaurantId"], restaurant.id());
    assert_eq!(
        slots["asap"]["estimatedDeliveryMinutes"],
        restaurant.card["deliveryTime"]
    );
    let max = restaurant.card["deliveryTime"]["max"]
        .as_i64()
        .expect("max");
    assert_eq!(
        time(&slots["asap"]["estimatedDeliveryAt"]),
        agent.now + Duration::minutes(max)
    );
    let mut starts = Vec::new();
    for day in slots["days"].as_array().expect("days") {
        for slot in day["slots"].as_array().expect("slots") {
            let (start, end) = (time(&slot["start"]), time(&slot["end"]));
            assert!(start > agent.now, "a slot in the past: {slot}");
            assert_eq!(end - start, Duration::minutes(20));
            let local = start.with_timezone(&Dubai);
            assert_eq!(day["date"], local.format("%Y-%m-%d").to_string(), "{day}");
            assert_eq!(day["weekday"], local.format("%A").to_string(), "{day}");
            assert_eq!(day["label"], day_label(start), "{day}");
            assert_eq!(slot["label"], format!("{} – {}", hhmm(start), hhmm(end)));
            if slot["isAvailable"] == true {
                starts.push(slot["start"].as_str().expect("a start").to_string());
            }
        }
    }
    assert!(!starts.is_empty(), "no slot to book at {}", restaurant.id());
    starts
}

/// Places the basket with every payment method and follows each new order; Careem Pay is
/// refused when its balance does not cover the total. Then a scheduled order, and a slot that
/// is not one.
fn order_everyway(agent: &Agent, basket: &Value, home: &Value, slots: &[String], balance: i64) {
    let total = fils(&basket["total"]);
    let methods = agent.ok("get_payment_methods", &json!({}));
    for method in methods["paymentMethods"].as_array().expect("methods") {
        let args = json!({
            "basket_id": basket["id"],
            "payment_method_id": method["id"],
            "delivery_location_uuid": home["locationUuid"],
        });
        if method["id"] == "PM-CAREEM-PAY" && total > balance {
            let error = agent.refused("food_place_order", &args);
            assert!(
                error.contains(&aed(balance)) && error.contains(&aed(total)),
                "{error}"
            );
            continue;
        }
        let order = agent.ok("food_place_order", &args)["order"].clone();
        assert_eq!(order["restaurant"], basket["restaurant"], "{order}");
        assert_eq!(order["basketId"], basket["id"]);
        assert_eq!(fils(&order["total"]), total, "{order}");
        assert_eq!(order["paymentMethodId"], method["id"]);
        assert_eq!(order["notes"], Value::Null);
        assert_eq!(time(&order["placedAt"]), agent.now);
        assert!(time(&order["estimatedDeliveryAt"]) > agent.now, "{order}");
        check_new_order(agent, &order["id"], basket);
    }
    let scheduled = json!({
        "basket_id": basket["id"],
        "payment_method_id": "PM-9001",
        "delivery_location_uuid": home["locationUuid"],
        "scheduled_slot_start": slots[0],
        "notes": "Please call on arrival",
    });
    let order = agent.ok("food_place_order", &scheduled)["order"].clone();
    assert_eq!(order["isScheduled"], true);
    // The slot in Dubai time, in the words of the order's status, never the raw argument.
    let start = time(&json!(slots[0]));
    let label = order["statusLabel"].as_str().expect("a label");
    assert!(
        label.starts_with("Scheduled for ")
            && label.contains(&format!("{} – ", hhmm(start)))
            && !label.contains(&slots[0]),
        "{label}"
    );
    assert_eq!(
        time(&order["estimatedDeliveryAt"]),
        start + Duration::minutes(20),
        "{order}"
    );
    assert_eq!(order["notes"], "Please call on arrival");
    assert_eq!(fils(&order["total"]), total);
    check_new_order(agent, &order["id"], basket);
    let error = agent.refused(
        "food_place_order",
        &with(scheduled, "scheduled_slot_start", json!("tomorrow 8pm")),
    );
    assert!(error.contains("food_get_delivery_slots"), "{error}");
}

/// The Careem Pay balance and the Careem Plus membership, as the account tools tell them.
fn account(agent: &Agent) -> (i64, bool) {
    let methods = agent.ok("get_payment_methods", &json!({}));
    let careem_pay = methods["paymentMethods"]
        .as_array()
        .and_then(|all| all.iter().find(|m| m["id"] == "PM-CAREEM-PAY"))
        .unwrap_or_else(|| panic!("no Careem Pay in {methods}"));
    let profile = agent.ok("get_user_profile", &json!({}));
    (
        fils(&careem_pay["balance"]),
        profile["user"]["careemPlus"]["active"] == true,
    )
}

#[test]
fn each_restaurant_is_searched_ordered_from_and_followed_at_any_hour() {
    for clock in CLOCKS {
        let agent = Agent::at(clock);
        let home = agent.home();
        let (balance, plus) = account(&agent);
        for (query, name) in SEARCHES {
            let mut restaurant = find(&agent, &home, query);
            assert_eq!(restaurant.card["name"]["value"], name, "{query:?}");
            let items: Vec<Value> = restaurant
                .items()
                .into_iter()
                .filter(|i| i["isAvailable"] == true)
                .cloned()
                .collect();
            let with_options = items.iter().find(|i| i["hasOptions"] == true);
            let plain = items
                .iter()
                .find(|i| i["hasOptions"] == false)
                .expect("a plain item");
            // The item with options (each group's last allowed choice) twice, a plain item
            // once; each line then set to three.
            let mut baskets = Vec::new();
            for (item, quantity) in with_options.into_iter().map(|i| (i, 2)).chain([(plain, 1)]) {
                let details = details(&agent, &mut restaurant, item);
                let options = choices(&details).pop().expect("a choice");
                let added = agent.ok(
                    "cart_add_item",
                    &json!({
                        "restaurant_id": restaurant.id(),
                        "item_id": item["id"],
                        "quantity": quantity,
                        "option_ids": options,
                    }),
                );
                let basket = &added["basket"];
                check_basket(&restaurant, basket, plus);
                let line = &basket["items"][0];
                assert_eq!(added["addedBasketItemId"], line["basketItemId"]);
                assert_eq!(line["itemId"], item["id"]);
                assert_eq!(line["quantity"], quantity);
                assert_eq!(line["notes"], Value::Null);
                assert_eq!(time(&basket["updatedAt"]), agent.now);
                baskets.push(basket.clone());
                // Three of the same, by changing the line's quantity.
                let updated = agent.ok(
                    "cart_update_item",
                    &json!({"basket_item_id": line["basketItemId"], "quantity": 3}),
                )["basket"]
                    .clone();
                check_basket(&restaurant, &updated, plus);
                assert_eq!(updated["items"][0]["basketItemId"], line["basketItemId"]);
                assert_eq!(updated["items"][0]["quantity"], 3);
                baskets.push(updated);
            }
            let slots = check_slots(&agent, &restaurant, &home);
            for basket in baskets.iter().filter(|b| b["meetsMinimumOrder"] == true) {
                order_everyway(&agent, basket, &home, &slots, balance);
            }
        }
    }
}

/// Every item every menu lists: its details agree with the menu, and every choice of options
/// at every quantity from 1 to 5 makes a basket that adds up, that `cart_update_item` reaches
/// too, and that orders for its own total.
#[test]
fn every_listed_item_answers_alike_in_details_basket_and_order() {
    let agent = Agent::at(CLOCKS[2]);
    let home = agent.home();
    let (_, plus) = account(&agent);
    let everything = agent.ok(
        "food_merchant_search",
        &with(near(&home), "query", json!("restaurant")),
    );
    let mut seen = 0;
    for card in everything["restaurants"].as_array().expect("restaurants") {
        let name = card["name"]["value"].as_str().expect("a name");
        let mut restaurant = find(&agent, &home, name);
        assert_eq!(&restaurant.card, card);
        for item in restaurant.items().into_iter().cloned().collect::<Vec<_>>() {
            let details = details(&agent, &mut restaurant, &item);
            seen += 1;
            if item["isAvailable"] != true || restaurant.card["isOpen"] != true {
                continue;
            }
            for options in choices(&details) {
                let mut line_id = None;
                for quantity in 1..=5 {
                    let args = json!({
                        "restaurant_id": restaurant.id(),
                        "item_id": item["id"],
                        "quantity": quantity,
                        "option_ids": options,
                    });
                    let basket = agent.ok("cart_add_item", &args)["basket"].clone();
                    check_basket(&restaurant, &basket, plus);
                    let line = basket["items"][0]["basketItemId"].clone();
                    let first = line_id.get_or_insert_with(|| line.clone());
                    assert_eq!(&line, first, "one line id for {args}");
                    let updated = agent.ok(
                        "cart_update_item",
                        &json!({"basket_item_id": line, "quantity": quantity}),
                    )["basket"]
                        .clone();
                    assert_eq!(updated["id"], basket["id"], "{args}");
                    let order = json!({
                        "basket_id": basket["id"],
                        "payment_method_id": "PM-9001",
                        "delivery_location_uuid": home["locationUuid"],
                    });
                    if basket["meetsMinimumOrder"] == true {
                        let placed = agent.ok("food_place_order", &order)["order"].clone();
                        assert_eq!(fils(&placed["total"]), fils(&basket["total"]));
                        check_new_order(&agent, &placed["id"], &basket);
                    } else {
                        let error = agent.refused("food_place_order", &order);
                        assert!(
                            error.contains(&aed(fils(&basket["subtotal"])))
                                && error.contains(&aed(fils(&basket["minimumOrder"]))),
                            "{error}"
                        );
                    }
                }
                let removed = agent.ok(
                    "cart_update_item",
                    &json!({"basket_item_id": line_id, "quantity": 0}),
                );
                assert_eq!(removed["removedBasketItemId"], line_id.expect("a line"));
                assert_eq!(removed["basket"]["items"], json!([]));
            }
        }
    }
    assert!(seen >= 30, "only {seen} items on the menus");
}

#[test]
fn refusals_read_as_production_words_them_and_agree_with_each_other() {
    // Green Bowl Kitchen opens at 11:00 Dubai time on a Wednesday and a Thursday.
    for (clock, opening) in [
        (CLOCKS[0], "2026-12-02T07:00:00Z"),
        (CLOCKS[3], "2026-12-03T07:00:00Z"),
    ] {
        let agent = Agent::at(clock);
        let home = agent.home();
        // The closed restaurant: one opening time in search, menu and the refusal of an order
        // for now; slots from its opening, and an order scheduled for one of them.
        let closed = find(&agent, &home, "salad");
        assert_eq!(closed.card["isOpen"], false);
        let opens = time(&closed.menu["opensAt"]);
        assert_eq!(opens, time(&json!(opening)));
        assert_eq!(closed.card["opensAt"], closed.menu["opensAt"]);
        let label = closed.menu["statusLabel"].as_str().expect("a label");
        assert!(label.contains(&hhmm(opens)), "{label}");
        let slots = agent.ok(
            "food_get_delivery_slots",
            &with(near(&home), "restaurant_id", json!(closed.id())),
        );
        assert_eq!(slots["asap"]["available"], false, "{slots}");
        let starts: Vec<Value> = slots["days"]
            .as_array()
            .expect("days")
            .iter()
            .flat_map(|d| d["slots"].as_array().expect("slots").clone())
            .collect();
        assert!(starts.iter().all(|s| time(&s["start"]) >= opens), "{slots}");
        let bowl = closed.items()[0].clone();
        let details = agent.ok(
            "food_get_item_details",
            &json!({"restaurant_id": closed.id(), "item_id": bowl["id"]}),
        )["item"]
            .clone();
        let options = choices(&details).pop().expect("a choice");
        let basket = agent.ok(
            "cart_add_item",
            &json!({"restaurant_id": closed.id(), "item_id": bowl["id"], "quantity": 2, "option_ids": options}),
        )["basket"]
            .clone();
        let now = json!({
            "basket_id": basket["id"],
            "payment_method_id": "PM-9001",
            "delivery_location_uuid": home["locationUuid"],
        });
        let error = agent.refused("food_place_order", &now);
        assert!(
            error.contains(&format!("opens at {}", hhmm(opens))),
            "{error}"
        );
        let slot = starts
            .iter()
            .find(|s| s["isAvailable"] == true)
            .expect("a slot to book");
        let scheduled = agent.ok(
            "food_place_order",
            &with(now, "scheduled_slot_start", slot["start"].clone()),
        )["order"]
            .clone();
        assert_eq!(scheduled["isScheduled"], true, "{scheduled}");
        // Sold-out items, wherever they are listed.
        for query in ["shawarma", "sushi", "burger", "syrniki", "biryani"] {
            let restaurant = find(&agent, &home, query);
            for item in restaurant
                .items()
                .into_iter()
                .filter(|i| i["isAvailable"] == false)
            {
                let error = agent.refused(
                    "cart_add_item",
                    &json!({"restaurant_id": restaurant.id(), "item_id": item["id"]}),
                );
                assert!(error.contains("unavailable"), "{error}");
            }
        }
        // An option group left out, too many of one item, an item of another restaurant.
        let shawarma = find(&agent, &home, "shawarma");
        let wrap = &shawarma.items()[0];
        assert_eq!(wrap["hasOptions"], true);
        for (args, words) in [
            (
                json!({"restaurant_id": 30101, "item_id": wrap["id"]}),
                "needs 1 option",
            ),
            (
                json!({"restaurant_id": 30101, "item_id": wrap["id"], "quantity": 6, "option_ids": [301010111]}),
                "quantity 6",
            ),
            (
                json!({"restaurant_id": 30102, "item_id": wrap["id"]}),
                "404",
            ),
        ] {
            let error = agent.refused("cart_add_item", &args);
            assert!(error.contains(words), "{args}: {error}");
        }
        // Below the minimum: the same subtotal in the basket, the order and the forced answers.
        let below =
            agent.forced("cart_get_basket", "below-minimum-order", &json!({}))["basket"].clone();
        assert_eq!(below["meetsMinimumOrder"], false);
        let order = json!({
            "basket_id": below["id"],
            "payment_method_id": "PM-9001",
            "delivery_location_uuid": home["locationUuid"],
        });
        let error = agent.refused("food_place_order", &order);
        let forced = agent.forced("food_place_order", "below-minimum-order", &order);
        assert_eq!(forced["error"], error);
        for money in [&below["subtotal"], &below["minimumOrder"]] {
            assert!(error.contains(&aed(fils(money))), "{error}");
        }
        assert!(
            agent
                .refused("food_place_order", &with(order, "basket_id", json!(1)))
                .contains("404")
        );
    }
}

#[test]
fn listed_orders_read_the_same_in_their_status() {
    for clock in [CLOCKS[1], CLOCKS[3]] {
        let agent = Agent::at(clock);
        let (_, plus) = account(&agent);
        let home = agent.home();
        let listed = agent.ok("food_list_orders", &json!({}))["orders"].clone();
        let listed = listed.as_array().expect("orders");
        assert_eq!(listed.len(), 4);
        assert_eq!(
            agent.ok("food_list_orders", &json!({"limit": 2}))["orders"],
            json!(listed[..2])
        );
        for entry in listed {
            let order =
                agent.ok("food_get_order_status", &json!({"order_id": entry["id"]}))["order"]
                    .clone();
            for key in [
                "id",
                "restaurant",
                "status",
                "statusLabel",
                "total",
                "placedAt",
            ] {
                assert_eq!(order[key], entry[key], "{key} of {}", entry["id"]);
            }
            assert!(time(&order["placedAt"]) < agent.now);
            if let Some(eta) = order.get("estimatedDeliveryAt") {
                assert!(time(eta) > agent.now, "{order}");
            }
            let count: i64 = order["items"]
                .as_array()
                .expect("items")
                .iter()
                .map(|l| l["quantity"].as_i64().expect("a quantity"))
                .sum();
            assert_eq!(entry["itemCount"], count);
            // The order's money, against the menu it was ordered from.
            let name = order["restaurant"]["name"]["value"]
                .as_str()
                .expect("a name");
            let mut restaurant = find(&agent, &home, name);
            for line in order["items"].as_array().expect("items") {
                let item = restaurant
                    .item(line["itemId"].as_i64().expect("an id"))
                    .clone();
                let details = details(&agent, &mut restaurant, &item);
                let names: Vec<&Value> = details["optionGroups"]
                    .as_array()
                    .expect("groups")
                    .iter()
                    .flat_map(|g| g["options"].as_array().expect("options"))
                    .collect();
                let surcharge: i64 =
                    line.get("options")
                        .and_then(Value::as_array)
                        .map_or(0, |chosen| {
                            chosen
                                .iter()
                                .map(|name| {
                                    let option = names
                                        .iter()
                                        .find(|o| &o["name"] == name)
                                        .unwrap_or_else(|| panic!("no option {name}"));
                                    fils(&option["price"])
                                })
                                .sum()
                        });
                let quantity = line["quantity"].as_i64().expect("a quantity");
                assert_eq!(
                    fils(&line["total"]),
                    (fils(&item["price"]) + surcharge) * quantity,
                    "{line}"
                );
            }
            let basket = json!({
                "items": order["items"],
                "subtotal": order["subtotal"],
                "deliveryFee": order["deliveryFee"],
            });
            assert_eq!(
                fils(&order["discount"]),
                promised_discount(&restaurant.card, &basket, plus),
                "{order}"
            );
            let lines: i64 = order["items"]
                .as_array()
                .expect("items")
                .iter()
                .map(|l| fils(&l["total"]))
                .sum();
            assert_eq!(fils(&order["subtotal"]), lines);
            assert_eq!(
                fils(&order["total"]),
                lines + fils(&order["deliveryFee"]) + fils(&order["serviceFee"])
                    - fils(&order["discount"])
            );
        }
    }
}

/// The forced lifecycle follows an order just placed from the user's basket: the same id, the
/// same money, one courier.
#[test]
fn the_forced_lifecycle_follows_an_order_placed_from_the_active_basket() {
    let agent = Agent::at(CLOCKS[3]);
    let home = agent.home();
    let basket = agent.ok("cart_get_basket", &json!({}))["basket"].clone();
    let order = agent.ok(
        "food_place_order",
        &json!({
            "basket_id": basket["id"],
            "payment_method_id": "PM-CASH",
            "delivery_location_uuid": home["locationUuid"],
        }),
    )["order"]
        .clone();
    check_new_order(&agent, &order["id"], &basket);
    let mut couriers = Vec::new();
    let mut placed = Vec::new();
    for (scenario, status) in [
        ("placed", "PLACED"),
        ("preparing", "PREPARING"),
        ("on-the-way", "ON_THE_WAY"),
        ("delivered", "DELIVERED"),
    ] {
        let followed = agent.forced(
            "food_get_order_status",
            scenario,
            &json!({"order_id": order["id"]}),
        )["order"]
            .clone();
        assert_eq!(followed["id"], order["id"]);
        assert_eq!(followed["status"], status);
        assert_eq!(followed["restaurant"], basket["restaurant"]);
        assert_eq!(fils(&followed["total"]), fils(&basket["total"]));
        let steps = followed["timeline"].as_array().expect("a timeline");
        assert_eq!(steps.last().expect("a step")["status"], status);
        assert!(steps.iter().all(|s| time(&s["time"]) <= agent.now));
        placed.push(time(&followed["placedAt"]));
        if let Some(courier) = followed.get("captain") {
            couriers.push((courier["name"].clone(), courier["phone"].clone()));
        }
    }
    assert!(placed.windows(2).all(|w| w[0] >= w[1]), "{placed:?}");
    couriers.dedup();
    assert_eq!(couriers.len(), 1, "{couriers:?}");
}

/// The five places: food is searched around each and ordered to it, and the answers echo its
/// coordinates and uuid.
#[test]
fn every_place_is_searched_around_and_delivered_to() {
    let agent = Agent::at(CLOCKS[1]);
    let basket = agent.ok("cart_get_basket", &json!({}))["basket"].clone();
    let mut uuids = std::collections::BTreeSet::new();
    for query in [
        "marina",
        "dubai mall",
        "airport",
        "mall of the emirates",
        "internet city",
    ] {
        let place = agent.ok("search_locations", &json!({"query": query}))["locations"][0].clone();
        uuids.insert(place["locationUuid"].to_string());
        let found = agent.ok(
            "food_merchant_search",
            &with(near(&place), "query", json!("sushi")),
        );
        assert_eq!(found["deliveryLocation"], near(&place));
        assert_eq!(found["restaurants"][0]["id"], 30102, "{query}");
        let menu = agent.ok(
            "food_get_restaurant_menu",
            &with(near(&place), "restaurant_id", json!(30102)),
        );
        assert_eq!(menu["deliveryLocation"], near(&place));
        let order = agent.ok(
            "food_place_order",
            &json!({
                "basket_id": basket["id"],
                "payment_method_id": "PM-9002",
                "delivery_location_uuid": place["locationUuid"],
            }),
        )["order"]
            .clone();
        assert_eq!(order["deliveryLocationUuid"], place["locationUuid"]);
        check_new_order(&agent, &order["id"], &basket);
    }
    assert_eq!(uuids.len(), 5, "{uuids:?}");
}

/// Arguments an agent may send besides the sample ones: each answer still fits its
/// `outputSchema` (checked by every call), echoes text only as text, and refuses what it
/// cannot take.
#[test]
fn odd_arguments_are_answered_honestly() {
    let agent = Agent::at(CLOCKS[3]);
    let home = agent.home();
    let odd = "sushi \"omakase\"\n<b>\\ 🍣";
    let found = agent.ok(
        "food_merchant_search",
        &with(near(&home), "query", json!(odd)),
    );
    assert_eq!(found["query"], odd);
    let notes = "no \"onions\" \\ {{now}}";
    let added = agent.ok(
        "cart_add_item",
        &json!({"restaurant_id": 30103, "item_id": 3010302, "notes": notes}),
    );
    assert_eq!(added["basket"]["items"][0]["notes"], notes);
    for (tool, args) in [
        ("cart_get_basket", json!({"restaurant_id": 999})),
        ("cart_get_basket", json!({})),
        ("food_list_orders", json!({"limit": 50})),
        (
            "food_merchant_search",
            with(near(&home), "query", json!("")),
        ),
    ] {
        agent.ok(tool, &args);
    }
    for (tool, args) in [
        ("food_get_order_status", json!({"order_id": 0})),
        (
            "food_get_item_details",
            json!({"restaurant_id": 30102, "item_id": 3010101}),
        ),
        (
            "food_get_restaurant_menu",
            with(near(&home), "restaurant_id", json!(-1)),
        ),
        (
            "cart_update_item",
            json!({"basket_item_id": 1, "quantity": 2}),
        ),
        (
            "food_place_order",
            json!({
                "basket_id": 880001,
                "payment_method_id": "PM-9001",
                "delivery_location_uuid": home["locationUuid"],
                "scheduled_slot_start": "2026-12-03T20:00:00+04:00",
            }),
        ),
    ] {
        agent.refused(tool, &args);
    }
}

/// The tools that take a delivery point, each with the other arguments of a call.
fn delivered_to() -> [(&'static str, Value); 3] {
    [
        ("food_merchant_search", json!({"query": "shawarma"})),
        ("food_get_restaurant_menu", json!({"restaurant_id": 30101})),
        ("food_get_delivery_slots", json!({"restaurant_id": 30101})),
    ]
}

fn at(point: &Value, mut args: Value) -> Value {
    for key in ["latitude", "longitude"] {
        args[key] = point[key].clone();
    }
    args
}

/// An order of the active basket delivered to `location` (a `reverse_geocode` answer's).
fn order_to(location: &Value) -> Value {
    json!({
        "basket_id": 880001,
        "payment_method_id": "PM-9001",
        "delivery_location_uuid": location["locationUuid"],
    })
}

#[test]
fn no_food_is_delivered_to_a_point_careem_does_not_serve() {
    let agent = Agent::at(CLOCKS[1]);
    let unserviceable =
        "location not serviceable: careem food does not deliver to this location yet";
    for edge in unserved_points() {
        for (tool, args) in delivered_to() {
            let args = at(&edge.point, args);
            assert_eq!(
                agent.refused(tool, &args),
                unserviceable,
                "{tool} at {}: {args}",
                edge.name
            );
        }
        if edge.lies == Unserved::Abroad {
            let location = agent.ok("reverse_geocode", &edge.point)["location"].clone();
            assert_eq!(
                agent.refused("food_place_order", &order_to(&location)),
                unserviceable,
                "an order to {}: {location}",
                edge.name
            );
        }
    }
    let pin = dubai_pin();
    for (tool, args) in delivered_to() {
        agent.ok(tool, &at(&pin, args));
    }
    let location = agent.ok("reverse_geocode", &pin)["location"].clone();
    let placed = agent.ok("food_place_order", &order_to(&location));
    assert_eq!(placed["order"]["status"], "PLACED", "{placed}");
    let found = agent.ok(
        "food_merchant_search",
        &at(&pin, json!({"query": "shawarma"})),
    );
    assert_eq!(found["restaurants"][0]["id"], 30101, "{found}");
}
