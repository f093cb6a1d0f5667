//! docs/DATA_WORLD.md's field reference is made from the world's schemas
//! (`tools/world/schema/`): every field of every data file and seed state file, its type and
//! whether it is required, in the schema's own words. The page holds it between two markers;
//! `SNAPSHOTS=overwrite cargo test --test integration world_reference` writes it anew after a
//! schema changes.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::support::repo;

const START: &str = "<!-- field reference: made from tools/world/schema/ by tests/integration/world_reference.rs -->\n";
const END: &str = "<!-- end of the field reference -->\n";

/// The reference of every schema, data files first, then the seed state's.
fn reference() -> String {
    let schemas = repo().join("tools/world/schema");
    let mut out = String::new();
    for (folder, shown) in [
        (schemas.clone(), "tools/world"),
        (schemas.join("state"), "tools/world/state"),
    ] {
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .expect("the schema folder")
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for path in files {
            file_reference(&path, shown, &mut out);
        }
    }
    out
}

fn file_reference(path: &Path, shown: &str, out: &mut String) {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("a schema")).expect("JSON");
    let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
    let _ = writeln!(out, "### `{shown}/{name}`\n");
    let _ = writeln!(out, "{}\n", words(&schema));
    let _ = writeln!(
        out,
        "| field | type | required | what it is |\n| --- | --- | --- | --- |"
    );
    fields(&schema, &schema, "", out);
    out.push('\n');
}

/// Each field below `node` (at `path`), depth first in the schema's order.
fn fields(root: &Value, node: &Value, path: &str, out: &mut String) {
    let node = resolved(root, node);
    let required: Vec<&str> = node["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if let Some(properties) = node["properties"].as_object() {
        for (key, field) in properties {
            let field = resolved(root, field);
            let at = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            let _ = writeln!(
                out,
                "| `{at}` | {} | {} | {} |",
                kind(field),
                if required.contains(&key.as_str()) {
                    "yes"
                } else {
                    ""
                },
                words(field)
            );
            fields(root, field, &at, out);
        }
    }
    if node["additionalProperties"].is_object() {
        let field = resolved(root, &node["additionalProperties"]);
        let at = format!("{path}.<key>");
        let _ = writeln!(out, "| `{at}` | {} | | {} |", kind(field), words(field));
        fields(root, field, &at, out);
    }
    if node["items"].is_object() {
        fields(root, &node["items"], &format!("{path}[]"), out);
    }
}

/// A `$ref` to `#/$defs/…` as the definition it names.
fn resolved<'a>(root: &'a Value, node: &'a Value) -> &'a Value {
    match node["$ref"].as_str().and_then(|r| r.strip_prefix("#/")) {
        Some(pointer) => root.pointer(&format!("/{pointer}")).unwrap_or(node),
        None => node,
    }
}

/// A field's type as a reader needs it: its JSON type, the values it may take, its bounds.
fn kind(field: &Value) -> String {
    if let Some(values) = field["enum"].as_array() {
        let values: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
        return format!("one of {}", values.join(", "));
    }
    let mut kind = match (&field["type"], &field["items"]) {
        (Value::String(t), items) if t == "array" => match items["type"].as_str() {
            Some(inner) => format!("array of {inner}"),
            None if items["enum"].is_array() => format!("array of {}", kind(items)),
            None => "array".to_string(),
        },
        (Value::String(t), _) => t.clone(),
        (Value::Array(types), _) => types
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "any".to_string(),
    };
    for (key, words) in [
        ("minimum", "≥"),
        ("maximum", "≤"),
        ("exclusiveMinimum", ">"),
    ] {
        if let Some(bound) = field[key].as_number() {
            let _ = write!(kind, ", {words} {bound}");
        }
    }
    if let Some(pattern) = field["pattern"].as_str() {
        let _ = write!(kind, ", matching `{pattern}`");
    }
    kind
}

/// A schema's description on one line, its pipes escaped for the table.
fn words(node: &Value) -> String {
    node["description"]
        .as_str()
        .unwrap_or_default()
        .replace('\n', " ")
        .replace('|', "\\|")
}

#[test]
fn data_world_md_holds_the_field_reference_the_schemas_make() {
    let page_path = repo().join("docs/DATA_WORLD.md");
    let page = std::fs::read_to_string(&page_path).expect("DATA_WORLD.md");
    let (before, rest) = page
        .split_once(START)
        .expect("the reference's start marker");
    let (held, after) = rest.split_once(END).expect("the reference's end marker");
    let made = reference();
    if held != made && std::env::var("SNAPSHOTS").as_deref() == Ok("overwrite") {
        std::fs::write(&page_path, format!("{before}{START}{made}{END}{after}"))
            .expect("DATA_WORLD.md written");
        return;
    }
    assert!(
        held == made,
        "docs/DATA_WORLD.md's field reference is not the schemas' (SNAPSHOTS=overwrite writes it):\n{}",
        first_difference(held, &made)
    );
}

fn first_difference(held: &str, made: &str) -> String {
    held.lines()
        .zip(made.lines())
        .find(|(a, b)| a != b)
        .map_or_else(
            || "one is a prefix of the other".to_string(),
            |(a, b)| format!("page: {a}\nmade: {b}"),
        )
}
