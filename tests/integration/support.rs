//! Shared test scaffolding: a throwaway project folder and the real binary run inside it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use std::collections::BTreeMap;

use careem_mcp::engine::{Engine, EngineConfig};
use chrono::{DateTime, Utc};
use futures::{Stream, StreamExt};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

pub const BIN: &str = env!("CARGO_BIN_EXE_careem-mcp");

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A project folder in a temporary directory, removed when dropped.
pub struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    pub fn empty() -> Self {
        let dir = tempfile::tempdir().expect("temporary directory");
        std::fs::create_dir_all(dir.path().join("tools")).expect("tools folder");
        Self { dir }
    }

    /// A copy of this repository's tools and docs/SOURCE.md.
    pub fn copy_of_repo() -> Self {
        let project = Self::empty();
        copy_dir(&repo().join("tools"), &project.path().join("tools"));
        std::fs::create_dir_all(project.path().join("docs")).expect("docs folder");
        std::fs::copy(
            repo().join("docs/SOURCE.md"),
            project.path().join("docs/SOURCE.md"),
        )
        .expect("SOURCE.md");
        project
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, relative: &str, text: &str) {
        let path = self.path().join(relative);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("parent folder");
        std::fs::write(path, text).expect("write");
    }

    pub fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path().join(relative)).unwrap_or_default()
    }

    pub fn command(&self) -> Command {
        command_in(self.path())
    }

    pub fn run(&self, args: &[&str]) -> Run {
        Run::from(self.command().args(args).output().expect("the binary runs"))
    }
}

/// The binary started in `dir`, free of the `CAREEM_MCP_*` settings of whoever runs the tests.
pub fn command_in(dir: &Path) -> Command {
    let mut command = Command::new(BIN);
    command.current_dir(dir).env("NO_COLOR", "1");
    for (key, _) in std::env::vars() {
        if key.starts_with("CAREEM_MCP_") {
            command.env_remove(key);
        }
    }
    command
}

/// A finished run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(output: Output) -> Self {
        Self {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl Run {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}): {}\nstderr: {}",
                self.stdout, self.stderr
            )
        })
    }
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("target folder");
    for entry in std::fs::read_dir(from).expect("source folder") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

/// An agent connected to `careem-mcp serve --stdio` in a copy of the repository, with a frozen
/// clock, as the journey tests walk it. Every answer that is not `isError` is held to its
/// tool's `outputSchema`, formats included. Forcing a scenario goes through the overrides
/// file, out of band, as a developer does it.
pub struct Agent {
    project: Project,
    pub now: DateTime<Utc>,
    client: Option<RunningService<RoleClient, ()>>,
    runtime: tokio::runtime::Runtime,
    schemas: BTreeMap<String, jsonschema::Validator>,
}

impl Agent {
    pub fn at(clock: &str) -> Self {
        let project = Project::copy_of_repo();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let mut command = tokio::process::Command::from(project.command());
        command.args(["--clock", clock, "serve", "--stdio"]);
        let (client, tools) = runtime.block_on(async {
            let (transport, _stderr) = TokioChildProcess::builder(command)
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("the binary starts");
            let client = ().serve(transport).await.expect("the client initializes");
            let tools = client.list_all_tools().await.expect("tools/list");
            (client, tools)
        });
        let schemas = tools
            .into_iter()
            .filter_map(|tool| {
                let schema = Value::Object(tool.output_schema?.as_ref().clone());
                let validator = jsonschema::draft202012::options()
                    .should_validate_formats(true)
                    .build(&schema)
                    .expect("an outputSchema compiles");
                Some((tool.name.to_string(), validator))
            })
            .collect();
        Self {
            project,
            now: DateTime::parse_from_rfc3339(clock)
                .expect("an RFC 3339 clock")
                .with_timezone(&Utc),
            client: Some(client),
            runtime,
            schemas,
        }
    }

    /// The whole result of a call.
    pub fn result(&self, tool: &str, args: &Value) -> Value {
        let Value::Object(arguments) = args.clone() else {
            panic!("arguments must be an object: {args}");
        };
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let client = self.client.as_ref().expect("connected");
        let result = self
            .runtime
            .block_on(client.call_tool(params))
            .unwrap_or_else(|e| panic!("{tool} {args}: {e}"));
        let result = serde_json::to_value(result).expect("a result serialises");
        if result["isError"] != true
            && let Some(validator) = self.schemas.get(tool)
        {
            let problems: Vec<String> = validator
                .iter_errors(&result["structuredContent"])
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(
                problems.is_empty(),
                "{tool} {args} breaks its outputSchema: {problems:?}\n{result}"
            );
        }
        result
    }

    /// The `structuredContent` of a call that is not `isError` (it may carry an `error`).
    pub fn answer(&self, tool: &str, args: &Value) -> Value {
        let result = self.result(tool, args);
        assert_ne!(result["isError"], true, "{tool} {args}: {result}");
        result["structuredContent"].clone()
    }

    /// The answer of a call that succeeds.
    pub fn ok(&self, tool: &str, args: &Value) -> Value {
        let value = self.answer(tool, args);
        assert!(value.get("error").is_none(), "{tool} {args}: {value}");
        value
    }

