//! Tool files, world files and the overrides file as a Windows editor or a checkout with
//! `autocrlf` writes them: CRLF line ends, a byte-order mark, or both. Each project answers
//! byte for byte as its LF twin does.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{Project, StdioServer, files_under};

/// How a file is written.
#[derive(Debug, Clone, Copy)]
enum Ends {
    Lf,
    Crlf,
    Bom,
    BomCrlf,
}

impl Ends {
    fn write(self, text: &str) -> String {
        let text = match self {
            Self::Lf | Self::Bom => text.to_string(),
            Self::Crlf | Self::BomCrlf => text.replace('\n', "\r\n"),
        };
        match self {
            Self::Lf | Self::Crlf => text,
            Self::Bom | Self::BomCrlf => format!("\u{feff}{text}"),
        }
    }
}

/// Forces one tool, so that the overrides file is seen to be read.
const OVERRIDES: &str = "{\n  \"search_locations\": \"no-results\"\n}\n";

/// A copy of the repository whose every file under `tools/`, and its overrides file, is
/// written as `ends` says.
fn project(ends: Ends) -> Project {
    let project = Project::copy_of_repo();
    for path in files_under(&project.path().join("tools")) {
        let text = std::fs::read_to_string(&path).expect("a text file");
        std::fs::write(&path, ends.write(&text)).expect("writes");
    }
    project.write(".run/overrides.json", &ends.write(OVERRIDES));
    project
}

/// The requests: the lists, the widget, and calls that read prose, schemas, scenarios, world
/// programs and data, the overrides file, and change the world.
fn requests() -> Vec<Value> {
    let marina = json!({"latitude": 25.0805, "longitude": 55.1403});
    let calls = [
        ("reverse_geocode", marina.clone()),
        (
            "food_merchant_search",
            json!({"query": "sushi", "latitude": 25.0805, "longitude": 55.1403}),
        ),
        (
            "food_get_restaurant_menu",
            json!({"restaurant_id": 30101, "latitude": 25.0805, "longitude": 55.1403}),
        ),
        (
            "ride_get_estimates",
            json!({"pickupLatitude": 25.0805, "pickupLongitude": 55.1403, "dropoffLatitude": 25.2048, "dropoffLongitude": 55.2708}),
        ),
        ("search_locations", json!({"query": "mall"})),
        ("get_saved_locations", json!({})),
        ("get_payment_methods", json!({})),
        ("get_user_profile", json!({})),
        (
            "cart_add_item",
            json!({"restaurant_id": 30101, "item_id": 3010104}),
        ),
        ("cart_get_basket", json!({})),
        ("food_list_orders", json!({})),
        ("food_place_order", json!({})),
    ];
    let mut requests = vec![
        json!({"method": "tools/list", "params": {}}),
        json!({"method": "resources/list", "params": {}}),
    ];
    requests.extend(calls.into_iter().map(|(name, arguments)| {
        json!({"method": "tools/call", "params": {"name": name, "arguments": arguments}})
    }));
    requests
        .into_iter()
        .enumerate()
        .map(|(id, mut request)| {
            request["jsonrpc"] = json!("2.0");
            request["id"] = json!(id + 10);
            request
        })
        .collect()
}

/// `lint`'s output, and every answer of `serve --stdio --stateful` to [`requests`], as lines.
fn answers(project: &Project) -> (String, Vec<String>) {
    let lint = project.run(&["lint"]);
    assert_eq!(lint.code, 0, "{}{}", lint.stdout, lint.stderr);
    let mut command = project.command();
    command.args([
        "--clock",
        "2026-10-05T12:00:00Z",
        "--seed",
        "7",
        "serve",
        "--stdio",
        "--stateful",
    ]);
    let mut server = StdioServer::start(command, std::process::Stdio::inherit());
    server.initialize();
    let answers = requests()
        .iter()
        .map(|request| {
            server.send_json(request);
            server
                .lines
                .recv_timeout(Duration::from_secs(30))
                .expect("an answer in time")
        })
        .collect();
    server.close_stdin();
    (lint.stdout, answers)
}

#[test]
fn windows_line_ends_and_a_byte_order_mark_answer_as_their_lf_twin() {
    let (lint, want) = answers(&project(Ends::Lf));
    // The forced scenario answers `search_locations`, and the world changed.
    assert!(want[6].contains(r#"\"locations\":[]"#), "{}", want[6]);
    assert!(want[11].contains(r#"\"basketItemId\""#), "{}", want[11]);
    for ends in [Ends::Crlf, Ends::Bom, Ends::BomCrlf] {
        let (linted, got) = answers(&project(ends));
        assert_eq!(linted, lint, "{ends:?}: lint");
        for (index, (got, want)) in got.iter().zip(&want).enumerate() {
            assert_eq!(got, want, "{ends:?}: request {index}");
        }
    }
}
