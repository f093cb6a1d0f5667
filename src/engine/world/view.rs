//! The run's world as a person looks at it (`careem-mcp world`, the dashboard's World view):
//! the clock, and the basket, orders and rides as the read-only tools answer for them now, so
//! that a status follows the clock exactly as an agent would see it.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::clock::Setting;
use crate::engine::{CallRequest, Engine, Origin};

/// The run's world now.
#[derive(Debug, Clone, Serialize)]
pub struct WorldView {
    pub clock: ClockView,
    /// Whether the tools answer from this run's state (`--stateful`) or the seed.
    pub stateful: bool,
    /// `cart_get_basket`'s `basket`, when there is one.
    pub basket: Option<Value>,
    /// `food_get_order_status`'s `order` for each order of the state, newest first.
    pub orders: Vec<Value>,
    /// `ride_get_status`'s `ride` for each ride of the state, newest first.
    pub rides: Vec<Value>,
    /// The state as stored.
    pub state: Value,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct ClockView {
    pub now: DateTime<Utc>,
    /// The run's clock file; `None` for the real time.
    pub setting: Option<Setting>,
    /// Whether `--clock` fixes the time for this process, whatever the file says.
    pub fixed: bool,
}

impl Engine {
    /// The world of this engine's run as `serve --stateful` keeps it, read through its tools
    /// without journalling (reading changes nothing, so it is the same in either mode).
    pub fn world_view(&self) -> WorldView {
        let mut config = self.config().clone();
        config.stateful = true;
        self.sharing_with(config).view()
    }

    fn view(&self) -> WorldView {
        let state = self.state().unwrap_or_else(|| json!({}));
        let ids = |key: &str, id: &str| -> Vec<Value> {
            state
                .get(key)
                .and_then(Value::as_array)
                .map(|entries| entries.iter().filter_map(|e| e.get(id).cloned()).collect())
                .unwrap_or_default()
        };
        let basket = self
            .read_tool("cart_get_basket", Map::new(), "basket")
            .filter(|basket| {
                basket
                    .get("items")
                    .and_then(Value::as_array)
                    .is_some_and(|items| !items.is_empty())
            });
        let orders = ids("orders", "id")
            .into_iter()
            .filter_map(|id| {
                let args = Map::from_iter([("order_id".to_string(), id)]);
                self.read_tool("food_get_order_status", args, "order")
            })
            .collect();
        let rides = ids("rides", "rideId")
            .into_iter()
            .filter_map(|id| {
                let args = Map::from_iter([("rideId".to_string(), id)]);
                self.read_tool("ride_get_status", args, "ride")
            })
            .collect();
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
