//! One project root, wherever the client starts the server: a server started in another folder
//! with `--project` reads the overrides file that `scenario` writes in the project, and
//! journals where `calls` in the project reads, over stdio and HTTP alike. And the README's
//! path to a first project: install, then run.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader, Lines};

use crate::support::{Project, command_in};

type Client = RunningService<RoleClient, ()>;

#[derive(Debug, Clone, Copy)]
enum Via {
    Stdio,
    Http,
}

/// A client connected to a server started in `elsewhere` with `--project`, and the lines the
/// server wrote on stderr before it was ready.
struct Connected {
    client: Client,
    stderr: Vec<String>,
    /// The HTTP server's process, killed when dropped; stdio's belongs to its transport.
    _server: Option<tokio::process::Child>,
}

async fn connect(via: Via, project: &Project, elsewhere: &Path) -> Connected {
    let mut command = tokio::process::Command::from(command_in(elsewhere));
    command
        .arg("--project")
        .arg(project.path())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    match via {
        Via::Stdio => {
            command.args(["serve", "--stdio"]);
            let (transport, stderr) = TokioChildProcess::builder(command)
                .stderr(Stdio::piped())
                .spawn()
                .expect("the binary starts");
            let mut lines = BufReader::new(stderr.expect("stderr is piped")).lines();
            let stderr = read_until(&mut lines, "careem-mcp: journal").await;
            drain(lines);
            let client = ().serve(transport).await.expect("the client initializes");
            Connected {
                client,
                stderr,
                _server: None,
            }
        }
        Via::Http => {
            command.args(["serve", "--port", "0"]).stdout(Stdio::null());
            let mut child = command.spawn().expect("the binary starts");
            let mut lines = BufReader::new(child.stderr.take().expect("stderr is piped")).lines();
            let stderr = read_until(&mut lines, "/mcp").await;
            drain(lines);
            let last = stderr.last().expect("a line");
            let start = last.find("http://").expect("a URL");
            let end = start + last[start..].find("/mcp").expect("/mcp") + "/mcp".len();
            let client =
                ().serve(StreamableHttpClientTransport::from_uri(&last[start..end]))
                    .await
                    .expect("the client initializes");
            Connected {
                client,
                stderr,
                _server: Some(child),
            }
        }
    }
}

/// Every stderr line up to and including the first that contains `marker`.
async fn read_until<R: AsyncRead + Unpin>(
    lines: &mut Lines<BufReader<R>>,
    marker: &str,
) -> Vec<String> {
    let read = async {
        let mut seen = Vec::new();
        while let Some(line) = lines.next_line().await.expect("stderr reads") {
            let done = line.contains(marker);
            seen.push(line);
            if done {
                return seen;
            }
        }
        panic!("stderr ended before {marker:?}:\n{}", seen.join("\n"));
    };
    tokio::time::timeout(Duration::from_secs(20), read)
        .await
        .unwrap_or_else(|_| panic!("no {marker:?} on stderr in time"))
}

/// Keeps reading so that the server never blocks on a full pipe.
fn drain<R: AsyncRead + Unpin + Send + 'static>(mut lines: Lines<BufReader<R>>) {
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
}

#[tokio::test]
async fn a_server_started_elsewhere_follows_the_scenario_and_calls_of_the_project() {
    for via in [Via::Stdio, Via::Http] {
        let project = Project::copy_of_repo();
        let elsewhere = tempfile::tempdir().expect("another folder");
        let connected = connect(via, &project, elsewhere.path()).await;

        let root = project.path().display();
        for named in [
            format!("careem-mcp: tools {root}/tools"),
            format!("careem-mcp: overrides {root}/.run/overrides.json"),
            format!("careem-mcp: journal {root}/.run/calls.jsonl"),
        ] {
            assert!(
                connected.stderr.contains(&named),
                "{via:?}: {named:?} not on stderr:\n{}",
                connected.stderr.join("\n")
            );
        }

        let forced = project.run(&[
            "scenario",
            "food_get_restaurant_menu",
            "upstream-unavailable",
        ]);
        assert_eq!(forced.code, 0, "{via:?}: {}", forced.stderr);
        let arguments = json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474});
        let result = connected
            .client
            .call_tool(
                CallToolRequestParams::new("food_get_restaurant_menu")
                    .with_arguments(arguments.as_object().expect("an object").clone()),
            )
            .await
            .expect("a result");
        let result = serde_json::to_value(result).expect("serialises");
        assert!(
            result["structuredContent"]["error"].is_string(),
            "{via:?}: the forced scenario did not apply: {result}"
        );
        connected.client.cancel().await.expect("the client closes");

        let calls = project.run(&["calls", "--json"]);
        let entries: Vec<Value> = serde_json::from_str(&calls.stdout).expect("a JSON array");
        let seen: Vec<_> = entries
            .iter()
            .map(|e| {
                (
                    e["transport"].clone(),
                    e["tool"].clone(),
                    e["scenario"].clone(),
                    e["forced"].clone(),
                )
            })
            .collect();
        let transport = match via {
            Via::Stdio => "stdio",
            Via::Http => "http",
        };
        assert_eq!(
            seen,
            [(
                json!(transport),
                json!("food_get_restaurant_menu"),
                json!("upstream-unavailable"),
                json!(true)
            )],
            "{via:?}"
        );
        assert!(
            !elsewhere.path().join(".run").exists(),
            "{via:?}: the server wrote into the folder it was started in"
        );
    }
}

