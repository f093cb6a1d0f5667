//! One integration-test binary (faster to build than one per file).

mod admin;
mod cli;
mod controls;
mod dashboard;
mod drift;
#[cfg(unix)]
mod edits;
mod engine;
mod export;
mod fixtures;
mod grade;
mod journal;
mod journey_food;
mod journey_rides;
mod project;
mod record;
mod remote;
mod robustness;
mod runs;
mod server;
mod stateful;
mod support;
mod terminal;
mod transcript;
mod verify;
mod wire;
mod wire_profiles;
mod world_add;
mod world_cli;
mod world_food;
mod world_rides;
mod world_time;
