//! One test per testing story of docs/CONTROLS.md, each over every transport.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};

use careem_mcp::engine::{Engine, EngineConfig, Fault, journal};

use super::{Client, Rig, SEED, Seen, TRANSPORTS, Transport, call, call_within};
use crate::support::{Lines, Project, StdioServer};

/// A new session over `transport` whose first `get_saved_locations` meets `fault` (the calls
/// after it are normal): the client, and what it saw of that first call, given up on after
/// `timeout`.
async fn first_call_meets(
    rig: &Rig,
    fault: &str,
    transport: Transport,
    timeout: Duration,
) -> (Client, Seen) {
    rig.force(&json!({"get_saved_locations": [{"fault": fault}, {}]}));
    let client = rig.connect(transport).await;
    let seen = call_within(&client, "get_saved_locations", json!({}), timeout).await;
    (client, seen)
}

fn ride() -> Value {
    json!({"rideId": "6213021"})
}

/// A ride polled through its whole life: each session sees every step from the first, the
/// last repeats, and the journal names the step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_five_step_ride_polled_by_a_real_client() {
    let rig = Rig::start(&json!({
        "ride_get_status": ["searching", "driver-assigned", "arriving", "on-trip", "completed"]
    }))
    .await;
    let want = [
        "SEARCHING",
        "CAPTAIN_ON_THE_WAY",
        "CAPTAIN_ARRIVED",
        "ON_TRIP",
        "COMPLETED",
        "COMPLETED",
    ];
    for transport in TRANSPORTS {
        let client = rig.connect(transport).await;
        let mut seen = Vec::new();
        for _ in want {
            let result = call(&client, "ride_get_status", ride()).await;
            seen.push(result.result()["structuredContent"]["ride"]["status"].clone());
        }
        assert_eq!(seen, want.map(Value::from), "{transport:?}");
        let _ = client.cancel().await;
    }
    let steps: Vec<Option<usize>> = rig.journal().iter().map(|e| e.step).collect();
    let one_run = [1, 2, 3, 4, 5, 5].map(Some);
    assert_eq!(steps, [one_run, one_run, one_run].concat());
}

/// A delayed call waits at least its delay, in its own task: another session's call (over
/// stdio, another call of the same session) is answered while it waits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delay_slows_its_own_call_only() {
    let rig = Rig::start(&json!({"get_user_profile": {"delay": "2500ms"}})).await;
    for transport in TRANSPORTS {
        let slow_client = rig.connect(transport).await;
        let other = if transport == Transport::Stdio {
            None
        } else {
            Some(rig.connect(transport).await)
        };
        let before = rig.journal().len();
        let started = std::time::Instant::now();
        let slow = call(&slow_client, "get_user_profile", json!({}));
        let quick = call(
            other.as_ref().unwrap_or(&slow_client),
            "get_saved_locations",
            json!({}),
        );
        let (slow, quick) = tokio::join!(slow, quick);
        assert!(
            started.elapsed() >= Duration::from_millis(2500),
            "{transport:?}"
        );
        slow.result();
        quick.result();
        let entries = rig.journal_with(before + 2).await;
        let order: Vec<&str> = entries[before..].iter().map(|e| e.tool.as_str()).collect();
        assert_eq!(
            order,
            ["get_saved_locations", "get_user_profile"],
            "{transport:?}"
        );
        assert_eq!(entries[before + 1].delay_ms, Some(2500));
        assert_eq!(entries[before].delay_ms, None);
    }
}

/// The first booking fails as the ingress would fail it, the retry books.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fail_once_then_succeed() {
    let rig = Rig::start(&json!({"ride_book": [{"fault": "http-503"}, "searching"]})).await;
    let booking = json!({"productId": 1102, "pickupLatitude": 25.0866, "pickupLongitude": 55.1474,
        "dropoffLatitude": 25.2528, "dropoffLongitude": 55.3644});
    for transport in TRANSPORTS {
        let client = rig.connect(transport).await;
        let first = call(&client, "ride_book", booking.clone()).await;
        let error = first.error().to_string();
        let want = match transport {
            Transport::Stdio => "internal error",
            _ => "503",
        };
        assert!(error.contains(want), "{transport:?}: {error}");
        let second = call(&client, "ride_book", booking.clone()).await;
        assert_eq!(
            second.result()["structuredContent"]["ride"]["status"],
            "SEARCHING",
            "{transport:?}"
        );
    }
    let faults: Vec<Option<String>> = rig.journal().into_iter().map(|e| e.fault).collect();
    let once = [Some("http-503".to_string()), None];
    assert_eq!(faults, [once.clone(), once.clone(), once].concat());
}

