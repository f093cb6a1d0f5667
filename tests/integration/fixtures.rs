//! The tool files themselves: SPEC §7 tests 3–9 through `call`, the catalog's 20 tools, no word
//! a client must never see, no fixed calendar date, every placeholder form in use.

use serde_json::{Value, json};

use crate::support::{Project, repo};

/// Production's 20 tools, as the catalog names them.
const CATALOG: [&str; 20] = [
    "cart_add_item",
    "cart_clear",
    "cart_get_basket",
    "cart_update_item",
    "food_get_delivery_slots",
    "food_get_item_details",
    "food_get_order_status",
    "food_get_restaurant_menu",
    "food_list_orders",
    "food_merchant_search",
    "food_place_order",
    "get_payment_methods",
    "get_saved_locations",
    "get_user_profile",
    "reverse_geocode",
    "ride_book",
    "ride_cancel",
    "ride_get_estimates",
    "ride_get_status",
    "search_locations",
];

const MARINA: &str = "\"latitude\": 25.0866, \"longitude\": 55.1474";

fn tool_files() -> Vec<(std::path::PathBuf, String)> {
    careem_mcp::engine::tool_paths(&repo().join("tools"))
        .expect("tools folder")
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            (p, text)
        })
        .collect()
}

#[test]
fn twenty_tool_files_named_as_the_catalog() {
    let mut names: Vec<String> = tool_files()
        .iter()
        .map(|(path, _)| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, CATALOG);
}

#[test]
fn spec_acceptance_values_through_call() {
    let project = Project::copy_of_repo();
    let call = |tool: &str, args: String| project.run(&["call", tool, &args]).json();
    let menu = |id: &str| {
        call(
            "food_get_restaurant_menu",
            format!("{{\"restaurant_id\": {id}, {MARINA}}}"),
        )
    };
    // (result, JSON pointer, expected)
    let cases: Vec<(Value, &str, Value)> = vec![
        (menu("30104"), "/isError", json!(false)),
        (
            menu("30104"),
            "/structuredContent/restaurant/id",
            json!(30104),
        ),
        (
            menu("30104"),
            "/structuredContent/restaurant/name/value",
            json!("Morning Syrniki Café"),
        ),
        (
            menu("30101"),
            "/structuredContent/restaurant/name/value",
            json!("Shawarma Station"),
        ),
        (menu("1"), "/isError", json!(false)),
        (
            menu("1"),
            "/structuredContent/error",
            json!("failed to get restaurant menu: unexpected response status 404"),
        ),
        (menu("\"x\""), "/isError", json!(true)),
        (
            call("food_get_restaurant_menu", "{}".into()),
            "/isError",
            json!(true),
        ),
        (
            call(
                "food_merchant_search",
                format!("{{\"query\": \"sushi\", {MARINA}}}"),
            ),
            "/structuredContent/restaurants/0/id",
            json!(30102),
        ),
        (
            call(
                "food_merchant_search",
                format!("{{\"query\": \"NOPE\", {MARINA}}}"),
            ),
            "/structuredContent/restaurants",
            json!([]),
        ),
        (
            call(
                "food_merchant_search",
                "{\"query\": \"sushi\", \"longitude\": 55.1474}".into(),
            ),
            "/isError",
            json!(true),
        ),
        (
            call("reverse_geocode", format!("{{{MARINA}}}")),
            "/structuredContent/location/locationUuid",
            json!("LOC-50001"),
        ),
    ];
    for (result, pointer, want) in cases {
        let found = match pointer {
            "/isError" => Some(crate::support::is_error(&result)),
            _ => result.pointer(pointer).cloned(),
        };
        assert_eq!(found, Some(want), "{pointer} in {result}");
    }
    let invalid = menu("\"x\"");
    assert!(
        invalid["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("validating \"arguments\"")
    );
    let off_the_map = call(
        "reverse_geocode",
        "{\"latitude\": 91, \"longitude\": 55}".into(),
    );
    assert!(
        off_the_map["structuredContent"]["error"].is_string(),
        "{off_the_map}"
    );

    project.write(
        ".run/overrides.json",
        "{\"food_get_restaurant_menu\": \"upstream-unavailable\"}",
    );
    assert!(menu("30104")["structuredContent"]["error"].is_string());
    project.write(".run/overrides.json", "{}");
    assert_eq!(
        menu("30104")["structuredContent"]["restaurant"]["id"],
        json!(30104)
    );
}

#[test]
fn nothing_a_client_sees_names_a_stand_in() {
    let forbidden = regex::Regex::new(r"(?i)mock|sandbox|sbx|fake|dummy|example\.com").unwrap();
    for (path, text) in tool_files() {
        if let Some(hit) = forbidden.find(&text) {
            panic!("{} contains {:?}", path.display(), hit.as_str());
        }
    }
}

#[test]
fn responses_carry_no_fixed_calendar_dates() {
    let date =
        regex::Regex::new(r"\b20[0-9]{2}-[0-9]{2}-[0-9]{2}|\b[0-9]{2}:[0-9]{2}:[0-9]{2}Z").unwrap();
    for (path, text) in tool_files() {
        let parsed = careem_mcp::engine::toolfile::parse(&path, &text);
        for scenario in &parsed.file.scenarios {
            let block = text
                .split(&format!("## Scenario: {}", scenario.name))
                .nth(1)
                .unwrap_or_default();
            if let Some(hit) = date.find(block.split("\n## ").next().unwrap_or_default()) {
                panic!(
                    "{} scenario {} has a fixed time {:?}",
                    path.display(),
                    scenario.name,
                    hit.as_str()
                );
            }
        }
    }
}

#[test]
fn between_them_the_files_use_every_placeholder_form_in_both_contexts() {
    let all: String = tool_files().into_iter().map(|(_, text)| text).collect();
    let forms = [
        r"\{\{\s*args\.[a-zA-Z_]+\s*\}\}",
        r"\{\{\s*now\s*\}\}",
        r"\{\{\s*now\+[0-9]+[mh]\s*\}\}",
        r"\{\{\s*now-[0-9]+[mh]",
        r"\{\{\s*now\+[0-9]+h[0-9]+m",
        r"@[0-9]+m",
        r"\|date\s*\}\}",
        r"\|weekday\s*\}\}",
        r"\|hhmm\s*\}\}",
        r"\|daylabel\s*\}\}",
        r"@[0-9]+m\|hhmm",
        r"\{\{\s*unix\s*\}\}",
        r"\{\{\s*unix\+",
        r"\{\{\s*unixms\s*\}\}",
        r"\{\{\s*unixms\+",
        r"\{\{\s*uuid\s*\}\}",
        r"\{\{\s*rand:[0-9]+-[0-9]+\s*\}\}",
        r#""[^"\n]*\{\{\s*args\.[^}]+\}\}[^"\n]*""#,
        r#":\s*\{\{\s*args\.[^}]+\}\}"#,
        r#":\s*\{\{\s*rand:"#,
        r#""[^"\n]*\{\{\s*rand:"#,
    ];
    for form in forms {
        assert!(
            regex::Regex::new(form).unwrap().is_match(&all),
            "no tool file uses {form}"
        );
    }
}
