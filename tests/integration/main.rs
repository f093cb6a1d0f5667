//! One integration-test binary (faster to build than one per file).

mod cli;
mod controls;
mod dashboard;
mod engine;
mod fast_path;
mod fixtures;
mod gen_food;
mod gen_rides;
mod hardening;
mod journal;
mod journey_food;
mod journey_rides;
mod project;
mod reliability;
mod server;
mod support;
mod terminal;
mod transcript;
mod verify;
