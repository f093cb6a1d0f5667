//! Production's recorded answers (tests/fixtures/wire/, one recording per Go SDK release)
//! replayed against the binary served with that release's `--wire` profile, over each
//! transport a probe names, and compared as a client observes them, with the recording's
//! masks. Every probe answered otherwise is reported at once, each with its differences.
//! Where the shared recordings are silent, tests/fixtures/wire/silent/ holds the peers'
//! answers to more probes, replayed the same way.

mod observe;
mod probes;
mod replay;
mod silent;

use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::{Project, engine, repo, serve_binary};

/// Each profile and the recording of the release it stands for.
const RECORDINGS: [(&str, &str); 3] = [
    ("go-sdk-1.6.1", "go-sdk-v1.6.1.jsonl"),
    ("go-sdk-1.7.0", "go-sdk-v1.7.0.jsonl"),
    ("go-sdk-1.7.0-stateless", "go-sdk-v1.7.0-stateless.jsonl"),
];

/// Each profile and the recording of its release's answers where the shared recordings are
/// silent (tests/fixtures/wire/silent/README.md says how they were recorded).
const SILENT: [(&str, &str); 3] = [
    ("go-sdk-1.6.1", "silent/go-sdk-v1.6.1.jsonl"),
    ("go-sdk-1.7.0", "silent/go-sdk-v1.7.0.jsonl"),
    (
        "go-sdk-1.7.0-stateless",
        "silent/go-sdk-v1.7.0-stateless.jsonl",
    ),
];

/// Production's answers in `file`, one probe a line.
fn recording(file: &str) -> Vec<Value> {
    let path = repo().join("tests/fixtures/wire").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).expect("each line of the recording is JSON"))
        .collect()
}

/// Replays `file`'s probes against the binary served with `--wire <wire>`; every probe
/// answered otherwise fails the test, all of them named.
fn replays_as_recorded(wire: &str, file: &str) {
    let (differing, probes) = differing(wire, file);
    assert!(
        differing.is_empty(),
        "{wire}: {} of {probes} probes are answered otherwise than production's Go SDK answers them:\n\n{}\n",
        differing.len(),
        differing.join("\n\n")
    );
}

/// Each probe of `file` that the binary served with `--wire <wire>` answers otherwise, with
/// its differences; and how many probes there are.
fn differing(wire: &str, file: &str) -> (Vec<String>, usize) {
    let recorded = recording(file);
    let requests = probes::table();
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) = serve_binary(&project, &["--wire", wire]);
    let addr = crate::support::address(&url);
    let mut differing = Vec::new();
    for want in &recorded {
        let name = want["probe"].as_str().expect("each probe is named");
        let (_, request) = requests
            .iter()
            .find(|(known, _)| *known == name)
            .unwrap_or_else(|| {
                panic!("the recording's probe {name:?} has no request in probes.rs")
            });
        let got = replay::replay(name, request, addr, &project, wire);
        let differences = observe::differences(want, &got);
        if !differences.is_empty() {
            differing.push(format!("{name}\n  - {}", differences.join("\n  - ")));
        }
    }
    (differing, recorded.len())
}

#[test]
fn every_probe_is_answered_as_go_sdk_v1_6_1_answers_it() {
    replays_as_recorded("go-sdk-1.6.1", "go-sdk-v1.6.1.jsonl");
}

#[test]
fn every_probe_is_answered_as_go_sdk_v1_7_0_answers_it() {
    replays_as_recorded("go-sdk-1.7.0", "go-sdk-v1.7.0.jsonl");
}

#[test]
fn every_probe_is_answered_as_go_sdk_v1_7_0_stateless_answers_it() {
    replays_as_recorded("go-sdk-1.7.0-stateless", "go-sdk-v1.7.0-stateless.jsonl");
}

/// Where the shared recordings are silent: refusals of methods the server does not serve,
/// methods protocol 2026-07-28 removed and requests before `initialize`, under every profile.
#[test]
fn every_silent_probe_is_answered_as_each_release_answers_it() {
    let report: Vec<String> = SILENT
        .iter()
        .filter_map(|(wire, file)| {
            let (differing, probes) = differing(wire, file);
            (!differing.is_empty()).then(|| {
                format!(
                    "{wire}: {} of {probes} probes:\n\n{}",
                    differing.len(),
                    differing.join("\n\n")
                )
            })
        })
        .collect();
    assert!(
        report.is_empty(),
        "answered otherwise than production's Go SDK answers them:\n\n{}\n",
        report.join("\n\n")
    );
}

/// Every request in probes.rs is recorded by some release: none is dead.
#[test]
fn every_probe_has_a_recorded_answer() {
    let recorded: BTreeSet<String> = RECORDINGS
        .iter()
        .chain(&SILENT)
        .flat_map(|(_, file)| recording(file))
        .filter_map(|probe| probe["probe"].as_str().map(str::to_string))
        .collect();
    let unrecorded: Vec<&str> = probes::table()
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| !recorded.contains(*name))
        .collect();
    assert!(
        unrecorded.is_empty(),
        "probes without a recorded answer: {unrecorded:?}"
    );
}

/// The recording server served the same tools as `tools/`, so its tool list names each file.
#[test]
fn the_recorded_tool_list_names_the_files_in_tools() {
    let listed = recording(RECORDINGS[0].1)
        .into_iter()
        .find(|probe| probe["probe"] == "session: tools/list envelope")
        .expect("the recording lists the tools");
    let step = listed["steps"]
        .as_array()
        .and_then(|s| s.last())
        .expect("an answer");
    let data = step["events"][0]
        .as_array()
        .and_then(|fields| fields.iter().find(|f| f[0] == "data"))
        .and_then(|f| f[1].as_str())
        .expect("the answer is an event");
    let message: Value = serde_json::from_str(data).expect("JSON-RPC");
    let recorded: BTreeSet<String> = message["result"]["tools"]
        .as_array()
        .expect("a tool list")
        .iter()
        .map(|tool| tool["name"].as_str().expect("a name").to_string())
        .collect();
    let project = Project::copy_of_repo();
    let files: BTreeSet<String> = engine(&project)
        .tools()
        .map(|tool| tool.name.clone())
        .collect();
    assert_eq!(recorded, files);
}
