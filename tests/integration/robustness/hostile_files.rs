//! Files are read safely. A tool file or the overrides file replaced by a FIFO, a
//! device or a huge file answers at once, in bounded memory, with the reason on stderr; symlink
//! loops in the tools folder do not stop the server from starting.

use std::path::Path;

use futures::future::join_all;
use serde_json::{Value, json};

use super::{DEADLINE, SLACK_KIB, run_bounded};
use crate::support::{
    Client, Lines, Process, Project, assert_marina, call, http_client, make_fifo, marina, rss_kib,
    serve_binary, terminate_cleanly,
};

/// How a file is replaced, and the reason the server's stderr must give.
type Attack = (&'static str, fn(&Path), &'static str);

fn fifo(path: &Path) {
    make_fifo(path);
}

fn dev_zero(path: &Path) {
    let _ = std::fs::remove_file(path);
    std::os::unix::fs::symlink("/dev/zero", path).expect("symlink");
}

/// A sparse file: it costs no disk, but reading it whole would cost its size in memory.
fn sparse(size: u64) -> impl Fn(&Path) {
    move |path: &Path| {
        let file = std::fs::File::create(path).expect("create");
        file.set_len(size).expect("set_len");
    }
}

fn hundred_megabytes(path: &Path) {
    sparse(100 * 1000 * 1000)(path);
}

fn one_gibibyte(path: &Path) {
    sparse(1 << 30)(path);
}

/// The attacks on a file: a FIFO, a symlink to /dev/zero, and `huge`.
fn attacks(huge: Attack) -> [Attack; 3] {
    [
        ("a FIFO", fifo, "not a regular file (a FIFO)"),
        (
            "a symlink to /dev/zero",
            dev_zero,
            "not a regular file (a character device)",
        ),
        huge,
    ]
}

/// After an attack: stderr said why (`reason`), and the server's memory stayed within
/// [`SLACK_KIB`] of `baseline`.
fn assert_refused_in_bounds(stderr: &mut Lines, pid: u32, baseline: u64, what: &str, reason: &str) {
    let lines = stderr.lines();
    assert!(
        lines.iter().any(|l| l.contains(reason)),
        "{what}: stderr says why ({reason}): {:?}",
        lines.last()
    );
    let rss = rss_kib(pid);
    assert!(
        rss < baseline + SLACK_KIB,
        "{what}: RSS {baseline} → {rss} KiB"
    );
}

fn menu() -> Value {
    json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474})
}

async fn assert_menu(client: &Client, want: &str) {
    let result = call(client, "food_get_restaurant_menu", menu())
        .await
        .expect("the menu answers");
    assert_eq!(result.get("isError"), None, "{result}");
    let name = &result["structuredContent"]["restaurant"]["name"]["value"];
    let error = &result["structuredContent"]["error"];
    assert!(name == want || error == want, "want {want}: {result}");
}

