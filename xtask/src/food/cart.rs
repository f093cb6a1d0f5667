//! `cart_add_item`, `cart_update_item` and `cart_get_basket`: every line an agent can add
//! (orderable item × option choice × quantity 1–5) answered with its own basket, every basket
//! line id accepted by `cart_update_item`, and production's refusals: sold out, closed, an
//! option group broken, more than five of one item.

use super::basket::{self, Basket, Line, combos, too_many};
use super::json::{J, arr, flag, money, name, num, obj, raw, s};
use super::markdown::{Scenario, error};
use super::world::{
    MAX_QUANTITY, OPENS, RESTAURANTS, Restaurant, aed, item_by_id, option_id, orderable, slug,
};

pub const ADD: &str = "tools/cart/cart_add_item.md";
pub const UPDATE: &str = "tools/cart/cart_update_item.md";
pub const GET: &str = "tools/cart/cart_get_basket.md";

fn line_json(line: &Line, notes: Option<J>) -> J {
    let options = line
        .options()
        .into_iter()
        .map(|(id, name, price)| {
            obj(vec![
                ("id", num(id)),
                ("name", s(name)),
                ("price", money(price)),
            ])
        })
        .collect();
    let mut fields = vec![
        ("basketItemId", num(line.id)),
        ("itemId", num(line.item.id)),
        ("name", s(line.item.name)),
        ("quantity", num(line.quantity)),
        ("options", arr(options)),
    ];
    if let Some(notes) = notes {
        fields.push(("notes", notes));
    }
    fields.extend([
        ("unitPrice", money(line.unit())),
        ("total", money(line.total())),
    ]);
    obj(fields)
}

/// The basket object; the line `notes_on` (if any) echoes the call's `notes`.
pub fn basket_json(basket: &Basket, notes_on: Option<u64>, updated: &str) -> J {
    let mut fields = vec![("id", num(basket.id)), ("version", s("{{uuid}}"))];
    if let Some(r) = basket.restaurant.filter(|_| !basket.lines.is_empty()) {
        fields.push((
            "restaurant",
            obj(vec![("id", num(r.id)), ("name", name(r.name, r.arabic))]),
        ));
    }
    let lines = basket
        .lines
        .iter()
        .map(|l| line_json(l, (Some(l.id) == notes_on).then(|| raw("{{args.notes}}"))))
        .collect();
    fields.extend([
        ("items", arr(lines)),
        ("subtotal", money(basket.subtotal())),
        ("deliveryFee", money(basket.delivery_fee())),
        ("serviceFee", money(basket.service_fee())),
        ("discount", money(basket.discount())),
        ("total", money(basket.total())),
    ]);
    if !basket.meets_minimum() && !basket.lines.is_empty() {
        fields.push(("minimumOrder", money(basket.minimum_order())));
    }
    fields.extend([
        ("meetsMinimumOrder", flag(basket.meets_minimum())),
        ("updatedAt", s(format!("{{{{{updated}}}}}"))),
    ]);
    obj(fields)
}

/// What the basket is worth, for prose: "AED 33.00 + fees, ready to order".
fn state_words(basket: &Basket) -> String {
    let minimum = if basket.meets_minimum() {
        "meets the minimum order".to_string()
    } else {
        format!(
            "below the minimum order of AED {}",
            aed(basket.minimum_order())
        )
    };
    format!("{}; {minimum}", basket.words())
}

fn item_words(r: &Restaurant, id: u32, name: &str) -> String {
    format!("item {id} ({name}) at {}", r.name)
}

