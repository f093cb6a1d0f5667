//! `careem-mcp export --spec`: the shipped tools written as SPEC §2 alone reads them. The
//! export is read here by a strict reader written from SPEC §2 (which refuses the shipped
//! files), served and verified by careem-mcp, and answers as the computed scenarios do at the
//! same frozen clock.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::LazyLock;

use careem_mcp::engine::{Engine, EngineConfig, Outcome, sample_arguments};
use regex::Regex;
use serde_json::{Value, json};

use crate::support::{Project, files_under, tally_project};

/// A clock off every slot boundary, frozen in both projects.
const CLOCK: &str = "2026-10-05T12:07:13Z";
const SEED: &str = "7";

/// SPEC §2, read strictly: the tools of a folder, or every reason it refuses the folder.
mod spec_reader {
    use super::*;

    /// A scenario as SPEC §2 reads it.
    #[derive(Debug, Clone)]
    pub struct Scenario {
        pub name: String,
        pub rule: Option<Value>,
        pub is_error: bool,
    }

    #[derive(Debug, Clone)]
    pub struct Tool {
        pub definition: Value,
        pub scenarios: Vec<Scenario>,
    }

    impl Tool {
        /// SPEC §3's default: the first scenario without a match block.
        pub fn default_scenario(&self) -> Option<&str> {
            self.scenarios
                .iter()
                .find(|s| s.rule.is_none())
                .map(|s| s.name.as_str())
        }
    }

