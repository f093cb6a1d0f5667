//! Runs: worlds of their own on one project, chosen with `--run` (or `CAREEM_MCP_RUN`) by the
//! CLI and by `serve --stdio`, each with its own forced scenarios and journal.

use serde_json::{Value, json};

use crate::support::{Project, call, http, start_announced, stdio_client};

const RIDE: &str = "ride_get_status";

fn ride() -> Value {
    json!({"rideId": "5001002"})
}

/// `calls --json` of `run` as (session-less) scenario names, in order.
fn journalled(project: &Project, run: &[&str]) -> Vec<String> {
    let mut args = run.to_vec();
    args.extend(["calls", "--json"]);
    let listed = project.run(&args);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let entries: Vec<Value> = serde_json::from_str(&listed.stdout).expect("calls --json");
    entries
        .iter()
        .map(|e| {
            assert_eq!(e["tool"], RIDE);
            e["scenario"].as_str().expect("a scenario").to_string()
        })
        .collect()
}

fn ok(project: &Project, args: &[&str]) {
    let run = project.run(args);
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
}

#[tokio::test]
async fn two_agents_in_parallel_in_two_runs_each_see_only_their_own() {
    let project = Project::copy_of_repo();
    ok(&project, &["--run", "a", "scenario", RIDE, "arriving"]);
    ok(&project, &["--run", "b", "scenario", RIDE, "completed"]);
    // Run a by the option, run b by the environment, both at once.
    let mut in_a = project.command();
    in_a.args(["--run", "a", "serve", "--stdio"]);
    let mut in_b = project.command();
    in_b.env("CAREEM_MCP_RUN", "b").args(["serve", "--stdio"]);
    let (a, b) = tokio::join!(stdio_client(in_a), stdio_client(in_b));
    for _ in 0..2 {
        let (from_a, from_b) = tokio::join!(call(&a, RIDE, ride()), call(&b, RIDE, ride()));
        from_a.expect("run a answers");
        from_b.expect("run b answers");
    }
    a.cancel().await.expect("run a's client closes");
    b.cancel().await.expect("run b's client closes");

    assert_eq!(journalled(&project, &["--run", "a"]), ["arriving"; 2]);
    assert_eq!(journalled(&project, &["--run", "b"]), ["completed"; 2]);
    assert_eq!(journalled(&project, &[]), Vec::<String>::new());
    let all = project.run(&["calls", "--all-runs", "--json"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let mut runs: Vec<(Value, Value)> = serde_json::from_str::<Vec<Value>>(&all.stdout)
        .expect("calls --all-runs --json")
        .into_iter()
        .map(|e| (e["run"].clone(), e["scenario"].clone()))
        .collect();
    runs.sort_by_key(|(run, _)| run.to_string());
    assert_eq!(
        runs,
        [
            ("a", "arriving"),
            ("a", "arriving"),
            ("b", "completed"),
            ("b", "completed")
        ]
        .map(|(r, s)| (json!(r), json!(s)))
    );

    // Resetting or clearing run a leaves run b alone.
    ok(&project, &["--run", "a", "reset"]);
    ok(&project, &["--run", "a", "calls", "--clear"]);
    assert_eq!(journalled(&project, &["--run", "a"]), Vec::<String>::new());
    assert_eq!(journalled(&project, &["--run", "b"]), ["completed"; 2]);
    let b_overrides = project.read(".run/runs/b/overrides.json");
    assert_eq!(
        serde_json::from_str::<Value>(&b_overrides).expect("run b's overrides"),
        json!({RIDE: "completed"})
    );
    ok(&project, &["--run", "b", "reset", "--remove"]);
    assert!(!project.path().join(".run/runs/b").exists());
    assert!(project.path().join(".run/runs/a").is_dir());
}

#[test]
fn bad_run_names_are_refused_before_they_touch_the_disk() {
    let project = Project::copy_of_repo();
    let long = "a".repeat(65);
    let cases: [(&str, &str); 7] = [
        ("..", "'.' is not one of them"),
        ("%2e%2e", "'%' is not one of them"),
        ("../../etc", "'.' is not one of them"),
        ("a/b", "'/' is not one of them"),
        ("", "cannot be empty"),
        (&long, "at most 64 characters, not 65"),
        ("Run-A", "'R' is not one of them"),
    ];
    for (name, why) in cases {
        for args in [
            vec!["--run", name, "scenario", RIDE, "arriving"],
            vec!["--run", name, "calls", "--clear"],
            vec!["--run", name, "reset", "--remove"],
        ] {
            let run = project.run(&args);
            assert_eq!(run.code, 2, "{args:?}: {}", run.stdout);
            assert!(run.stderr.contains(why), "{args:?}: {}", run.stderr);
        }
        // An empty variable is no variable, as for every CAREEM_MCP_* setting.
        if !name.is_empty() {
            let env = project
                .command()
                .env("CAREEM_MCP_RUN", name)
                .args(["serve", "--stdio"])
                .output()
                .expect("the binary runs");
            assert_eq!(env.status.code(), Some(2), "CAREEM_MCP_RUN={name:?}");
        }
    }
    assert!(!project.path().join(".run").exists());
}

#[tokio::test]
async fn the_dashboard_api_answers_for_the_run_it_is_asked_about() {
    let project = Project::copy_of_repo();
    ok(&project, &["--run", "a", "scenario", RIDE, "arriving"]);
    ok(
        &project,
        &["--run", "a", "call", RIDE, r#"{"rideId":"5001002"}"#],
    );
    ok(&project, &["call", RIDE, r#"{"rideId":"5001002"}"#]);
    let mut command = project.command();
    command.args(["dashboard", "--port", "0"]);
    let (_process, url, _stderr) = start_announced(command, "careem-mcp: dashboard at ");
    let get = |path: &str| {
        let request = http().get(format!("{url}api{path}"));
        async move {
            let response = request.send().await.expect("GET");
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.expect("JSON"))
        }
    };
    assert_eq!(get("/runs").await, (200, json!({"runs": ["a"]})));
    let scenarios = |answer: &Value| -> Vec<Value> {
        answer["calls"]
            .as_array()
            .expect("calls")
            .iter()
            .map(|c| c["scenario"].clone())
            .collect()
    };
    let (status, in_a) = get("/runs/a/calls").await;
    assert_eq!((status, scenarios(&in_a)), (200, vec![json!("arriving")]));
    let (status, default) = get("/runs/default/calls").await;
    assert_eq!(status, 200);
    assert_ne!(scenarios(&default), vec![json!("arriving")]);
    assert_eq!(scenarios(&default).len(), 1);
    let (status, listed) = get("/runs/a/scenarios").await;
    assert_eq!(status, 200);
    assert!(
        listed["overrides"]
            .as_str()
            .is_some_and(|p| p.ends_with(".run/runs/a/overrides.json")),
        "{}",
        listed["overrides"]
    );
    for bad in ["a%2fb", "A", "a.b", "%41"] {
        let (status, body) = get(&format!("/runs/{bad}/calls")).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(
            body["error"]
                .as_str()
                .is_some_and(|e| e.contains("run name")),
            "{body}"
        );
    }
    assert_eq!(get("/runs").await, (200, json!({"runs": ["a"]})));
}

/// Over HTTP a run is named by the URL: `/mcp/<run>` and `/sse/<run>`, one server for all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_and_sse_clients_name_their_run_in_the_url() {
    let project = Project::copy_of_repo();
    ok(
        &project,
        &["--run", "a", "scenario", RIDE, "arriving", "completed"],
    );
    ok(&project, &["--run", "b", "scenario", RIDE, "completed"]);
    let (_server, url, _stderr) = crate::support::serve_binary(&project, &[]);
    let base = url.trim_end_matches("/mcp").to_string();
    let (url_a, url_b, sse_url_b) = (
        format!("{url}/a"),
        format!("{url}/b"),
        format!("{base}/sse/b"),
    );
    let (a, b, sse_b) = tokio::join!(
        crate::support::http_client(&url_a),
        crate::support::http_client(&url_b),
        crate::support::sse_client(&sse_url_b),
    );
    // Each run's sequence steps for its own calls only (the journals below say which).
    for _ in 0..2 {
        let (from_a, from_b) = tokio::join!(call(&a, RIDE, ride()), call(&b, RIDE, ride()));
        from_a.expect("run a answers");
        from_b.expect("run b answers");
    }
    call(&sse_b, RIDE, ride()).await.expect("run b over SSE");
    assert_eq!(
        journalled(&project, &["--run", "a"]),
        ["arriving", "completed"]
    );
    assert_eq!(journalled(&project, &["--run", "b"]), ["completed"; 3]);
    assert_eq!(journalled(&project, &[]), Vec::<String>::new());

    // A name that is no run name is a path the server does not serve, as production answers it.
    for path in [
        "/mcp/A",
        "/mcp/a.b",
        "/mcp/%2e%2e",
        "/sse/no%2fslash",
        &format!("/mcp/{}", "x".repeat(65)),
    ] {
        let response = http()
            .post(format!("{base}{path}"))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body("{}")
            .send()
            .await
            .expect("an answer");
        assert_eq!(response.status(), 404, "{path}");
        assert_eq!(
            response.text().await.unwrap_or_default(),
            "404 page not found\n",
            "{path}"
        );
    }
    assert!(!project.path().join(".run/runs/A").exists());
}

/// The run folders under `.run/runs/`, sorted.
fn run_folders(project: &Project) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(project.path().join(".run/runs"))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Runs cost nothing on disk until a call is journalled, and `--max-runs` caps how many exist:
/// a new one past it is 404, and every existing run (a folder, or one in use) carries on.
/// Sessions on runs that never made a call do not count: made-up names cannot fill the cap.
#[tokio::test]
async fn runs_are_made_by_their_first_call_and_capped_by_max_runs() {
    use crate::support::{ACCEPT, Raw, assert_marina, http_client, serve_binary};
    let project = Project::copy_of_repo();
    ok(&project, &["--run", "old", "scenario", RIDE, "arriving"]);
    let (_server, url, mut stderr) = serve_binary(&project, &["--max-runs", "3"]);
    let run_url = |run: &str| format!("{url}/{run}");
    // Sessions on two new runs and five made-up ones, without a call: nothing on disk, and
    // none of them counts.
    let (a, _) = Raw::initialize(run_url("a"), "2025-06-18").await;
    let (b, _) = Raw::initialize(run_url("b"), "2025-06-18").await;
    let mut idle = Vec::new();
    for n in 0..5 {
        idle.push(Raw::initialize(run_url(&format!("made-up-{n}")), "2025-06-18").await);
    }
    assert_eq!(run_folders(&project), ["old"]);
    let c = http_client(&run_url("c")).await;
    // a and b make a call: with old, three runs exist, and a fourth is not served.
    for session in [&a, &b] {
        let (answer, _) = session
            .request(7, "tools/call", json!({"name": RIDE, "arguments": ride()}))
            .await;
        assert!(answer["result"]["isError"].is_null(), "{answer}");
    }
    assert_eq!(run_folders(&project), ["a", "b", "old"]);
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    for run in ["d", "e"] {
        let refused = http()
            .post(run_url(run))
            .header("accept", ACCEPT)
            .header("content-type", "application/json")
            .body(initialize.to_string())
            .send()
            .await
            .expect("an answer");
        assert_eq!(refused.status(), 404, "{run}");
        assert_eq!(refused.text().await.unwrap(), "404 page not found\n");
    }
    assert_eq!(run_folders(&project), ["a", "b", "old"]);
    let warned = stderr.wait_for(std::time::Duration::from_secs(60), |line| {
        line.contains("--max-runs (3) runs exist")
    });
    let warned = warned.unwrap_or_else(|| panic!("said once on stderr: {:?}", stderr.lines()));
    assert!(
        warned.contains("careem-mcp reset --run NAME --remove")
            && warned.contains("sessions on a run that made no call do not count"),
        "the hint says what frees a run: {warned}"
    );
    // Every existing run carries on: a call in run c, admitted while it was idle, makes its
    // folder and journal.
    call(&c, RIDE, ride()).await.expect("run c answers");
    assert_eq!(run_folders(&project), ["a", "b", "c", "old"]);
    let old = http_client(&run_url("old")).await;
    call(&old, RIDE, ride()).await.expect("run old answers");
    assert_eq!(journalled(&project, &["--run", "old"]), ["arriving"]);
    assert_marina(&http_client(&url).await).await;
    assert_eq!(
        stderr
            .lines()
            .iter()
            .filter(|line| line.contains("--max-runs"))
            .count(),
        1,
        "said only once"
    );
}
