//! Priorities 4 and 5 on the journal: `calls --last N` reads from the end, in memory that does
//! not grow with the journal; `calls --follow` prints every call, whole, across `--clear`.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::Stdio;
use std::sync::mpsc::Receiver;
use std::time::Instant;

use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};

use super::{DEADLINE, run_bounded};
use crate::support::Project;
use crate::support::{Client, Process, assert_marina, serve_binary};

/// A journal line of `tool` at second `n`.
fn entry(tool: &str, n: usize) -> String {
    json!({"time": format!("2026-10-05T12:{:02}:{:02}.000Z", n / 60 % 60, n % 60), "transport": "http",
        "session": "s", "tool": tool, "scenario": "ok", "forced": false, "received": {"n": n},
        "arguments": {"n": n}, "isError": false, "micros": 1, "result": {"n": n}})
    .to_string()
}

/// Runs `careem-mcp` with its address space capped, so that reading a gigabyte whole fails.
fn run_capped(project: &Project, args: &[&str], bytes: u64) -> crate::support::Run {
    let mut command = project.command();
    command.args(args);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    crate::support::Run::from(command.output().expect("the binary runs"))
}

#[test]
fn calls_last_reads_from_the_end_of_a_large_journal() {
    let project = Project::empty();
    let path = project.path().join(".run/calls.jsonl");
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("the folder");
    // Entries, a gigabyte of nothing (sparse: no disk, no time), then the last entries, the
    // last of them still being written.
    let mut file = std::fs::File::create(&path).expect("the journal");
    for n in 0..100 {
        writeln!(file, "{}", entry("early", n)).expect("write");
    }
    file.set_len(file.metadata().expect("metadata").len() + (1 << 30))
        .expect("a hole");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .expect("append");
    writeln!(file).expect("the end of the hole");
    for n in 0..20 {
        let tool = if n % 2 == 0 { "even" } else { "odd" };
        writeln!(file, "{}", entry(tool, n)).expect("write");
    }
    write!(file, "{{\"time\": \"half a li").expect("write");
    drop(file);

    // (arguments, the `n` of each entry shown, in order)
    let cases: [(&[&str], &[u64]); 2] = [
        (&["--last", "5"], &[15, 16, 17, 18, 19]),
        (&["--last", "3", "--tool", "odd"], &[15, 17, 19]),
    ];
    for (args, want) in cases {
        let mut all = vec!["calls", "--json"];
        all.extend_from_slice(args);
        let run = run_capped(&project, &all, 512 << 20);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        let shown: Vec<Value> = serde_json::from_str(&run.stdout).expect("a JSON array");
        let ns: Vec<u64> = shown
            .iter()
            .map(|e| e["received"]["n"].as_u64().expect("n"))
            .collect();
        assert_eq!(ns, want, "{args:?}");
    }
}

/// The rows `calls --follow` prints, as they come.
fn follow(project: &Project) -> (Process, Receiver<String>) {
    let mut child = project
        .command()
        .args(["calls", "--follow"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("calls --follow starts");
    let stdout = child.stdout.take().expect("stdout");
    (Process(child), crate::support::lines_of(stdout))
}

/// Waits for `n` rows of `reverse_geocode` and returns them.
fn rows(lines: &Receiver<String>, n: usize) -> Vec<String> {
    let deadline = Instant::now() + DEADLINE;
    let mut found = Vec::new();
    while found.len() < n {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = lines
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("only {} of {n} rows: {found:?}", found.len()));
        if line.contains("reverse_geocode") {
            found.push(line);
        }
    }
    found
}

async fn calls(client: &Client, n: usize) {
    for _ in 0..n {
        assert_marina(client).await;
    }
}

#[tokio::test]
async fn calls_follow_prints_every_call_across_clear() {
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) = serve_binary(&project, &[]);
    let client =
        ().serve(StreamableHttpClientTransport::from_uri(url))
            .await
            .expect("the client initializes");
    calls(&client, 3).await;
    let (_follower, lines) = follow(&project);
    // The table of what is there comes first: its last border line means following began.
    let deadline = Instant::now() + DEADLINE;
    let mut table = Vec::new();
    while table
        .iter()
        .filter(|l: &&String| l.contains("reverse_geocode"))
        .count()
        < 3
    {
        let left = deadline.saturating_duration_since(Instant::now());
        table.push(lines.recv_timeout(left).expect("the table"));
    }
    while !table
        .last()
        .is_some_and(|l| l.starts_with('└') || l.starts_with('+'))
    {
        let left = deadline.saturating_duration_since(Instant::now());
        table.push(lines.recv_timeout(left).expect("the table's end"));
    }
    calls(&client, 5).await;
    let before = rows(&lines, 5);
    let cleared = run_bounded(&project, &["calls", "--clear"]);
    assert_eq!(cleared.code, 0, "{}", cleared.stderr);
    calls(&client, 20).await;
    let after = rows(&lines, 20);
    for row in before.iter().chain(&after) {
        assert!(
            row.starts_with("20") && row.contains("reverse_geocode  "),
            "a whole row: {row}"
        );
    }
    assert!(lines.try_recv().is_err(), "nothing more");
}

