//! The generator of the food, cart and order tool files. Their scenarios (a menu and item
//! details per restaurant and item, a basket per item × option choice × quantity, an order and
//! a status per basket, search words × `limit`) are rendered from the tables in `world`, the
//! single source of truth, whose rules are in `docs/DATA_WORLD.md`.

pub mod basket;
mod cart;
mod json;
pub mod markdown;
mod menu;
mod orders;
pub mod search;
mod slots;
pub mod world;

use std::path::Path;

use crate::Generated;
use markdown::Scenario;

/// Each generated food, cart and order file with its scenarios, in the order they are written.
pub fn scenario_files() -> Vec<(&'static str, Vec<Scenario>)> {
    vec![
        (search::PATH, search::scenarios()),
        (menu::MENU, menu::menu_scenarios()),
        (menu::DETAILS, menu::details_scenarios()),
        (slots::PATH, slots::scenarios()),
        (cart::ADD, cart::add_scenarios()),
        (cart::UPDATE, cart::update_scenarios()),
        (cart::GET, cart::get_scenarios()),
        (orders::PLACE, orders::place_scenarios()),
        (orders::STATUS, orders::status_scenarios()),
        (orders::LIST, orders::list_scenarios()),
    ]
}

/// The generated food, cart and order files as they should be, heads read from `repo`.
pub fn files(repo: &Path) -> anyhow::Result<Vec<Generated>> {
    scenario_files()
        .into_iter()
        .map(|(path, scenarios)| markdown::file(repo, path, &scenarios))
        .collect()
}