    /// The business error of a call production refuses (a normal result carrying `error`).
    pub fn refused(&self, tool: &str, args: &Value) -> String {
        let value = self.answer(tool, args);
        value["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{tool} {args} was not refused: {value}"))
            .to_string()
    }

    /// The `structuredContent` of `scenario`, forced for this one call.
    pub fn forced(&self, tool: &str, scenario: &str, args: &Value) -> Value {
        self.project.write(
            ".run/overrides.json",
            &json!({ tool: scenario }).to_string(),
        );
        let result = self.result(tool, args);
        self.project.write(".run/overrides.json", "{}");
        result["structuredContent"].clone()
    }

    /// The saved location labelled Home.
    pub fn home(&self) -> Value {
        let saved = self.ok("get_saved_locations", &json!({}));
        saved["savedLocations"]
            .as_array()
            .and_then(|all| all.iter().find(|s| s["label"] == "Home"))
            .unwrap_or_else(|| panic!("no Home in {saved}"))["location"]
            .clone()
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let _ = self.runtime.block_on(client.cancel());
        }
    }
}

/// A checked-in file that a generator in the tests writes: the test fails when the file and
/// the generator have drifted apart, and `CAREEM_MCP_REGENERATE=1 cargo test` rewrites it.
pub fn assert_generated(relative: &str, expected: &str) {
    let path = repo().join(relative);
    if std::env::var_os("CAREEM_MCP_REGENERATE").is_some() {
        std::fs::write(&path, expected).expect("write the generated file");
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "{relative} differs from what its generator writes; run `CAREEM_MCP_REGENERATE=1 cargo test` \
         and review the diff"
    );
}

/// A minimal valid tool file with the given scenarios appended.
pub fn tool_file(name: &str, scenarios: &str) -> String {
    format!(
        "---\ntool: {name}\ndomain: test\n---\n\n## Definition\n\n```json tool\n{{\"name\": \"{name}\", \"title\": \"T\", \"description\": \"d\", \
         \"inputSchema\": {{\"type\": \"object\", \"properties\": {{\"q\": {{\"type\": \"string\", \"description\": \"q\"}}}}, \"additionalProperties\": false}}, \
         \"outputSchema\": {{\"type\": \"object\", \"properties\": {{\"v\": {{\"type\": \"string\", \"description\": \"v\"}}, \"error\": {{\"type\": \"string\", \"description\": \"e\"}}}}, \"additionalProperties\": false}}}}\n```\n\n{scenarios}"
    )
}

/// The engine over the project's tools and overrides file, as the server would load it.
pub fn engine(project: &Project) -> Engine {
    Engine::load(EngineConfig {
        tools_dir: project.path().join("tools"),
        overrides: project.path().join(".run/overrides.json"),
        clock: None,
        seed: None,
    })
    .expect("the tools load")
}

/// Reads `event:`/`data:` blocks from an SSE body, skipping keep-alive comments.
pub struct SseReader<S> {
    pub body: S,
    pub buffer: String,
}

impl<S, B> SseReader<S>
where
    S: Stream<Item = reqwest::Result<B>> + Unpin,
    B: AsRef<[u8]>,
{
    pub async fn next_event(&mut self) -> (String, String) {
        let read = async {
            loop {
                if let Some(end) = self.buffer.find("\n\n") {
                    let block: String = self.buffer.drain(..end + 2).collect();
                    let mut event = "message".to_string();
                    let mut data = Vec::new();
                    for line in block.lines() {
                        if let Some(name) = line.strip_prefix("event:") {
                            event = name.trim().to_string();
                        } else if let Some(value) = line.strip_prefix("data:") {
                            data.push(value.strip_prefix(' ').unwrap_or(value).to_string());
                        }
                    }
                    if !data.is_empty() {
                        return (event, data.join("\n"));
                    }
                    continue;
                }
                let chunk = self
                    .body
                    .next()
                    .await
                    .expect("the stream stays open")
                    .expect("a chunk");
                self.buffer
                    .push_str(&String::from_utf8_lossy(chunk.as_ref()));
            }
        };
        tokio::time::timeout(Duration::from_secs(10), read)
            .await
            .expect("an event in time")
    }

    /// The next event, which must be a JSON-RPC `message`.
    pub async fn next_message(&mut self) -> serde_json::Value {
        let (event, data) = self.next_event().await;
        assert_eq!(event, "message");
        serde_json::from_str(&data).expect("the message is JSON")
    }
}

/// A scenario that echoes its `q` argument, for tools made up by a test.
pub const OK: &str = "## Scenario: ok\n\n```json response\n{\"v\": \"{{args.q}}\"}\n```\n";

/// A tree with one problem of each kind `lint` reports: a scenario without an answer and an
/// answer that breaks its output schema, beside a good file.
pub fn broken_project() -> Project {
    let project = Project::empty();
    project.write("tools/good.md", &tool_file("good", OK));
    project.write(
        "tools/a/broken.md",
        &tool_file("broken", "## Scenario: no-answer\n\nnothing here\n"),
    );
    project.write(
        "tools/b/liar.md",
        &tool_file("liar", &format!("{OK}\n## Scenario: wrong-type\n\n```json match\n{{\"q\": \"x\"}}\n```\n\n```json response\n{{\"v\": 5}}\n```\n")),
    );
    project
}

/// Each line of `reader` as it comes, read on a thread of its own. The thread keeps draining
/// after the receiver is gone, so a process writing to a pipe never blocks on it.
pub fn lines_of(reader: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(reader)
            .lines()
            .map_while(Result::ok)
        {
            let _ = tx.send(line);
        }
    });
    rx
}
