//! SPEC §7's twelve acceptance tests, run through one MCP session. Every answer the server
//! gives is kept, so that test 12 scans exactly what a client saw.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;
use rmcp::ServiceError;
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams};
use serde::Serialize;
use serde_json::{Value, json};

use super::finding::{Finding, Verdict};
use super::transport::{Client, answer};
use crate::engine::{
    Change, Engine, Outcome, Overrides, differences, odd_arguments, overrides, pointer_token,
    sample_arguments, tool_paths, violations,
};

/// A request without an answer for this long fails its check instead of hanging the run.
const CALL_TIMEOUT: Duration = Duration::from_secs(15);
/// Production's identity, exactly (SPEC §7.1).
const SERVER_NAME: &str = "careem-mcp-service";
const SERVER_VERSION: &str = "v1.0.0";
const WIDGET_URI: &str = "ui://careem-mcp-app";
/// Words that would tell a client it is not talking to production (SPEC §7.12), in any case.
static TELL_TALE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)mock|sandbox|sbx|fake|dummy|example\.com")
        .expect("the word pattern is valid")
});
/// Characters of context shown either side of a tell-tale word.
const CONTEXT: usize = 30;
/// Failures listed in one detail before the rest are only counted.
const SHOWN: usize = 5;

pub const INITIALIZE: &str = "1 initialize";
const LISTS: &str = "2 tools/list, resources/list";
const OVERRIDES: &str = "9 overrides file";
const UNKNOWN_TOOL: &str = "10 unknown tool";
const HONESTY: &str = "11 scenarios honest";
const WORDS: &str = "12 no tell-tale words";

/// What the checks need besides the session.
pub struct Target<'a> {
    pub engine: &'a Engine,
    /// The overrides file the server under test reads. Without it the checks that force
    /// scenarios (9 and 11) are skipped: writing some other file would prove nothing.
    pub overrides: Option<&'a Path>,
}

/// Runs tests 1–12 in order; 9 and 11 leave the overrides file as `{}`.
pub async fn run(client: &Client, target: &Target<'_>, transport: &'static str) -> Vec<Finding> {
    let mut session = ProbeSession {
        client,
        seen: Vec::new(),
    };
    let judged = |check, result: Result<String, String>| {
        let (status, detail) = match result {
            Ok(detail) => (Verdict::Pass, detail),
            Err(detail) => (Verdict::Fail, detail),
        };
        Finding {
            check,
            transport,
            status,
            detail,
        }
    };
    let skipped = |check, detail: &str| Finding {
        check,
        transport,
        status: Verdict::Skip,
        detail: detail.to_string(),
    };
    let no_overrides = "needs the server's overrides file: pass --overrides <PATH> with --url";

    let mut findings = vec![
        judged(INITIALIZE, initialize(&mut session)),
        judged(LISTS, lists(&mut session, target.engine).await),
    ];
    for check in spec_checks() {
        findings.push(judged(
            check.name,
            session
                .steps(&check.steps)
                .await
                .map(|()| check.passed.to_string()),
        ));
    }
    findings.push(match target.overrides {
        Some(path) => judged(OVERRIDES, forcing(&mut session, path).await),
        None => skipped(OVERRIDES, no_overrides),
    });
    findings.push(judged(UNKNOWN_TOOL, unknown_tool(&mut session).await));
    findings.push(match target.overrides {
        Some(path) => judged(HONESTY, honest(&mut session, target.engine, path).await),
        None => skipped(HONESTY, no_overrides),
    });
    findings.push(judged(WORDS, tell_tale_words(&session.seen)));
    findings
}

/// The session and every answer received in it, labelled with the request that produced it.
struct ProbeSession<'a> {
    client: &'a Client,
    seen: Vec<(String, Value)>,
}