pub fn add_scenarios() -> Vec<Scenario> {
    let mut scenarios = Vec::new();
    for r in RESTAURANTS.iter().filter(|r| !r.open) {
        scenarios.push(Scenario::matched(
            "restaurant-closed",
            format!(
                "Chosen when `restaurant_id` is {} ({}): closed now, it takes no items until it \
                 opens.",
                r.id, r.name
            ),
            obj(vec![("restaurant_id", num(r.id))]),
            error(format!(
                "failed to add item to basket: restaurant {} ({}) is closed and not accepting \
                 orders, opens at {{{{{OPENS}|hhmm}}}}",
                r.id, r.name
            )),
        ));
    }
    for r in &RESTAURANTS {
        for i in r.categories.iter().flat_map(|c| c.items.iter()) {
            if !i.available {
                scenarios.push(Scenario::matched(
                    if i.id == 3010106 {
                        "item-unavailable".to_string()
                    } else {
                        format!("{}-sold-out", slug(i.name))
                    },
                    format!("Chosen when `item_id` is {} ({}), sold out.", i.id, i.name),
                    obj(vec![("item_id", num(i.id))]),
                    error(format!(
                        "failed to add item to basket: item {} ({}) is currently unavailable",
                        i.id, i.name
                    )),
                ));
            }
        }
    }
    for r in &RESTAURANTS {
        for i in r
            .categories
            .iter()
            .flat_map(|c| c.items.iter())
            .filter(|i| orderable(r, i))
        {
            let item_rule = |mut extra: Vec<(&'static str, J)>| {
                let mut fields = vec![("restaurant_id", num(r.id)), ("item_id", num(i.id))];
                fields.append(&mut extra);
                obj(fields)
            };
            for (g, set) in too_many(i) {
                let group = &i.groups[g];
                let ids = set.iter().map(|&o| num(option_id(i, g, o))).collect();
                scenarios.push(Scenario::matched(
                    format!(
                        "{}-{}",
                        slug(i.name),
                        set.iter()
                            .map(|&o| slug(group.options[o].name))
                            .collect::<Vec<_>>()
                            .join("-and-")
                    ),
                    format!(
                        "Chosen when `option_ids` holds more than {} of \"{}\" for {}.",
                        group.max,
                        group.name,
                        item_words(r, i.id, i.name)
                    ),
                    item_rule(vec![("option_ids", arr(ids))]),
                    error(format!(
                        "failed to add item to basket: choose at most {} option from \"{}\" for \
                         item {} ({})",
                        group.max, group.name, i.id, i.name
                    )),
                ));
            }
            let mut choices: Vec<usize> = (0..combos(i).len()).collect();
            choices.sort_by_key(|&c| std::cmp::Reverse(combos(i)[c].len()));
            for quantity in 1..=MAX_QUANTITY {
                for &combo in &choices {
                    let added = basket::single(i, combo, quantity);
                    let line = &added.lines[0];
                    let mut extra = vec![("quantity", num(quantity))];
                    if !line.choices.is_empty() {
                        extra.push((
                            "option_ids",
                            arr(line.option_ids().into_iter().map(num).collect()),
                        ));
                    }
                    let name =
                        if i.id == 3010101 && line.option_ids() == [301010112] && quantity == 2 {
                            "added".to_string()
                        } else {
                            format!("added-{}x-{}", quantity, line.slug())
                        };
                    scenarios.push(Scenario::matched(
                        name,
                        format!(
                            "{} × {}: basket {}, total AED {}{}.",
                            quantity,
                            line.name_with_options(),
                            added.id,
                            aed(added.total()),
                            if added.meets_minimum() {
                                ""
                            } else {
                                ", below the minimum order"
                            }
                        ),
                        item_rule(extra),
                        obj(vec![
                            ("basket", basket_json(&added, Some(line.id), "now")),
                            ("addedBasketItemId", num(line.id)),
                        ]),
                    ));
                }
            }
            let over = |q: &str| {
                error(format!(
                    "failed to add item to basket: quantity {q} is more than the {MAX_QUANTITY} \
                     allowed of item {} ({}) per order",
                    i.id, i.name
                ))
            };
            let required = i.groups.iter().position(|g| g.min > 0);
            if let Some(g) = required {
                for (o, choice) in i.groups[g].options.iter().enumerate() {
                    scenarios.push(Scenario::matched(
                        format!("{}-{}-over-{MAX_QUANTITY}", slug(i.name), slug(choice.name)),
                        format!(
                            "Chosen for more than {MAX_QUANTITY} of {} ({}).",
                            i.name, choice.name
                        ),
                        item_rule(vec![("option_ids", arr(vec![num(option_id(i, g, o))]))]),
                        over("{{args.quantity}}"),
                    ));
                }
                let group = &i.groups[g];
                scenarios.push(Scenario::matched(
                    format!("{}-needs-{}", slug(i.name), slug(group.name)),
                    format!(
                        "Chosen when no option of the required group \"{}\" is given for {}.",
                        group.name,
                        item_words(r, i.id, i.name)
                    ),
                    item_rule(Vec::new()),
                    error(format!(
                        "failed to add item to basket: item {} ({}) needs 1 option from \"{}\"; \
                         get the option ids from food_get_item_details",
                        i.id, i.name, group.name
                    )),
                ));
            } else {
                scenarios.push(Scenario::matched(
                    format!("{}-over-{MAX_QUANTITY}", slug(i.name)),
                    format!("Chosen for more than {MAX_QUANTITY} of {}.", i.name),
                    item_rule(Vec::new()),
                    over("{{args.quantity}}"),
                ));
            }
        }
    }
    scenarios.push(Scenario::plain(
        "item-not-found",
        "Default: an item the restaurant does not list; production's answer for an unknown item.",
        error("failed to add item to basket: unexpected response status 404"),
    ));
    scenarios.push(Scenario::plain(
        "other-restaurant-in-basket",
        "Forced only. The basket already holds items from Shawarma Station; it must be cleared \
         before adding from another restaurant.",
        error(
            "failed to add item to basket: basket 880001 already has items from Shawarma Station \
             (30101), clear it with cart_clear before adding items from restaurant \
             {{args.restaurant_id}}",
        ),
    ));
    scenarios
}

