//! One integration-test binary (faster to build than one per file).

mod cli;
mod controls;
mod dashboard;
mod engine;
mod fixtures;
mod generated;
mod journal;
mod journey_food;
mod journey_rides;
mod project;
mod robustness;
mod server;
mod support;
mod transcript;
mod verify;
mod world_food;
mod world_rides;
