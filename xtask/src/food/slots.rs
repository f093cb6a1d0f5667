//! `food_get_delivery_slots`: per restaurant, ASAP with the restaurant's own delivery estimate
//! and 20-minute slots from an hour ahead and from tomorrow. Each slot is listed under the UAE
//! calendar day it starts on, worked out from the slot's own time: placeholders cannot say
//! "the slots left today", so a day entry holds one slot and a day can appear more than once.

use super::json::{J, arr, flag, num, obj, s};
use super::markdown::{Scenario, error};
use super::world::{OPENS, RESTAURANTS, Restaurant};

pub const PATH: &str = "tools/food/food_get_delivery_slots.md";

/// Slot starts as minutes from now (before rounding down to 20 minutes), and whether each can
/// still be booked.
const SLOTS: [(u32, bool); 6] = [
    (60, true),
    (80, true),
    (100, false),
    (120, true),
    (1440, true),
    (1460, true),
];

/// `now+1h20m@20m`: a duration in Go form, as placeholders write it.
fn offset(minutes: u32) -> String {
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("now+{m}m@20m"),
        (h, 0) => format!("now+{h}h@20m"),
        (h, m) => format!("now+{h}h{m}m@20m"),
    }
}

fn day(minutes: u32, available: bool) -> J {
    let start = offset(minutes);
    let end = offset(minutes + 20);
    obj(vec![
        ("date", s(format!("{{{{{start}|date}}}}"))),
        ("weekday", s(format!("{{{{{start}|weekday}}}}"))),
        ("label", s(format!("{{{{{start}|daylabel}}}}"))),
        (
            "slots",
            arr(vec![obj(vec![
                ("start", s(format!("{{{{{start}}}}}"))),
                ("end", s(format!("{{{{{end}}}}}"))),
                (
                    "label",
                    s(format!("{{{{{start}|hhmm}}}} – {{{{{end}|hhmm}}}}")),
                ),
                ("isAvailable", flag(available)),
            ])]),
        ),
    ])
}

fn open_slots(r: &Restaurant) -> J {
    obj(vec![
        ("restaurantId", num(r.id)),
        (
            "asap",
            obj(vec![
                ("available", flag(true)),
                (
                    "estimatedDeliveryMinutes",
                    obj(vec![("min", num(r.eta.0)), ("max", num(r.eta.1))]),
                ),
                (
                    "estimatedDeliveryAt",
                    s(format!("{{{{now+{}m}}}}", r.eta.1)),
                ),
            ]),
        ),
        ("days", arr(SLOTS.iter().map(|&(m, a)| day(m, a)).collect())),
        ("validUntilUnix", num("{{unix+10m}}")),
    ])
}

pub fn scenarios() -> Vec<Scenario> {
    let mut scenarios = Scenario::unserved_points();
    scenarios.extend(RESTAURANTS.iter().map(|r| {
        let rule = obj(vec![("restaurant_id", num(r.id))]);
        if r.open {
            // The catalog's name for the first restaurant's slots.
            let name = if r.id == 30101 {
                "next-slots".to_string()
            } else {
                format!("{}-slots", r.key)
            };
            Scenario::matched(
                name,
                format!(
                    "Chosen when `restaurant_id` is {} ({}): ASAP in {}–{} minutes, four slots \
                         from an hour ahead (one full) and two tomorrow.",
                    r.id, r.name, r.eta.0, r.eta.1
                ),
                rule,
                open_slots(r),
            )
        } else {
            Scenario::matched(
                "restaurant-closed",
                format!(
                    "Chosen when `restaurant_id` is {} ({}): closed now, it takes no order, \
                         not even a scheduled one, until it opens.",
                    r.id, r.name
                ),
                rule,
                error(format!(
                    "failed to get delivery slots: restaurant {} ({}) is closed, opens at \
                         {{{{{OPENS}|hhmm}}}}",
                    r.id, r.name
                )),
            )
        }
    }));
    scenarios.push(Scenario::unknown_restaurant("failed to get delivery slots"));
    scenarios.push(Scenario::plain(
        "no-slots",
        "Forced only. ASAP delivery works, but the restaurant offers no scheduled slots today or \
         tomorrow.",
        obj(vec![
            ("restaurantId", num("{{args.restaurant_id}}")),
            ("asap", obj(vec![("available", flag(true))])),
            ("days", arr(Vec::new())),
            ("validUntilUnix", num("{{unix+10m}}")),
        ]),
    ));
    scenarios
}
