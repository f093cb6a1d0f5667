//! `careem-mcp world [--json]`: the run's world as tables (the clock, the basket, the orders,
//! the rides), or as one JSON object.

use anyhow::Context;
use serde_json::Value;

use super::engine_config;
use crate::cli::args::GlobalArgs;
use crate::cli::{Status, printer};
use crate::engine::duration::{self, Unit};
use crate::engine::{ClockSetting, Engine, MadeBy, ProjectLayout, WorldView};

pub fn run(global: &GlobalArgs, layout: &ProjectLayout, json: bool) -> anyhow::Result<Status> {
    // The world a run remembers is what `serve --stateful` serves, whatever this process's
    // flag: reading it changes nothing.
    let mut config = engine_config(global, layout)?;
    config.stateful = true;
    let engine = Engine::load(config).with_context(|| {
        format!(
            "the tool files in {} have problems (run `careem-mcp lint`)",
            layout.tools.display()
        )
    })?;
    print(&engine.world_view(), json)
}

/// Prints the world, here or through the API.
pub fn print(view: &WorldView, json: bool) -> anyhow::Result<Status> {
    if json {
        printer::out(&serde_json::to_string_pretty(view)?)?;
    } else {
        printer::out(&tables(view))?;
    }
    Ok(Status::Success)
}

/// The view as a person reads it.
fn tables(view: &WorldView) -> String {
    let mut parts = vec![clock_line(view)];
    parts.push(match &view.basket {
        None => "basket: empty".to_string(),
        Some(basket) => basket_table(basket),
    });
    parts.push(if view.orders.is_empty() {
        "orders: none".to_string()
    } else {
        let mut table = printer::table(&[
            "order",
            "restaurant",
            "status",
            "total",
            "placed",
            "made by",
        ]);
        for order in &view.orders {
            let order_of = |key: &str| order.answer.get(key);
            table.add_row(vec![
                text(order_of("id")),
                text(order_of("restaurant").and_then(|r| r.get("name"))),
                text(order_of("status")),
                money(order_of("total")),
                text(order_of("placedAt")),
                made_by(order.made_by).to_string(),
            ]);
        }
        format!("orders (as food_list_orders lists them):\n{table}")
    });
    parts.push(if view.rides.is_empty() {
        "rides: none".to_string()
    } else {
        let mut table =
            printer::table(&["ride", "product", "status", "fare", "captain", "made by"]);
        for ride in &view.rides {
            let ride_of = |key: &str| ride.answer.get(key);
            let fare = ride_of("finalFare")
                .or_else(|| ride_of("fare"))
                .or_else(|| ride_of("fareEstimate"));
            table.add_row(vec![
                text(ride_of("rideId")),
                text(
                    ride_of("product")
                        .and_then(|p| p.get("name"))
                        .or_else(|| ride_of("productName")),
                ),
                text(ride_of("status")),
                money(fare),
                text(ride_of("captain").and_then(|c| c.get("name"))),
                made_by(ride.made_by).to_string(),
            ]);
        }
        format!("rides (as ride_get_status tells them):\n{table}")
    });
    parts.join("\n\n")
}

fn clock_line(view: &WorldView) -> String {
    let now = view.clock.now.format("%Y-%m-%dT%H:%M:%SZ");
    let how = match (view.clock.fixed, view.clock.setting) {
        (true, _) => "fixed by --clock".to_string(),
        (false, None) => "real time".to_string(),
        (false, Some(ClockSetting::Frozen(_))) => "frozen".to_string(),
        (false, Some(ClockSetting::Offset(seconds))) => {
            format!(
                "real time + {}",
                duration::words(seconds.saturating_mul(1_000), Unit::Day)
            )
        }
    };
    format!("clock: {now} ({how})")
}

fn basket_table(basket: &Value) -> String {
    let mut table = printer::table(&["line", "item", "quantity", "total"]);
    for line in basket
        .get("items")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        table.add_row(vec![
            text(line.get("basketItemId")),
            text(line.get("name")),
            text(line.get("quantity")),
            money(line.get("total")),
        ]);
    }
    format!(
        "basket {} at {}: total {}\n{table}",
        text(basket.get("id")),
        text(basket.pointer("/restaurant/name")),
        money(basket.get("total")),
    )
}

/// Who made an order or a ride, in a word.
fn made_by(made_by: MadeBy) -> &'static str {
    match made_by {
        MadeBy::Seed => "seed",
        MadeBy::Agent => "agent",
    }
}

/// A value as a cell: a string as it is, a localised name by its English, anything else as
/// JSON; nothing as `-`.
fn text(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => "-".to_string(),
        Some(Value::String(text)) => text.clone(),
        Some(Value::Object(map)) if map.contains_key("value") => text(map.get("value")),
        Some(other) => other.to_string(),
    }
}

/// Money as `AED 24.50`.
fn money(value: Option<&Value>) -> String {
    match value.and_then(|v| Some((v.get("amount")?.as_f64()?, v.get("currency")?.as_str()?))) {
        Some((amount, currency)) => format!("{currency} {amount:.2}"),
        None => text(value),
    }
}
