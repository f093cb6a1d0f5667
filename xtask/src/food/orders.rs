//! `food_place_order`, `food_get_order_status` and `food_list_orders`: every basket some answer
//! hands out can be ordered, for its own total, and the order id that comes back is one
//! `food_get_order_status` finds again (by the basket's digits inside it).

use super::basket::{self, Basket, Line, combos};
use super::json::{J, arr, flag, money, name, num, obj, raw, s};
use super::markdown::{Scenario, UNSERVICEABLE, error};
use super::world::{
    CAREEM_PAY_BALANCE, Courier, OPENS, PAST_ORDERS, PastOrder, Status, VINOD, aed, item_by_id,
    option_by_id, restaurant,
};
use crate::area::UNSERVED_PIN_PREFIX;

pub const PLACE: &str = "tools/food/food_place_order.md";
pub const STATUS: &str = "tools/food/food_get_order_status.md";
pub const LIST: &str = "tools/food/food_list_orders.md";

/// A time placeholder `minutes` from now (negative: in the past).
fn at(minutes: i64) -> String {
    match minutes {
        0 => "{{now}}".to_string(),
        m if m > 0 => format!("{{{{now+{m}m}}}}"),
        m => format!("{{{{now-{}m}}}}", -m),
    }
}

fn restaurant_json(basket: &Basket) -> J {
    let r = basket
        .restaurant
        .expect("an ordered basket has a restaurant");
    obj(vec![("id", num(r.id)), ("name", name(r.name, r.arabic))])
}

fn below_minimum(basket: &Basket) -> J {
    error(format!(
        "below minimum order: basket subtotal AED {} is below the restaurant minimum of AED {}",
        aed(basket.subtotal()),
        aed(basket.minimum_order())
    ))
}

fn order(basket: &Basket, scheduled: bool) -> J {
    let (low, high) = basket.order_ids();
    let eta = basket.restaurant.map_or(35, |r| r.eta.1);
    let mut fields = vec![
        ("id", raw(format!("{{{{rand:{low}-{high}}}}}"))),
        ("status", s("PLACED")),
        (
            "statusLabel",
            s(if scheduled {
                "Scheduled for the slot starting {{args.scheduled_slot_start}}"
            } else {
                "Order placed"
            }),
        ),
        ("restaurant", restaurant_json(basket)),
        ("basketId", num(basket.id)),
        ("itemCount", num(basket.item_count())),
        ("total", money(basket.total())),
        ("paymentMethodId", s("{{args.payment_method_id}}")),
        ("deliveryLocationUuid", s("{{args.delivery_location_uuid}}")),
        ("notes", raw("{{args.notes}}")),
        ("isScheduled", flag(scheduled)),
        ("placedAt", s("{{now}}")),
    ];
    if !scheduled {
        fields.push(("estimatedDeliveryAt", s(format!("{{{{now+{eta}m}}}}"))));
    }
    obj(vec![("order", obj(fields))])
}

