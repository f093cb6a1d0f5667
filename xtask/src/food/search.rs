//! `food_merchant_search`: one scenario per word a person types (restaurant names, cuisines,
//! dishes), longest word first so the most specific wins, each with its `limit` variants.

use std::collections::BTreeMap;

use super::json::{J, arr, flag, money, num, obj, s};
use super::markdown::{Scenario, UNSERVICEABLE, error};
use super::menu::{cover, delivery_location, eta, identity};
use super::world::{GENERIC_WORDS, OPENS, Promotion, RESTAURANTS, Restaurant, aed, slug};

pub const PATH: &str = "tools/food/food_merchant_search.md";

/// The label and description a restaurant card shows for its promotion.
pub fn promotion_text(promotion: Promotion) -> (String, String) {
    match promotion {
        Promotion::PercentOff {
            percent, what, cap, ..
        } => (
            format!("{percent}% off {what}"),
            format!(
                "{percent}% off all {what}, up to AED {} per order",
                aed(cap)
            ),
        ),
        Promotion::PlusFreeDelivery { from } => (
            "Free delivery with Careem Plus".to_string(),
            format!(
                "Careem Plus members get free delivery on orders of AED {} or more",
                aed(from)
            ),
        ),
        Promotion::AmountOff { amount, from } => (
            format!("AED {} off", aed(amount)),
            format!(
                "AED {} off orders of AED {} or more",
                aed(amount),
                aed(from)
            ),
        ),
    }
}

pub fn card(r: &Restaurant) -> J {
    let mut fields = identity(r);
    fields.extend([
        ("deliveryTime", eta(r)),
        ("deliveryFee", money(r.delivery_fee)),
        ("minimumOrder", money(r.minimum_order)),
        ("distanceKm", num(r.distance_km)),
        ("isOpen", flag(r.open)),
    ]);
    if !r.open {
        fields.push(("opensAt", s(format!("{{{{{OPENS}}}}}"))));
    }
    fields.push(("imageUrl", s(cover(r))));
    if let Some(promotion) = r.promotion {
        let (label, description) = promotion_text(promotion);
        fields.push((
            "promotion",
            obj(vec![("label", s(label)), ("description", s(description))]),
        ));
    }
    obj(fields)
}

/// How well a word finds a restaurant: 0 in its name, 1 a cuisine or word of its own, 2 a
/// dish it serves, 3 a word that finds every restaurant.
fn rank(word: &str, r: &Restaurant) -> Option<u8> {
    if r.name.to_lowercase().contains(word) {
        Some(0)
    } else if r.words.contains(&word) {
        Some(1)
    } else if r
        .categories
        .iter()
        .flat_map(|c| c.items.iter())
        .any(|i| i.tags.contains(&word))
    {
        Some(2)
    } else if GENERIC_WORDS.contains(&word) {
        Some(3)
    } else {
        None
    }
}

/// Every search word with the restaurants it finds, best match first (then open before
/// closed, then the better rated), in the order the match rules must be tried.
pub fn words() -> Vec<(String, Vec<&'static Restaurant>)> {
    let mut all: BTreeMap<&str, ()> = BTreeMap::new();
    for r in &RESTAURANTS {
        for word in r.words {
            all.insert(word, ());
        }
        for item in r.categories.iter().flat_map(|c| c.items.iter()) {
            for tag in item.tags {
                all.insert(tag, ());
            }
        }
    }
    let mut words: Vec<(String, Vec<&'static Restaurant>)> = all
        .keys()
        .chain(GENERIC_WORDS.iter())
        .map(|word| {
            let mut found: Vec<(u8, &'static Restaurant)> = RESTAURANTS
                .iter()
                .filter_map(|r| rank(word, r).map(|n| (n, r)))
                .collect();
            found.sort_by(|(a, x), (b, y)| {
                a.cmp(b)
                    .then(y.open.cmp(&x.open))
                    .then(y.rating.total_cmp(&x.rating))
                    .then(x.id.cmp(&y.id))
            });
            (
                word.to_string(),
                found.into_iter().map(|(_, r)| r).collect(),
            )
        })
        .collect();
    words.sort_by_key(|(word, _)| {
        (
            GENERIC_WORDS.contains(&word.as_str()),
            std::cmp::Reverse(word.chars().count()),
            word.clone(),
        )
    });
    words
}

fn names(found: &[&Restaurant]) -> String {
    let names: Vec<&str> = found.iter().map(|r| r.name).collect();
    names.join(", ")
}

fn results(found: &[&Restaurant]) -> J {
    obj(vec![
        ("query", s("{{args.query}}")),
        ("deliveryLocation", delivery_location()),
        ("restaurants", arr(found.iter().map(|r| card(r)).collect())),
    ])
}

pub fn scenarios() -> Vec<Scenario> {
    let mut scenarios = Scenario::unserved_points();
    let mut taken: Vec<String> = Vec::new();
    for (word, found) in words() {
        let mut key = slug(&word);
        if taken.contains(&key) {
            key.push_str("-accented");
        }
        taken.push(key.clone());
        for limit in 1..found.len() {
            scenarios.push(Scenario::matched(
                format!("{key}-limit-{limit}"),
                format!(
                    "A query containing \"{word}\" with `limit` {limit}: {}.",
                    names(&found[..limit])
                ),
                obj(vec![
                    ("query", s(format!("~{word}"))),
                    ("limit", num(limit)),
                ]),
                results(&found[..limit]),
            ));
        }
        scenarios.push(Scenario::matched(
            key,
            format!("A query containing \"{word}\": {}.", names(&found)),
            obj(vec![("query", s(format!("~{word}")))]),
            results(&found),
        ));
    }
    scenarios.push(Scenario::plain(
        "no-results",
        "Default: any other query finds nothing near the location.",
        obj(vec![
            ("query", s("{{args.query}}")),
            ("deliveryLocation", delivery_location()),
            ("restaurants", arr(Vec::new())),
        ]),
    ));
    scenarios.push(Scenario::plain(
        "location-unserviceable",
        "Forced only. The delivery location is outside the area Careem Food serves.",
        error(UNSERVICEABLE),
    ));
    scenarios.push(Scenario::upstream_unavailable(
        "The restaurant search service is down.",
        "failed to search merchants",
    ));
    scenarios
}
