//! The real binary on real folders: lint, scenario/reset, scenarios, call, completions.

use serde_json::{Value, json};

use crate::support::{OK, Project, broken_project, repo, tool_file};

#[test]
fn lint_reports_every_problem_in_every_file_with_its_line() {
    let project = broken_project();
    project.write("tools/README.md", "not a tool file, never read");
    project.write("tools/b/dup.md", &tool_file("good", OK));
    project.write(
        "tools/c/lean.md",
        &tool_file("lean", &OK.replace("\"{{args.q}}\"", "{{args.q}}")),
    );
    // Tidy sample arguments pass; free text an agent may send echoes into a `date-time`.
    project.write(
        "tools/d/echo.md",
        &tool_file("echo", OK)
            .replace(
                r#""description": "q""#,
                r#""format": "date-time", "description": "q""#,
            )
            .replace(
                r#""description": "v""#,
                r#""format": "date-time", "description": "v""#,
            ),
    );
    let run = project.run(&["lint"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let expected = [
        "tools/a/broken.md:12: scenario \"no-answer\": no ```json response",
        "tools/b/liar.md:18: scenario \"wrong-type\": response at /v breaks the outputSchema",
        "tools/good.md:1: tool \"good\" is already defined in tools/b/dup.md",
        "tools/c/lean.md:12: scenario \"ok\": response at /v breaks the outputSchema: null is not of type \"string\" (with only the required arguments)",
        "tools/d/echo.md:12: scenario \"ok\": response at /v breaks the outputSchema: \"tomorrow 8pm\" is not a \"date-time\" (with q = \"tomorrow 8pm\")",
        "tools/d/echo.md:12: scenario \"ok\": response at /v breaks the outputSchema: \"\" is not a \"date-time\" (with q = \"\")",
    ];
    for line in expected {
        assert!(
            run.stdout.contains(line),
            "missing {line:?} in:\n{}",
            run.stdout
        );
    }
    // echo.md: also the quoted text, and `null` with `q` left out.
    assert_eq!(run.stdout.lines().count(), 8, "{}", run.stdout);
}

/// A schema that does not compile is named at the definition's line, the input's before the
/// output's, and only once the tool's name is its own: a duplicate is reported as that alone.
#[test]
fn lint_names_the_first_schema_that_does_not_compile() {
    let project = Project::empty();
    let broken_input = |text: String| text.replacen(r#""type": "object""#, r#""type": 5"#, 1);
    let broken_output = |text: String| {
        let at = text.find("outputSchema").expect("an output schema");
        let (head, tail) = text.split_at(at);
        format!(
            "{head}{}",
            tail.replacen(r#""type": "object""#, r#""type": 5"#, 1)
        )
    };
    project.write("tools/good.md", &tool_file("good", OK));
    let cases = [
        (
            "tools/a/input.md",
            broken_output(broken_input(tool_file("input", OK))),
        ),
        ("tools/b/output.md", broken_output(tool_file("output", OK))),
        ("tools/z/dup.md", broken_input(tool_file("good", OK))),
    ];
    for (path, text) in &cases {
        project.write(path, text);
    }
    let run = project.run(&["lint"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "tools/a/input.md:8: `inputSchema` is not a valid JSON Schema: 5 is not valid under any of the schemas listed in the 'anyOf' keyword\n\
         tools/b/output.md:8: `outputSchema` is not a valid JSON Schema: 5 is not valid under any of the schemas listed in the 'anyOf' keyword\n\
         tools/z/dup.md:1: tool \"good\" is already defined in tools/good.md\n",
    );
}

/// A field the default profile's SDK would send otherwise (v1.6.1 leaves a false
/// `readOnlyHint` out) is a warning naming the field and what the SDK sends: tools/list would
/// differ from the file, though nothing is broken.
#[test]
fn lint_warns_of_a_field_the_default_sdk_rewrites() {
    let project = Project::copy_of_repo();
    let path = "tools/cart/cart_clear.md";
    let text = project.read(path).replace(
        r#""destructiveHint": true,"#,
        r#""readOnlyHint": false, "destructiveHint": true,"#,
    );
    project.write(path, &text);
    let run = project.run(&["lint"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let warning = run
        .stderr
        .lines()
        .find(|line| line.contains("warning:"))
        .unwrap_or_else(|| panic!("no warning: {}", run.stderr));
    assert!(warning.contains("cart_clear.md"), "{warning}");
    assert!(
        warning.contains("`annotations.readOnlyHint` is false in the file")
            && warning.contains("go-sdk-1.6.1")
            && warning.contains("leaves it out"),
        "{warning}"
    );
}

#[test]
fn lint_is_clean_on_the_project_and_catches_a_stale_source_listing() {
    let project = Project::copy_of_repo();
    let run = project.run(&["lint"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("warning:"), "{}", run.stderr);

    let path = "tools/account/get_user_profile.md";
    let text = project.read(path).replace(
        "## Scenario: no-subscription",
        "## Scenario: lapsed-subscription",
    );
    project.write(path, &text);
    let run = project.run(&["lint"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("docs/SOURCE.md:1: missing or out of date"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("lapsed-subscription"), "{}", run.stdout);

    assert_eq!(project.run(&["lint", "--write-source"]).code, 0);
    assert_eq!(project.run(&["lint"]).code, 0);
}

#[test]
fn scenario_and_reset_round_trip_through_the_overrides_file() {
    let project = Project::copy_of_repo();
    let overrides = || -> Value {
        serde_json::from_str(&project.read(".run/overrides.json")).unwrap_or(Value::Null)
    };
    let cases: [(&[&str], i32, Value); 5] = [
        (
            &[
                "scenario",
                "food_get_restaurant_menu",
                "UPSTREAM-unavailable",
            ],
            0,
            json!({"food_get_restaurant_menu": "upstream-unavailable"}),
        ),
        (
            &["scenario", "ride_book", "payment-declined"],
            0,
            json!({"food_get_restaurant_menu": "upstream-unavailable", "ride_book": "payment-declined"}),
        ),
        (
            &["scenario", "food_get_restaurant_menu"],
            0,
            json!({"ride_book": "payment-declined"}),
        ),
        (
            &["scenario", "ride_book", "no-such-scenario"],
            2,
            json!({"ride_book": "payment-declined"}),
        ),
        (&["reset"], 0, json!({})),
    ];
    for (args, code, file) in cases {
        let run = project.run(args);
        assert_eq!(run.code, code, "{args:?}: {}", run.stderr);
        assert_eq!(overrides(), file, "{args:?}");
    }
}

#[test]
fn unknown_names_are_errors_that_suggest_the_closest() {
    let project = Project::copy_of_repo();
    let cases: [(&[&str], &str); 3] = [
        (
            &["scenario", "food_get_restaurant_men", "x"],
            "did you mean \"food_get_restaurant_menu\"",
        ),
        (
            &["scenario", "ride_book", "payment-declind"],
            "did you mean \"payment-declined\"",
        ),
        (
            &["call", "reverse_geocod", "{}"],
            "did you mean \"reverse_geocode\"",
        ),
    ];
    for (args, hint) in cases {
        let run = project.run(args);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.contains(hint), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn an_invalid_overrides_file_is_never_overwritten_by_the_cli() {
    let project = Project::copy_of_repo();
    project.write(".run/overrides.json", "{\"ride_book\": ");
    let run = project.run(&["scenario", "ride_book", "payment-declined"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("not a JSON object"), "{}", run.stderr);
    assert_eq!(project.read(".run/overrides.json"), "{\"ride_book\": ");
    let run = project.run(&["call", "cart_clear"]);
    assert_eq!(
        (run.code, run.json()["structuredContent"]["cleared"].clone()),
        (0, json!(true)),
        "an invalid file means no overrides"
    );
}

#[test]
fn scenarios_lists_kinds_rules_and_the_forced_one() {
    let project = Project::copy_of_repo();
    project.run(&[
        "scenario",
        "food_get_restaurant_menu",
        "upstream-unavailable",
    ]);
    let run = project.run(&["scenarios", "food_get_restaurant_menu"]);
    assert_eq!(run.code, 0);
    // The cells of a scenario's row, whatever the table's borders.
    let row = |name: &str| -> Vec<String> {
        run.stdout
            .lines()
            .map(|line| {
                line.split(['│', '┆', '|'])
                    .map(str::trim)
                    .filter(|cell| !cell.is_empty())
                    .map(String::from)
                    .collect::<Vec<_>>()
            })
            .find(|cells| cells.get(1).is_some_and(|cell| cell == name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{}", run.stdout))
    };
    let cases: [(&str, &[&str]); 3] = [
        (
            "morning-syrniki-cafe",
            &[
                "food_get_restaurant_menu",
                "morning-syrniki-cafe",
                "match",
                r#"{"restaurant_id":30104}"#,
            ],
        ),
        (
            "not-found",
            &["food_get_restaurant_menu", "not-found", "default"],
        ),
        (
            "upstream-unavailable",
            &[
                "food_get_restaurant_menu",
                "upstream-unavailable",
                "forced only",
                "forced",
            ],
        ),
    ];
    for (name, cells) in cases {
        assert_eq!(row(name), cells, "{}", run.stdout);
    }
    assert!(!run.stdout.contains("ride_book"));
}

#[test]
fn call_sees_an_edit_between_two_calls() {
    let project = Project::empty();
    project.write("tools/t.md", &tool_file("t", OK));
    let first = project.run(&["call", "t", "{\"q\": \"a\"}"]);
    assert_eq!(first.json()["structuredContent"], json!({"v": "a"}));
    project.write(
        "tools/t.md",
        &tool_file("t", &OK.replace("{{args.q}}", "edited {{args.q}}")),
    );
    let second = project.run(&["call", "t", "{\"q\": \"a\"}"]);
    assert_eq!(second.json()["structuredContent"], json!({"v": "edited a"}));
}

#[test]
fn call_prints_the_mcp_result_and_sets_the_exit_code() {
    let project = Project::copy_of_repo();
    let cases: [(&[&str], i32, &str); 6] = [
        (
            &[
                "call",
                "reverse_geocode",
                "{\"latitude\": 25.0866, \"longitude\": 55.1474}",
            ],
            0,
            "scenario: dubai-marina",
        ),
        (
            &["call", "get_user_profile", "--scenario", "session-expired"],
            1,
            "scenario: session-expired (forced)",
        ),
        (
            &["call", "reverse_geocode", "{\"latitude\": \"north\"}"],
            1,
            "invalid arguments",
        ),
        (
            &["call", "reverse_geocode", "not json"],
            2,
            "ARGS_JSON is not valid JSON",
        ),
        (
            &["call", "reverse_geocode", "[1]"],
            2,
            "must be a JSON object",
        ),
        (
            &["call", "no_such_tool"],
            2,
            "unknown tool \"no_such_tool\"",
        ),
    ];
    for (args, code, stderr) in cases {
        let run = project.run(args);
        assert_eq!(run.code, code, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(stderr), "{args:?}: {}", run.stderr);
        if code != 2 {
            let result = run.json();
            assert_eq!(
                crate::support::is_error(&result),
                json!(code == 1),
                "{args:?}"
            );
            assert_eq!(result["content"][0]["type"], "text");
        }
    }
}

#[test]
fn call_refuses_a_broken_folder_and_names_the_file_and_line() {
    let project = Project::copy_of_repo();
    let path = "tools/account/get_user_profile.md";
    project.write(
        path,
        &project
            .read(path)
            .replace("```json response", "```json response\n{ broken"),
    );
    let run = project.run(&["call", "cart_clear"]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr.contains("get_user_profile.md:") && run.stderr.contains("not valid JSON"),
        "{}",
        run.stderr
    );
}

#[test]
fn clock_and_seed_make_responses_reproducible() {
    let project = Project::copy_of_repo();
    let args = [
        "--clock",
        "2026-10-09T08:00:00Z",
        "--seed",
        "42",
        "call",
        "food_place_order",
        "{\"basket_id\": 880001, \"payment_method_id\": \"PM-9001\", \"delivery_location_uuid\": \"LOC-50001\"}",
    ];
    let first = project.run(&args);
    let second = project.run(&args);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.stdout, second.stdout);
    assert!(first.stdout.contains("2026-10-09T08:"), "{}", first.stdout);
    let other_seed = project.run(&[&args[..3], &["43"], &args[4..]].concat());
    assert_ne!(first.stdout, other_seed.stdout, "the seed drives rand");
}

#[test]
fn checked_in_completions_are_fresh() {
    let project = Project::empty();
    for (shell, file) in [
        ("bash", "careem-mcp.bash"),
        ("zsh", "_careem-mcp"),
        ("fish", "careem-mcp.fish"),
        ("powershell", "_careem-mcp.ps1"),
        ("elvish", "careem-mcp.elv"),
    ] {
        let run = project.run(&["completions", shell]);
        assert_eq!(run.code, 0);
        let checked_in =
            std::fs::read_to_string(repo().join("completions").join(file)).unwrap_or_default();
        assert!(
            run.stdout == checked_in,
            "completions/{file} is stale: run scripts/completions.sh"
        );
    }
}

#[test]
fn help_explains_every_subcommand() {
    let run = Project::empty().run(&["--help"]);
    for word in [
        "serve",
        "scenario",
        "scenarios",
        "reset",
        "lint",
        "call",
        "verify",
        "calls",
        "completions",
        "--project",
        "--tools",
        "--overrides",
        "--journal",
        "--clock",
        "--seed",
    ] {
        assert!(run.stdout.contains(word), "--help lacks {word}");
    }
}

#[test]
fn dynamic_completion_offers_tool_and_scenario_names_from_the_files() {
    let project = Project::copy_of_repo();
    let cases: [(&[&str], &str, &str); 3] = [
        (
            &["call", "food_get_r"],
            "food_get_restaurant_menu",
            "ride_book",
        ),
        (
            &["scenario", "food_get_restaurant_menu", ""],
            "upstream-unavailable",
            "payment-declined",
        ),
        (&["scenarios", "ride_"], "ride_get_status", "cart_clear"),
    ];
    for (words, offered, not_offered) in cases {
        let output = project
            .command()
            .env("COMPLETE", "fish")
            .args(["--", "careem-mcp"])
            .args(words)
            .output()
            .expect("the binary runs");
        let candidates = String::from_utf8_lossy(&output.stdout);
        let names: Vec<&str> = candidates
            .lines()
            .map(|l| l.split('\t').next().unwrap_or_default())
            .collect();
        assert!(names.contains(&offered), "{words:?}: {candidates}");
        assert!(!names.contains(&not_offered), "{words:?}: {candidates}");
    }
}