/// A journal that is a pipe nobody reads, or a device, is refused at start with exit 2 (no
/// hang, no "serving"); a run's journal that is such a pipe costs its lines, never an answer.
#[tokio::test]
async fn a_journal_no_call_could_finish_writing_is_refused_and_never_waited_on() {
    let project = Project::copy_of_repo();
    crate::support::make_fifo(&project.path().join("calls.pipe"));
    for (journal, why) in [
        ("calls.pipe", "is a pipe that nobody reads"),
        (
            "/dev/null",
            "is not a regular file or a pipe (a character device)",
        ),
    ] {
        for stdio in [false, true] {
            let mut args = vec!["serve", "--port", "0", "--journal", journal];
            if stdio {
                args.push("--stdio");
            }
            let run = run_bounded(&project, &args);
            assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
            assert!(
                run.stderr.contains(why) && !run.stderr.contains("serving"),
                "{args:?}: {}",
                run.stderr
            );
        }
    }
    // A run's journal that becomes such a pipe mid-run: its calls answer at once.
    let (_server, url, _stderr) = serve_binary(&project, &[]);
    let run_dir = project.path().join(".run/runs/piped");
    std::fs::create_dir_all(&run_dir).expect("the run's folder");
    crate::support::make_fifo(&run_dir.join("calls.jsonl"));
    let client = crate::support::http_client(&format!("{url}/piped")).await;
    let answered = tokio::time::timeout(DEADLINE, assert_marina(&client)).await;
    assert!(answered.is_ok(), "a call waited on a pipe nobody reads");
}

/// More runs in use than the file-descriptor limit holds journals: every call is answered and
/// journalled in its run, the journals used least recently closing their files to make room
/// (said once on stderr).
#[tokio::test]
async fn more_runs_than_file_descriptors_lose_no_journal_line() {
    const RUNS: usize = 300;
    let project = Project::copy_of_repo();
    let mut command = project.command();
    command.args(["serve", "--port", "0"]);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 256,
                rlim_max: 256,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let (_server, rest, mut stderr) =
        crate::support::start_announced(command, "careem-mcp: serving ");
    let url = rest
        .split_whitespace()
        .find(|word| word.ends_with("/mcp"))
        .expect("the /mcp URL")
        .to_string();
    let mut sessions = Vec::with_capacity(RUNS);
    for n in 0..RUNS {
        let (raw, _) = crate::support::Raw::initialize(format!("{url}/r{n}"), "2025-06-18").await;
        let (answer, _) = raw
            .request(
                2,
                "tools/call",
                json!({"name": "reverse_geocode", "arguments": {"latitude": 25.0866, "longitude": 55.1474}}),
            )
            .await;
        assert_eq!(
            answer["result"]["structuredContent"]["location"]["locationUuid"], "LOC-50001",
            "run r{n}: {answer}"
        );
        // Every session stays open: its run's engine, and journal, stay in use.
        sessions.push(raw);
    }
    for n in 0..RUNS {
        let journal = project.path().join(format!(".run/runs/r{n}/calls.jsonl"));
        let text = std::fs::read_to_string(&journal).unwrap_or_default();
        assert_eq!(text.lines().count(), 1, "run r{n}: {text:?}");
    }
    let said: Vec<String> = stderr
        .lines()
        .into_iter()
        .filter(|line| line.contains("journals are open"))
        .collect();
    assert_eq!(said.len(), 1, "said once: {said:?}");
    assert_eq!(sessions.len(), RUNS);
}
