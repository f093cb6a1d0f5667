//! The world's data checked like code (docs/DATA_WORLD.md, "Checking the world"): every data
//! file is held to its schema in `tools/world/schema/`, and a key given twice is a problem.
//! `lint` names each problem by the data file, line and path with the entity's id, in its three
//! formats; `serve` refuses to start on one, and `verify` reports it before it starts.

use crate::support::Project;
use crate::transcript::assert_transcript;

const FOOD: &str = "tools/world/food.json";

/// An edit of `food.json` that breaks its form, and the problem `lint` reports for it.
struct Edit {
    what: &'static str,
    from: &'static str,
    to: &'static str,
    problem: &'static str,
}

const EDITS: [Edit; 3] = [
    Edit {
        what: "a price written as a string",
        from: r#""price": 34.5,"#,
        to: r#""price": "34.5","#,
        problem: r#"tools/world/food.json:302: restaurants[2] (30103).categories[0].items[1] (3010304).price: "34.5" is not a number"#,
    },
    Edit {
        what: "a minimum order removed",
        from: r#""minimumOrder": 30.0,"#,
        to: "",
        problem: r#"tools/world/food.json:255: restaurants[2] (30103): the required field "minimumOrder" is missing"#,
    },
    Edit {
        what: "a key given twice",
        from: r#""distanceKm": 2.6,"#,
        to: "\"distanceKm\": 2.6,\n      \"distanceKm\": 26,",
        problem: r#"tools/world/food.json:265: restaurants[2] (30103).distanceKm: the key "distanceKm" is given twice (first at line 264), and only the last would count"#,
    },
];

/// A copy of the repository with `edits` made to `food.json`, each insisted on.
fn edited(edits: &[&Edit]) -> Project {
    let project = Project::copy_of_repo();
    let mut text = project.read(FOOD);
    for edit in edits {
        assert_eq!(text.matches(edit.from).count(), 1, "{}", edit.what);
        text = text.replace(edit.from, edit.to);
    }
    project.write(FOOD, &text);
    project
}

#[test]
fn a_data_file_that_breaks_its_form_fails_lint_and_stops_serve_and_verify() {
    for edit in &EDITS {
        let project = edited(&[edit]);
        let lint = project.run(&["lint", "--format", "short"]);
        assert_eq!(lint.code, 1, "{}: {}", edit.what, lint.stderr);
        assert_eq!(lint.stdout, format!("{}\n", edit.problem), "{}", edit.what);

        let serve = project.run(&["serve", "--stdio"]);
        assert_eq!(serve.code, 2, "{}: serve starts", edit.what);
        assert!(
            serve.stderr.contains(edit.problem),
            "{}: {}",
            edit.what,
            serve.stderr
        );

        let verify = project.run(&["verify", "--transport", "stdio"]);
        assert_eq!(verify.code, 2, "{}: {}", edit.what, verify.stdout);
        assert!(
            verify.stderr.contains(edit.problem),
            "{}: {}",
            edit.what,
            verify.stderr
        );
    }
}

#[test]
fn lint_shows_the_data_problems_in_its_three_formats() {
    let project = edited(&EDITS.iter().collect::<Vec<_>>());
    let cases: [(&str, &[&str]); 3] = [
        ("lint-world-data-short", &["lint"]),
        ("lint-world-data-full", &["lint", "--format", "full"]),
        ("lint-world-data-json", &["lint", "--format", "json"]),
    ];
    for (name, args) in cases {
        assert_transcript(&project, name, args);
    }
}

/// Each seed state file is held to its own schema, `schema/state/<name>.json`.
#[test]
fn a_seed_state_file_is_held_to_its_schema() {
    let project = Project::copy_of_repo();
    let state = "tools/world/state/food.json";
    let text = project.read(state);
    project.write(
        state,
        &text.replacen(r#""nextOrderId": 700101"#, r#""nextOrderId": "700101""#, 1),
    );
    let lint = project.run(&["lint", "--format", "short"]);
    assert_eq!(
        lint.stdout, "tools/world/state/food.json:14: nextOrderId: \"700101\" is not an integer\n",
        "{}",
        lint.stderr
    );
}
