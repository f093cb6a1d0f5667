//! The engine without any transport: parsing the largest tool file, a warm call of
//! `food_get_restaurant_menu` (read, select, render, serialise) and a call right after an edit,
//! plus the pieces of the warm call, so that a regression can be placed.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use careem_mcp::engine::{
    Answer, CallOutput, CallRequest, Decision, Engine, EngineConfig, InPlace, Origin, Plan,
    Planning, Rendering, arguments, sample_arguments, toolfile,
};

use crate::stats::{Summary, report};

const MENU: &str = "food_get_restaurant_menu";
const ORDER: &str = "food_place_order";

/// Warm-call iterations; a computed menu takes a few hundred µs, so a loop takes a second or two.
const CALLS: usize = 5_000;

pub fn run() {
    println!("engine (in process, no subscriber: the call's log line is not formatted)");
    let project = tempfile::tempdir().expect("temporary directory");
    let tools = project.path().join("tools");
    copy_dir(&crate::repo().join("tools"), &tools);
    let engine = Engine::load(EngineConfig {
        tools_dir: tools.clone(),
        overrides: project.path().join(".run/overrides.json"),
        clock: None,
        seed: None,
        stateful: false,
    })
    .expect("the repository's tools load");

    parse_largest(&tools);
    let menu = engine.tool(MENU).expect("the menu tool").path.clone();
    warm_call(&engine);
    text_call(&engine);
    largest_file_call(&engine);
    pieces(&engine, &menu);
    logged_call(&engine);
    after_edit(&engine, &menu);
}

pub fn menu_arguments() -> Map<String, Value> {
    json!({"restaurant_id": 30101, "latitude": 25.0866, "longitude": 55.1474})
        .as_object()
        .cloned()
        .expect("an object")
}

fn parse_largest(tools: &Path) {
    let largest = all_files(tools)
        .into_iter()
        .max_by_key(|path| std::fs::metadata(path).map(|m| m.len()).unwrap_or(0))
        .expect("a tool file");
    let text = std::fs::read_to_string(&largest).expect("readable");
    let samples = measure(2_000, || {
        black_box(toolfile::parse(&largest, black_box(&text)));
    });
    let parsed = toolfile::parse(&largest, &text);
    let compiled = parsed
        .file
        .scenarios
        .iter()
        .filter(|s| matches!(&s.answer, Answer::Template(t) if t.is_compiled()))
        .count();
    println!(
        "  ({compiled} of {} templates in it compiled to a value with holes)",
        parsed.file.scenarios.len()
    );
    let name = largest.file_name().unwrap_or_default().to_string_lossy();
    report(
        &format!("parse largest file ({name}, {} KB)", text.len() / 1024),
        &Summary::new(samples).line(),
    );
}

fn warm_call(engine: &Engine) {
    let args = menu_arguments();
    let check = engine.answer(&CallRequest::new(Origin::Cli, MENU, Some(args.clone())));
    assert_eq!(
        check.decision,
        Decision::Scenario {
            name: "shawarma-station".into(),
            forced: false
        },
        "{}",
        check.text
    );
    assert!(check.text.contains("Shawarma Station") && !check.is_error);
    let samples = measure(CALLS, || {
        black_box(engine.answer(&CallRequest::new(Origin::Cli, MENU, Some(args.clone()))));
    });
    report(
        "warm call food_get_restaurant_menu",
        &Summary::new(samples).line(),
    );
}

/// The warm call as the Streamable HTTP path makes it: the answer's text alone, no value.
fn text_call(engine: &Engine) {
    let args = menu_arguments();
    let plan = Plan::default();
    let samples = measure(CALLS, || {
        black_box(answer_text(engine, &text_request(MENU, &args, &plan)));
    });
    report(
        "warm call, the text alone (Rendering::Text, as HTTP asks)",
        &Summary::new(samples).line(),
    );
}

/// A call answered as the Streamable HTTP path answers it: in place when a kept value or a
/// template answers it, else where blocking is fine, its programs on the program threads (the
/// first call of each second when the answer names `.now`, every call that draws `.random`).
fn answer_text(engine: &Engine, request: &CallRequest) -> CallOutput {
    match engine.answer_in_place(request) {
        InPlace::Answered(output) => output,
        InPlace::NeedsBlocking => engine.answer(request),
        InPlace::Unjournalled(_) => panic!("the bench keeps no journal"),
    }
}

/// A call as the Streamable HTTP path makes it: planned already, the text alone.
fn text_request(tool: &str, args: &Map<String, Value>, plan: &Plan) -> CallRequest {
    CallRequest {
        planning: Planning::DrawnByCaller(plan.clone()),
        rendering: Rendering::Text,
        ..CallRequest::new(Origin::Http, tool, Some(args.clone()))
    }
}

