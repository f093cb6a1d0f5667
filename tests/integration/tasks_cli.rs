//! `careem-mcp tasks` through the real binary, pinned as whole transcripts: the suite as a
//! table and as JSON, one task, a run made into a task's start, its grade before and after an
//! agent walked it over MCP, and the errors a harness meets.

use std::time::Duration;

use serde_json::json;

use crate::support::{
    Project, call, files_under, http_client, repo, serve_binary, terminate_cleanly,
};
use crate::transcript::assert_transcript;

/// A copy of the repository's tools with its tasks in `<project>/tasks`, where `tasks` looks
/// by default.
fn project() -> Project {
    let project = Project::copy_of_repo();
    let tasks = repo().join("tasks");
    for path in files_under(&tasks) {
        let relative = path.strip_prefix(repo()).expect("below the repository");
        project.write(
            &relative.to_string_lossy(),
            &std::fs::read_to_string(&path).expect("a task file"),
        );
    }
    project
}

#[test]
fn tasks_transcripts() {
    let project = project();
    project.write("broken/food-nigiri.json", "{\"id\": \"food-nigiri\"}");
    project.write(
        "broken/other.json",
        &project.read("tasks/ride-cancel-free.json"),
    );
    let steps: [(&str, &[&str]); 11] = [
        ("help-tasks", &["tasks", "--help"]),
        ("tasks-list", &["tasks", "list"]),
        ("tasks-show", &["tasks", "show", "food-declined-fallback"]),
        (
            "tasks-show-json",
            &["tasks", "show", "ride-cancel-free", "--format", "json"],
        ),
        (
            "tasks-start",
            &["tasks", "start", "food-declined-fallback", "--run", "try1"],
        ),
        (
            "tasks-start-json",
            &["tasks", "start", "food-status-later", "--format", "json"],
        ),
        (
            "tasks-grade-failed",
            &["tasks", "grade", "food-declined-fallback", "--run", "try1"],
        ),
        (
            "tasks-grade-json",
            &["tasks", "grade", "food-status-later", "--format", "json"],
        ),
        ("tasks-unknown", &["tasks", "show", "food-nigiri"]),
        (
            "tasks-grade-no-run",
            &[
                "tasks",
                "grade",
                "ride-cancel-free",
                "--run",
                "never-started",
            ],
        ),
        ("tasks-broken", &["tasks", "--tasks-dir", "broken", "list"]),
    ];
    for (name, args) in steps {
        assert_transcript(&project, name, args);
    }
}

/// A run started by `tasks start`, walked by an agent over MCP at the path it printed, grades
/// as passed with `tasks grade`; the agent's calls, and only those, are counted.
#[tokio::test(flavor = "multi_thread")]
async fn a_started_task_walked_over_mcp_grades_as_passed() {
    let project = project();
    let (server, url, _stderr) = serve_binary(&project, &["--stateful"]);
    let started = project.run(&[
        "tasks",
        "start",
        "food-nigiri-to-work",
        "--run",
        "nigiri-1",
        "--format",
        "json",
    ]);
    assert_eq!(started.code, 0, "{}", started.stderr);
    let path = started.json()["path"].as_str().expect("a path").to_string();
    let base = url.strip_suffix("/mcp").expect("the /mcp URL");
    let client = http_client(&format!("{base}{path}")).await;
    let cleared = call(&client, "cart_clear", json!({})).await.expect("clear");
    assert_eq!(cleared["structuredContent"]["cleared"], true);
    let added = call(
        &client,
        "cart_add_item",
        json!({"restaurant_id": 30102, "item_id": 3010201, "quantity": 2}),
    )
    .await
    .expect("add");
    let basket = added["structuredContent"]["basket"]["id"].clone();
    call(
        &client,
        "food_place_order",
        json!({"basket_id": basket, "payment_method_id": "PM-9002", "delivery_location_uuid": "LOC-50005"}),
    )
    .await
    .expect("order");
    drop(client);
    terminate_cleanly(server, Duration::from_secs(30));
    assert_transcript(
        &project,
        "tasks-grade-passed",
        &["tasks", "grade", "food-nigiri-to-work", "--run", "nigiri-1"],
    );
}