impl ProbeSession<'_> {
    fn saw(&mut self, source: impl Into<String>, value: &impl Serialize) {
        match serde_json::to_value(value) {
            Ok(value) => self.seen.push((source.into(), value)),
            Err(error) => tracing::warn!("cannot keep an answer for the word scan: {error}"),
        }
    }

    /// One `tools/call`, its result as the JSON a client receives; `note` says why it was
    /// made, for the word scan's report.
    async fn request(
        &mut self,
        tool: &str,
        arguments: &Value,
        note: &str,
    ) -> Result<Value, ServiceError> {
        let mut params = CallToolRequestParams::new(tool.to_string());
        if let Value::Object(map) = arguments {
            params = params.with_arguments(map.clone());
        }
        let source = format!("tools/call {tool} {arguments}{note}");
        match tokio::time::timeout(CALL_TIMEOUT, self.client.call_tool(params)).await {
            Ok(Ok(result)) => {
                let value =
                    serde_json::to_value(&result).map_err(|_| ServiceError::UnexpectedResponse)?;
                self.saw(source, &value);
                Ok(value)
            }
            Ok(Err(error)) => {
                if let ServiceError::McpError(data) = &error {
                    self.saw(source, data);
                }
                Err(error)
            }
            Err(_) => Err(ServiceError::Timeout {
                timeout: CALL_TIMEOUT,
            }),
        }
    }

    /// Calls each step in order and stops at the first answer that is not as expected.
    async fn steps(&mut self, steps: &[SpecCall]) -> Result<(), String> {
        for step in steps {
            let call = format!("{} {}", step.tool, step.arguments);
            let result = self
                .request(step.tool, &step.arguments, "")
                .await
                .map_err(|error| format!("{call}: {error}"))?;
            for expectation in &step.expect {
                expectation
                    .check(&result)
                    .map_err(|problem| format!("{call}: {problem}"))?;
            }
        }
        Ok(())
    }
}

/// One call of a SPEC §7 test and what its answer must show.
struct SpecCall {
    tool: &'static str,
    arguments: Value,
    expect: Vec<Expect>,
}

