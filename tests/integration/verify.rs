//! `careem-mcp verify` against deliberately broken copies of the tools and a misconfigured
//! server: a verify that cannot fail is worthless, so each test proves one check can.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};

use serde_json::Value;

use crate::support::{Project, Run, tool_file};

const MENU: &str = "tools/food/food_get_restaurant_menu.md";
/// The restaurants and menus the food tools answer from.
const FOOD: &str = "tools/world/food.json";

/// Edits one file of the project, insisting that the edit applies.
fn edit(project: &Project, path: &str, from: &str, to: &str) {
    let text = project.read(path);
    assert!(text.contains(from), "{path} has no {from:?}");
    project.write(path, &text.replacen(from, to, 1));
}

/// The rows of `verify --json`, each as (check, transport, status, detail).
fn rows(run: &Run) -> Vec<(String, String, String, String)> {
    let Value::Array(rows) = run.json() else {
        panic!("verify --json printed no array: {}", run.stdout)
    };
    let field = |row: &Value, key: &str| row[key].as_str().unwrap_or_default().to_string();
    rows.iter()
        .map(|row| {
            (
                field(row, "check"),
                field(row, "transport"),
                field(row, "status"),
                field(row, "detail"),
            )
        })
        .collect()
}

/// Asserts that exactly the checks numbered in `failing` failed (over http), and returns the
/// detail of the first of them.
fn only_failing(run: &Run, failing: &[&str]) -> String {
    assert_eq!(
        run.code, 1,
        "verify should report findings\n{}{}",
        run.stdout, run.stderr
    );
    let failed: Vec<_> = rows(run)
        .into_iter()
        .filter(|row| row.2 == "fail")
        .collect();
    let numbers: Vec<&str> = failed
        .iter()
        .filter_map(|row| row.0.split(' ').next())
        .collect();
    assert_eq!(numbers, failing, "{}", run.stdout);
    failed[0].3.clone()
}

