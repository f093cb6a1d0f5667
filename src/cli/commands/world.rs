//! `careem-mcp world [--json]`: the run's world as tables (the clock, the basket, the orders,
//! the rides), or as one JSON object.

use anyhow::Context;
use serde_json::Value;

use super::engine_config;
use crate::cli::args::GlobalArgs;
use crate::cli::{Status, printer};
use crate::engine::{ClockSetting, Engine, ProjectLayout, WorldView};

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
    let view = engine.world_view();
    if json {
        printer::out(&serde_json::to_string_pretty(&view)?)?;
    } else {
        printer::out(&tables(&view))?;
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
        let mut table = printer::table(&["order", "restaurant", "status", "total", "placed"]);
        for order in &view.orders {
            table.add_row(vec![
                text(order.get("id")),
                text(order.pointer("/restaurant/name")),
                text(order.get("status")),
                money(order.get("total")),
                text(order.get("placedAt")),
            ]);
        }
        format!("orders:\n{table}")
    });
    parts.push(if view.rides.is_empty() {
        "rides: none".to_string()
    } else {
        let mut table = printer::table(&["ride", "product", "status", "fare", "captain"]);
        for ride in &view.rides {
            let fare = ride
                .get("finalFare")
                .or_else(|| ride.get("fare"))
                .or_else(|| ride.get("fareEstimate"));
            table.add_row(vec![
                text(ride.get("rideId")),
                text(
                    ride.pointer("/product/name")
                        .or_else(|| ride.get("productName")),
                ),
                text(ride.get("status")),
                money(fare),
                text(ride.pointer("/captain/name")),
            ]);
        }
        format!("rides:\n{table}")
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
            format!("real time + {seconds}s")
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