/// A statement about the `tools/call` result, addressed by JSON pointer.
enum Expect {
    Equals(&'static str, Value),
    Present(&'static str),
    StartsWith(&'static str, &'static str),
}

impl Expect {
    fn check(&self, result: &Value) -> Result<(), String> {
        let pointer = match self {
            Self::Equals(pointer, _) | Self::Present(pointer) | Self::StartsWith(pointer, _) => {
                *pointer
            }
        };
        // The Go SDK leaves `isError` out when it is false.
        let absent_false = (pointer == "/isError").then_some(&Value::Bool(false));
        let Some(found) = result.pointer(pointer).or(absent_false) else {
            return Err(format!("no {pointer} in the answer {}", brief(result)));
        };
        match self {
            Self::Equals(_, want) if !same(found, want) => {
                let text = if pointer == "/isError" {
                    text_of(result)
                } else {
                    String::new()
                };
                Err(format!(
                    "{pointer} is {}, expected {want}{text}",
                    brief(found)
                ))
            }
            Self::StartsWith(_, prefix)
                if !found.as_str().is_some_and(|text| text.starts_with(prefix)) =>
            {
                Err(format!(
                    "{pointer} is {}, expected it to start with {prefix:?}",
                    brief(found)
                ))
            }
            _ => Ok(()),
        }
    }
}

/// JSON equality with numbers compared as numbers (`42` equals `42.0`).
fn same(found: &Value, want: &Value) -> bool {
    match (found, want) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        _ => found == want,
    }
}

/// The answer's text, to explain an unexpected `isError`.
fn text_of(result: &Value) -> String {
    result
        .pointer("/content/0/text")
        .and_then(Value::as_str)
        .map(|text| format!(" (text: {})", brief(&Value::String(text.to_string()))))
        .unwrap_or_default()
}

struct SpecCheck {
    name: &'static str,
    steps: Vec<SpecCall>,
    passed: &'static str,
}

const MENU: &str = "food_get_restaurant_menu";
const SEARCH: &str = "food_merchant_search";
const GEOCODE: &str = "reverse_geocode";

fn menu(restaurant_id: &Value) -> Value {
    json!({"restaurant_id": restaurant_id, "latitude": 25.0866, "longitude": 55.1474})
}

/// Test 3, also the second half of test 9.
fn menu_30104() -> SpecCall {
    SpecCall {
        tool: MENU,
        arguments: menu(&json!(30104)),
        expect: vec![
            Expect::Equals("/isError", json!(false)),
            Expect::Equals("/structuredContent/restaurant/id", json!(30104)),
            Expect::Equals(
                "/structuredContent/restaurant/name/value",
                json!("Morning Syrniki Café"),
            ),
        ],
    }
}

/// Tests 3–8, as SPEC §7 states them.
fn spec_checks() -> Vec<SpecCheck> {
    vec![
        SpecCheck {
            name: "3 menu of 30104",
            steps: vec![menu_30104()],
            passed: "Morning Syrniki Café, isError false",
        },
        SpecCheck {
            name: "4 menu chosen by id",
            steps: vec![SpecCall {
                tool: MENU,
                arguments: menu(&json!(30101)),
                expect: vec![Expect::Equals(
                    "/structuredContent/restaurant/name/value",
                    json!("Shawarma Station"),
                )],
            }],
            passed: "30101 is Shawarma Station",
        },
        SpecCheck {
            name: "5 unknown restaurant",
            steps: vec![SpecCall {
                tool: MENU,
                arguments: menu(&json!(1)),
                expect: vec![
                    Expect::Equals("/isError", json!(false)),
                    Expect::Equals(
                        "/structuredContent/error",
                        json!("failed to get restaurant menu: unexpected response status 404"),
                    ),
                ],
            }],
            passed: "production's 404 text, isError false",
        },
        SpecCheck {
            name: "6 invalid arguments",
            steps: vec![
                SpecCall {
                    tool: MENU,
                    arguments: menu(&json!("x")),
                    expect: vec![
                        Expect::Equals("/isError", json!(true)),
                        Expect::StartsWith("/content/0/text", "validating \"arguments\""),
                    ],
                },
                SpecCall {
                    tool: MENU,
                    arguments: json!({}),
                    expect: vec![Expect::Equals("/isError", json!(true))],
                },
            ],
            passed: "a string id and a missing id are refused",
        },
        SpecCheck {
            name: "7 merchant search",
            steps: vec![
                SpecCall {
                    tool: SEARCH,
                    arguments: json!({"query": "sushi", "latitude": 25.0866, "longitude": 55.1474}),
                    expect: vec![Expect::Equals(
                        "/structuredContent/restaurants/0/id",
                        json!(30102),
                    )],
                },
                SpecCall {
                    tool: SEARCH,
                    arguments: json!({"query": "NOPE", "latitude": 25.0866, "longitude": 55.1474}),
                    expect: vec![Expect::Equals("/structuredContent/restaurants", json!([]))],
                },
                SpecCall {
                    tool: SEARCH,
                    arguments: json!({"query": "sushi", "longitude": 55.1474}),
                    expect: vec![Expect::Equals("/isError", json!(true))],
                },
            ],
            passed: "sushi finds 30102, NOPE nothing, no latitude is refused",
        },
        SpecCheck {
            name: "8 reverse geocode",
            steps: vec![
                SpecCall {
                    tool: GEOCODE,
                    arguments: json!({"latitude": 25.0866, "longitude": 55.1474}),
                    expect: vec![Expect::Equals(
                        "/structuredContent/location/locationUuid",
                        json!("LOC-50001"),
                    )],
                },
                SpecCall {
                    tool: GEOCODE,
                    arguments: json!({"latitude": 91, "longitude": 55}),
                    expect: vec![Expect::Present("/structuredContent/error")],
                },
            ],
            passed: "LOC-50001 by exact numbers; 91/55 has an error",
        },
    ]
}

/// Test 1: production's identity and nothing more.
fn initialize(session: &mut ProbeSession<'_>) -> Result<String, String> {
    let Some(info) = session.client.peer_info() else {
        return Err("the session has no initialize result".into());
    };
    session.saw("initialize", &*info);
    let server_info = serde_json::to_value(&info.server_info).map_err(|error| error.to_string())?;
    let want = json!({"name": SERVER_NAME, "version": SERVER_VERSION});
    if server_info != want {
        return Err(format!("serverInfo is {server_info}, expected {want}"));
    }
    if let Some(instructions) = &info.instructions {
        return Err(format!(
            "the result has instructions: {}",
            brief(&json!(instructions))
        ));
    }
    Ok(format!("serverInfo {server_info}, no instructions"))
}

/// Test 2: every tool file listed exactly as written, and the widget resource.
async fn lists(session: &mut ProbeSession<'_>, engine: &Engine) -> Result<String, String> {
    let tools_dir = &engine.config().tools_dir;
    let files = tool_paths(tools_dir)
        .map_err(|error| format!("cannot list {}: {error}", tools_dir.display()))?
        .len();
    let listed = answer("tools/list", CALL_TIMEOUT, session.client.list_all_tools()).await?;
    session.saw("tools/list", &listed);
    let mut problems = Vec::new();
    if listed.len() != files {
        problems.push(format!(
            "tools/list has {} tools, {} has {files} tool files",
            listed.len(),
            tools_dir.display()
        ));
    }
    for tool in engine.tools() {
        let Some(wire) = listed.iter().find(|t| t.name == tool.name.as_str()) else {
            problems.push(format!(
                "{}: tool {} is not listed",
                tool.path.display(),
                tool.name
            ));
            continue;
        };
        let wire = serde_json::to_value(wire).map_err(|error| error.to_string())?;
        // SPEC §7.2: the definition as written in the file, not as any SDK would rewrite it.
        let written = Value::Object(tool.definition.clone());
        if let Some(difference) = difference(&written, &wire) {
            problems.push(format!("{}: {difference}", tool.path.display()));
        }
    }
    for extra in listed.iter().filter(|t| engine.tool(&t.name).is_none()) {
        problems.push(format!("{} is listed but has no tool file", extra.name));
    }

    let resources = answer(
        "resources/list",
        CALL_TIMEOUT,
        session.client.list_all_resources(),
    )
    .await?;
    session.saw("resources/list", &resources);
    if !resources.iter().any(|r| r.uri == WIDGET_URI) {
        problems.push(format!("resources/list has no {WIDGET_URI}"));
    }
    for resource in &resources {
        let what = format!("resources/read {}", resource.uri);
        let params = ReadResourceRequestParams::new(resource.uri.clone());
        match answer(&what, CALL_TIMEOUT, session.client.read_resource(params)).await {
            Ok(read) => session.saw(what, &read),
            Err(problem) => problems.push(problem),
        }
    }
    if problems.is_empty() {
        Ok(format!(
            "{files} tools equal to their files; {WIDGET_URI} listed and readable"
        ))
    } else {
        Err(listing(&problems))
    }
}

/// The first place where the listed tool differs from the file, as a JSON pointer.
fn difference(file: &Value, wire: &Value) -> Option<String> {
    let found = differences(file, wire).into_iter().next()?;
    let pointer = found.pointer();
    Some(match found.change {
        Change::Removed => format!("{pointer} is in the file but not in tools/list"),
        Change::Added => format!("{pointer} is in tools/list but not in the file"),
        Change::Changed { before, after } => format!(
            "{} is {} in tools/list but {} in the file",
            if pointer.is_empty() {
                "the definition"
            } else {
                &pointer
            },
            brief(after),
            brief(before)
        ),
    })
}

/// Test 9: the overrides file forces a scenario on the next call, and `{}` lifts it.
async fn forcing(session: &mut ProbeSession<'_>, path: &Path) -> Result<String, String> {
    write_overrides(
        path,
        &Overrides::from([(MENU.to_string(), "upstream-unavailable".into())]),
    )?;
    let forced = session
        .steps(&[SpecCall {
            tool: MENU,
            arguments: menu(&json!(30104)),
            expect: vec![Expect::Present("/structuredContent/error")],
        }])
        .await
        .map_err(|problem| format!("forced upstream-unavailable: {problem}"));
    write_overrides(path, &Overrides::new())?;
    forced?;
    session
        .steps(&[menu_30104()])
        .await
        .map_err(|problem| format!("after writing {{}}: {problem}"))?;
    Ok(
        "forced upstream-unavailable through the overrides file; {} lifted it, no restart"
            .to_string(),
    )
}

/// Test 10: an unknown tool is a JSON-RPC error -32602, not a tool result.
async fn unknown_tool(session: &mut ProbeSession<'_>) -> Result<String, String> {
    match session.request("does_not_exist", &json!({}), "").await {
        Err(ServiceError::McpError(error))
            if error.code == rmcp::model::ErrorCode::INVALID_PARAMS =>
        {
            Ok(format!("-32602: {}", error.message))
        }
        Err(ServiceError::McpError(error)) => Err(format!(
            "JSON-RPC error {} ({}), expected -32602",
            error.code.0, error.message
        )),
        Err(error) => Err(format!("expected JSON-RPC error -32602, got: {error}")),
        Ok(result) => Err(format!(
            "expected JSON-RPC error -32602, got a result: {}",
            brief(&result)
        )),
    }
}

/// Test 11: every scenario forced in turn through the overrides file and called with the
/// honesty check's sample arguments, then with the odd arguments an agent may send (two calls
/// that carry them all; `lint` tries each one alone, in-process); each
/// `json response` answer must fit the outputSchema, `format`s included.
/// `json error` scenarios are called too, for test 12 and to confirm the forcing took.
async fn honest(
    session: &mut ProbeSession<'_>,
    engine: &Engine,
    path: &Path,
) -> Result<String, String> {
    let mut problems = Vec::new();
    let mut checked = 0;
    let mut odd = 0;
    for tool in engine.tools() {
        let file = engine
            .current_file(tool)
            .map_err(|error| format!("cannot read {}: {error}", tool.path.display()))?;
        for scenario in &file.file.scenarios {
            let at = format!("{}, scenario {:?}", tool.path.display(), scenario.name);
            write_overrides(
                path,
                &Overrides::from([(tool.name.clone(), scenario.name.clone().into())]),
            )?;
            let arguments = sample_arguments(engine, tool, scenario);
            let result = match session
                .request(
                    &tool.name,
                    &arguments,
                    &format!(" (forced {:?})", scenario.name),
                )
                .await
            {
                Ok(result) => result,
                Err(error) => {
                    problems.push(format!("{at}: tools/call {arguments}: {error}"));
                    continue;
                }
            };
            let is_error = result
                .get("isError")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            match scenario.outcome {
                Outcome::Error if !is_error => {
                    problems.push(format!(
                        "{at}: a `json error` scenario answered isError false; was it forced?"
                    ));
                }
                Outcome::Response if is_error => {
                    problems.push(format!("{at}: answered isError true{}", text_of(&result)));
                }
                Outcome::Response => {
                    checked += 1;
                    if let Some(validator) = &tool.output_validator {
                        let value = answered_value(&result);
                        problems.extend(violations(validator, &value).map(|(pointer, error)| {
                            format!(
                                "{at}: the response at {pointer} breaks the outputSchema: {error}"
                            )
                        }));
                    }
                    for variant in odd_arguments::combined(tool, scenario, &arguments) {
                        odd += 1;
                        let note = format!(" (forced {:?}, {})", scenario.name, variant.label);
                        let at = format!("{at} with {}", variant.label);
                        match session.request(&tool.name, &variant.arguments, &note).await {
                            Err(error) => problems.push(format!("{at}: {error}")),
                            Ok(result) if result.get("isError") == Some(&Value::Bool(true)) => {
                                problems.push(format!(
                                    "{at}: answered isError true{}",
                                    text_of(&result)
                                ));
                            }
                            Ok(result) => {
                                let value = answered_value(&result);
                                if let Some(validator) = &tool.output_validator
                                    && let Some((pointer, error)) =
                                        violations(validator, &value).next()
                                {
                                    problems.push(format!(
                                        "{at}: the response at {pointer} breaks the outputSchema: {error}"
                                    ));
                                }
                            }
                        }
                    }
                }
                Outcome::Error => {}
            }
        }
    }
    write_overrides(path, &Overrides::new())?;
    if problems.is_empty() {
        Ok(format!(
            "{checked} response scenarios of {} tools fit their outputSchema, and {odd} calls with odd arguments",
            engine.tools().len()
        ))
    } else {
        Err(listing(&problems))
    }
}

/// What the client got: `structuredContent`, or the text parsed as JSON when the value was not
/// an object (production leaves `structuredContent` out then).
fn answered_value(result: &Value) -> Value {
    if let Some(structured) = result.get("structuredContent") {
        return structured.clone();
    }
    result
        .pointer("/content/0/text")
        .and_then(Value::as_str)
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or(Value::Null)
}

/// Test 12: no string a client saw in this session, key or value, contains a word that would
/// give the copy away.
fn tell_tale_words(seen: &[(String, Value)]) -> Result<String, String> {
    let mut hits = Vec::new();
    for (source, value) in seen {
        scan(value, "", &mut |pointer, word, excerpt| {
            let pointer = if pointer.is_empty() { "/" } else { pointer };
            hits.push(format!("{source} at {pointer}: {word:?} in …{excerpt}…"));
        });
    }
    if hits.is_empty() {
        Ok(format!(
            "{} answers scanned (server info, tools, resources, every call)",
            seen.len()
        ))
    } else {
        Err(listing(&hits))
    }
}

fn scan(value: &Value, pointer: &str, hit: &mut impl FnMut(&str, &str, &str)) {
    match value {
        Value::String(text) => check_words(pointer, text, hit),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                scan(item, &format!("{pointer}/{index}"), hit);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                let inner = format!("{pointer}/{}", pointer_token(key));
                check_words(&inner, key, hit);
                scan(item, &inner, hit);
            }
        }
        _ => {}
    }
}