/// Each fault as the rmcp client sees it on each transport.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_fault_as_the_client_sees_it() {
    let rig = Rig::start(&json!({})).await;
    let cases: [(&str, Transport, &str); 12] = [
        ("http-502", Transport::Http, "502"),
        ("http-504", Transport::Http, "504"),
        ("http-502", Transport::Sse, "upstream connect error"),
        ("http-504", Transport::Sse, "upstream request timeout"),
        ("http-502", Transport::Stdio, "internal error"),
        ("internal-error", Transport::Http, "internal error"),
        ("internal-error", Transport::Sse, "internal error"),
        ("internal-error", Transport::Stdio, "internal error"),
        ("hang", Transport::Http, "timeout"),
        ("hang", Transport::Sse, "timeout"),
        ("hang", Transport::Stdio, "timeout"),
        ("session-expired", Transport::Sse, "session not found"),
    ];
    for (fault, transport, want) in cases {
        let (client, seen) = first_call_meets(&rig, fault, transport, Duration::from_secs(3)).await;
        let error = seen.error().to_string();
        // An expired SSE session ends its stream as its POST is refused: the client may see
        // either first, as it would when production forgets a session.
        let either = fault == "session-expired" && error.contains("Transport closed");
        assert!(
            error.contains(want) || either,
            "{fault} over {transport:?}: {error}"
        );
        if fault == "internal-error" || fault == "hang" {
            // The session goes on: a cancelled hang holds nothing up.
            call(&client, "get_saved_locations", json!({}))
                .await
                .result();
        }
        let _ = client.cancel().await;
    }
    let faults = rig.journal().iter().filter(|e| e.fault.is_some()).count();
    assert_eq!(faults, cases.len(), "every fault journalled");
}

/// A delay and an ingress fault together: the delay comes first, then the ingress's 504, on
/// both HTTP transports, and the journal line records both. The only bound on the time is a
/// lower one: the fault never arrives before its delay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ingress_fault_fires_after_its_delay() {
    let delay = Duration::from_millis(1500);
    let rig = Rig::start(&json!({})).await;
    let cases = [
        (Transport::Http, "504"),
        (Transport::Sse, "upstream request timeout"),
    ];
    for (transport, want) in cases {
        rig.force(&json!({"get_saved_locations": {"delay": "1500ms", "fault": "http-504"}}));
        let client = rig.connect(transport).await;
        let before = rig.journal().len();
        let started = std::time::Instant::now();
        let seen = call_within(
            &client,
            "get_saved_locations",
            json!({}),
            Duration::from_secs(30),
        )
        .await;
        let waited = started.elapsed();
        let error = seen.error().to_string();
        assert!(error.contains(want), "{transport:?}: {error}");
        assert!(
            waited >= delay,
            "{transport:?}: the fault came after {waited:?}, before its delay of {delay:?}"
        );
        let entries = rig.journal_with(before + 1).await;
        let line = &entries[before];
        assert_eq!(
            (line.fault.as_deref(), line.delay_ms),
            (Some("http-504"), Some(1500)),
            "{transport:?}"
        );
        let _ = client.cancel().await;
    }
}

