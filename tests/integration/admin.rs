//! `serve --admin ADDR` through the real binary (docs/ADMIN.md): every endpoint acts on the run
//! as the CLI command does and answers what the CLI prints, refusals are JSON in the CLI's
//! words, the bearer token guards every request (none or a wrong one changes nothing), the
//! `Host`/`Origin` guard is the dashboard's, and the MCP port answers nothing new.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::support::sse::Events;
use crate::support::{
    Lines, Process, Project, call, http, http_client, serve_binary, serve_command, tally_project,
};

const CLOCK: &str = "2026-10-05T12:00:00Z";
const TOKEN: &str = "s3cret-admin-token";

/// The tally project of `grade.rs`: a count in the run's state, and an expected file.
fn project() -> Project {
    let project = tally_project(10);
    project.write(
        "expected.json",
        r#"{"actions": [{"tool": "tally", "arguments": {"by": 2}}], "calls": {"max_total": 5}}"#,
    );
    project
}

/// `serve --port 0 --admin 127.0.0.1:0` and its two addresses.
struct Admin {
    _process: Process,
    /// The MCP endpoint, `…/mcp`.
    mcp: String,
    /// The admin API's base, `http://127.0.0.1:PORT`.
    url: String,
    /// Sent as the bearer token.
    token: Option<String>,
}

impl Admin {
    fn start(project: &Project, args: &[&str]) -> Self {
        let mut all = vec!["--admin", "127.0.0.1:0"];
        all.extend(args);
        let (process, mcp, mut stderr) = serve_binary(project, &all);
        Self {
            _process: process,
            mcp,
            url: admin_url(&mut stderr),
            token: None,
        }
    }

    /// A request to `path`, with a JSON `body` (and its content type) when given, and the
    /// token when this test holds one.
    fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> reqwest::RequestBuilder {
        let mut request = http().request(method, format!("{}{path}", self.url));
        if let Some(body) = body {
            request = request.json(body);
        }
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        request
    }

    /// The status and JSON body of a request.
    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let response = self
            .request(method, path, body)
            .send()
            .await
            .expect("answered");
        let status = response.status().as_u16();
        let text = response.text().await.expect("a body");
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text:?}"));
        (status, value)
    }

    /// A request that must succeed; its JSON body.
    async fn ok(&self, method: reqwest::Method, path: &str, body: Option<&Value>) -> Value {
        let (status, value) = self.send(method.clone(), path, body).await;
        assert_eq!(status, 200, "{method} {path}: {value}");
        value
    }

    async fn get(&self, path: &str) -> Value {
        self.ok(reqwest::Method::GET, path, None).await
    }
}

/// The admin API's URL from the line `serve` prints before its "serving" line.
fn admin_url(stderr: &mut Lines) -> String {
    let prefix = "careem-mcp: admin API at ";
    let line = stderr
        .lines()
        .into_iter()
        .find(|line| line.starts_with(prefix))
        .unwrap_or_else(|| panic!("no admin line: {:?}", stderr.lines()));
    line[prefix.len()..]
        .split_whitespace()
        .next()
        .expect("a URL")
        .to_string()
}

/// The overrides file of run `run`, as JSON (`{}` when there is none).
fn overrides(project: &Project, run: &str) -> Value {
    let text = project.read(&format!(".run/runs/{run}/overrides.json"));
    if text.is_empty() {
        json!({})
    } else {
        serde_json::from_str(&text).expect("JSON")
    }
}

