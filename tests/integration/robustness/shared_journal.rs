//! One journal, several writers (an HTTP `serve`, a stdio `serve` and `careem-mcp call` in one
//! project): a line another process cut off never swallows the next entry, rotation keeps
//! `--journal-max-size` for all writers together, and a journal that could not be opened at
//! start-up is tried again on each call, with the banner and `calls` saying so meanwhile.

use std::io::Write;
use std::process::Stdio;

use serde_json::{Value, json};

use super::{DEADLINE, run_bounded};
use crate::support::{Lines, Project, StdioServer};

/// `serve --stdio` in `project` with `global` options before the subcommand, initialized.
fn stdio_server(project: &Project, global: &[&str]) -> (StdioServer, Lines) {
    let mut command = project.command();
    command.args(global).args(["serve", "--stdio"]);
    let mut server = StdioServer::start(command, Stdio::piped());
    let stderr = Lines::of(server.process.0.stderr.take().expect("stderr"));
    server.initialize();
    (server, stderr)
}

/// A `food_merchant_search` whose query starts with `tag`, padded to `pad` characters; the
/// answer must come.
fn search(server: &mut StdioServer, id: u64, tag: &str, pad: usize) {
    let query = format!("{tag}{}", "q".repeat(pad));
    server.send_json(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "food_merchant_search",
            "arguments": {"query": query, "latitude": 25.0866, "longitude": 55.1474}}}));
    assert_eq!(server.next()["id"], id, "answered");
}