#[test]
fn every_subcommand_reads_the_same_project_from_anywhere() {
    let project = Project::copy_of_repo();
    let elsewhere = tempfile::tempdir().expect("another folder");
    let root = project.path().to_str().expect("a UTF-8 path");
    let run = |dir: &Path, args: &[&str]| command_in(dir).args(args).output().expect("runs");

    let set = run(
        elsewhere.path(),
        &[
            "--project",
            root,
            "scenario",
            "ride_book",
            "payment-declined",
        ],
    );
    assert!(
        set.status.success(),
        "{}",
        String::from_utf8_lossy(&set.stderr)
    );
    let written: Value = serde_json::from_str(&project.read(".run/overrides.json")).expect("JSON");
    assert_eq!(written, json!({"ride_book": "payment-declined"}));

    let first_line = format!("overrides: {root}/.run/overrides.json");
    let from_env = command_in(elsewhere.path())
        .env("CAREEM_MCP_PROJECT", root)
        .args(["scenarios", "ride_book"])
        .output()
        .expect("runs");
    for output in [
        run(project.path(), &["scenarios", "ride_book"]),
        run(
            elsewhere.path(),
            &["--project", root, "scenarios", "ride_book"],
        ),
        from_env,
    ] {
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(stdout.lines().next(), Some(first_line.as_str()), "{stdout}");
        assert!(stdout.contains("forced"), "{stdout}");
    }
    assert!(!elsewhere.path().join(".run").exists());
}

#[test]
fn a_folder_without_tools_is_named_with_the_way_to_the_project() {
    let elsewhere = tempfile::tempdir().expect("another folder");
    let here = elsewhere.path().display().to_string();
    let missing = elsewhere.path().join("missing");
    let missing = missing.to_str().expect("a UTF-8 path");
    let cases: [(&[&str], &[&str]); 4] = [
        (
            &["scenarios"],
            &[&here, "current folder", "--project", "CAREEM_MCP_PROJECT"],
        ),
        (
            &["--project", missing, "call", "cart_clear"],
            &[missing, "--project", "CAREEM_MCP_PROJECT"],
        ),
        (
            &["scenario", "ride_book", "payment-declined"],
            &[&here, "--project"],
        ),
        (&["--tools", "nowhere", "lint"], &["nowhere", "--tools"]),
    ];
    for (args, words) in cases {
        let output = command_in(elsewhere.path())
            .args(args)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        for word in words {
            assert!(stderr.contains(word), "{args:?}: no {word:?} in {stderr}");
        }
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    assert!(!elsewhere.path().join(".run").exists());
}

/// The README's newcomer's path: the binary is installed before any example runs it, and the
/// things a first agent trips over are said (the seed basket, `mcp-remote` on `/sse`).
#[test]
fn the_readme_installs_before_its_first_careem_mcp_example() {
    let readme = std::fs::read_to_string(crate::support::repo().join("README.md")).expect("README");
    let install = readme
        .find("cargo install --path .")
        .expect("the README says how to install");
    // Past the title and the opening paragraph, the first place a command or config runs it.
    let first_use = [
        "\ncareem-mcp ",
        "\"command\":\"careem-mcp\"",
        "`careem-mcp ",
    ]
    .iter()
    .filter_map(|use_| readme.find(use_))
    .min()
    .expect("an example");
    assert!(
        install < first_use,
        "an example runs careem-mcp before it is installed"
    );
    for said in [
        "takes several minutes",
        "basket 880001",
        "`cart_clear`",
        "--transport sse-only",
    ] {
        assert!(readme.contains(said), "the README does not say {said:?}");
    }
}
