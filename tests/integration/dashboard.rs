//! `careem-mcp dashboard` over real HTTP, as a separate process beside `serve --stdio` in the
//! same project folder: calls appear in its live stream, forcing from it changes the next MCP
//! answer, "try a call" answers as `careem-mcp call` does, the world shows the run's clock as
//! `careem-mcp clock` sets it, and cross-site writes are refused.

use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

use crate::support::sse::Events;
use crate::support::{Client, Process, Project, call, start_announced, stdio_client};

const CLOCK: &str = "2026-10-05T12:00:00Z";

/// `careem-mcp dashboard --port 0` in `project`, stopped when dropped.
struct Dashboard {
    _process: Process,
    url: String,
}

impl Dashboard {
    /// The dashboard at the fixed `CLOCK`.
    fn start(project: &Project) -> Self {
        Self::with(project, &["--clock", CLOCK])
    }

    /// The dashboard with `global` options before `dashboard --port 0`.
    fn with(project: &Project, global: &[&str]) -> Self {
        let mut command = project.command();
        command.args(global).args(["dashboard", "--port", "0"]);
        let (process, url, _stderr) = start_announced(command, "careem-mcp: dashboard at ");
        Self {
            _process: process,
            url,
        }
    }

    /// The API's URL for `path`: the project's (`/tools`, `/runs…`) as it is, any other the
    /// default run's (`/api/runs/default/…`, docs/ADMIN.md).
    fn api(&self, path: &str) -> String {
        if path.starts_with("/tools") || path.starts_with("/runs") {
            format!("{}api{path}", self.url)
        } else {
            format!("{}api/runs/default{path}", self.url)
        }
    }

    async fn get(&self, path: &str) -> Value {
        let response = reqwest::get(self.api(path)).await.expect("GET");
        assert!(
            response.status().is_success(),
            "GET {path}: {}",
            response.status()
        );
        response.json().await.expect("JSON")
    }

    async fn send(&self, method: reqwest::Method, path: &str, body: &Value) -> (u16, Value) {
        let response = reqwest::Client::new()
            .request(method, self.api(path))
            .json(body)
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// The tool's card in `GET /api/scenarios`.
    async fn card(&self, tool: &str) -> Value {
        card(&self.get("/scenarios").await, tool)
    }

    /// `PUT /api/scenarios/{tool}` with `body`.
    async fn force(&self, tool: &str, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::PUT, &format!("/scenarios/{tool}"), &body)
            .await
    }

    /// `PUT /api/scenarios/{tool}/entry` with `entry`.
    async fn put_entry(&self, tool: &str, entry: &Value) -> (u16, Value) {
        let body = json!({ "entry": entry });
        self.send(
            reqwest::Method::PUT,
            &format!("/scenarios/{tool}/entry"),
            &body,
        )
        .await
    }

    async fn stream(&self) -> Events {
        let response = reqwest::get(self.api("/calls/stream"))
            .await
            .expect("stream");
        assert_eq!(
            response.headers()["content-type"],
            "text/event-stream",
            "an event stream"
        );
        Events::of(response)
    }
}

/// The card of `tool` in a `GET /api/scenarios` listing.
fn card(listed: &Value, tool: &str) -> Value {
    listed["tools"]
        .as_array()
        .expect("a list of tools")
        .iter()
        .find(|t| t["tool"] == tool)
        .unwrap_or_else(|| panic!("no card for {tool}: {listed}"))
        .clone()
}

/// The result of a call the client must get an answer to (`isError` or not).
async fn result_of(client: &Client, tool: &str, args: Value) -> Value {
    call(client, tool, args).await.expect("the call answers")
}

/// A real MCP client over `serve --stdio` in `project`: the journal and overrides file are the
/// dashboard's, found by their default paths.
async fn agent(project: &Project) -> Client {
    let mut command = project.command();
    command.args(["--clock", CLOCK, "serve", "--stdio"]);
    stdio_client(command).await
}

