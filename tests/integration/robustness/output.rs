//! Output is bounded. The per-call log line and the journal entry of a call with a
//! large argument are clipped and say the whole length; the journal rotates past
//! `--journal-max-size`, keeping one rotated file; a journal deleted mid-run is recreated.

use serde_json::{Value, json};

use super::DEADLINE;
use crate::support::{Project, assert_marina, call, http_client, serve_binary};

fn journal_lines(project: &Project, name: &str) -> Vec<String> {
    project
        .read(&format!(".run/{name}"))
        .lines()
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn a_large_argument_is_clipped_in_the_log_and_the_journal() {
    let project = Project::copy_of_repo();
    let (_server, url, mut stderr) = serve_binary(&project, &[]);
    let client = http_client(&url).await;
    let query = "x".repeat(200_000);
    let args = json!({"query": query, "latitude": 25.0866, "longitude": 55.1474});
    let answer = call(&client, "food_merchant_search", args)
        .await
        .expect("answers");
    assert_eq!(answer.get("isError"), None, "{answer}");
    assert_marina(&client).await;
    let line = stderr
        .wait_for(DEADLINE, |line| line.contains("food_merchant_search"))
        .expect("a log line for the call");
    assert!(
        line.len() < 2048 && line.ends_with(" bytes)"),
        "{}",
        &line[..line.len().min(300)]
    );
    let entries = journal_lines(&project, "calls.jsonl");
    let entry: Value = serde_json::from_str(&entries[0]).expect("a whole entry");
    assert!(
        entries[0].len() < 3 * 65536 + 4096,
        "{} bytes",
        entries[0].len()
    );
    let received = entry["received"].as_str().expect("clipped to a string");
    assert!(
        received.starts_with("{\"") && received.ends_with(" bytes)") && received.len() < 65536 + 64,
        "{}",
        &received[received.len() - 40..]
    );
    assert_eq!(
        serde_json::from_str::<Value>(&entries[1]).expect("the next entry")["tool"],
        "reverse_geocode"
    );
}

#[tokio::test]
async fn a_huge_tool_name_is_clipped_in_the_journal() {
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) = serve_binary(&project, &[]);
    let client = http_client(&url).await;
    let name = "x".repeat(3_500_000);
    let refused = call(&client, &name, json!({})).await;
    assert!(refused.is_err(), "an unknown tool is a JSON-RPC error");
    assert_marina(&client).await;
    let entries = journal_lines(&project, "calls.jsonl");
    assert!(entries[0].len() < 2048, "{} bytes", entries[0].len());
    let entry: Value = serde_json::from_str(&entries[0]).expect("a whole entry");
    let tool = entry["tool"].as_str().expect("the tool");
    assert!(
        tool.starts_with("xxxx") && tool.ends_with("… (3500000 bytes)") && tool.len() < 300,
        "{tool}"
    );
    assert_eq!(
        serde_json::from_str::<Value>(&entries[1]).expect("the next entry")["tool"],
        "reverse_geocode"
    );
}

#[tokio::test]
async fn the_journal_rotates_past_its_size_and_is_recreated_when_deleted() {
    let project = Project::copy_of_repo();
    let (_server, url, _stderr) = serve_binary(&project, &["--journal-max-size", "16KiB"]);
    let client = http_client(&url).await;
    for _ in 0..40 {
        assert_marina(&client).await;
    }
    let (current, rotated) = (
        journal_lines(&project, "calls.jsonl"),
        journal_lines(&project, "calls.jsonl.1"),
    );
    for (name, lines) in [("calls.jsonl", &current), ("calls.jsonl.1", &rotated)] {
        assert!(!lines.is_empty(), "{name} holds entries");
        let size = project.read(&format!(".run/{name}")).len();
        assert!(size <= 16 * 1024, "{name}: {size} bytes");
        for line in lines.iter() {
            serde_json::from_str::<Value>(line).expect("whole lines only");
        }
    }
    std::fs::remove_file(project.path().join(".run/calls.jsonl")).expect("delete");
    std::fs::remove_file(project.path().join(".run/calls.jsonl.1")).expect("delete");
    assert_marina(&client).await;
    assert_eq!(
        journal_lines(&project, "calls.jsonl").len(),
        1,
        "recreated with the next call"
    );
}