/// A dropped connection and an expired session end what they end: the client's call fails,
/// a Streamable HTTP session is gone (a new one works), a stdio server exits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drop_and_session_expired_end_the_connection_or_session() {
    let rig = Rig::start(&json!({})).await;
    for (fault, transport) in [
        ("drop", Transport::Http),
        ("drop", Transport::Sse),
        ("drop", Transport::Stdio),
        ("session-expired", Transport::Http),
        ("session-expired", Transport::Stdio),
    ] {
        let faults_before = rig.journal().iter().filter(|e| e.fault.is_some()).count();
        let (client, seen) = first_call_meets(&rig, fault, transport, Duration::from_secs(5)).await;
        // A Streamable HTTP client that meets an expired session opens a new one and sends
        // the call again; its new session takes up the story past the fault
        // (docs/CONTROLS.md), so the call is answered, the fault journalled.
        let reopens = fault == "session-expired" && transport == Transport::Http;
        if reopens {
            let faults = rig.journal().iter().filter(|e| e.fault.is_some()).count();
            assert_eq!(faults, faults_before + 1, "the expiry is journalled");
        } else {
            seen.error();
        }
        let after = call_within(
            &client,
            "get_saved_locations",
            json!({}),
            Duration::from_secs(5),
        )
        .await;
        // A dropped Streamable HTTP connection leaves its session, a reopened one lives;
        // anything else is gone.
        let session_lives = (fault == "drop" && transport == Transport::Http) || reopens;
        assert_eq!(
            matches!(after, Seen::Result(_)),
            session_lives,
            "{fault} over {transport:?}: {after:?}"
        );
        // A new session starts the sequence again: lift the fault to see it answered.
        rig.force(&json!({}));
        let fresh = rig.connect(transport).await;
        let again = call(&fresh, "get_saved_locations", json!({})).await;
        assert!(
            matches!(again, Seen::Result(_)),
            "{fault} over {transport:?}: a new session works: {again:?}"
        );
    }
    // A dropped stdio connection is a crashed server.
    let mut command = rig.project.command();
    command.args(["serve", "--stdio"]).env(
        "CAREEM_MCP_OVERRIDES",
        rig.project.path().join(".run/overrides.json"),
    );
    rig.force(&json!({"get_saved_locations": {"fault": "drop"}}));
    let mut server = StdioServer::start(command, Stdio::null());
    server.initialize();
    server.send_json(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "get_saved_locations", "arguments": {}}}));
    let status = server
        .process
        .wait_for_exit(Duration::from_secs(30))
        .expect("the server ends");
    assert_eq!(status.code(), Some(2), "a crashed server's status");
}

/// A fault at a rate fires on a seed-stable share of calls: under one seed each session draws
/// its own pattern (the second session does not repeat the first's), and the same session of
/// another run draws the same one: the stdio server, a process of its own whose first session
/// it is, repeats the first HTTP session's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_probability_fault_at_a_seed_stable_rate() {
    let rig = Rig::start(&json!({"*": {"fault": "internal-error", "rate": 0.3}})).await;
    let mut patterns = Vec::new();
    for transport in TRANSPORTS {
        let client = rig.connect(transport).await;
        let mut pattern = Vec::new();
        for _ in 0..30 {
            let seen = call(&client, "get_saved_locations", json!({})).await;
            pattern.push(matches!(seen, Seen::Failed(_)));
        }
        patterns.push(pattern);
    }
    assert_ne!(patterns[0], patterns[1], "each session its own draws");
    assert_eq!(
        patterns[0], patterns[2],
        "the same first session, the same draws"
    );
    for pattern in &patterns {
        let fired = pattern.iter().filter(|f| **f).count();
        assert!((3..=18).contains(&fired), "{fired} of 30 at rate 0.3");
    }
}

/// The engine of a project whose overrides file is `overrides`, under `seed`.
fn seeded_engine(project: &Project, overrides: &Value, seed: u64) -> Engine {
    project.write(".run/overrides.json", &overrides.to_string());
    Engine::load(EngineConfig {
        tools_dir: project.path().join("tools"),
        overrides: project.path().join(".run/overrides.json"),
        clock: None,
        seed: Some(seed),
        stateful: false,
    })
    .expect("the repo's tools load")
}

/// Seed 42 and a rate of one half used to fail the first call of every new session (100 of
/// 100): the draws did not depend on the session. Now fresh sessions fail about half their
/// first calls, and a second run with the seed fails exactly the same ones.
#[test]
fn under_a_seed_each_new_session_draws_afresh_and_reproducibly() {
    let project = Project::copy_of_repo();
    let entry = json!({"*": {"fault": "http-503", "rate": 0.5}});
    let first_calls = |engine: &Engine| -> Vec<bool> {
        (0..100)
            .map(|n| {
                let session = uuid_like(n);
                engine
                    .plan("get_saved_locations", Some(&session))
                    .fault
                    .is_some()
            })
            .collect()
    };
    for seed in [42, 7] {
        let run = first_calls(&seeded_engine(&project, &entry, seed));
        let failed = run.iter().filter(|f| **f).count();
        assert!(
            (25..=75).contains(&failed),
            "seed {seed}: {failed} of 100 first calls failed"
        );
        let again = first_calls(&seeded_engine(&project, &entry, seed));
        assert_eq!(run, again, "seed {seed}: the same on every run");
    }
}