/// The falafel wrap alone: the basket `cart_get_basket` shows when forced below the minimum.
fn falafel_alone() -> Basket {
    basket::single(item_by_id(3010103).1, 0, 1)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

pub fn place_scenarios() -> Vec<Scenario> {
    let baskets = basket::all();
    let orderable: Vec<&Basket> = baskets.iter().filter(|b| b.meets_minimum()).collect();
    let name_for = |prefix: &str, b: &Basket| {
        if b.id == basket::STANDING_ID {
            prefix.to_string()
        } else {
            format!("{prefix}-{}", b.id)
        }
    };
    let rule = |b: &Basket, extra: Option<(&'static str, J)>| {
        let mut fields = vec![("basket_id", num(b.id))];
        fields.extend(extra);
        obj(fields)
    };
    let empty = basket::empty();
    let mut scenarios = vec![Scenario::matched(
        "location-unserviceable",
        format!(
            "A `delivery_location_uuid` that `reverse_geocode` gives a point outside the served \
             area (`{UNSERVED_PIN_PREFIX}…`): refused in the words of the search, menu and slots \
             for that point."
        ),
        obj(vec![(
            "delivery_location_uuid",
            s(format!("~{UNSERVED_PIN_PREFIX}")),
        )]),
        error(UNSERVICEABLE),
    )];
    scenarios.push(Scenario::matched(
        "empty-basket",
        format!("Chosen for {}: nothing to order.", empty.words()),
        rule(&empty, None),
        error(format!(
            "failed to place order: basket {} is empty",
            empty.id
        )),
    ));
    for b in baskets.iter().filter(|b| !b.meets_minimum()) {
        scenarios.push(Scenario::matched(
            format!("below-minimum-{}", b.id),
            format!(
                "Basket {}, AED {} of a minimum of AED {}: refused.",
                b.id,
                aed(b.subtotal()),
                aed(b.minimum_order())
            ),
            rule(b, None),
            below_minimum(b),
        ));
    }
    for b in orderable.iter().filter(|b| !b.within_careem_pay()) {
        scenarios.push(Scenario::matched(
            format!("careem-pay-short-{}", b.id),
            format!(
                "Basket {} paid with Careem Pay: AED {} does not cover AED {}.",
                b.id,
                aed(CAREEM_PAY_BALANCE),
                aed(b.total())
            ),
            rule(b, Some(("payment_method_id", s("PM-CAREEM-PAY")))),
            error(format!(
                "payment declined: Careem Pay balance AED {} is less than the order total of AED \
                 {}; choose another payment method",
                aed(CAREEM_PAY_BALANCE),
                aed(b.total())
            )),
        ));
    }
    for b in &orderable {
        scenarios.push(Scenario::matched(
            name_for("scheduled", b),
            format!(
                "Basket {} with a slot start from food_get_delivery_slots: booked for that slot.",
                b.id
            ),
            rule(b, Some(("scheduled_slot_start", s("~:00Z")))),
            order(b, true),
        ));
    }
    scenarios.push(Scenario::matched(
        "slot-not-offered",
        "Chosen when `scheduled_slot_start` is not a slot start that food_get_delivery_slots \
         hands out.",
        obj(vec![("scheduled_slot_start", s("*"))]),
        error(
            "failed to place order: scheduled_slot_start must be the start of a delivery slot \
             from food_get_delivery_slots (days[].slots[].start), got \
             \"{{args.scheduled_slot_start}}\"",
        ),
    ));
    for b in &orderable {
        scenarios.push(Scenario::matched(
            name_for("placed", b),
            format!(
                "{}: ordered for now, order ids {}–{}.",
                capitalised(&b.words()),
                b.order_ids().0,
                b.order_ids().1
            ),
            rule(b, None),
            order(b, false),
        ));
    }
    scenarios.extend([
        Scenario::plain(
            "basket-not-found",
            "Default: a basket id no answer handed out.",
            error("failed to place order: unexpected response status 404"),
        ),
        Scenario::plain(
            "payment-declined",
            "Forced only. The card was declined; nothing was ordered.",
            error("payment declined: card ending 1881 was declined by the issuer"),
        ),
        Scenario::plain(
            "below-minimum-order",
            format!(
                "Forced only. The basket `cart_get_basket` shows when forced below the minimum: {}.",
                falafel_alone().words()
            ),
            below_minimum(&falafel_alone()),
        ),
        Scenario::plain(
            "restaurant-closed",
            "Forced only. The restaurant stopped taking orders before the order went through.",
            error(format!(
                "failed to place order: restaurant is closed and not accepting orders, opens at \
                 {{{{{OPENS}|hhmm}}}}"
            )),
        ),
        Scenario::session_expired(),
    ]);
    scenarios
}

fn lines_json(lines: &[Line]) -> J {
    arr(lines
        .iter()
        .map(|l| {
            let mut fields = vec![("itemId", num(l.item.id)), ("name", s(l.item.name))];
            let options = l.options();
            if !options.is_empty() {
                fields.push(("options", arr(options.iter().map(|o| s(o.1)).collect())));
            }
            fields.extend([("quantity", num(l.quantity)), ("total", money(l.total()))]);
            obj(fields)
        })
        .collect())
}

fn courier_json(courier: &Courier, riding: bool) -> J {
    let mut fields = vec![
        ("name", s(courier.name)),
        ("rating", num(courier.rating)),
        ("phone", s(courier.phone)),
        ("vehicle", s("Motorbike")),
    ];
    if riding {
        fields.push((
            "location",
            obj(vec![
                ("latitude", num(25.0921)),
                ("longitude", num(55.1512)),
                ("updatedAtUnix", raw("{{unix}}")),
            ]),
        ));
    }
    obj(fields)
}

/// What a status answer says of an order, beyond its basket.
struct Story<'a> {
    status: Status,
    label: &'a str,
    placed: i64,
    eta: Option<i64>,
    timeline: Vec<(Status, String, i64)>,
    courier: Option<(&'a Courier, bool)>,
    payment: Option<(&'a str, &'a str)>,
    cancelled: Option<(&'a str, &'a str)>,
}

fn status_json(id: J, basket: &Basket, story: &Story) -> J {
    let mut fields = vec![
        ("id", id),
        ("status", s(story.status.code())),
        ("statusLabel", s(story.label)),
        ("restaurant", restaurant_json(basket)),
        ("items", lines_json(&basket.lines)),
        ("subtotal", money(basket.subtotal())),
        ("deliveryFee", money(basket.delivery_fee())),
        ("serviceFee", money(basket.service_fee())),
        ("discount", money(basket.discount())),
        ("total", money(basket.total())),
    ];
    if let Some((payment, location)) = story.payment {
        fields.push(("paymentMethodId", s(payment)));
        fields.push(("deliveryLocationUuid", s(location)));
    }
    fields.push(("placedAt", s(at(-story.placed))));
    if let Some(eta) = story.eta {
        fields.push(("estimatedDeliveryAt", s(at(eta))));
    }
    let last = story.timeline.last().map_or(0, |t| t.2);
    match story.status {
        Status::Delivered => fields.push(("deliveredAt", s(at(last)))),
        Status::Cancelled => {
            fields.push(("cancelledAt", s(at(last))));
            if let Some((reason, card)) = story.cancelled {
                fields.push(("cancellationReason", s(reason)));
                fields.push((
                    "refund",
                    obj(vec![
                        ("amount", money(basket.total())),
                        ("destination", s(card)),
                        ("status", s("REFUNDED")),
                    ]),
                ));
            }
        }
        _ => {}
    }
    if let Some((courier, riding)) = story.courier {
        fields.push(("captain", courier_json(courier, riding)));
    }
    let timeline = story
        .timeline
        .iter()
        .map(|(status, label, minutes)| {
            obj(vec![
                ("status", s(status.code())),
                ("label", s(label.as_str())),
                ("time", s(at(*minutes))),
            ])
        })
        .collect();
    fields.push(("timeline", arr(timeline)));
    obj(vec![("order", obj(fields))])
}

/// The basket an earlier order was placed from.
pub fn past_basket(order: &PastOrder) -> Basket {
    let lines = order
        .lines
        .iter()
        .map(|&(item_id, options, quantity)| {
            let (_, item) = item_by_id(item_id);
            let choices = options.iter().map(|&id| option_by_id(item, id)).collect();
            assert!(
                combos(item).contains(&choices),
                "order {} holds a choice item {item_id} does not offer",
                order.id
            );
            Line {
                id: 0,
                item,
                choices,
                quantity,
            }
        })
        .collect();
    Basket {
        id: 0,
        restaurant: Some(restaurant(order.restaurant)),
        lines,
    }
}

fn past_story(order: &PastOrder) -> Story<'_> {
    Story {
        status: order.status,
        label: order.label,
        placed: order.placed,
        eta: order.eta,
        timeline: order
            .timeline
            .iter()
            .map(|&(s, l, m)| (s, l.to_string(), m))
            .collect(),
        courier: order.courier,
        payment: Some((order.payment, order.location)),
        cancelled: order.cancelled,
    }
}