    /// SPEC §2's scenario blocks.
    static BLOCK: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?ms)^```json[ \t]+(match|response|error)[ \t]*\n(.*?)^```[ \t]*$").unwrap()
    });
    static TOOL_BLOCK: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?ms)^```json[ \t]+tool[ \t]*\n(.*?)^```[ \t]*$").unwrap());
    /// SPEC §3's placeholder expressions.
    static EXPRESSION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"^(?:args(?:\.[^.\s]+)+|uuid|rand:\d+-\d+",
            r"|(?:now|unix|unixms)(?:[+-](?:\d+(?:\.\d+)?(?:ms|s|m|h))+)?(?:@(?:\d+(?:\.\d+)?(?:ms|s|m|h))+)?",
            r"|now(?:[+-](?:\d+(?:\.\d+)?(?:ms|s|m|h))+)?(?:@(?:\d+(?:\.\d+)?(?:ms|s|m|h))+)?\|(?:date|weekday|hhmm|daylabel))$",
        ))
        .unwrap()
    });

    /// Every `tools/**/*.md` but README.md under `dir`, each read as SPEC §2 says, refusing
    /// any fenced block but a Definition's `json tool` and a scenario's `json match`,
    /// `json response` and `json error`.
    pub fn read(dir: &Path) -> Result<BTreeMap<String, Tool>, Vec<String>> {
        let mut tools = BTreeMap::new();
        let mut problems = Vec::new();
        for path in files_under(&dir.join("tools")) {
            let is_tool_file = path.extension().is_some_and(|e| e == "md")
                && path.file_name().is_some_and(|n| n != "README.md");
            if !is_tool_file {
                continue;
            }
            let name = path.display().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            match read_file(&text) {
                Ok((tool, read)) if tools.contains_key(&tool) => {
                    problems.push(format!("{name}: a second file for {tool}"));
                    drop(read);
                }
                Ok((tool, read)) => {
                    tools.insert(tool, read);
                }
                Err(problem) => problems.push(format!("{name}: {problem}")),
            }
        }
        if problems.is_empty() {
            Ok(tools)
        } else {
            Err(problems)
        }
    }

    fn read_file(text: &str) -> Result<(String, Tool), String> {
        let rest = text
            .strip_prefix("---\n")
            .ok_or("no frontmatter".to_string())?;
        let (front, body) = rest
            .split_once("\n---\n")
            .ok_or("frontmatter never closed")?;
        let mut fields = BTreeMap::new();
        for line in front.lines() {
            if let Some((key, value)) = line.split_once(':') {
                let value = value.find(" #").map_or(value, |at| &value[..at]).trim();
                let value = value.trim_matches('"').trim_matches('\'');
                fields.insert(key.trim().to_string(), value.to_string());
            }
        }
        let tool = fields
            .get("tool")
            .filter(|t| !t.is_empty())
            .ok_or("no `tool` in the frontmatter")?
            .clone();
        let mut definition = None;
        let mut scenarios: Vec<Scenario> = Vec::new();
        for (title, section) in sections(body)? {
            if title == "Definition" {
                let blocks: Vec<_> = TOOL_BLOCK.captures_iter(&section).collect();
                let [block] = blocks.as_slice() else {
                    return Err(format!("{} json tool blocks", blocks.len()));
                };
                let value: Value =
                    serde_json::from_str(&block[1]).map_err(|e| format!("the definition: {e}"))?;
                if value["name"] != json!(tool) {
                    return Err("the definition's name is not the tool".into());
                }
                definition = Some(value);
            } else if let Some(name) = title.strip_prefix("Scenario:") {
                scenarios.push(scenario(name.trim(), &section)?);
            }
        }
        let definition = definition.ok_or("no Definition")?;
        if scenarios.is_empty() {
            return Err("no scenario".into());
        }
        if !scenarios.iter().any(|s| s.rule.is_none()) {
            return Err("no default scenario".into());
        }
        Ok((
            tool,
            Tool {
                definition,
                scenarios,
            },
        ))
    }

    /// The sections at `## ` lines outside fences, refusing any fence SPEC does not define.
    fn sections(body: &str) -> Result<Vec<(String, String)>, String> {
        let mut found: Vec<(String, String)> = Vec::new();
        let mut inside = false;
        for line in body.split_inclusive('\n') {
            if let Some(info) = line.strip_prefix("```") {
                if !inside {
                    let info: Vec<&str> = info.split_whitespace().collect();
                    let title = found.last().map_or("", |(title, _)| title.as_str());
                    let allowed = match info.as_slice() {
                        ["json", "tool"] => title == "Definition",
                        ["json", "match" | "response" | "error"] => title.starts_with("Scenario:"),
                        _ => false,
                    };
                    if !allowed {
                        return Err(format!(
                            "a block SPEC §2 does not define in {title:?}: ```{}",
                            info.join(" ")
                        ));
                    }
                }
                inside = !inside;
            } else if !inside && let Some(title) = line.strip_prefix("## ") {
                found.push((title.trim().to_string(), String::new()));
                continue;
            }
            if let Some((_, section)) = found.last_mut() {
                section.push_str(line);
            }
        }
        Ok(found)
    }

    fn scenario(name: &str, section: &str) -> Result<Scenario, String> {
        let mut rule = None;
        let mut answers = Vec::new();
        for caps in BLOCK.captures_iter(section) {
            match &caps[1] {
                "match" if rule.is_some() => return Err(format!("{name}: two match blocks")),
                "match" => {
                    let value: Value = serde_json::from_str(&caps[2])
                        .map_err(|e| format!("{name}: the match: {e}"))?;
                    if !value.is_object() {
                        return Err(format!("{name}: a match that is not an object"));
                    }
                    rule = Some(value);
                }
                kind => answers.push((kind == "error", caps[2].to_string())),
            }
        }
        let [(is_error, template)] = answers.as_slice() else {
            return Err(format!(
                "{name}: a scenario without a response block, or with two"
            ));
        };
        render_empty(template).map_err(|e| format!("{name}: {e}"))?;
        Ok(Scenario {
            name: name.to_string(),
            rule,
            is_error: *is_error,
        })
    }

    /// SPEC §2's start-up check: the template rendered once with empty arguments is JSON.
    fn render_empty(template: &str) -> Result<Value, String> {
        let mut out = String::new();
        let mut in_string = false;
        let mut escaped = false;
        let mut rest = template;
        while let Some(c) = rest.chars().next() {
            if let Some(after) = rest.strip_prefix("{{") {
                let end = after.find("}}").ok_or("an unclosed {{")?;
                let expression = after[..end].trim();
                if !EXPRESSION.is_match(expression) {
                    return Err(format!("unknown placeholder {expression:?}"));
                }
                let value = if expression.starts_with("args.") {
                    "null"
                } else if expression.starts_with("unix") || expression.starts_with("rand") {
                    "0"
                } else {
                    "\"x\""
                };
                out.push_str(if in_string {
                    value.trim_matches('"')
                } else {
                    value
                });
                rest = &after[end + 2..];
                continue;
            }
            if in_string && escaped {
                escaped = false;
            } else if in_string && c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = !in_string;
            }
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
        serde_json::from_str(&out).map_err(|e| format!("not JSON with empty arguments: {e}"))
    }
}