const NORMAL_MENU: &str = "Morning Syrniki Café";
const FORCED_MENU: &str = "failed to get restaurant menu: unexpected response status 503";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "measures the server's memory: .ci/run runs it with --ignored"]
async fn tool_files_that_block_or_are_huge_answer_at_once_in_bounded_memory() {
    let project = Project::copy_of_repo();
    let (server, url, mut stderr) = serve_binary(&project, &["--no-journal"]);
    let pid = server.0.id();
    let (attacked, bystander) = (http_client(&url).await, http_client(&url).await);
    assert_marina(&attacked).await;
    let relative = "tools/location/reverse_geocode.md";
    let path = project.path().join(relative);
    let original = project.read(relative);
    let baseline = rss_kib(pid);
    for (what, attack, reason) in attacks(("100 MB", hundred_megabytes, "larger than 8 MiB")) {
        attack(&path);
        // More calls at once than the blocking pool's 512 threads used to survive.
        let calls = (0..600).map(|_| call(&attacked, "reverse_geocode", marina()));
        let answers = tokio::time::timeout(DEADLINE, async {
            let (answers, ()) = tokio::join!(join_all(calls), assert_menu(&bystander, NORMAL_MENU));
            answers
        })
        .await
        .unwrap_or_else(|_| panic!("{what}: calls still unanswered after {DEADLINE:?}"));
        for answer in answers {
            let answer = answer.expect("a result");
            assert_eq!(answer["isError"], true, "{what}: {answer}");
            assert_eq!(
                answer["content"][0]["text"], "internal server error",
                "{what}"
            );
        }
        assert_refused_in_bounds(&mut stderr, pid, baseline, what, reason);
        let _ = std::fs::remove_file(&path);
        std::fs::write(&path, &original).expect("restore");
        assert_marina(&attacked).await;
    }
    terminate_cleanly(server, DEADLINE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "measures the server's memory: .ci/run runs it with --ignored"]
async fn overrides_files_that_block_or_are_huge_mean_no_overrides_in_bounded_memory() {
    let project = Project::copy_of_repo();
    let (server, url, mut stderr) = serve_binary(&project, &["--no-journal"]);
    let pid = server.0.id();
    let (attacked, bystander) = (http_client(&url).await, http_client(&url).await);
    let path = project.path().join(".run/overrides.json");
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("the folder");
    let forcing = r#"{"food_get_restaurant_menu": "upstream-unavailable"}"#;
    std::fs::write(&path, forcing).expect("write");
    assert_menu(&attacked, FORCED_MENU).await;
    let baseline = rss_kib(pid);
    for (what, attack, reason) in
        attacks(("a 1 GiB sparse file", one_gibibyte, "larger than 1 MiB"))
    {
        attack(&path);
        let calls = (0..8).map(|_| assert_menu(&attacked, NORMAL_MENU));
        tokio::time::timeout(DEADLINE, async {
            tokio::join!(join_all(calls), assert_marina(&bystander));
        })
        .await
        .unwrap_or_else(|_| panic!("{what}: calls still unanswered after {DEADLINE:?}"));
        assert_refused_in_bounds(&mut stderr, pid, baseline, what, reason);
        let _ = std::fs::remove_file(&path);
        std::fs::write(&path, forcing).expect("restore");
        assert_menu(&attacked, FORCED_MENU).await;
    }
}

#[test]
fn a_tool_file_that_would_block_at_start_up_is_an_error_not_a_hang() {
    let project = Project::copy_of_repo();
    make_fifo(&project.path().join("tools/location/reverse_geocode.md"));
    // (command, exit code, its output must contain)
    let cases: [(&[&str], i32, &str); 3] = [
        (&["lint"], 1, "not a regular file (a FIFO)"),
        (
            &["serve", "--port", "0", "--no-journal"],
            2,
            "not a regular file (a FIFO)",
        ),
        (
            &[
                "scenario",
                "food_get_restaurant_menu",
                "upstream-unavailable",
            ],
            0,
            "",
        ),
    ];
    for (args, code, reason) in cases {
        let run = run_bounded(&project, args);
        assert_eq!(run.code, code, "{args:?}: {}", run.stderr);
        let output = run.stdout + &run.stderr;
        assert!(output.contains(reason), "{args:?}: {output}");
    }
}

/// A project whose tools folder holds two symlink loops, served: the server, its URL.
fn serve_with_symlink_loops() -> (Project, Process, String) {
    let project = Project::copy_of_repo();
    let tools = project.path().join("tools");
    std::os::unix::fs::symlink(".", tools.join("self")).expect("self -> .");
    std::os::unix::fs::symlink("..", tools.join("food/up")).expect("food/up -> ..");
    let lint = run_bounded(&project, &["lint"]);
    assert_eq!(lint.code, 0, "{}", lint.stderr);
    let (server, url, _stderr) = serve_binary(&project, &["--no-journal"]);
    (project, server, url)
}

#[tokio::test]
async fn symlink_loops_in_the_tools_folder_are_not_followed() {
    let (_project, server, url) = serve_with_symlink_loops();
    assert_marina(&http_client(&url).await).await;
    terminate_cleanly(server, DEADLINE);
}

#[tokio::test]
#[ignore = "measures the server's memory: .ci/run runs it with --ignored"]
async fn symlink_loops_in_the_tools_folder_cost_no_memory() {
    let (_project, server, url) = serve_with_symlink_loops();
    let pid = server.0.id();
    assert_marina(&http_client(&url).await).await;
    assert!(rss_kib(pid) < SLACK_KIB * 2, "RSS {} KiB", rss_kib(pid));
    terminate_cleanly(server, DEADLINE);
}