/// The lifecycle of an order just placed from the standing basket, as forced scenarios.
fn lifecycle() -> Vec<(&'static str, Story<'static>)> {
    let kitchen = "Shawarma Station accepted your order and is preparing it";
    let step = |status, label: &str, minutes| (status, label.to_string(), minutes);
    vec![
        (
            "placed",
            Story {
                status: Status::Placed,
                label: "Order placed",
                placed: 1,
                eta: Some(29),
                timeline: vec![step(Status::Placed, "Order placed", -1)],
                courier: None,
                payment: None,
                cancelled: None,
            },
        ),
        (
            "preparing",
            Story {
                status: Status::Preparing,
                label: "Preparing your order",
                placed: 8,
                eta: Some(22),
                timeline: vec![
                    step(Status::Placed, "Order placed", -8),
                    step(Status::Preparing, kitchen, -6),
                ],
                courier: None,
                payment: None,
                cancelled: None,
            },
        ),
        (
            "on-the-way",
            Story {
                status: Status::OnTheWay,
                label: "Your order is on the way",
                placed: 24,
                eta: Some(8),
                timeline: vec![
                    step(Status::Placed, "Order placed", -24),
                    step(Status::Preparing, kitchen, -22),
                    step(Status::OnTheWay, "Vinod Menon picked up your order", -4),
                ],
                courier: Some((&VINOD, true)),
                payment: None,
                cancelled: None,
            },
        ),
        (
            "delivered",
            Story {
                status: Status::Delivered,
                label: "Delivered",
                placed: 45,
                eta: None,
                timeline: vec![
                    step(Status::Placed, "Order placed", -45),
                    step(Status::Preparing, kitchen, -43),
                    step(Status::OnTheWay, "Vinod Menon picked up your order", -20),
                    step(Status::Delivered, "Delivered to your address", -5),
                ],
                courier: Some((&VINOD, false)),
                payment: None,
                cancelled: None,
            },
        ),
    ]
}