/// A copy of the repository's tools with its clock frozen at [`CLOCK`], and its export.
fn exported() -> (Project, Project) {
    let project = Project::copy_of_repo();
    let clock = project.run(&["clock", "set", CLOCK]);
    assert_eq!(clock.code, 0, "{}", clock.stderr);
    let out = Project::empty();
    std::fs::remove_dir(out.path().join("tools")).unwrap();
    let spec = out.path().display().to_string();
    let run = project.run(&["--seed", SEED, "export", "--spec", &spec]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, summary(&project, &spec));
    assert_eq!(run.stderr, "");
    (project, out)
}

/// What `export` prints for the project's tools (20 files and 119 scenarios, 72 of them
/// computed, when this was written), counted from the files.
fn summary(project: &Project, spec: &str) -> String {
    let engine = original_engine(project);
    let scenarios: Vec<_> = engine
        .tools()
        .flat_map(|tool| engine.current_file(tool).unwrap().file.scenarios.clone())
        .collect();
    let count = |wanted: &dyn Fn(&careem_mcp::engine::Scenario) -> bool| {
        scenarios.iter().filter(|s| wanted(s)).count()
    };
    let computed = count(&|s| s.is_computed());
    format!(
        "wrote {} tool files to {spec}/tools\n\
         {} scenarios: {} as written, {computed} computed at {CLOCK} and written as their values\n\
         {} `jq when` written as a match of the scenario's sample arguments, {} forced only (no `json sample`)\n",
        engine.tools().len(),
        scenarios.len(),
        scenarios.len() - computed,
        count(&|s| s.when.is_some() && s.sample.is_some()),
        count(&|s| s.when.is_some() && s.sample.is_none()),
    )
}

/// The engine over the original tools at [`CLOCK`].
fn original_engine(project: &Project) -> Engine {
    Engine::load(EngineConfig {
        tools_dir: project.path().join("tools"),
        overrides: project.path().join(".run/overrides.json"),
        clock: Some(
            chrono::DateTime::parse_from_rfc3339(CLOCK)
                .unwrap()
                .to_utc(),
        ),
        seed: None,
        stateful: false,
    })
    .expect("the tools load")
}

#[test]
fn a_strict_spec_reader_refuses_the_shipped_tools_and_loads_their_export() {
    let (project, out) = exported();

    let refused = spec_reader::read(project.path()).expect_err("computed files are not SPEC");
    assert!(
        refused
            .iter()
            .any(|p| p.contains("food_get_restaurant_menu.md")
                && p.contains("a block SPEC §2 does not define")),
        "{refused:#?}"
    );

    let read = spec_reader::read(out.path()).unwrap_or_else(|p| panic!("{p:#?}"));
    let engine = original_engine(&project);
    assert_eq!(read.len(), engine.tools().len());
    for tool in engine.tools() {
        let exported = &read[&tool.name];
        assert_eq!(
            exported.definition,
            Value::Object(tool.definition.clone()),
            "{}",
            tool.name
        );
        let file = engine.current_file(tool).unwrap();
        let exported_kinds: BTreeMap<_, _> = exported
            .scenarios
            .iter()
            .map(|s| (s.name.as_str(), s.is_error))
            .collect();
        let original_kinds: BTreeMap<_, _> = file
            .file
            .scenarios
            .iter()
            .map(|s| (s.name.as_str(), s.outcome == Outcome::Error))
            .collect();
        assert_eq!(exported_kinds, original_kinds, "{}", tool.name);
    }
    let kept: Vec<_> = files_under(out.path())
        .into_iter()
        .map(|p| p.strip_prefix(out.path()).unwrap().display().to_string())
        .filter(|p| !p.ends_with(".md"))
        .collect();
    assert_eq!(kept, Vec::<String>::new(), "only tool files are written");
}

