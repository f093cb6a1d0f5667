//! A throwaway project folder, the real binary run inside it, and the small tool files tests
//! write into it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use careem_mcp::engine::{Engine, EngineConfig};

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

fn copy_dir(from: &Path, to: &Path) {
    for path in files_under(from) {
        let target = to.join(path.strip_prefix(from).expect("below the source"));
        std::fs::create_dir_all(target.parent().expect("a parent")).expect("target folder");
        std::fs::copy(&path, &target).expect("copy");
    }
}

/// Every file below `folder`, at any depth, in a stable order.
pub fn files_under(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).expect("a readable folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
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
        stateful: false,
    })
    .expect("the tools load")
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

/// `tally`, a computed tool whose every call adds `by` (default 1) to a count in the run's state
/// (docs/FORMAT.md, "Computed answers"), refusing past `limit`.
pub fn tally_tool(limit: u64) -> String {
    format!(
        r#"---
tool: tally
---
## Definition

```json tool
{{"name": "tally", "description": "Adds to the count.", "inputSchema": {{"type": "object", "properties": {{"by": {{"type": "integer", "default": 1}}}}, "additionalProperties": false}}}}
```

## Scenario: too-many

```jq when
.state.count + .args.by > {limit}
```

```jq response
{{error: "too many"}}
```

## Scenario: added

```jq update
tally_add(.args.by)
```

```jq response
{{count: .state.count, was: .before.count, at: (.now | iso)}}
```
"#
    )
}

/// A project of the `tally` tool, its definitions and its seed state (`{"count": 0}`).
pub fn tally_project(limit: u64) -> Project {
    let project = Project::empty();
    project.write("tools/tally.md", &tally_tool(limit));
    project.write(
        "tools/world/tally.jq",
        "# The count after adding n.\ndef tally_add($n): .state | .count += $n;\n",
    );
    project.write("tools/world/state/tally.json", "{\"count\": 0}\n");
    project
}