/// What the CLI prints for `args` in `project`: stdout, and the code.
fn cli(project: &Project, args: &[&str]) -> (String, i32) {
    let run = project.run(args);
    (run.stdout, run.code)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_endpoint_acts_on_the_run_as_the_cli_does() {
    use reqwest::Method;
    let project = project();
    let admin = Admin::start(&project, &["--stateful"]);
    assert_eq!(admin.get("/runs").await, json!({"runs": []}));

    // Scenarios: force (spelled as the file spells it), a whole entry, clear.
    let forced = admin
        .ok(
            Method::PUT,
            "/runs/t1/scenarios/tally",
            Some(&json!({"scenario": "TOO-many"})),
        )
        .await;
    assert_eq!(forced, json!({"tool": "tally", "forced": "too-many"}));
    assert_eq!(overrides(&project, "t1"), json!({"tally": "too-many"}));
    assert_eq!(admin.get("/runs").await, json!({"runs": ["t1"]}));
    let listed = admin.get("/runs/t1/scenarios").await;
    assert_eq!(listed["tools"][0]["forced"], "too-many", "{listed}");
    let client = http_client(&format!("{}/t1", admin.mcp)).await;
    let refused = call(&client, "tally", json!({"by": 1})).await.unwrap();
    assert_eq!(
        refused["structuredContent"]["error"], "too many",
        "{refused}"
    );

    let entry = json!(["too-many", {"delay": "1ms"}, {}]);
    let set = admin
        .ok(
            Method::PUT,
            "/runs/t1/scenarios/tally/entry",
            Some(&json!({ "entry": entry })),
        )
        .await;
    assert_eq!(set["entry"], entry);
    assert_eq!(overrides(&project, "t1"), json!({ "tally": entry }));
    let cleared = admin
        .ok(Method::DELETE, "/runs/t1/scenarios/tally", Some(&json!({})))
        .await;
    assert_eq!(cleared, json!({"tool": "tally", "entry": null}));
    assert_eq!(overrides(&project, "t1"), json!({}));

    // The clock: set, advance, shown, real; the CLI reads what the API wrote.
    let frozen = admin
        .ok(Method::PUT, "/runs/t1/clock", Some(&json!({ "at": CLOCK })))
        .await;
    assert_eq!(frozen, json!({"now": CLOCK, "setting": {"frozen": CLOCK}}));
    let later = "2026-10-05T13:30:00Z";
    let advanced = admin
        .ok(
            Method::POST,
            "/runs/t1/clock/advance",
            Some(&json!({"by": "90m"})),
        )
        .await;
    assert_eq!(advanced["now"], later);
    assert_eq!(admin.get("/runs/t1/clock").await, advanced);
    assert_eq!(
        cli(&project, &["--run", "t1", "clock"]),
        (format!("clock: {later} (frozen)\n"), 0)
    );

    // Calls: read as `calls --json` reads them, followed live, cleared.
    let mut stream = Events::of(
        admin
            .request(Method::GET, "/runs/t1/calls/stream", None)
            .send()
            .await
            .expect("a stream"),
    );
    assert_eq!(
        stream
            .next_named("snapshot")
            .await
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let counted = call(&client, "tally", json!({"by": 2})).await.unwrap();
    assert_eq!(counted["structuredContent"]["count"], 2, "{counted}");
    let live = stream.next_named("call").await;
    assert_eq!(live["received"], json!({"by": 2}));
    let read = admin.get("/runs/t1/calls").await;
    let (printed, code) = cli(&project, &["--run", "t1", "calls", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(
        read["calls"],
        serde_json::from_str::<Value>(&printed).unwrap()
    );
    assert_eq!(read["found"], true);
    let last = admin.get("/runs/t1/calls?last=1&tool=tally").await;
    assert_eq!(last["calls"].as_array().unwrap().len(), 1);
    assert_eq!(last["calls"][0]["received"], json!({"by": 2}));

    // The world, as `world --json` shows it.
    let world = admin.get("/runs/t1/world").await;
    let (printed, _) = cli(&project, &["--run", "t1", "world", "--json"]);
    assert_eq!(world, serde_json::from_str::<Value>(&printed).unwrap());
    assert_eq!(world["state"]["count"], 2, "{world}");

    // Grading: the report `grade --format json` prints, and its JUnit.
    let expected = project.read("expected.json");
    let graded = admin
        .request(Method::POST, "/runs/t1/grade?expected=expected.json", None)
        .header("content-type", "application/json")
        .body(expected.clone())
        .send()
        .await
        .expect("graded");
    assert_eq!(graded.status(), 200);
    let report: Value = graded.json().await.expect("JSON");
    let (printed, code) = cli(
        &project,
        &["grade", "--run", "t1", "--format", "json", "expected.json"],
    );
    assert_eq!((report["passed"].as_bool(), code), (Some(true), 0));
    assert_eq!(report, serde_json::from_str::<Value>(&printed).unwrap());
    let junit = admin
        .request(
            Method::POST,
            "/runs/t1/grade?format=junit&expected=expected.json",
            None,
        )
        .header("content-type", "application/json")
        .body(expected)
        .send()
        .await
        .expect("graded");
    assert_eq!(
        junit.headers()["content-type"],
        "application/xml; charset=utf-8"
    );
    let (printed, _) = cli(
        &project,
        &["grade", "--run", "t1", "--format", "junit", "expected.json"],
    );
    assert_eq!(junit.text().await.unwrap() + "\n", printed);

    // Clearing the journal tells the stream; the CLI finds it empty.
    let emptied = admin
        .ok(Method::DELETE, "/runs/t1/calls", Some(&json!({})))
        .await;
    assert_eq!(emptied["cleared"], true);
    stream.next_named("cleared").await;
    assert_eq!(cli(&project, &["--run", "t1", "calls", "--json"]).0, "[]\n");

    // Reset: the overrides, the world and the clock back to their start.
    admin
        .ok(
            Method::PUT,
            "/runs/t1/scenarios/tally",
            Some(&json!({"scenario": "added"})),
        )
        .await;
    let reset = admin
        .ok(Method::POST, "/runs/t1/reset", Some(&json!({})))
        .await;
    assert_eq!(reset, json!({"reset": true}));
    assert_eq!(overrides(&project, "t1"), json!({}));
    assert_eq!(admin.get("/runs/t1/clock").await["setting"], Value::Null);
    assert_eq!(admin.get("/runs/t1/world").await["state"]["count"], 0);

    // Back to the real time; then the run removed, folder and all.
    admin
        .ok(Method::PUT, "/runs/t1/clock", Some(&json!({ "at": CLOCK })))
        .await;
    let real = admin
        .ok(Method::DELETE, "/runs/t1/clock", Some(&json!({})))
        .await;
    assert_eq!(real["setting"], Value::Null);
    drop(stream);
    client.cancel().await.expect("closed");
    let removed = admin.ok(Method::DELETE, "/runs/t1", Some(&json!({}))).await;
    assert_eq!(
        (&removed["run"], &removed["removed"]),
        (&json!("t1"), &json!(true))
    );
    assert!(!project.path().join(".run/runs/t1").exists());
    let again = admin.ok(Method::DELETE, "/runs/t1", Some(&json!({}))).await;
    assert_eq!(again["removed"], false);
    assert_eq!(admin.get("/runs").await, json!({"runs": []}));

    // The default run is `default`: plain /mcp's files.
    admin
        .ok(
            Method::PUT,
            "/runs/default/scenarios/tally",
            Some(&json!({"scenario": "too-many"})),
        )
        .await;
    let file: Value = serde_json::from_str(&project.read(".run/overrides.json")).unwrap();
    assert_eq!(file, json!({"tally": "too-many"}));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_openapi_document_describes_every_endpoint() {
    let project = project();
    let admin = Admin::start(&project, &[]);
    let document = admin.get("/openapi.json").await;
    assert_eq!(document["info"]["title"], "careem-mcp admin API");
    let operations: BTreeSet<String> = document["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .expect("an item")
                .keys()
                .map(move |method| format!("{} {path}", method.to_uppercase()))
        })
        .collect();
    let expected: BTreeSet<String> = [
        "GET /runs",
        "DELETE /runs/{run}",
        "POST /runs/{run}/reset",
        "GET /runs/{run}/scenarios",
        "PUT /runs/{run}/scenarios/{tool}",
        "DELETE /runs/{run}/scenarios/{tool}",
        "PUT /runs/{run}/scenarios/{tool}/entry",
        "PUT /runs/{run}/scenarios/{tool}/steps",
        "GET /runs/{run}/clock",
        "PUT /runs/{run}/clock",
        "DELETE /runs/{run}/clock",
        "POST /runs/{run}/clock/advance",
        "GET /runs/{run}/world",
        "GET /runs/{run}/calls",
        "DELETE /runs/{run}/calls",
        "GET /runs/{run}/calls/stream",
        "POST /runs/{run}/grade",
    ]
    .map(str::to_string)
    .into();
    assert_eq!(operations, expected);
    let schemas = document["components"]["schemas"]
        .as_object()
        .expect("schemas");
    for name in [
        "ErrorBody",
        "ScenariosAnswer",
        "ClockAnswer",
        "CallsAnswer",
        "Report",
    ] {
        assert!(schemas.contains_key(name), "no schema {name}");
    }
}

/// The CLI's error message for `args`: its stderr without `error: `.
fn cli_error(project: &Project, args: &[&str]) -> String {
    let run = project.run(args);
    assert_eq!(run.code, 2, "{args:?}: {}", run.stdout);
    run.stderr
        .trim_end()
        .strip_prefix("error: ")
        .unwrap_or_else(|| panic!("{args:?}: {}", run.stderr))
        .to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn refusals_are_json_in_the_clis_words() {
    use reqwest::Method;
    let project = project();
    let admin = Admin::start(&project, &[]);
    // (method, path, body, status, the CLI command that says the same)
    let same: [(Method, &str, Value, u16, &[&str]); 3] = [
        (
            Method::PUT,
            "/runs/default/scenarios/taly",
            json!({"scenario": "added"}),
            404,
            &["scenario", "taly", "added"],
        ),
        (
            Method::PUT,
            "/runs/default/scenarios/tally",
            json!({"scenario": "aded"}),
            404,
            &["scenario", "tally", "aded"],
        ),
        (
            Method::POST,
            "/runs/default/clock/advance",
            json!({"by": "soon"}),
            400,
            &["clock", "advance", "soon"],
        ),
    ];
    for (method, path, body, status, args) in same {
        let (got, answer) = admin.send(method, path, Some(&body)).await;
        assert_eq!(got, status, "{path}: {answer}");
        assert_eq!(answer["error"], cli_error(&project, args), "{path}");
    }
    let (_, unknown) = admin
        .send(
            Method::PUT,
            "/runs/default/scenarios/taly",
            Some(&json!({"scenario": "x"})),
        )
        .await;
    assert_eq!(unknown["known"], json!(["tally"]));

    // (method, path, body, status, the error's start)
    let cases: [(Method, &str, Option<&str>, u16, &str); 7] = [
        (
            Method::GET,
            "/runs/nosuch/world",
            None,
            404,
            "no run nosuch: ",
        ),
        (
            Method::GET,
            "/runs/Bad/clock",
            None,
            400,
            "a run name is lower-case",
        ),
        (
            Method::GET,
            "/nowhere",
            None,
            404,
            "no endpoint GET /nowhere",
        ),
        (
            Method::PUT,
            "/runs/default/scenarios/tally",
            Some("{"),
            400,
            "Failed to parse",
        ),
        (
            Method::POST,
            "/runs/default/grade",
            Some("{\"actions\": ["),
            400,
            "",
        ),
        (
            Method::DELETE,
            "/runs/default",
            Some("{}"),
            400,
            "--remove deletes a run's folder",
        ),
        (
            Method::PUT,
            "/runs/default/clock",
            Some("{\"at\": \"noon\"}"),
            422,
            "Failed to deserialize",
        ),
    ];
    for (method, path, body, status, start) in cases {
        let mut request = admin.request(method, path, None);
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body);
        }
        let response = request.send().await.expect("answered");
        assert_eq!(response.status().as_u16(), status, "{path}");
        let answer: Value = response.json().await.expect("JSON");
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(
            !error.is_empty() && error.starts_with(start),
            "{path}: {answer}"
        );
    }
    assert!(!project.path().join(".run/runs/nosuch").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn without_the_token_or_with_a_wrong_one_nothing_changes() {
    use reqwest::Method;
    let project = project();
    project.write("token", &format!("{TOKEN}\n"));
    let mut admin = Admin::start(&project, &["--admin-token-file", "token"]);
    let force = json!({"scenario": "too-many"});
    for token in [
        None,
        Some("wrong"),
        Some(&TOKEN[1..]),
        Some(&format!("{TOKEN}x")[..]),
    ] {
        admin.token = token.map(str::to_string);
        for (method, path) in [
            (Method::PUT, "/runs/t1/scenarios/tally"),
            (Method::PUT, "/runs/default/scenarios/tally"),
            (Method::POST, "/runs/default/reset"),
            (Method::GET, "/runs"),
            (Method::GET, "/openapi.json"),
        ] {
            let response = admin
                .request(method, path, Some(&force))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 401, "{token:?} {path}");
            assert_eq!(
                response.headers()["www-authenticate"],
                "Bearer realm=\"careem-mcp admin\""
            );
            let answer: Value = response.json().await.unwrap();
            assert!(
                answer["error"].as_str().unwrap().contains("token"),
                "{answer}"
            );
        }
    }
    let basic = admin
        .request(Method::GET, "/runs", None)
        .basic_auth("admin", Some(TOKEN))
        .send()
        .await
        .unwrap();
    assert_eq!(basic.status(), 401);
    assert!(
        !project.path().join(".run/runs").exists()
            && !project.path().join(".run/overrides.json").exists(),
        "nothing was written"
    );

    admin.token = Some(TOKEN.to_string());
    admin
        .ok(Method::PUT, "/runs/t1/scenarios/tally", Some(&force))
        .await;
    assert_eq!(overrides(&project, "t1"), json!({"tally": "too-many"}));

    // The variable holds the token when no file names it.
    let mut command = project.command();
    command.env("CAREEM_MCP_ADMIN_TOKEN", TOKEN);
    let (_process, _mcp, mut stderr) = serve_command(command, &["--admin", "0"]);
    let url = admin_url(&mut stderr);
    assert!(
        stderr
            .lines()
            .iter()
            .any(|l| l.contains("(bearer token required;")),
        "{:?}",
        stderr.lines()
    );
    let status = |token: &'static str| {
        let url = format!("{url}/runs");
        async move {
            http()
                .get(url)
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    assert_eq!((status("nope").await, status(TOKEN).await), (401, 200));
}

#[test]
fn an_admin_listener_off_loopback_needs_a_token() {
    let project = project();
    for addr in ["0.0.0.0:0", "[::]:0"] {
        let run = project.run(&["serve", "--port", "0", "--admin", addr]);
        assert_eq!(run.code, 2, "{addr}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("error: --admin {addr} is not on loopback"))
                && run
                    .stderr
                    .contains("--admin-token-file FILE or CAREEM_MCP_ADMIN_TOKEN"),
            "{}",
            run.stderr
        );
    }
    project.write("empty-token", "\n");
    let run = project.run(&[
        "--admin-token-file",
        "empty-token",
        "serve",
        "--port",
        "0",
        "--admin",
        "0",
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("holds no usable token") && run.stderr.contains("the token is empty"),
        "{}",
        run.stderr
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_host_and_origin_rules_are_the_dashboards() {
    let project = project();
    let admin = Admin::start(&project, &[]);
    let force = json!({"scenario": "too-many"});
    // (Origin, Host, Content-Type, status)
    let cases: [(Option<&str>, Option<&str>, &str, u16); 5] = [
        (Some("https://evil.test"), None, "application/json", 403),
        (None, Some("evil.test"), "application/json", 403),
        (Some("null"), None, "application/json", 403),
        (None, None, "text/plain", 415),
        (None, None, "application/x-www-form-urlencoded", 415),
    ];
    for (origin, host, kind, status) in cases {
        let mut request = admin
            .request(reqwest::Method::PUT, "/runs/default/scenarios/tally", None)
            .header("content-type", kind)
            .body(force.to_string());
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        if let Some(host) = host {
            request = request.header("host", host);
        }
        let got = request.send().await.unwrap().status().as_u16();
        assert_eq!(got, status, "{origin:?} {host:?} {kind}");
    }
    assert_eq!(project.read(".run/overrides.json"), "");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_mcp_port_answers_nothing_new() {
    let project = project();
    let admin = Admin::start(&project, &[]);
    let (_plain, without, _stderr) = serve_binary(&project, &[]);
    let base = |mcp: &str| mcp.trim_end_matches("/mcp").to_string();
    for path in [
        "/openapi.json",
        "/runs",
        "/runs/default/scenarios",
        "/runs/default/calls",
        "/api/runs",
    ] {
        let answer = |base: String| async move {
            let response = http().get(format!("{base}{path}")).send().await.unwrap();
            (response.status().as_u16(), response.text().await.unwrap())
        };
        let with = answer(base(&admin.mcp)).await;
        assert_eq!(with, (404, "404 page not found\n".to_string()), "{path}");
        assert_eq!(with, answer(base(&without)).await, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stdio_server_serves_the_admin_api_beside_it() {
    let project = project();
    let mut command = project.command();
    command.args(["serve", "--stdio", "--admin", "127.0.0.1:0"]);
    let child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    let mut child = Process(child);
    let mut stderr = Lines::of(child.0.stderr.take().expect("stderr"));
    stderr
        .wait_for(std::time::Duration::from_secs(30), |l| {
            l.starts_with("careem-mcp: admin API at ")
        })
        .expect("the admin line");
    let url = admin_url(&mut stderr);
    let answer = http()
        .put(format!("{url}/runs/default/scenarios/tally"))
        .json(&json!({"scenario": "too-many"}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let file: Value = serde_json::from_str(&project.read(".run/overrides.json")).unwrap();
    assert_eq!(file, json!({"tally": "too-many"}));
}