#[test]
fn the_export_passes_the_acceptance_suite_when_served() {
    let (_project, out) = exported();
    let run = out.run(&["verify"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(said.contains("12 passed, 0 failed, 0 skipped"), "{said}");
}

#[test]
fn exported_defaults_answer_as_the_computed_ones_at_the_same_clock() {
    let (project, out) = exported();
    let clock = out.run(&["clock", "set", CLOCK]);
    assert_eq!(clock.code, 0, "{}", clock.stderr);
    let read = spec_reader::read(out.path()).unwrap_or_else(|p| panic!("{p:#?}"));
    let engine = original_engine(&project);
    for tool in engine.tools() {
        let file = engine.current_file(tool).unwrap();
        let default = file.file.scenarios.iter().find(|s| s.is_default()).unwrap();
        assert_eq!(
            read[&tool.name].default_scenario(),
            Some(default.name.as_str()),
            "{}",
            tool.name
        );
        let args = sample_arguments(&engine, tool, default).to_string();
        let call = |dir: &Project| {
            let run = dir.run(&[
                "--seed",
                SEED,
                "call",
                &tool.name,
                &args,
                "--scenario",
                &default.name,
            ]);
            assert_eq!(run.code, 0, "{}: {}", tool.name, run.stderr);
            run.json()
        };
        let (computed, served) = (call(&project), call(&out));
        if default.is_computed() {
            assert_eq!(served, computed, "{} for {args}", tool.name);
        } else {
            assert_eq!(served["isError"], computed["isError"], "{}", tool.name);
        }
    }
}

#[test]
fn export_refuses_a_folder_that_is_not_empty_or_holds_the_tools() {
    let project = Project::copy_of_repo();
    let busy = Project::empty();
    busy.write("notes.txt", "mine\n");
    busy.write("tools/stale.md", "old\n");
    let dir = busy.path().display().to_string();
    let cases: [(&[&str], i32, &str); 3] = [
        (
            &["export", "--spec", &dir],
            2,
            "is not empty; pass --force to replace its tools/ folder (nothing else in it is touched)",
        ),
        (
            &["export", "--spec", "."],
            2,
            "overlap; export to a folder outside the project",
        ),
        (
            &["export", "--spec", "tools/out"],
            2,
            "overlap; export to a folder outside the project",
        ),
    ];
    for (args, code, wanted) in cases {
        let run = project.run(args);
        assert_eq!(run.code, code, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(wanted), "{args:?}: {}", run.stderr);
    }
    assert!(!project.path().join("tools/out").exists());

    let forced = project.run(&["export", "--spec", &dir, "--force"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(busy.read("notes.txt"), "mine\n");
    assert!(!busy.path().join("tools/stale.md").exists());
    assert!(busy.path().join("tools/food/food_list_orders.md").exists());
}

#[test]
fn an_exported_answer_echoes_the_arguments_of_each_call() {
    let (_project, out) = exported();
    let run = out.run(&[
        "call",
        "food_get_restaurant_menu",
        r#"{"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474}"#,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let answer = &run.json()["structuredContent"];
    assert_eq!(
        answer["restaurant"]["name"]["value"],
        "Morning Syrniki Café"
    );
    assert_eq!(
        answer["deliveryLocation"],
        json!({"latitude": 25.0866, "longitude": 55.1474})
    );
}

/// The whole exported file of a small computed tool: prose kept (a fenced note indented), a
/// `jq when` without a sample forced only and written last, the update gone, the count an
/// echo of `by` and the time `{{now}}`.
#[test]
fn a_computed_tool_file_is_written_with_spec_blocks_only() {
    let project = tally_project(3);
    let text = project.read("tools/tally.md").replacen(
        "---\n## Definition",
        "---\n## Flow\n\nA note:\n\n```text\n## not a heading\n```\n\n## Definition",
        1,
    );
    project.write("tools/tally.md", &text);
    let out = tempfile::tempdir().unwrap();
    let spec = out.path().join("spec").display().to_string();
    let run = project.run(&["--clock", CLOCK, "export", "--spec", &spec]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written = std::fs::read_to_string(out.path().join("spec/tools/tally.md")).unwrap();
    let expected = r#"---
tool: tally
---
## Flow

A note:

    ## not a heading

## Definition

```json tool
{"name": "tally", "description": "Adds to the count.", "inputSchema": {"type": "object", "properties": {"by": {"type": "integer", "default": 1}}, "additionalProperties": false}}
```

## Scenario: added

Exported: computed on the seed world for `{"by":1}` at 2026-10-05T12:07:13Z, its times relative to now.

```json response
{
  "count": {{args.by}},
  "was": 0,
  "at": "{{now}}"
}
```

## Scenario: too-many

Exported: computed on the seed world for `{"by":1}` at 2026-10-05T12:07:13Z, its times relative to now. Forced only in the export: its `jq when` has no SPEC form.

```json response
{
  "error": "too many"
}
```
"#;
    assert_eq!(written, expected);
    let read = spec_reader::read(&out.path().join("spec")).unwrap_or_else(|p| panic!("{p:#?}"));
    assert_eq!(read["tally"].default_scenario(), Some("added"));
}
