//! A run's `world.json` that cannot be used: broken, of another version, a directory, or a
//! symlink to a file outside the run's folder. Each is warned about, the run starts from its
//! seed, and the file is kept under a name of its own when the run first changes.

use std::fs::File;
use std::path::Path;

use serde_json::{Value, json};

use crate::support::{StdioServer, tally_project};

/// `tally` through `server`: the count before the call.
fn was(server: &mut StdioServer, id: u64) -> Value {
    server.send_json(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "tally", "arguments": {}}}));
    let answer = server.next();
    answer["result"]["structuredContent"]["was"].clone()
}

fn warnings(log: &Path) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .matches("the run's world file cannot be used")
        .count()
}

#[test]
fn every_unusable_world_file_is_warned_about_and_kept_under_its_own_name() {
    let project = tally_project(1000);
    let log = project.path().join("serve.log");
    let mut command = project.command();
    command.args(["serve", "--stdio", "--stateful", "--no-journal"]);
    let mut server = StdioServer::start(command, File::create(&log).expect("a log"));
    server.initialize();
    let broken = [
        ("world.json.unusable", "{\"version\": 1, \"state\": "),
        ("world.json.unusable-2", "{\"version\": 9, \"state\": {}}"),
        ("world.json.unusable-3", "[]"),
    ];
    for (index, (kept, text)) in broken.into_iter().enumerate() {
        project.write(".run/world.json", text);
        let id = 10 + 2 * index as u64;
        assert_eq!(was(&mut server, id), json!(0), "{text}: from the seed");
        assert_eq!(was(&mut server, id + 1), json!(1), "{text}: then its own");
        assert_eq!(warnings(&log), index + 1, "{text}: one warning each");
        assert_eq!(project.read(&format!(".run/{kept}")), text, "{text}: kept");
    }
    server.close_stdin();
    let stderr = std::fs::read_to_string(&log).expect("a log");
    for (kept, _) in broken {
        assert!(stderr.contains(&format!("{kept} ")), "{kept}: {stderr}");
    }
}

#[test]
fn a_directory_or_a_symlink_out_of_the_run_at_world_json_is_unusable() {
    let project = tally_project(1000);
    let tally = |run: &str| {
        let out = project.run(&["--run", run, "--stateful", "call", "tally", "--no-journal"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        (out.json()["structuredContent"]["was"].clone(), out.stderr)
    };
    // Another run with a count of 2.
    tally("other");
    tally("other");
    let other = project.read(".run/runs/other/world.json");
    let run = project.path().join(".run/runs/mine");
    let world = run.join("world.json");
    std::fs::create_dir_all(&run).expect("a run folder");
    let cases: [(&str, &dyn Fn()); 2] = [
        ("a directory", &|| {
            std::fs::create_dir(&world).expect("a directory")
        }),
        ("a symlink out of the run's folder", &|| {
            std::os::unix::fs::symlink("../other/world.json", &world).expect("a symlink")
        }),
    ];
    for (why, make) in cases {
        let _ = std::fs::remove_dir_all(&run);
        std::fs::create_dir_all(&run).expect("a run folder");
        make();
        let (was, stderr) = tally("mine");
        assert_eq!(was, json!(0), "{why}: from the seed, not read through");
        assert!(
            stderr.contains("the run's world file cannot be used") && stderr.contains(why),
            "{why}: {stderr}"
        );
        assert_eq!(tally("mine").0, json!(1), "{why}: then its own world");
        assert!(
            std::fs::symlink_metadata(&world).is_ok_and(|m| m.is_file()),
            "{why}: a world file of its own"
        );
        assert!(
            std::fs::symlink_metadata(run.join("world.json.unusable")).is_ok(),
            "{why}: kept"
        );
        assert_eq!(project.read(".run/runs/other/world.json"), other, "{why}");
    }
    let world = project.run(&["--run", "other", "world", "--json"]);
    assert_eq!(world.json()["state"]["count"], json!(2));
}
