//! The dashboard's JSON API: the admin API ([`crate::admin`]: runs, scenarios, reset, clock,
//! world, calls and their live stream, grade), and beside it what only the page needs: the
//! tool definitions with their lint findings, "try a call", and the run's verdict against
//! `--expected`.

mod tools;
mod try_call;
mod verdict;

use axum::Router;
use axum::routing::{get, post};

use super::Dashboard;
use crate::admin;

pub(super) fn routes(dashboard: Dashboard) -> Router {
    let page = Router::new()
        .route("/tools", get(tools::list))
        .route("/runs/{run}/call", post(try_call::run))
        .route("/runs/{run}/verdict", get(verdict::show))
        .with_state(dashboard.clone());
    admin::routes(dashboard.admin).merge(page)
}