/// A session id as a server makes them: different on every run.
fn uuid_like(n: u64) -> String {
    format!(
        "{:016x}-{n}",
        std::process::id() as u64 ^ n.wrapping_mul(0x9E37_79B9)
    )
}

/// A sequence whose first step ends the session: the client initializes again and its new
/// session goes on with the second step, instead of meeting the fault for ever. Another
/// client's session starts the story from its first step.
#[test]
fn a_story_goes_on_past_the_session_it_ended_for_the_client_that_comes_back() {
    let project = Project::copy_of_repo();
    let entry =
        json!({"ride_get_status": [{"fault": "session-expired"}, "driver-assigned", "arriving"]});
    let engine = seeded_engine(&project, &entry, 7);
    let client = "claude-code/2.0.14";
    let plan = |session: &str, client: &str| {
        engine.plan_for("ride_get_status", Some(session), Some(client))
    };
    let first = plan("s1", client);
    assert_eq!(first.fault, Some(Fault::SessionExpired), "{first:?}");
    // The server ends the session for the fault, and keeps its place for the client.
    engine.positions().carry("s1", client);
    let other = plan("someone-else", "cursor/1.7");
    assert_eq!(
        other.fault,
        Some(Fault::SessionExpired),
        "another client starts afresh"
    );
    let again = plan("s2", client);
    assert_eq!(
        (again.fault, again.scenario.as_deref(), again.step),
        (None, Some("driver-assigned"), Some(1))
    );
    let next = plan("s2", client);
    assert_eq!(
        (next.scenario.as_deref(), next.step),
        (Some("arriving"), Some(2))
    );
}

/// What one `serve --stdio` process's first `get_saved_locations` met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Met {
    /// `fault:session-expired`: the process ended, status 0, without an answer.
    Expiry,
    /// An answer, not an error.
    Answer,
}

/// The story of the stdio tests: the first step ends the session, the second answers.
fn expiring_story() -> Value {
    json!({"get_saved_locations": [{"fault": "session-expired"}, {}]})
}

/// One `serve --stdio` process in `project` of a client named `client` (version 1): what its
/// first `get_saved_locations` met, and the lines of its stderr that speak of the carried
/// file. A process that answers is then ended by closing its stdin.
fn one_stdio_process(project: &Project, client: &str) -> (Met, Vec<String>) {
    let mut command = project.command();
    command.args(["--seed", SEED, "serve", "--stdio"]);
    let mut server = StdioServer::start(command, Stdio::piped());
    let mut stderr = Lines::of(server.process.0.stderr.take().expect("stderr"));
    server.initialize_as(client, "1");
    server.send_json(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "get_saved_locations", "arguments": {}}}));
    // stdout closes without an answer when the process ends at the fault.
    let met = match server.lines.recv_timeout(Duration::from_secs(30)) {
        Ok(line) => {
            let answer: Value = serde_json::from_str(&line).expect("JSON-RPC");
            assert_eq!(answer["id"], 2, "{answer}");
            assert_ne!(answer["result"]["isError"], true, "{answer}");
            assert!(
                answer["result"]["structuredContent"].is_object(),
                "{answer}"
            );
            server.close_stdin();
            Met::Answer
        }
        Err(_) => Met::Expiry,
    };
    let status = server
        .process
        .wait_for_exit(Duration::from_secs(30))
        .expect("the server ends");
    assert_eq!(status.code(), Some(0), "{client}: {met:?}");
    // Read to the end: `wait_for` returns once stderr is closed.
    stderr.wait_for(Duration::from_secs(10), |_| false);
    let about_carried = stderr
        .lines()
        .into_iter()
        .filter(|line| line.contains("carried file"))
        .collect();
    (met, about_carried)
}

