//! Production's recorded answers (tests/fixtures/wire/, a Go SDK v1.6.1 server) replayed
//! against the served binary over each transport a probe names, and compared as a client
//! observes them, with the recording's masks. Every probe answered otherwise is reported at
//! once, each with its differences.

mod observe;
mod probes;
mod replay;

use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::{Project, engine, repo, serve_binary};

/// Production's answers, one probe a line.
fn recording() -> Vec<Value> {
    let path = repo().join("tests/fixtures/wire/go-sdk-v1.6.1.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).expect("each line of the recording is JSON"))
        .collect()
}

#[test]
fn every_probe_is_answered_as_productions_go_sdk_answers_it() {
    let recorded = recording();
    let mut requests = probes::table();
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) = serve_binary(&project, &[]);
    let addr = crate::support::address(&url);
    let mut differing = Vec::new();
    for want in &recorded {
        let name = want["probe"].as_str().expect("each probe is named");
        let at = requests
            .iter()
            .position(|(known, _)| *known == name)
            .unwrap_or_else(|| {
                panic!("the recording's probe {name:?} has no request in probes.rs")
            });
        let (_, request) = requests.remove(at);
        let got = replay::replay(name, &request, addr, &project);
        let differences = observe::differences(want, &got);
        if !differences.is_empty() {
            differing.push(format!("{name}\n  - {}", differences.join("\n  - ")));
        }
    }
    let unrecorded: Vec<&str> = requests.iter().map(|(name, _)| *name).collect();
    assert!(
        unrecorded.is_empty(),
        "probes without a recorded answer: {unrecorded:?}"
    );
    assert!(
        differing.is_empty(),
        "{} of {} probes are answered otherwise than production's Go SDK answers them:\n\n{}\n",
        differing.len(),
        recorded.len(),
        differing.join("\n\n")
    );
}

/// The recording server served the same tools as `tools/`, so its tool list names each file.
#[test]
fn the_recorded_tool_list_names_the_files_in_tools() {
    let listed = recording()
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
