//! `food_get_restaurant_menu` and `food_get_item_details`: one scenario per restaurant and one
//! per menu item, from the same tables, so a menu and an item's details never disagree.

use super::json::{J, arr, flag, money, name, num, obj, raw, s};
use super::markdown::{Scenario, error};
use super::world::{OPENS, RESTAURANTS, Restaurant, aed, group_id, items, option_id, slug};

pub const MENU: &str = "tools/food/food_get_restaurant_menu.md";
pub const DETAILS: &str = "tools/food/food_get_item_details.md";

pub fn cover(restaurant: &Restaurant) -> String {
    format!(
        "https://images.careem.com/food/restaurants/{}/cover.jpg",
        restaurant.id
    )
}

pub fn photo(item_id: u32) -> String {
    format!("https://images.careem.com/food/items/{item_id}.jpg")
}

/// The delivery estimate as `{"min": …, "max": …}`.
pub fn eta(restaurant: &Restaurant) -> J {
    obj(vec![
        ("min", num(restaurant.eta.0)),
        ("max", num(restaurant.eta.1)),
    ])
}

/// The coordinates the call asked about, echoed as numbers.
pub fn delivery_location() -> J {
    obj(vec![
        ("latitude", raw("{{args.latitude}}")),
        ("longitude", raw("{{args.longitude}}")),
    ])
}

/// The fields that name a restaurant, first in both its menu and its search card.
pub fn identity(r: &Restaurant) -> Vec<(&'static str, J)> {
    vec![
        ("id", num(r.id)),
        ("name", name(r.name, r.arabic)),
        ("cuisines", arr(r.cuisines.iter().map(|c| s(*c)).collect())),
        ("rating", num(r.rating)),
        ("ratingCount", num(r.rating_count)),
    ]
}

fn restaurant_object(r: &Restaurant) -> J {
    let mut fields = identity(r);
    fields.push(("isOpen", flag(r.open)));
    if !r.open {
        fields.push(("opensAt", s(format!("{{{{{OPENS}}}}}"))));
        fields.push((
            "statusLabel",
            s(format!("Closed now · opens at {{{{{OPENS}|hhmm}}}}")),
        ));
    }
    fields.extend([
        ("deliveryTime", eta(r)),
        ("deliveryFee", money(r.delivery_fee)),
        ("minimumOrder", money(r.minimum_order)),
        ("imageUrl", s(cover(r))),
    ]);
    let categories = r
        .categories
        .iter()
        .map(|c| {
            let items = c
                .items
                .iter()
                .map(|i| {
                    obj(vec![
                        ("id", num(i.id)),
                        ("name", s(i.name)),
                        ("description", s(i.description)),
                        ("price", money(i.price)),
                        ("imageUrl", s(photo(i.id))),
                        ("isAvailable", flag(i.available)),
                        ("hasOptions", flag(!i.groups.is_empty())),
                    ])
                })
                .collect();
            obj(vec![
                ("id", num(c.id)),
                ("name", s(c.name)),
                ("items", arr(items)),
            ])
        })
        .collect();
    fields.push(("menu", obj(vec![("categories", arr(categories))])));
    obj(fields)
}

fn sold_out_words(r: &Restaurant) -> String {
    let sold: Vec<&str> = r
        .categories
        .iter()
        .flat_map(|c| c.items.iter())
        .filter(|i| !i.available)
        .map(|i| i.name)
        .collect();
    match sold.as_slice() {
        [] => "nothing is sold out".to_string(),
        names => format!("sold out: {}", names.join(", ")),
    }
}

pub fn menu_scenarios() -> Vec<Scenario> {
    let mut scenarios = Scenario::unserved_points();
    scenarios.extend(RESTAURANTS.iter().map(|r| {
        let sections: Vec<&str> = r.categories.iter().map(|c| c.name).collect();
        let state = if r.open {
            "open".to_string()
        } else {
            "closed now (`isOpen` false), opening within the hour (`opensAt`)".to_string()
        };
        Scenario::matched(
            if r.open {
                r.key.to_string()
            } else {
                format!("{}-closed", r.key)
            },
            format!(
                "Chosen when `restaurant_id` is {}: {} ({}), {state}; {}; {}.",
                r.id,
                r.name,
                r.cuisines.join(", "),
                sections.join(", "),
                sold_out_words(r)
            ),
            obj(vec![("restaurant_id", num(r.id))]),
            obj(vec![
                ("restaurant", restaurant_object(r)),
                ("deliveryLocation", delivery_location()),
            ]),
        )
    }));
    scenarios.push(Scenario::unknown_restaurant(
        "failed to get restaurant menu",
    ));
    scenarios.push(Scenario::upstream_unavailable(
        "The menu service is down, whatever the restaurant.",
        "failed to get restaurant menu",
    ));
    scenarios
}

pub fn details_scenarios() -> Vec<Scenario> {
    let mut scenarios: Vec<Scenario> = items()
        .map(|(r, i)| {
            let groups: Vec<String> = i
                .groups
                .iter()
                .map(|g| {
                    if g.min > 0 {
                        format!("{} (required, pick {})", g.name, g.max)
                    } else {
                        format!("{} (optional, up to {})", g.name, g.max)
                    }
                })
                .collect();
            let what = match (i.available, groups.is_empty()) {
                (false, _) => "sold out, `isAvailable` false".to_string(),
                (true, true) => "no options".to_string(),
                (true, false) => groups.join("; "),
            };
            let option_groups = i
                .groups
                .iter()
                .enumerate()
                .map(|(g, group)| {
                    let options = group
                        .options
                        .iter()
                        .enumerate()
                        .map(|(o, c)| {
                            obj(vec![
                                ("id", num(option_id(i, g, o))),
                                ("name", s(c.name)),
                                ("price", money(c.price)),
                            ])
                        })
                        .collect();
                    obj(vec![
                        ("id", num(group_id(i, g))),
                        ("name", s(group.name)),
                        ("minSelections", num(group.min)),
                        ("maxSelections", num(group.max)),
                        ("options", arr(options)),
                    ])
                })
                .collect();
            Scenario::matched(
                slug(i.name),
                format!("{}, AED {}, at {}: {what}.", i.name, aed(i.price), r.name),
                obj(vec![("restaurant_id", num(r.id)), ("item_id", num(i.id))]),
                obj(vec![(
                    "item",
                    obj(vec![
                        ("id", num(i.id)),
                        ("restaurantId", num(r.id)),
                        ("name", s(i.name)),
                        ("description", s(i.description)),
                        ("price", money(i.price)),
                        ("imageUrl", s(photo(i.id))),
                        ("isAvailable", flag(i.available)),
                        ("optionGroups", arr(option_groups)),
                    ]),
                )]),
            )
        })
        .collect();
    scenarios.push(Scenario::plain(
        "item-not-found",
        "Default: any other item, or an item asked for at another restaurant; production's answer \
         for an item it does not know.",
        error("failed to get item details: unexpected response status 404"),
    ));
    scenarios.push(Scenario::plain(
        "item-unavailable",
        "Forced only. The item exists but the restaurant has just marked it sold out.",
        error(
            "item {{args.item_id}} is currently unavailable: the restaurant has marked it as sold out",
        ),
    ));
    scenarios
}
