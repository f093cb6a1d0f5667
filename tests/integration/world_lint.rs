//! The world lint (docs/DATA_WORLD.md, "Checking the world"): `lint` makes every call of
//! `tools/world/lint/calls.jq` over the whole world in both modes, so that a data edit the
//! schemas let through but a program cannot handle is a problem that names the program's file
//! and line, the call and the entity of the data it was computing; the same call on `serve`
//! logs the entity.

use std::time::Duration;

use serde_json::Value;

use crate::support::{Project, call, http_client, serve_binary, terminate_cleanly};

const FOOD: &str = "tools/world/food.json";

/// A copy of the repository with restaurant 30107 added as data: Smash Yard Burgers (30103)
/// again, with ids of its own, found by its name, cuisines and dishes only (no search words of
/// its own, which its schema allows).
fn with_a_seventh_restaurant() -> Project {
    let project = Project::copy_of_repo();
    let text = project.read(FOOD);
    let start = text
        .find("    {\n      \"id\": 30103,")
        .expect("restaurant 30103");
    let end = text
        .find("    {\n      \"id\": 30104,")
        .expect("restaurant 30104");
    let copy = text[start..end]
        .trim_end()
        .trim_end_matches(',')
        .replace("30103", "30107")
        .replace("\"Smash Yard Burgers\"", "\"Smash Yard Burgers Marina\"")
        .replace(
            "\"words\": [\"smash yard\", \"burger\", \"american\", \"fast food\"]",
            "\"words\": []",
        );
    let end_of_list = "    }\n  ]\n}";
    assert!(
        text.trim_end().ends_with(end_of_list),
        "food.json ends its list"
    );
    let text = format!(
        "{},\n{copy}\n  ]\n}}\n",
        text.trim_end().trim_end_matches("\n  ]\n}")
    );
    serde_json::from_str::<Value>(&text).expect("food.json stays JSON");
    project.write(FOOD, &text);
    project
}

/// Replaces the one `from` of `path` with `to`.
fn edit(project: &Project, path: &str, from: &str, to: &str) {
    let text = project.read(path);
    assert_eq!(text.matches(from).count(), 1, "{path}: {from}");
    project.write(path, &text.replace(from, to));
}

/// A change that every schema lets through but a program cannot handle, the problem `lint`
/// reports for it, and the call that fails on `serve` with the entity its log line names.
struct Break {
    what: &'static str,
    project: fn() -> Project,
    tool: &'static str,
    args: &'static str,
    problem: &'static str,
    entity: &'static str,
}

const BREAKS: [Break; 2] = [
    Break {
        what: "a past order's line names an item no menu has",
        project: || {
            let project = Project::copy_of_repo();
            edit(
                &project,
                "tools/world/food_orders.json",
                r#""itemId": 3010102"#,
                r#""itemId": 3010199"#,
            );
            project
        },
        tool: "food_get_order_status",
        args: r#"{"order_id": 700001}"#,
        problem: r#"tools/food/food_get_order_status.md:258: scenario "order": jq: cannot use null as iterable (array or object) (in food_get_order_status {"order_id":700001}, static and stateful; computing pastOrders[0] (700001) at tools/world/food_orders.json:18)"#,
        entity: "pastOrders[0] (700001) at tools/world/food_orders.json:18",
    },
    Break {
        what: "a rule takes every restaurant to have search words of its own, and 30107 has none",
        project: || {
            let project = with_a_seventh_restaurant();
            edit(
                &project,
                "tools/world/rules/food.jq",
                "def food_menu($r):\n  . as $doc",
                "def food_menu($r):\n  ($r.words[0] | ascii_downcase) as $word | . as $doc",
            );
            project
        },
        tool: "food_get_restaurant_menu",
        args: r#"{"restaurant_id": 30107, "latitude": 25.0866, "longitude": 55.1474}"#,
        problem: r#"tools/food/food_get_restaurant_menu.md:365: scenario "menu": jq: cannot use null as string (in food_get_restaurant_menu {"restaurant_id":30107,"latitude":25.0866,"longitude":55.1474}, static and stateful; computing restaurants[6] (30107) "Smash Yard Burgers Marina" at tools/world/food.json:693)"#,
        entity: r#"restaurants[6] (30107) "Smash Yard Burgers Marina" at tools/world/food.json:693"#,
    },
];

#[tokio::test(flavor = "multi_thread")]
async fn a_program_that_fails_on_the_data_is_named_with_its_entity_by_lint_and_by_the_log() {
    for broken in &BREAKS {
        let project = (broken.project)();
        let lint = project.run(&["lint", "--format", "short"]);
        assert_eq!(lint.code, 1, "{}: {}", broken.what, lint.stderr);
        assert!(
            lint.stdout.lines().any(|line| line == broken.problem),
            "{}:\n{}",
            broken.what,
            lint.stdout
        );

        let (server, url, mut stderr) = serve_binary(&project, &[]);
        let client = http_client(&url).await;
        let args: Value = serde_json::from_str(broken.args).expect("arguments");
        let answer = call(&client, broken.tool, args).await.expect("an answer");
        assert_eq!(
            answer["content"][0]["text"], "internal server error",
            "{answer}"
        );
        let logged = stderr.wait_for(Duration::from_secs(20), |line| line.contains("ERROR"));
        let logged = logged.unwrap_or_else(|| panic!("{}: {:?}", broken.what, stderr.lines()));
        let args = format!("args={}", broken.args.replace(' ', ""));
        let entity = format!("entity={}", broken.entity);
        assert!(
            logged.contains(&args) && logged.contains(&entity),
            "{}: {logged}",
            broken.what
        );
        drop(client);
        terminate_cleanly(server, Duration::from_secs(30));
    }
}

/// The shipped world passes, and a restaurant added as data is tried with the rest.
#[test]
fn the_shipped_world_and_a_restaurant_added_to_it_pass() {
    for project in [Project::copy_of_repo(), with_a_seventh_restaurant()] {
        let lint = project.run(&["lint", "--format", "short"]);
        assert_eq!(lint.code, 0, "{}{}", lint.stdout, lint.stderr);
    }
}
