//! The food world's tables held to the rules of `docs/DATA_WORLD.md`: ids, money, search
//! words and menus. The files they generate are checked by `generated`.

use std::collections::{BTreeMap, BTreeSet};

use crate::support::repo;
use xtask::food::world::{CAREEM_PAY_BALANCE, RESTAURANTS, aed, items};
use xtask::food::{basket, scenario_files, search};

#[test]
fn no_food_file_names_two_scenarios_alike() {
    for (path, scenarios) in scenario_files() {
        let mut names = BTreeSet::new();
        for scenario in &scenarios {
            assert!(
                names.insert(scenario.name.to_lowercase()),
                "{path}: two scenarios named {}",
                scenario.name
            );
        }
    }
}

#[test]
fn every_basket_and_line_has_its_own_id() {
    let mut baskets = BTreeSet::new();
    for b in basket::all().iter().chain([&basket::empty()]) {
        assert!(baskets.insert(b.id), "two baskets are {}", b.id);
    }
    let mut lines = BTreeSet::new();
    for l in basket::standing().lines {
        assert!(lines.insert(l.id));
    }
    for (item, combo) in basket::line_kinds() {
        let id = basket::line(item, combo, 1).id;
        assert!(lines.insert(id), "two lines are {id}");
    }
}

/// `food_get_order_status` finds a new order by the basket id inside its order id; no order
/// id of one basket may contain another basket's id.
#[test]
fn an_order_id_names_only_its_own_basket() {
    let all = basket::all();
    let ids: BTreeSet<String> = all.iter().map(|b| b.id.to_string()).collect();
    for b in &all {
        let (low, high) = b.order_ids();
        for order in low..=high {
            let text = order.to_string();
            for start in 0..text.len() {
                for end in start + 1..=text.len() {
                    let part = &text[start..end];
                    assert!(
                        part == b.id.to_string() || !ids.contains(part),
                        "order {order} of basket {} contains basket {part}",
                        b.id
                    );
                }
            }
        }
        assert!(low > 999_999, "order ids of {} collide with 7000xx", b.id);
    }
}

#[test]
fn money_adds_up_in_every_basket() {
    for b in basket::all() {
        for line in &b.lines {
            assert_eq!(line.total(), line.unit() * line.quantity);
        }
        let subtotal: u32 = b.lines.iter().map(basket::Line::total).sum();
        assert_eq!(b.subtotal(), subtotal);
        assert!(b.discount() <= subtotal + b.delivery_fee(), "{}", b.words());
        assert_eq!(
            b.total() + b.discount(),
            subtotal + b.delivery_fee() + b.service_fee()
        );
    }
}

#[test]
fn restaurants_differ_in_minimum_order_and_charge_fils_somewhere() {
    let minimums: BTreeSet<u32> = RESTAURANTS.iter().map(|r| r.minimum_order).collect();
    assert_eq!(minimums.len(), RESTAURANTS.len());
    for r in &RESTAURANTS {
        let fils = r
            .categories
            .iter()
            .flat_map(|c| c.items.iter())
            .any(|i| i.price % 100 != 0);
        assert!(fils, "every price of {} is a whole dirham", r.name);
    }
}

#[test]
fn every_cuisine_and_name_is_a_search_word_that_finds_its_restaurant() {
    let found: BTreeMap<String, Vec<u32>> = search::words()
        .into_iter()
        .map(|(word, rs)| (word, rs.iter().map(|r| r.id).collect()))
        .collect();
    for r in &RESTAURANTS {
        let mut texts: Vec<String> = r.cuisines.iter().map(|c| c.to_lowercase()).collect();
        texts.push(r.name.to_lowercase());
        for text in texts {
            let hit = found
                .iter()
                .any(|(word, ids)| text.contains(word.as_str()) && ids.contains(&r.id));
            assert!(hit, "searching \"{text}\" does not find {}", r.name);
        }
    }
    assert_eq!(found["sushi"].first(), Some(&30102), "SPEC §7 test 7");
}

#[test]
fn menus_list_every_item_once_with_options_to_choose() {
    let mut seen = BTreeSet::new();
    for (r, item) in items() {
        assert!(seen.insert(item.id), "item {} listed twice", item.id);
        assert_eq!(
            item.id / 100,
            r.id,
            "item {} is not numbered for {}",
            item.id,
            r.name
        );
        for group in item.groups {
            assert!(group.min <= group.max && group.max <= group.options.len());
        }
        assert!(
            basket::combos(item).len() <= 10,
            "too many choices: {}",
            item.name
        );
    }
}

#[test]
fn careem_pay_balance_is_the_one_get_payment_methods_shows() {
    let text = std::fs::read_to_string(repo().join("tools/world/account.json"))
        .expect("the account's data file");
    let account: serde_json::Value = serde_json::from_str(&text).expect("account.json is JSON");
    let shown = account["paymentMethods"]
        .as_array()
        .and_then(|all| all.iter().find(|m| m["type"] == "CAREEM_PAY"))
        .map(|m| m["balance"]["amount"].to_string());
    assert_eq!(
        shown.as_deref(),
        Some(aed(CAREEM_PAY_BALANCE).trim_end_matches('0')),
        "get_payment_methods does not show the balance food_place_order checks"
    );
}
