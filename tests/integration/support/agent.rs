//! The agent of the journey tests: rmcp's client over `serve --stdio`, every answer held to
//! its tool's output schema.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

use super::{Client, Project, stdio_client};

/// An agent connected to `careem-mcp serve --stdio` in a copy of the repository, with a frozen
/// clock, as the journey tests walk it. Every answer that is not `isError` is held to its
/// tool's `outputSchema`, formats included. Forcing a scenario goes through the overrides
/// file, out of band, as a developer does it.
pub struct Agent {
    project: Project,
    pub now: DateTime<Utc>,
    client: Option<Client>,
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
        let mut command = project.command();
        command.args(["--clock", clock, "serve", "--stdio"]);
        let (client, tools) = runtime.block_on(async {
            let client = stdio_client(command).await;
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

/// A time in an answer.
pub fn time(value: &Value) -> DateTime<Utc> {
    let text = value
        .as_str()
        .unwrap_or_else(|| panic!("not a time: {value}"));
    DateTime::parse_from_rfc3339(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .with_timezone(&Utc)
}