/// Reports the first tell-tale word in `text` with a little of the text around it.
fn check_words(pointer: &str, text: &str, hit: &mut impl FnMut(&str, &str, &str)) {
    let Some(found) = TELL_TALE.find(text) else {
        return;
    };
    let before = text[..found.start()]
        .char_indices()
        .rev()
        .nth(CONTEXT - 1)
        .map_or(0, |(i, _)| i);
    let after = text[found.end()..]
        .char_indices()
        .nth(CONTEXT)
        .map_or(text.len(), |(i, _)| found.end() + i);
    hit(
        pointer,
        &found.as_str().to_lowercase(),
        &text[before..after],
    );
}

fn write_overrides(path: &Path, forced: &Overrides) -> Result<(), String> {
    overrides::write(path, forced).map_err(|error| error.to_string())
}

/// Compact JSON, cut short so that one detail stays readable.
fn brief(value: &Value) -> String {
    const LIMIT: usize = 120;
    let text = value.to_string();
    if text.chars().count() <= LIMIT {
        text
    } else {
        text.chars().take(LIMIT).collect::<String>() + "…"
    }
}

/// The first few problems, then how many more there were.
fn listing(problems: &[String]) -> String {
    let mut shown = problems
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if problems.len() > SHOWN {
        let _ = write!(shown, "; and {} more", problems.len() - SHOWN);
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_named_by_pointer() {
        let file = json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}, "_meta": {"a/b": [1, 2]}});
        let cases = [
            (file.clone(), None),
            (
                json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"a/b": [1, 2]}}),
                Some("/outputSchema is in the file but not in tools/list"),
            ),
            (
                json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}, "_meta": {"a/b": [1, 3]}}),
                Some("/_meta/a~1b/1 is 3 in tools/list but 2 in the file"),
            ),
            (
                json!({"name": "t", "title": "T", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}, "_meta": {"a/b": [1, 2.0]}}),
                Some("/title is in tools/list but not in the file"),
            ),
        ];
        for (wire, want) in cases {
            assert_eq!(difference(&file, &wire).as_deref(), want, "{wire}");
        }
    }

    #[test]
    fn the_scan_finds_words_in_keys_and_values_whatever_their_case() {
        let seen = vec![
            (
                "clean".to_string(),
                json!({"name": "Careem", "items": ["ok"]}),
            ),
            (
                "dirty".to_string(),
                json!({"items": [{"url": "https://EXAMPLE.com/x"}], "SandboxMode": true}),
            ),
        ];
        let Err(detail) = tell_tale_words(&seen) else {
            panic!("expected hits")
        };
        assert!(
            detail.contains("dirty at /items/0/url: \"example.com\" in …https://EXAMPLE.com/x…"),
            "{detail}"
        );
        assert!(
            detail.contains("dirty at /SandboxMode: \"sandbox\""),
            "{detail}"
        );
        assert!(!detail.contains("clean"), "{detail}");

        let long = format!("{}Fake{}", "x".repeat(100), "é".repeat(100));
        let Err(detail) = tell_tale_words(&[("long".to_string(), json!(long))]) else {
            panic!("expected a hit")
        };
        assert_eq!(
            detail,
            format!(
                "long at /: \"fake\" in …{}Fake{}…",
                "x".repeat(30),
                "é".repeat(30)
            )
        );
    }

    #[test]
    fn expectations_explain_what_they_saw() {
        let result = json!({"content": [{"type": "text", "text": "validating \"arguments\": bad"}], "isError": true, "structuredContent": {"n": 30104.0}});
        assert!(
            Expect::Equals("/structuredContent/n", json!(30104))
                .check(&result)
                .is_ok()
        );
        assert!(
            Expect::StartsWith("/content/0/text", "validating \"arguments\"")
                .check(&result)
                .is_ok()
        );
        let problem = Expect::Equals("/isError", json!(false))
            .check(&result)
            .unwrap_err();
        assert!(
            problem.starts_with("/isError is true, expected false (text:"),
            "{problem}"
        );
        let problem = Expect::Present("/structuredContent/error")
            .check(&result)
            .unwrap_err();
        assert!(
            problem.starts_with("no /structuredContent/error in the answer"),
            "{problem}"
        );
    }
}
