//! docs/DATA_WORLD.md, "Add a restaurant", followed word for word: the entry the page shows is
//! added to a copy of `tools/world/food.json` while a server runs, `lint` passes, and an agent
//! finds, orders and follows it without a restart, with and without `--stateful`. The same entry
//! under an id outside 30101–30109 is ordered too: static mode's ids carry any restaurant.

use serde_json::{Value, json};

use crate::support::{Client, Project, call, http_client, repo, serve_binary};

/// The JSON entry of the page's "Add a restaurant" section.
fn documented_entry() -> Value {
    let page = std::fs::read_to_string(repo().join("docs/DATA_WORLD.md")).expect("DATA_WORLD.md");
    let section = page
        .split("\n## Add a restaurant\n")
        .nth(1)
        .expect("the section");
    let block = section
        .split("```json\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("a json block");
    serde_json::from_str(block).expect("the entry is JSON")
}

/// `entry` with every id that starts with 30107 starting with `prefix` instead.
fn renumbered(entry: &Value, prefix: &str) -> Value {
    match entry {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| {
                    let value = match value.as_i64() {
                        Some(id) if key == "id" => {
                            let text = id.to_string().replacen("30107", prefix, 1);
                            json!(text.parse::<i64>().expect("an id"))
                        }
                        _ => renumbered(value, prefix),
                    };
                    (key.clone(), value)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| renumbered(v, prefix)).collect()),
        other => other.clone(),
    }
}

async fn ok(client: &Client, tool: &str, args: Value) -> Value {
    let result = call(client, tool, args.clone()).await.expect("a call");
    let value = result["structuredContent"].clone();
    assert!(
        result["isError"] != true && value.get("error").is_none(),
        "{tool} {args}: {result}"
    );
    value
}

/// Step 5 of the page, for the restaurant `id` (its items numbered from it).
async fn journey(client: &Client, stateful: bool, id: i64) {
    let near = json!({"latitude": 25.0866, "longitude": 55.1474});
    let mut search = near.clone();
    search["query"] = json!("thai");
    let found = ok(client, "food_merchant_search", search).await;
    let ids: Vec<&Value> = found["restaurants"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| &r["id"])
        .collect();
    assert!(ids.contains(&&json!(id)), "thai finds {ids:?}");
    let mut menu = near.clone();
    menu["restaurant_id"] = json!(id);
    let menu = ok(client, "food_get_restaurant_menu", menu).await["restaurant"].clone();
    assert_eq!(menu["name"]["value"], "Bangkok Street Kitchen");
    assert_eq!(menu["isOpen"], true, "{menu}");
    let items = menu["menu"]["categories"][0]["items"]
        .as_array()
        .expect("items")
        .clone();
    let available: Vec<bool> = items.iter().map(|i| i["isAvailable"] == true).collect();
    assert_eq!(available, [true, true, false]);
    if stateful {
        ok(client, "cart_clear", json!({})).await;
    }
    let pad_thai = id * 100 + 1;
    let added = ok(
        client,
        "cart_add_item",
        json!({"restaurant_id": id, "item_id": pad_thai, "quantity": 2, "option_ids": [pad_thai * 100 + 12]}),
    )
    .await;
    let basket = added["basket"].clone();
    assert_eq!(basket["subtotal"]["amount"], json!(85), "{basket}");
    let order = ok(
        client,
        "food_place_order",
        json!({"basket_id": basket["id"], "payment_method_id": "PM-9001", "delivery_location_uuid": "LOC-50001"}),
    )
    .await["order"]
        .clone();
    assert_eq!(order["total"], basket["total"]);
    let status = ok(
        client,
        "food_get_order_status",
        json!({"order_id": order["id"]}),
    )
    .await["order"]
        .clone();
    assert_eq!(
        status["restaurant"]["name"]["value"],
        "Bangkok Street Kitchen"
    );
    assert_eq!(status["total"], basket["total"]);
}

#[tokio::test]
async fn the_documented_restaurant_is_added_linted_and_ordered_without_a_restart() {
    for (stateful, id) in [(false, 30107), (true, 30107), (false, 41201), (true, 41201)] {
        let project = Project::copy_of_repo();
        // Wednesday 16:10 in Dubai: open.
        let mut args = vec!["--clock", "2026-12-02T12:10:00Z"];
        if stateful {
            args.push("--stateful");
        }
        let (_server, url, _stderr) = serve_binary(&project, &args);
        let client = http_client(&url).await;
        ok(&client, "get_saved_locations", json!({})).await;
        let path = "tools/world/food.json";
        let mut food: Value = serde_json::from_str(&project.read(path)).expect("food.json");
        food["restaurants"]
            .as_array_mut()
            .expect("restaurants")
            .push(renumbered(&documented_entry(), &id.to_string()));
        project.write(path, &serde_json::to_string_pretty(&food).expect("JSON"));
        let lint = project.run(&["lint"]);
        assert_eq!(
            (lint.code, lint.stdout.as_str(), lint.stderr.as_str()),
            (0, "", "ok: 20 tool files, no problems\n")
        );
        journey(&client, stateful, id).await;
        client.cancel().await.expect("the session ends");
    }
}