#[test]
fn the_repo_passes_over_http_sse_and_stdio_without_touching_its_overrides() {
    let project = Project::copy_of_repo();
    let run = project.run(&["verify", "--transport", "all", "--json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let rows = rows(&run);
    for transport in ["http", "sse", "stdio"] {
        let passed = rows
            .iter()
            .filter(|row| row.1 == transport && row.2 == "pass")
            .count();
        assert_eq!(passed, 12, "{transport}: {}", run.stdout);
    }
    assert_eq!(rows.len(), 36, "{}", run.stdout);
    assert!(
        run.stderr.contains("36 passed, 0 failed, 0 skipped"),
        "{}",
        run.stderr
    );
    assert!(
        !project.path().join(".run/overrides.json").exists(),
        "verify wrote the project's overrides file"
    );

    let table = project.run(&["verify"]);
    assert_eq!(table.code, 0, "{}{}", table.stdout, table.stderr);
    assert_eq!(
        table.stdout.lines().last(),
        Some("12 passed, 0 failed, 0 skipped"),
        "{}",
        table.stdout
    );
}

#[test]
fn a_renamed_restaurant_fails_test_3() {
    let project = Project::copy_of_repo();
    edit(
        &project,
        FOOD,
        r#""value": "Morning Syrniki Café""#,
        r#""value": "Morning Syrniki Bistro""#,
    );
    let run = project.run(&["verify", "--json"]);
    // Test 9 ends by repeating test 3, so it fails with it.
    let detail = only_failing(&run, &["3", "9"]);
    assert!(
        detail.contains(r#"/structuredContent/restaurant/name/value is "Morning Syrniki Bistro", expected "Morning Syrniki Café""#),
        "{detail}"
    );
    assert!(
        detail.starts_with(r#"food_get_restaurant_menu {"restaurant_id":30104"#),
        "{detail}"
    );
}

#[test]
fn a_scenario_that_breaks_its_output_schema_fails_test_11() {
    let project = Project::copy_of_repo();
    edit(
        &project,
        MENU,
        r#""id": {"type": "integer", "description": "Restaurant id, as requested."}"#,
        r#""id": {"type": "string", "description": "Restaurant id, as requested."}"#,
    );
    let run = project.run(&["verify", "--json"]);
    let detail = only_failing(&run, &["11"]);
    assert!(
        detail.contains(&format!(
            r#"{MENU}, scenario "shawarma-station": the response at /restaurant/id breaks the outputSchema: 30101 is not of type "string""#
        )),
        "{detail}"
    );
}

#[test]
fn a_tell_tale_word_in_a_response_fails_test_12() {
    let project = Project::copy_of_repo();
    edit(
        &project,
        FOOD,
        r#""name": "Mixed Grill Platter""#,
        r#""name": "Sandbox Grill Platter""#,
    );
    let run = project.run(&["verify", "--json"]);
    let detail = only_failing(&run, &["12"]);
    assert!(
        detail.contains(r#"at /structuredContent/restaurant/menu/categories/1/items/2/name: "sandbox" in …Sandbox Grill Platter…"#),
        "{detail}"
    );
    assert!(
        detail.contains("tools/call food_get_restaurant_menu"),
        "{detail}"
    );
}

#[test]
fn a_tool_file_without_a_default_scenario_stops_verify_before_it_starts() {
    let project = Project::copy_of_repo();
    let only_match = "## Scenario: picky\n\n```json match\n{\"q\": \"x\"}\n```\n\n```json response\n{\"v\": \"x\"}\n```\n";
    project.write("tools/test/picky.md", &tool_file("picky", only_match));
    let run = project.run(&["verify"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr.contains("(run `careem-mcp lint`)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("tools/test/picky.md:"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("no default scenario: at least one scenario must have no `json match` and no `jq when` block"),
        "{}",
        run.stderr
    );
}

/// `careem-mcp serve --port 0` as a child process, stopped when dropped.
struct Served {
    child: Child,
    url: String,
}

impl Served {
    fn start(project: &Project, extra: &[&str]) -> Self {
        let mut child = project
            .command()
            .args(["serve", "--port", "0", "--no-journal"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("serve starts");
        let stderr = child.stderr.take().expect("stderr is piped");
        let mut lines = BufReader::new(stderr).lines();
        let mut seen = String::new();
        let url = loop {
            let Some(Ok(line)) = lines.next() else {
                let _ = child.kill();
                panic!("serve printed no URL:\n{seen}");
            };
            if let Some(start) = line.find("http://")
                && let Some(end) = line[start..].find("/mcp")
            {
                break line[start..start + end + "/mcp".len()].to_string();
            }
            seen.push_str(&line);
            seen.push('\n');
        };
        // Keeps reading so that the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Self { child, url }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// SPEC §7.2 compares tools/list with each file as written: a field the SDK leaves out (v1.6.1
/// never sends a false `readOnlyHint`) fails test 2, as it fails the acceptance suite.
#[test]
fn a_hint_the_sdk_leaves_out_fails_test_2() {
    let project = Project::copy_of_repo();
    edit(
        &project,
        "tools/rides/ride_cancel.md",
        r#""destructiveHint": true,"#,
        r#""readOnlyHint": false, "destructiveHint": true,"#,
    );
    let run = project.run(&["verify", "--json"]);
    let detail = only_failing(&run, &["2"]);
    assert!(
        detail.contains(
            "tools/rides/ride_cancel.md: /annotations/readOnlyHint is in the file but not in tools/list"
        ),
        "{detail}"
    );
}

/// Under v1.7.0 the SDK sends every false hint, so tools/list is no longer the files as
/// written: verify says so (which is why the files follow the default profile).
#[test]
fn a_v1_7_0_server_fails_test_2_with_the_hints_it_adds() {
    let project = Project::copy_of_repo();
    let served = Served::start(&project, &["--wire", "go-sdk-1.7.0"]);
    let run = project.run(&["verify", "--url", &served.url, "--json"]);
    let detail = only_failing(&run, &["2"]);
    assert!(
        detail.contains("is in tools/list but not in the file"),
        "{detail}"
    );
}

#[test]
fn a_server_without_output_schemas_fails_test_2_through_url() {
    let project = Project::copy_of_repo();
    let served = Served::start(&project, &["--no-output-schema"]);
    let run = project.run(&["verify", "--url", &served.url, "--json"]);
    let detail = only_failing(&run, &["2"]);
    assert!(
        detail.contains(
            "tools/cart/cart_add_item.md: /outputSchema is in the file but not in tools/list"
        ),
        "{detail}"
    );
    let skipped: Vec<_> = rows(&run)
        .into_iter()
        .filter(|row| row.2 == "skip")
        .map(|row| row.0)
        .collect();
    assert_eq!(
        skipped,
        ["9 overrides file", "11 scenarios honest"],
        "{}",
        run.stdout
    );
}

#[test]
fn url_with_the_servers_overrides_runs_every_check_and_puts_the_file_back() {
    let project = Project::copy_of_repo();
    let forced = "{\"ride_book\": \"payment-declined\"}\n";
    project.write(".run/server-overrides.json", forced);
    let served = Served::start(&project, &["--overrides", ".run/server-overrides.json"]);
    let run = project.run(&[
        "verify",
        "--url",
        &served.url,
        "--overrides",
        ".run/server-overrides.json",
        "--transport",
        "all",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let rows = rows(&run);
    let passed = rows.iter().filter(|row| row.2 == "pass").count();
    assert_eq!(passed, 24, "{}", run.stdout);
    assert!(
        rows.iter().any(|row| row.1 == "stdio" && row.2 == "skip"),
        "a --url server has no stdio: {}",
        run.stdout
    );
    assert_eq!(project.read(".run/server-overrides.json"), forced);
}
