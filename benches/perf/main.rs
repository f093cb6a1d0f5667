//! `cargo bench`: the figures of docs/PERFORMANCE.md, printed in one run on this machine.
//!
//! Sections: `engine`, `protocol`, `startup`. `cargo bench -- engine` runs only the sections
//! named. A plain timing harness (`harness = false`, `std::time::Instant`): no benchmark
//! framework, no timing assertions anywhere.

mod engine;
mod http;
mod protocol;
mod server;
mod startup;
mod stats;
mod targets;

use std::path::PathBuf;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(protocol::CEILING_ARG) {
        protocol::ceiling_server(&args[1], &args[2]);
        return;
    }
    // cargo passes `--bench`; anything else not starting with `-` names a section.
    let wanted: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let run = |name: &str| wanted.is_empty() || wanted.contains(&name);
    let started = std::time::Instant::now();
    println!(
        "careem-mcp benchmarks, {} CPUs, {}",
        std::thread::available_parallelism().map_or(0, std::num::NonZero::get),
        std::env::var("CARGO_PKG_VERSION").unwrap_or_default()
    );
    let mut targets = Vec::new();
    if run("engine") {
        engine::run();
    }
    if run("protocol") {
        targets.extend(protocol::run());
    }
    if run("startup") {
        targets.extend(startup::run());
    }
    targets::print(&targets);
    println!("done in {:.1} s", started.elapsed().as_secs_f64());
}