#[tokio::test]
async fn calls_made_by_an_mcp_client_appear_live_and_clearing_empties_the_journal() {
    let project = Project::copy_of_repo();
    let dashboard = Dashboard::start(&project);
    let mut stream = dashboard.stream().await;
    assert_eq!(stream.next_named("snapshot").await, json!([]));

    let client = agent(&project).await;
    for ride in ["5001001", "5001003"] {
        result_of(&client, "ride_get_status", json!({"rideId": ride})).await;
        let entry = stream.next_named("call").await;
        assert_eq!(
            (&entry["transport"], &entry["tool"], &entry["received"]),
            (
                &json!("stdio"),
                &json!("ride_get_status"),
                &json!({"rideId": ride})
            ),
        );
        assert!(entry["session"].is_string() || entry["session"].is_null());
        assert!(
            entry["scenario"].as_str().is_some_and(|s| s.contains(ride)),
            "{entry}"
        );
    }
    client.cancel().await.expect("close");

    let listed = dashboard.get("/calls").await;
    let received: Vec<&Value> = listed["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["received"]["rideId"])
        .collect();
    assert_eq!(
        received,
        [&json!("5001001"), &json!("5001003")],
        "oldest first, as `calls --json`"
    );

    let (status, _) = dashboard
        .send(reqwest::Method::DELETE, "/calls", &json!({}))
        .await;
    assert_eq!(status, 200);
    stream.next_named("cleared").await;
    assert_eq!(dashboard.get("/calls").await["calls"], json!([]));
    assert_eq!(project.read(".run/calls.jsonl"), "");
}

#[tokio::test]
async fn forcing_and_clearing_from_the_dashboard_changes_the_next_mcp_answer() {
    let project = Project::copy_of_repo();
    let dashboard = Dashboard::start(&project);
    let client = agent(&project).await;
    let tool = "get_payment_methods";
    let usual = result_of(&client, tool, json!({})).await;
    assert_eq!(usual.get("isError"), None);

    let (status, answer) = dashboard
        .force(tool, json!({"scenario": "SESSION-expired"}))
        .await;
    assert_eq!(
        (status, &answer["forced"]),
        (200, &json!("session-expired")),
        "{answer}"
    );
    let card = dashboard.card(tool).await;
    assert_eq!(card["forced"], json!("session-expired"));
    let kinds: Vec<(&Value, &Value)> = card["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (&s["name"], &s["kind"]))
        .collect();
    assert_eq!(
        kinds,
        [
            (&json!("cards-and-credit"), &json!("default")),
            (&json!("cash-only"), &json!("forced-only")),
            (&json!("session-expired"), &json!("error-forced-only")),
        ]
    );
    let forced = result_of(&client, tool, json!({})).await;
    assert_eq!(forced["isError"], json!(true), "{forced}");

    let (status, _) = dashboard.force(tool, json!({"scenario": null})).await;
    assert_eq!(status, 200);
    assert_eq!(result_of(&client, tool, json!({})).await, usual);

    dashboard
        .force(tool, json!({"scenario": "cash-only"}))
        .await;
    let (status, _) = dashboard
        .send(reqwest::Method::POST, "/reset", &json!({}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        result_of(&client, tool, json!({})).await,
        usual,
        "reset clears every tool"
    );
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn bad_edits_are_refused_as_the_cli_refuses_them() {
    let project = Project::copy_of_repo();
    let dashboard = Dashboard::start(&project);
    // (tool, scenario, status, part of the error)
    let cases = [
        ("no_such_tool", "x", 404, "unknown tool"),
        ("get_payment_methods", "nope", 404, "has no scenario"),
    ];
    for (tool, scenario, expected, message) in cases {
        let (status, answer) = dashboard.force(tool, json!({ "scenario": scenario })).await;
        assert_eq!(status, expected, "{tool}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(message),
            "{answer}"
        );
        assert!(
            !answer["known"].as_array().unwrap().is_empty(),
            "offers the known names"
        );
    }
    // A file someone wrote by hand and broke is reported, never overwritten.
    project.write(".run/overrides.json", "{ \"get_payment_methods\": ");
    let (status, answer) = dashboard
        .force("get_payment_methods", json!({"scenario": "cash-only"}))
        .await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(
        project.read(".run/overrides.json"),
        "{ \"get_payment_methods\": "
    );
    assert!(dashboard.get("/scenarios").await["problem"].is_string());
}

/// `PUT /api/scenarios/{tool}/entry` with `entry`, which must be accepted.
async fn set_entry(dashboard: &Dashboard, tool: &str, entry: Value) -> Value {
    let (status, answer) = dashboard.put_entry(tool, &entry).await;
    assert_eq!(status, 200, "{tool} ← {entry}: {answer}");
    answer
}

#[tokio::test]
async fn sequences_and_faults_set_in_the_dashboard_reach_the_mcp_client() {
    let project = Project::copy_of_repo();
    let dashboard = Dashboard::start(&project);
    let client = agent(&project).await;
    let tool = "get_payment_methods";
    let usual = result_of(&client, tool, json!({})).await;

    let answer = set_entry(&dashboard, tool, json!(["CASH-only", "session-expired"])).await;
    assert_eq!(
        answer["entry"],
        json!(["cash-only", "session-expired"]),
        "names are spelt as the tool file spells them"
    );
    let card = dashboard.card(tool).await;
    assert_eq!(card["forced"], json!(["cash-only", "session-expired"]));
    let answers = [
        result_of(&client, tool, json!({})).await,
        result_of(&client, tool, json!({})).await,
        result_of(&client, tool, json!({})).await,
    ];
    let errors: Vec<Value> = answers.iter().map(crate::support::is_error).collect();
    assert_eq!(
        errors,
        [json!(false), json!(true), json!(true)],
        "the steps in order, the last repeating"
    );
    assert_ne!(answers[0], usual, "the first step is cash-only");

    set_entry(&dashboard, "*", json!({"fault": "internal-error"})).await;
    assert_eq!(
        dashboard.get("/scenarios").await["default"]["entry"],
        json!({"fault": "internal-error"})
    );
    let failed = client
        .call_tool(CallToolRequestParams::new(
            "get_payment_methods".to_string(),
        ))
        .await
        .expect_err("the fault reaches the client");
    assert!(failed.to_string().contains("internal error"), "{failed}");

    set_entry(&dashboard, "*", Value::Null).await;
    set_entry(&dashboard, tool, Value::Null).await;
    assert_eq!(result_of(&client, tool, json!({})).await, usual, "cleared");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn bad_entries_are_refused_with_the_reason_and_the_file_untouched() {
    let project = Project::copy_of_repo();
    let dashboard = Dashboard::start(&project);
    set_entry(&dashboard, "get_payment_methods", json!("cash-only")).await;
    let before = project.read(".run/overrides.json");
    let cases: [(&str, Value, u16, &str); 5] = [
        (
            "get_payment_methods",
            json!({"delay": "soon"}),
            400,
            "malformed delay \"soon\"",
        ),
        (
            "get_payment_methods",
            json!({"fault": "http-418"}),
            400,
            "http-418",
        ),
        ("*", json!("cash-only"), 400, "the \"*\" entry"),
        (
            "get_payment_methods",
            json!(["cash-only", "nope"]),
            404,
            "has no scenario \"nope\"",
        ),
        ("no_such_tool", json!({"delay": "2s"}), 404, "unknown tool"),
    ];
    for (tool, entry, expected, message) in cases {
        let (status, answer) = dashboard.put_entry(tool, &entry).await;
        assert_eq!(status, expected, "{tool} ← {entry}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(message),
            "{tool} ← {entry}: {answer}"
        );
        assert_eq!(
            project.read(".run/overrides.json"),
            before,
            "{tool} ← {entry}"
        );
    }
    // An entry broken by hand is listed with the reason the engine skips it.
    project.write(
        ".run/overrides.json",
        r#"{"get_payment_methods": {"delay": "soon"}, "*": {"fault": "teapot"}}"#,
    );
    let listed = dashboard.get("/scenarios").await;
    let card = card(&listed, "get_payment_methods");
    assert!(
        card["ignored"]
            .as_str()
            .unwrap()
            .contains("malformed delay"),
        "{card}"
    );
    assert!(listed["default"]["ignored"].is_string(), "{listed}");
    assert_eq!(listed["ignored"].as_array().unwrap().len(), 2, "{listed}");
}

#[tokio::test]
async fn try_a_call_answers_as_careem_mcp_call_does() {
    let project = Project::copy_of_repo();
    let dashboard = Dashboard::start(&project);
    let cases: [(&str, Value, Option<&str>); 5] = [
        (
            "food_get_restaurant_menu",
            json!({"restaurant_id": 30104, "latitude": 25.0866, "longitude": 55.1474}),
            None,
        ),
        ("get_payment_methods", json!({}), Some("cash-only")),
        ("get_payment_methods", json!({}), Some("session-expired")),
        ("ride_get_status", json!({"rideId": "5001002"}), None),
        (
            "food_get_restaurant_menu",
            json!({"restaurant_id": "not a number"}),
            None,
        ),
    ];
    for (tool, arguments, scenario) in cases {
        let (status, answer) = dashboard
            .send(
                reqwest::Method::POST,
                "/call",
                &json!({"tool": tool, "arguments": arguments, "scenario": scenario}),
            )
            .await;
        assert_eq!(status, 200, "{answer}");
        let mut args = vec!["--clock", CLOCK, "call", tool, "--compact", "--no-journal"];
        let text = arguments.to_string();
        args.push(&text);
        if let Some(scenario) = scenario {
            args.extend(["--scenario", scenario]);
        }
        let cli = project.run(&args);
        assert_eq!(answer["result"], cli.json(), "{tool} {arguments}");
        let said = match (answer["scenario"].as_str(), answer["forced"].as_bool()) {
            (Some(name), Some(true)) => format!("scenario: {name} (forced)"),
            (Some(name), _) => format!("scenario: {name}"),
            (None, _) => format!("scenario: none ({})", answer["decision"].as_str().unwrap()),
        };
        assert!(cli.stderr.contains(&said), "{said} / {}", cli.stderr);
    }
    let journal = dashboard.get("/calls").await["calls"].clone();
    assert_eq!(journal.as_array().unwrap().len(), 5);
    assert!(
        journal
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["transport"] == "dashboard")
    );
    let (status, answer) = dashboard
        .send(
            reqwest::Method::POST,
            "/call",
            &json!({"tool": "no_such_tool"}),
        )
        .await;
    assert_eq!(status, 404, "{answer}");
}

/// A write's `Origin`, `Host` and `Content-Type` (each left out when `None`), and the status
/// that refuses it.
type Refused<'a> = (Option<&'a str>, Option<&'a str>, Option<&'a str>, u16);

#[tokio::test]
async fn cross_site_writes_are_refused() {
    let project = Project::copy_of_repo();
    project.write(".run/overrides.json", "{}\n");
    let dashboard = Dashboard::start(&project);
    let put = dashboard.api("/scenarios/get_payment_methods");
    let body = r#"{"scenario": "cash-only"}"#;
    // (Origin, Host, Content-Type, status): a page on another site, a rebound DNS name, and the
    // "simple" requests a form or a no-preflight fetch can send.
    let cases: [Refused; 5] = [
        (
            Some("https://evil.test"),
            None,
            Some("application/json"),
            403,
        ),
        (None, Some("evil.test"), Some("application/json"), 403),
        (Some("null"), None, Some("application/json"), 403),
        (None, None, Some("text/plain"), 415),
        (None, None, Some("application/x-www-form-urlencoded"), 415),
    ];
    let client = reqwest::Client::new();
    for (origin, host, kind, expected) in cases {
        let mut request = client.put(&put).body(body);
        for (name, value) in [("origin", origin), ("host", host), ("content-type", kind)] {
            if let Some(value) = value {
                request = request.header(name, value);
            }
        }
        let status = request.send().await.expect("answered").status().as_u16();
        assert_eq!(status, expected, "{origin:?} {host:?} {kind:?}");
    }
    let status = client
        .delete(dashboard.api("/calls"))
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(
        status.as_u16(),
        415,
        "a DELETE without a JSON body is refused too"
    );
    assert_eq!(
        project.read(".run/overrides.json"),
        "{}\n",
        "nothing was written"
    );
    // The page itself may: same origin, JSON.
    let (status, _) = dashboard
        .send(
            reqwest::Method::PUT,
            "/scenarios/get_payment_methods",
            &serde_json::from_str(body).unwrap(),
        )
        .await;
    assert_eq!(status, 200);
}

/// `careem-mcp ARGS…` in `project`, which must succeed.
fn cli(project: &Project, args: &[&str]) -> Value {
    let run = project.run(args);
    assert_eq!(run.code, 0, "careem-mcp {args:?}: {}", run.stderr);
    if args.contains(&"--json") {
        run.json()
    } else {
        Value::Null
    }
}

#[tokio::test]
async fn the_world_shows_the_run_clock_as_the_cli_sets_it() {
    let project = Project::copy_of_repo();
    // Without --clock the dashboard follows each run's clock file.
    let dashboard = Dashboard::with(&project, &[]);
    let clock = dashboard.get("/world").await["clock"].clone();
    assert_eq!(
        (&clock["setting"], &clock["fixed"]),
        (&Value::Null, &json!(false)),
        "the real time: {clock}"
    );

    cli(&project, &["clock", "set", "2026-10-06T08:00:00Z"]);
    let world = dashboard.get("/world").await;
    assert_eq!(
        world["clock"],
        json!({"now": "2026-10-06T08:00:00Z", "setting": {"frozen": "2026-10-06T08:00:00Z"}, "fixed": false})
    );
    // The page's world is the one `careem-mcp world --json` shows (the basket's version aside,
    // which each answer draws afresh).
    let shown = cli(&project, &["world", "--json"]);
    for key in ["clock", "orders", "rides", "state"] {
        assert_eq!(world[key], shown[key], "{key}");
    }
    assert_eq!(world["basket"]["items"], shown["basket"]["items"]);
    assert_eq!(world["basket"]["total"], shown["basket"]["total"]);

    // A run's clock is its own, and moves on as `clock advance` says.
    cli(
        &project,
        &["--run", "task7", "clock", "set", "2026-10-07T19:15:00Z"],
    );
    cli(&project, &["--run", "task7", "clock", "advance", "90m"]);
    assert_eq!(
        dashboard.get("/runs/task7/world").await["clock"]["now"],
        "2026-10-07T20:45:00Z"
    );
    assert_eq!(
        dashboard.get("/world").await["clock"]["now"],
        "2026-10-06T08:00:00Z"
    );

    // --clock fixes the dashboard's time; the run's clock is still reported.
    let fixed = Dashboard::start(&project);
    assert_eq!(
        fixed.get("/world").await["clock"],
        json!({"now": CLOCK, "setting": {"frozen": "2026-10-06T08:00:00Z"}, "fixed": true})
    );

    cli(&project, &["clock", "real"]);
    assert_eq!(
        dashboard.get("/world").await["clock"]["setting"],
        Value::Null
    );

    for bad in ["Task7", "a%20b", "a.b", &"x".repeat(65)] {
        let response = reqwest::get(dashboard.api(&format!("/runs/{bad}/world")))
            .await
            .expect("GET");
        assert_eq!(response.status(), 400, "run={bad}");
        let body: Value = response.json().await.expect("JSON");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "run={bad}: {body}"
        );
    }
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary() {
    let project = Project::empty();
    let dashboard = Dashboard::start(&project);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let page = reqwest::get(&dashboard.url).await.unwrap();
        assert!(
            page.headers()["content-security-policy"]
                .to_str()
                .unwrap()
                .contains("frame-ancestors 'none'")
        );
        let html = page.text().await.unwrap();
        let assets: Vec<&str> = html
            .split('"')
            .filter(|part| part.starts_with("/assets/"))
            .collect();
        assert!(assets.len() >= 2, "{html}");
        for asset in assets {
            let response =
                reqwest::get(format!("{}{}", dashboard.url.trim_end_matches('/'), asset))
                    .await
                    .unwrap();
            assert_eq!(response.status(), 200, "{asset}");
        }
        // Broken tool files do not stop the dashboard; its Tools view lists the problem.
        let tools: Value = reqwest::get(dashboard.api("/tools"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert!(
            !tools["otherProblems"].as_array().unwrap().is_empty(),
            "{tools}"
        );
    });
}