pub fn status_scenarios() -> Vec<Scenario> {
    let mut scenarios: Vec<Scenario> = PAST_ORDERS
        .iter()
        .map(|o| {
            let b = past_basket(o);
            Scenario::matched(
                o.key,
                format!(
                    "Order {} from {}: {}; {}, total AED {}.",
                    o.id,
                    restaurant(o.restaurant).name,
                    o.label.to_lowercase(),
                    b.summary(),
                    aed(b.total())
                ),
                obj(vec![("order_id", num(o.id))]),
                status_json(num(o.id), &b, &past_story(o)),
            )
        })
        .collect();
    for b in basket::all().iter().filter(|b| b.meets_minimum()) {
        let (low, high) = b.order_ids();
        // Placed `now`, as food_place_order said: read at once, both answers agree.
        let just_placed = Story {
            status: Status::Placed,
            label: "Order placed",
            placed: 0,
            eta: None,
            timeline: vec![(Status::Placed, "Order placed".to_string(), 0)],
            courier: None,
            payment: None,
            cancelled: None,
        };
        scenarios.push(Scenario::matched(
            format!("new-order-{}", b.id),
            format!(
                "An order of basket {} (ids {low}–{high}): just placed.",
                b.id
            ),
            obj(vec![("order_id", s(format!("~{}", b.id)))]),
            status_json(raw("{{args.order_id}}"), b, &just_placed),
        ));
    }
    scenarios.push(Scenario::plain(
        "not-found",
        "Default: any other order id.",
        error("failed to get order status: unexpected response status 404"),
    ));
    let standing = basket::standing();
    for (name, story) in lifecycle() {
        scenarios.push(Scenario::plain(
            name,
            format!(
                "Forced only. An order just placed from {}, {}; echoes `order_id`.",
                standing.words(),
                story.label.to_lowercase()
            ),
            status_json(raw("{{args.order_id}}"), &standing, &story),
        ));
    }
    scenarios.push(Scenario::session_expired());
    scenarios
}

fn listed(order: &PastOrder) -> J {
    let b = past_basket(order);
    let r = restaurant(order.restaurant);
    obj(vec![
        ("id", num(order.id)),
        (
            "restaurant",
            obj(vec![("id", num(r.id)), ("name", name(r.name, r.arabic))]),
        ),
        ("status", s(order.status.code())),
        ("statusLabel", s(order.label)),
        ("itemsSummary", s(b.summary())),
        ("itemCount", num(b.item_count())),
        ("total", money(b.total())),
        ("placedAt", s(at(-order.placed))),
    ])
}

pub fn list_scenarios() -> Vec<Scenario> {
    let orders = |n: usize| {
        obj(vec![(
            "orders",
            arr(PAST_ORDERS.iter().take(n).map(listed).collect()),
        )])
    };
    let mut scenarios: Vec<Scenario> = (1..PAST_ORDERS.len())
        .map(|n| {
            Scenario::matched(
                format!("recent-orders-limit-{n}"),
                format!("Chosen when `limit` is {n}: the newest {n}."),
                obj(vec![("limit", num(n))]),
                orders(n),
            )
        })
        .collect();
    scenarios.extend([
        Scenario::plain(
            "recent-orders",
            "Default: the user's four orders, newest first: two active, one cancelled by the \
             restaurant, one delivered yesterday.",
            orders(PAST_ORDERS.len()),
        ),
        Scenario::plain(
            "no-orders",
            "Forced only. The user has never ordered food.",
            obj(vec![("orders", arr(Vec::new()))]),
        ),
        Scenario::session_expired(),
    ]);
    scenarios
}