/// The warm call of the tool with the largest file, whose every call reads and compares it.
fn largest_file_call(engine: &Engine) {
    let tool = engine.tool(ORDER).expect("the order tool");
    let size = std::fs::metadata(&tool.path).expect("readable").len();
    let parsed = engine.current_file(tool).expect("readable");
    let scenario = &parsed.file.scenarios[0];
    let Value::Object(args) = sample_arguments(engine, tool, scenario) else {
        panic!("sample arguments are an object");
    };
    let plan = Plan::default();
    let samples = measure(CALLS / 10, || {
        black_box(answer_text(engine, &text_request(ORDER, &args, &plan)));
    });
    report(
        &format!(
            "warm call {ORDER} ({} KB file), the text alone",
            size / 1024
        ),
        &Summary::new(samples).line(),
    );
}

/// What the warm call is made of, each timed alone.
fn pieces(engine: &Engine, menu: &Path) {
    let bytes = std::fs::read(menu).expect("readable");
    let samples = measure(CALLS, || {
        black_box(std::fs::read(black_box(menu)).expect("readable"));
    });
    report(
        &format!("  piece: read the file ({} KB)", bytes.len() / 1024),
        &Summary::new(samples).line(),
    );
    let overrides = engine.config().overrides.clone();
    let samples = measure(CALLS, || {
        black_box(std::fs::read(black_box(&overrides)).ok());
    });
    report(
        "  piece: read the (absent) overrides file",
        &Summary::new(samples).line(),
    );

    let tool = engine.tool(MENU).expect("the menu tool");
    let mut args = Value::Object(menu_arguments());
    arguments::apply_defaults(&tool.input_schema, &mut args);
    let samples = measure(CALLS, || {
        black_box(arguments::validate(
            &tool.input_schema,
            &tool.input_validator,
            black_box(&args),
        ))
        .ok();
    });
    report(
        "  piece: validate the arguments",
        &Summary::new(samples).line(),
    );

    let parsed = engine.current_file(tool).expect("readable");
    let scenario = &parsed.file.scenarios[0];
    let samples = measure(CALLS, || {
        black_box(
            engine
                .render_with_text(scenario, black_box(&args))
                .expect("renders"),
        );
    });
    report(
        "  piece: render (value + compact text)",
        &Summary::new(samples).line(),
    );
    let (value, text) = engine.render_with_text(scenario, &args).expect("renders");
    let samples = measure(CALLS, || {
        black_box(black_box(&value).clone());
    });
    report(
        &format!("  of which: copy the {} B value (allocation)", text.len()),
        &Summary::new(samples).line(),
    );
    let samples = measure(CALLS, || {
        black_box(black_box(&value).to_string());
    });
    report(
        "  for scale: serialise the value again",
        &Summary::new(samples).line(),
    );
}

/// As `serve` runs it: the call's info line formatted by the fmt subscriber (into a sink).
fn logged_call(engine: &Engine) {
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new("info"))
        .with_writer(std::io::sink)
        .with_ansi(false)
        .with_target(false)
        .finish();
    let args = menu_arguments();
    let samples = tracing::subscriber::with_default(subscriber, || {
        measure(CALLS, || {
            black_box(engine.answer(&CallRequest::new(Origin::Cli, MENU, Some(args.clone()))));
        })
    });
    report(
        "warm call, log line formatted (as serve)",
        &Summary::new(samples).line(),
    );
}

/// Every iteration rewrites the file with different bytes (untimed), then times the call,
/// which must re-parse.
fn after_edit(engine: &Engine, menu: &Path) {
    let original = std::fs::read_to_string(menu).expect("readable");
    let variants = [
        original.clone(),
        original.replacen("Shawarma Station", "Shawarma Statiom", 1),
    ];
    let args = menu_arguments();
    let mut samples = Vec::with_capacity(1_000);
    for round in 0..1_000 {
        std::fs::write(menu, &variants[round % 2]).expect("writable");
        let started = Instant::now();
        let output =
            black_box(engine.answer(&CallRequest::new(Origin::Cli, MENU, Some(args.clone()))));
        samples.push(started.elapsed());
        assert!(!output.is_error, "{}", output.text);
    }
    std::fs::write(menu, &original).expect("writable");
    report(
        "call right after an edit (re-parse)",
        &Summary::new(samples).line(),
    );
}

/// Runs `body` a tenth of `n` times to warm up, then `n` times, timing each.
pub fn measure(n: usize, mut body: impl FnMut()) -> Vec<Duration> {
    for _ in 0..n / 10 {
        body();
    }
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        let started = Instant::now();
        body();
        samples.push(started.elapsed());
    }
    samples
}

fn all_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            found.extend(all_files(&path));
        } else if path.extension().is_some_and(|e| e == "md") {
            found.push(path);
        }
    }
    found
}

/// Copies the folder `from` to `to`, each file with its modification time, so that the copy
/// has settled as a user's project has: a file written in the last two seconds is read again on
/// every call (docs/FORMAT.md), which no server started on an existing project pays.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create folder");
    for entry in std::fs::read_dir(from).expect("readable folder") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
            let modified = entry
                .metadata()
                .and_then(|metadata| metadata.modified())
                .expect("a modification time");
            std::fs::File::options()
                .write(true)
                .open(&target)
                .and_then(|file| file.set_modified(modified))
                .expect("the copy's time is set");
        }
    }
}
