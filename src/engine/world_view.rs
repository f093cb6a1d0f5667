//! The run's world as a person looks at it (`careem-mcp world`, the dashboard's World view):
//! the clock, and the basket, orders and rides as the read-only tools answer for them now, so
//! that what a person sees is what an agent would see: the orders `food_list_orders` lists and
//! the rides `ride_get_status` tells, the seed world's among them, each marked with who made it.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::world::Setting;
use super::{CallRequest, Engine, Origin};

/// The run's world now.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorldView {
    pub clock: ClockView,
    /// Whether the tools answer from this run's state (`--stateful`) or the seed.
    pub stateful: bool,
    /// `cart_get_basket`'s `basket`, when there is one.
    pub basket: Option<Value>,
    /// `food_list_orders`' `orders`, every one of them, newest first.
    pub orders: Vec<Listed>,
    /// `ride_get_status`'s `ride` for each seed ride and each ride of the state, newest first.
    pub rides: Vec<Listed>,
    /// The state as stored.
    pub state: Value,
}

/// One order or ride as its tool answers for it, and who made it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Listed {
    #[serde(rename = "madeBy")]
    pub made_by: MadeBy,
    #[serde(flatten)]
    pub answer: Map<String, Value>,
}

/// Who made an order or a ride.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MadeBy {
    /// The seed world holds it (`food_orders.json` `pastOrders`, `rides.json` `seedRides`).
    Seed,
    /// A call of this run made it.
    Agent,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct ClockView {
    pub now: DateTime<Utc>,
    /// The run's clock file; `None` for the real time.
    pub setting: Option<Setting>,
    /// Whether `--clock` fixes the time for this process, whatever the file says.
    pub fixed: bool,
}

/// As many orders as `food_list_orders` may list: its `limit` has no maximum.
const EVERY_ORDER: u32 = u32::MAX;

impl Engine {
    /// The world of this engine's run as `serve --stateful` keeps it, read through its tools
    /// without journalling (reading changes nothing, so it is the same in either mode).
    pub fn world_view(&self) -> WorldView {
        self.viewing().view()
    }

    fn view(&self) -> WorldView {
        let state = self.state().unwrap_or_else(|| json!({}));
        let data = self
            .world()
            .map(|generation| Value::Object(generation.data().clone()))
            .unwrap_or_default();
        let basket = self
            .read_tool("cart_get_basket", Map::new(), "basket")
            .filter(|basket| {
                basket
                    .get("items")
                    .and_then(Value::as_array)
                    .is_some_and(|items| !items.is_empty())
            });
        let seed_orders = ids(&data, "/food_orders/pastOrders", "id");
        let every = Map::from_iter([("limit".to_string(), json!(EVERY_ORDER))]);
        let orders = self
            .read_tool("food_list_orders", every, "orders")
            .and_then(|orders| match orders {
                Value::Array(orders) => Some(orders),
                _ => None,
            })
            .unwrap_or_default()
            .into_iter()
            .filter_map(|order| listed(order, "id", &seed_orders))
            .collect();
        let seed_rides = ids(&data, "/rides/seedRides", "rideId");
        let mut rides: Vec<Listed> = seed_rides
            .iter()
            .chain(&ids(&state, "/rides", "rideId"))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .filter_map(|id| {
                let id = serde_json::from_str(id).ok()?;
                let args = Map::from_iter([("rideId".to_string(), id)]);
                let ride = self.read_tool("ride_get_status", args, "ride")?;
                listed(ride, "rideId", &seed_rides)
            })
            .collect();
        // RFC 3339 times in UTC with one precision sort as text; a ride without one goes last.
        rides.sort_by(|a, b| created(b).cmp(&created(a)));
        WorldView {
            clock: ClockView {
                now: self.now(),
                setting: self.clock().setting(),
                fixed: self.config().clock.is_some(),
            },
            stateful: self.config().stateful,
            basket,
            orders,
            rides,
            state,
        }
    }

    /// The `key` of `tool`'s answer to `args`, when the tool exists and answers with one.
    fn read_tool(&self, tool: &str, args: Map<String, Value>, key: &str) -> Option<Value> {
        self.tool(tool)?;
        let output = self.answer(&CallRequest::new(Origin::Cli, tool, Some(args)));
        output.value.as_ref()?.get(key).cloned()
    }
}

/// The `id` of each entry of the array at `pointer` in `value`, as compact JSON.
fn ids(value: &Value, pointer: &str, id: &str) -> BTreeSet<String> {
    value
        .pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|entry| Some(entry.get(id)?.to_string()))
        .collect()
}

/// An answer's object, made by the seed when its `id` is one of `seed`'s.
fn listed(answer: Value, id: &str, seed: &BTreeSet<String>) -> Option<Listed> {
    let Value::Object(answer) = answer else {
        return None;
    };
    let made_by = match answer.get(id) {
        Some(id) if seed.contains(&id.to_string()) => MadeBy::Seed,
        _ => MadeBy::Agent,
    };
    Some(Listed { made_by, answer })
}

/// When a ride was made, as its answer says.
fn created(ride: &Listed) -> Option<&str> {
    ride.answer.get("createdAt").and_then(Value::as_str)
}
