//! The generator of the ride and location tool files. Their scenarios (product × route
//! bookings, the statuses of every id `ride_book` hands out, search aliases × bias × limit)
//! are rendered from the tables in `world`, the single source of truth, whose rules are in
//! `docs/DATA_WORLD.md`.

mod book;
mod cancel;
mod estimates;
mod locations;
mod markdown;
mod status;
pub mod world;

use std::path::Path;

use crate::Generated;

/// The generated ride and location files as they should be, heads read from `repo`.
pub fn files(repo: &Path) -> anyhow::Result<Vec<Generated>> {
    [
        (estimates::PATH, estimates::scenarios()),
        (book::PATH, book::scenarios()),
        (status::PATH, status::scenarios()),
        (cancel::PATH, cancel::scenarios()),
        (locations::SEARCH, locations::search_scenarios()),
        (locations::GEOCODE, locations::geocode_scenarios()),
        (locations::SAVED_PATH, locations::saved_scenarios()),
    ]
    .into_iter()
    .map(|(path, scenarios)| markdown::file(repo, path, &scenarios))
    .collect()
}
