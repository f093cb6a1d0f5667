//! stdio's output: while answers wait unread, the server stops reading requests, so a client
//! that pipelines without reading cannot make it grow; once stdout is gone, the server ends
//! (status 0) with its journal lines written.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use careem_mcp::engine::journal;
use serde_json::{Value, json};

use super::DEADLINE;
use crate::support::{BIN, Process, Project};

fn initialize() -> String {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
    .to_string()
}

fn initialized() -> String {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string()
}

/// A menu call: a line of about 150 bytes whose answer is about 12 KB.
fn menu_call(id: usize) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": "food_get_restaurant_menu",
        "arguments": {"restaurant_id": 30101, "latitude": 25.0866, "longitude": 55.1474}}})
    .to_string()
}

/// `serve --stdio` in `project` with `args`, initialized: the process, its stdin, and its
/// stdout past the `initialize` answer.
fn initialized_server(
    project: &Project,
    args: &[&str],
    stderr: Stdio,
) -> (Process, ChildStdin, BufReader<ChildStdout>) {
    let mut child = Command::new(BIN)
        .current_dir(project.path())
        .env_remove("CAREEM_MCP_LOG")
        .args(["serve", "--stdio"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    writeln!(stdin, "{}\n{}", initialize(), initialized()).expect("writes");
    stdout
        .read_line(&mut String::new())
        .expect("the initialize answer");
    (Process(child), stdin, stdout)
}

/// Requests written ahead of the answers read can only fill what lies between the two: the
/// stdin pipe (64 KiB, about 440 of these lines), the server's read buffer, the 64 answers its
/// queue holds, the stdout pipe and this test's read buffer. A server that reads on regardless
/// takes every request at once while its answers pile up in memory.
#[test]
fn stdio_stops_reading_while_its_answers_wait_unread() {
    const CALLS: usize = 5_000;
    const AHEAD: usize = 1_000;
    let project = Project::copy_of_repo();
    let (mut server, mut stdin, mut stdout) =
        initialized_server(&project, &["--no-journal"], Stdio::null());
    let mut line = String::new();

    let written = Arc::new(AtomicUsize::new(0));
    let writer = {
        let written = Arc::clone(&written);
        std::thread::spawn(move || {
            for id in 1..=CALLS {
                writeln!(stdin, "{}", menu_call(id)).expect("the server reads on");
                written.fetch_add(1, Ordering::SeqCst);
            }
            stdin
        })
    };
    let mut most_ahead = 0;
    for read in 1..=CALLS {
        line.clear();
        stdout.read_line(&mut line).expect("an answer");
        let answer: Value = serde_json::from_str(&line).expect("JSON-RPC");
        assert!(answer["result"]["structuredContent"].is_object(), "{line}");
        let ahead = written.load(Ordering::SeqCst).saturating_sub(read);
        most_ahead = most_ahead.max(ahead);
        assert!(
            ahead <= AHEAD,
            "{ahead} requests taken in while {read} answers were read: stdio reads on while its answers wait"
        );
    }
    drop(writer.join().expect("the writer ends"));
    let status = server.wait_for_exit(DEADLINE).expect("the server ends");
    assert!(status.success(), "{status}");
    eprintln!("at most {most_ahead} requests ahead of the answers read");
}

#[test]
fn stdio_ends_with_status_zero_and_its_journal_written_when_stdout_is_gone() {
    let project = Project::copy_of_repo();
    let journal_path = project.path().join("calls.jsonl");
    let stderr_path = project.path().join("stderr.log");
    let stderr = std::fs::File::create(&stderr_path).expect("a stderr file");
    let (mut server, mut stdin, stdout) = initialized_server(
        &project,
        &["--journal", &journal_path.to_string_lossy()],
        stderr.into(),
    );
    // The client goes away without closing stdin: only the output is gone.
    drop(stdout);
    for id in 1..=3 {
        writeln!(stdin, "{}", menu_call(id)).expect("writes");
    }
    let status = server.wait_for_exit(DEADLINE);
    let log = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    let status = status.unwrap_or_else(|| panic!("still running with stdout gone: {log}"));
    assert_eq!(status.code(), Some(0), "{log}");
    assert_eq!(
        log.matches("stdout is gone").count(),
        1,
        "said once, then ended: {log}"
    );
    let entries = journal::read(&journal_path).expect("the journal reads");
    assert!(
        !entries.is_empty()
            && entries
                .iter()
                .all(|entry| entry.tool == "food_get_restaurant_menu"),
        "the calls taken in are journalled whole: {entries:?}"
    );
    drop(stdin);
}

/// A fault that ends a stdio server (`session-expired`: status 0; `drop`: a crash, status 2)
/// ends it when its call comes in a batch too.
#[test]
fn a_fault_that_ends_the_process_ends_it_from_a_batch() {
    for (fault, code) in [("session-expired", 0), ("drop", 2)] {
        let project = Project::copy_of_repo();
        project.write(
            ".run/overrides.json",
            &json!({"get_saved_locations": {"fault": fault}}).to_string(),
        );
        let (mut server, mut stdin, _stdout) =
            initialized_server(&project, &["--no-journal"], Stdio::null());
        let batch = json!([{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "get_saved_locations", "arguments": {}}}]);
        writeln!(stdin, "{batch}").expect("writes");
        let status = server
            .wait_for_exit(DEADLINE)
            .unwrap_or_else(|| panic!("{fault} in a batch: the server runs on"));
        assert_eq!(status.code(), Some(code), "{fault}");
        drop(stdin);
    }
}