fn updated(
    name: String,
    prose: String,
    rule: J,
    basket: &Basket,
    removed: Option<u64>,
) -> Scenario {
    let mut fields = Vec::new();
    if let Some(line) = removed {
        fields.push(("removedBasketItemId", num(line)));
    }
    fields.push(("basket", basket_json(basket, None, "now")));
    Scenario::matched(name, prose, rule, obj(fields))
}

fn line_rule(line: u64, quantity: Option<u32>) -> J {
    let mut fields = vec![("basket_item_id", num(line))];
    if let Some(q) = quantity {
        fields.push(("quantity", num(q)));
    }
    obj(fields)
}

fn over_limit(line: u64, name: &str) -> Scenario {
    Scenario::matched(
        format!("line-{line}-over-{MAX_QUANTITY}"),
        format!("Chosen for more than {MAX_QUANTITY} on line {line} ({name})."),
        line_rule(line, None),
        error(format!(
            "failed to update basket item {line}: quantity {{{{args.quantity}}}} is more than \
             the {MAX_QUANTITY} allowed of one item per order"
        )),
    )
}

pub fn update_scenarios() -> Vec<Scenario> {
    let mut scenarios = Vec::new();
    let standing = basket::standing();
    for (n, line) in standing.lines.iter().enumerate() {
        for (_, quantity) in basket::standing_updates().into_iter().filter(|u| u.0 == n) {
            let after = basket::standing_with(n, quantity);
            let name = match (line.id, quantity) {
                (990001, 3) => "updated".to_string(),
                (990002, 0) => "removed".to_string(),
                (id, 0) => format!("line-{id}-removed"),
                (id, q) => format!("line-{id}-x{q}"),
            };
            let what = if quantity == 0 {
                format!("removes line {} ({})", line.id, line.name_with_options())
            } else {
                format!(
                    "sets line {} ({}) to {quantity}",
                    line.id,
                    line.name_with_options()
                )
            };
            scenarios.push(updated(
                name,
                format!("Chosen when the call {what}: {}.", after.words()),
                line_rule(line.id, Some(quantity)),
                &after,
                (quantity == 0).then_some(line.id),
            ));
        }
        scenarios.push(over_limit(line.id, line.item.name));
    }
    for (item, combo) in basket::line_kinds() {
        let line = basket::line(item, combo, 1);
        for quantity in 1..=MAX_QUANTITY {
            let after = basket::single(item, combo, quantity);
            scenarios.push(updated(
                format!("line-{}-x{quantity}", line.id),
                format!(
                    "Line {} to {quantity}: basket {}, total AED {}.",
                    line.id,
                    after.id,
                    aed(after.total())
                ),
                line_rule(line.id, Some(quantity)),
                &after,
                None,
            ));
        }
        scenarios.push(updated(
            format!("line-{}-removed", line.id),
            format!(
                "Line {} ({}) removed: the basket is empty.",
                line.id,
                line.name_with_options()
            ),
            line_rule(line.id, Some(0)),
            &basket::empty(),
            Some(line.id),
        ));
        scenarios.push(over_limit(line.id, item.name));
    }
    scenarios.push(Scenario::plain(
        "line-not-found",
        "Default: no basket line has that basket_item_id.",
        error(
            "failed to update basket item {{args.basket_item_id}}: unexpected response status 404",
        ),
    ));
    scenarios
}

pub fn get_scenarios() -> Vec<Scenario> {
    let standing = basket::standing();
    let (_, falafel) = item_by_id(3010103);
    let below = basket::single(falafel, 0, 1);
    let at = |b: &Basket, updated: &str| obj(vec![("basket", basket_json(b, None, updated))]);
    vec![
        Scenario::matched(
            "shawarma-station",
            format!(
                "Chosen when `restaurant_id` is 30101: the user's active basket, {}.",
                state_words(&standing)
            ),
            obj(vec![("restaurant_id", num(30101))]),
            at(&standing, "now-12m"),
        ),
        Scenario::matched(
            "empty",
            "Chosen for any other restaurant: the user has no basket there.",
            obj(vec![("restaurant_id", s("*"))]),
            at(&basket::empty(), "now-2h"),
        ),
        Scenario::plain(
            "two-items",
            format!(
                "Default: the user's active basket, {}.",
                state_words(&standing)
            ),
            at(&standing, "now-12m"),
        ),
        Scenario::plain(
            "below-minimum-order",
            format!("Forced only. {}.", state_words(&below)),
            at(&below, "now-5m"),
        ),
        Scenario::session_expired(),
    ]
}
