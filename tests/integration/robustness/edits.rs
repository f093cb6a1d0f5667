//! Edits never lose updates. Concurrent `scenario` commands each keep their entry;
//! `calls --follow` prints every call, whole, across `calls --clear`; `scenario` never writes
//! an overrides file larger than a server reads.

use std::process::Stdio;

use serde_json::{Map, Value};

use super::DEADLINE;
use crate::support::Process;
use crate::support::{Project, tool_file};

const TWO_SCENARIOS: &str = "## Scenario: ok\n\n```json response\n{\"v\": \"a\"}\n```\n\n\
     ## Scenario: other\n\n```json response\n{\"v\": \"b\"}\n```\n";

#[test]
fn fifty_parallel_scenario_commands_keep_fifty_entries() {
    let project = Project::empty();
    let names: Vec<String> = (0..50).map(|i| format!("t{i:02}")).collect();
    for name in &names {
        project.write(&format!("tools/{name}.md"), &tool_file(name, TWO_SCENARIOS));
    }
    let commands: Vec<Process> = names
        .iter()
        .map(|name| {
            Process(
                project
                    .command()
                    .args(["scenario", name, "other"])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("the binary starts"),
            )
        })
        .collect();
    for mut command in commands {
        let status = command.wait_for_exit(DEADLINE);
        assert!(status.is_some_and(|s| s.success()), "{status:?}");
    }
    let kept: Map<String, Value> =
        serde_json::from_str(&project.read(".run/overrides.json")).expect("a JSON object");
    assert_eq!(kept.len(), 50, "{kept:?}");
    assert!(kept.values().all(|v| v == "other"), "{kept:?}");
    let mut left: Vec<String> = std::fs::read_dir(project.path().join(".run"))
        .expect("the folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    left.sort();
    assert_eq!(
        left,
        [".overrides.json.lock", "overrides.json"],
        "no temporary file left"
    );
}

#[test]
fn scenario_refuses_an_overrides_file_the_server_would_not_read() {
    const LIMIT: usize = 1 << 20;
    let project = Project::copy_of_repo();
    let overrides = project.path().join(".run/overrides.json");
    let run = |tool: &str, step: &str, count: usize| {
        let mut args = vec!["scenario", tool];
        args.extend(vec![step; count]);
        project.run(&args)
    };

    // 60,000 steps alone would make a file of 1.2 MB.
    let alone = run("reverse_geocode", "dubai-marina", 60_000);
    assert_eq!(alone.code, 2, "{}", alone.stderr);
    assert!(
        alone
            .stderr
            .contains("past the 1048576 bytes a server reads"),
        "{}",
        alone.stderr
    );
    assert!(!overrides.exists(), "nothing was written");

    // 40,000 fit; 20,000 more for another tool would not, and leave the file as it was.
    let fits = run("reverse_geocode", "dubai-marina", 40_000);
    assert_eq!(fits.code, 0, "{}", fits.stderr);
    let before = std::fs::read(&overrides).expect("written");
    assert!(before.len() <= LIMIT, "{} bytes", before.len());
    let more = run("get_saved_locations", "home-and-work", 20_000);
    assert_eq!(more.code, 2, "{}", more.stderr);
    assert!(
        more.stderr.contains("nothing was written"),
        "{}",
        more.stderr
    );
    assert_eq!(std::fs::read(&overrides).expect("still there"), before);
}