/// The tags of the journalled searches, oldest first, as `calls --json` reads them.
fn journalled_tags(project: &Project, global: &[&str]) -> Vec<String> {
    let run = run_bounded(project, &[global, &["calls", "--json"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let entries: Vec<Value> = serde_json::from_str(&run.stdout).expect("JSON");
    entries
        .iter()
        .filter_map(|e| e["received"]["query"].as_str())
        .map(|q| q.trim_end_matches('q').to_string())
        .collect()
}

#[test]
fn a_line_cut_off_by_another_writer_never_swallows_the_next_entry() {
    let project = Project::copy_of_repo();
    let (mut server, _stderr) = stdio_server(&project, &[]);
    search(&mut server, 2, "first-", 10);
    // Another writer, cut off mid-line (its disk filled): half an entry, no newline.
    let mut other = std::fs::OpenOptions::new()
        .append(true)
        .open(project.path().join(".run/calls.jsonl"))
        .expect("the journal exists");
    other
        .write_all(br#"{"time":"2026-10-05T12:00:00.000Z","transport":"http","tool":"ride_bo"#)
        .expect("a cut line");
    drop(other);
    search(&mut server, 3, "second-", 10);
    search(&mut server, 4, "third-", 10);
    assert_eq!(
        journalled_tags(&project, &[]),
        ["first-", "second-", "third-"],
        "every entry whole"
    );
    let text = project.read(".run/calls.jsonl");
    assert!(
        text.lines().any(|l| l.ends_with(r#""tool":"ride_bo"#)),
        "the cut line is ended, not glued: {text}"
    );
}

#[test]
fn two_servers_rotating_one_journal_keep_its_bound_together() {
    const MAX: u64 = 16 * 1024;
    let project = Project::copy_of_repo();
    let global = ["--journal-max-size", "16KiB"];
    let (mut one, _e1) = stdio_server(&project, &global);
    let (mut two, _e2) = stdio_server(&project, &global);
    let journal = project.path().join(".run/calls.jsonl");
    let rotated = project.path().join(".run/calls.jsonl.1");
    let size = |path: &std::path::Path| std::fs::metadata(path).map_or(0, |m| m.len());
    // Lines of ~2.3 KB, the two servers taking turns: 40 calls are ~90 KB, several rotations.
    let mut sent = Vec::new();
    for i in 0..40 {
        let tag = format!("{i:02}-");
        let server = if i % 2 == 0 { &mut one } else { &mut two };
        search(server, i + 2, &tag, 1000);
        sent.push(tag);
        for path in [&journal, &rotated] {
            assert!(
                size(path) <= MAX,
                "{} is {} bytes after call {i}, bound {MAX}",
                path.display(),
                size(path)
            );
        }
    }
    assert!(rotated.exists(), "the journal rotated");
    // The newest calls, whole and in order, and none lost between the two files.
    let tags = journalled_tags(&project, &global);
    assert!(tags.len() >= 7, "{tags:?}");
    assert_eq!(
        tags,
        sent[sent.len() - tags.len()..],
        "the latest calls in order"
    );
}

#[test]
fn a_journal_that_cannot_be_opened_at_start_up_is_tried_again_on_each_call() {
    let project = Project::copy_of_repo();
    // A file where the journal's folder should be: nothing can be created under it.
    project.write("blocked", "a file, not a folder");
    let global = ["--journal", "blocked/calls.jsonl"];
    let (mut server, mut stderr) = stdio_server(&project, &global);
    let banner = stderr
        .wait_for(DEADLINE, |line| line.starts_with("careem-mcp: journal"))
        .expect("the banner names the journal");
    assert!(
        banner.starts_with("careem-mcp: journal none: cannot open ")
            && banner.contains("blocked/calls.jsonl")
            && banner.contains("each call tries again"),
        "{banner}"
    );
    search(&mut server, 2, "lost-", 10);
    let calls = run_bounded(&project, &[&global[..], &["calls", "--json"]].concat());
    assert_eq!(
        calls.code, 2,
        "no journal is not an empty one: {}",
        calls.stdout
    );
    assert!(
        calls.stderr.contains("no journal at ") && calls.stderr.contains("blocked/calls.jsonl"),
        "{}",
        calls.stderr
    );
    assert_eq!(calls.stdout, "", "no `[]` to pass a test");

    // The folder becomes possible: the next call is journalled, with no restart.
    std::fs::remove_file(project.path().join("blocked")).expect("unblocked");
    std::fs::create_dir(project.path().join("blocked")).expect("a folder");
    search(&mut server, 3, "kept-", 10);
    assert_eq!(journalled_tags(&project, &global), ["kept-"]);
}

/// Lines the writer could not write (its folder was gone, as a full disk refuses them) are
/// counted, and marked in the journal with the next line it can write: `calls` shows the gap.
#[test]
fn calls_shows_the_lines_its_writer_lost() {
    let project = Project::copy_of_repo();
    let global = ["--journal", "j/calls.jsonl"];
    let (mut server, _stderr) = stdio_server(&project, &global);
    search(&mut server, 2, "before-", 10);
    // The folder goes away and a file takes its place: nothing can be written for a while.
    let (folder, aside) = (project.path().join("j"), project.path().join("j.aside"));
    std::fs::rename(&folder, &aside).expect("moved aside");
    project.write("j", "a file, not a folder");
    for id in 3..6 {
        search(&mut server, id, "lost-", 10);
    }
    std::fs::remove_file(&folder).expect("the file goes");
    std::fs::rename(&aside, &folder).expect("the folder is back");
    search(&mut server, 6, "after-", 10);

    assert_eq!(journalled_tags(&project, &global), ["before-", "after-"]);
    let json = run_bounded(&project, &[&global[..], &["calls", "--json"]].concat());
    assert!(
        json.stderr
            .contains("careem-mcp: 3 calls are missing from ")
            && json.stderr.contains("j/calls.jsonl"),
        "{}",
        json.stderr
    );
    let table = run_bounded(&project, &[&global[..], &["calls"]].concat());
    assert_eq!(table.code, 0, "{}", table.stderr);
    let rows: Vec<&str> = table
        .stdout
        .lines()
        .filter(|line| line.contains("food_merchant_search") || line.contains("missing"))
        .collect();
    assert_eq!(rows.len(), 3, "{}", table.stdout);
    assert!(
        rows[0].contains("food_merchant_search")
            && rows[1].contains("(3 calls missing)")
            && rows[2].contains("food_merchant_search"),
        "{}",
        table.stdout
    );
}