/// Over stdio the fault ends the process, and the session with it: the session's places are
/// left on disk for its client, whose next `serve --stdio` goes on with the second step and
/// takes them, so that a third process starts afresh. Another client's places are its own.
#[test]
fn over_stdio_a_story_goes_on_past_the_process_it_ended_for_the_client_that_comes_back() {
    let project = Project::copy_of_repo();
    project.write(".run/overrides.json", &expiring_story().to_string());
    let processes = [
        ("agent", Met::Expiry, "the first step ends the process"),
        (
            "other",
            Met::Expiry,
            "another client starts from the first step",
        ),
        (
            "agent",
            Met::Answer,
            "the client that comes back meets the second step",
        ),
        (
            "agent",
            Met::Expiry,
            "its places were taken: a third process starts afresh",
        ),
        (
            "other",
            Met::Answer,
            "the other client's places were left alone",
        ),
    ];
    for (client, want, why) in processes {
        let (met, warnings) = one_stdio_process(&project, client);
        assert_eq!(met, want, "{client}: {why}");
        assert!(warnings.is_empty(), "{client}: {warnings:?}");
    }
    let steps: Vec<Option<usize>> = journal::read(&project.path().join(".run/calls.jsonl"))
        .expect("the journal reads")
        .iter()
        .map(|entry| entry.step)
        .collect();
    assert_eq!(steps, [1, 1, 2, 1, 2].map(Some));
}

/// `careem-mcp reset` starts every story afresh, over stdio too: what an ended process left
/// for its client is forgotten with the overrides file's entries.
#[test]
fn reset_forgets_what_an_ended_stdio_process_left_for_its_client() {
    let project = Project::copy_of_repo();
    project.write(".run/overrides.json", &expiring_story().to_string());
    assert_eq!(one_stdio_process(&project, "agent").0, Met::Expiry);
    assert!(project.path().join(".run/carried.json").exists());
    let reset = project.run(&["reset"]);
    assert_eq!(reset.code, 0, "{}", reset.stderr);
    assert!(!project.path().join(".run/carried.json").exists());
    project.write(".run/overrides.json", &expiring_story().to_string());
    assert_eq!(
        one_stdio_process(&project, "agent").0,
        Met::Expiry,
        "the story starts from its first step"
    );
}

/// A carried file that cannot be used is ignored with one warning: the call goes on (it meets
/// the story's first step), and the places it leaves replace the broken file, so the client's
/// next process goes on with the second step.
#[test]
fn a_broken_carried_file_never_stops_a_call() {
    let big = format!("{{\"x\": \"{}\"}}", "a".repeat(1024 * 1024));
    let cases: [(&str, Option<&str>); 5] = [
        ("not JSON", Some("{not json")),
        ("not an object", Some("[1, 2]")),
        (
            "an entry not of places",
            Some(r#"{"t/1": {"ordinal": "first"}}"#),
        ),
        ("over 1 MiB", Some(&big)),
        ("a FIFO", None),
    ];
    for (case, text) in cases {
        let project = Project::copy_of_repo();
        project.write(".run/overrides.json", &expiring_story().to_string());
        let path = project.path().join(".run/carried.json");
        match text {
            Some(text) => std::fs::write(&path, text).expect("writes"),
            None => crate::support::make_fifo(&path),
        }
        let (met, warnings) = one_stdio_process(&project, "t");
        assert_eq!(met, Met::Expiry, "{case}");
        assert_eq!(warnings.len(), 1, "{case}: one warning: {warnings:?}");
        let (met, warnings) = one_stdio_process(&project, "t");
        assert_eq!(
            met,
            Met::Answer,
            "{case}: the places replaced the broken file"
        );
        assert!(warnings.is_empty(), "{case}: {warnings:?}");
    }
}

/// A broken entry is skipped and reported; the entries beside it still apply.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_entry_beside_good_ones() {
    let rig = Rig::start(&json!({
        "ride_get_status": "completed",
        "get_user_profile": {"fault": "http-500"},
        "*": 5,
    }))
    .await;
    for transport in TRANSPORTS {
        let client = rig.connect(transport).await;
        let status = call(&client, "ride_get_status", ride()).await;
        assert_eq!(
            status.result()["structuredContent"]["ride"]["status"],
            "COMPLETED"
        );
        call(&client, "get_user_profile", json!({})).await.result();
    }
    let listed = rig.project.run(&["scenarios", "get_user_profile"]);
    assert!(
        listed.stdout.contains("unknown fault \"http-500\""),
        "{}",
        listed.stdout
    );
    assert!(listed.stdout.contains("* → ignored"), "{}", listed.stdout);
}
