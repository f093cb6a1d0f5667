//! The tidy checks: ARCHITECTURE.md's invariants about the source itself, read from `src/`
//! with syn (`source.rs`) rather than held by review, and its drawing of a call's path held to
//! the files under `src/`. Each test names the files that break its invariant.

mod graph;
mod source;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use graph::Graph;
use source::{Naming, Source, Target};

fn source() -> &'static Source {
    static SOURCE: OnceLock<Source> = OnceLock::new();
    SOURCE.get_or_init(|| Source::read(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")))
}

/// Each file's module path (its own, not that of a `mod tests { … }` inside it).
fn file_modules(source: &Source) -> BTreeMap<&str, &[String]> {
    let mut paths: BTreeMap<&str, &[String]> = BTreeMap::new();
    for module in &source.modules {
        let path = paths.entry(&module.file).or_insert(&module.path);
        if module.path.len() < path.len() {
            *path = &module.path;
        }
    }
    paths
}

/// Every use of one file by another: a private `use` or a path in code whose item is defined
/// in the other file, through any re-exports. A re-export (`pub use`) is not a use: it
/// offers a name, and the file that uses the name depends on the file that defines it. A
/// module's own file using its descendants (`mod.rs` routing to `calls::list`) is the tree,
/// not an import; a descendant using its ancestor is.
fn file_graph(source: &Source) -> Graph {
    let paths = file_modules(source);
    let mut graph = Graph::default();
    for named in &source.named {
        if named.naming == Naming::Reexport {
            continue;
        }
        let Some(Target::Item(defined)) = source.resolve(named.module, &named.path) else {
            continue;
        };
        let from = &source.modules[named.module].file;
        let to = &source.modules[defined].file;
        let owns = paths[to.as_str()].starts_with(paths[from.as_str()]);
        if from != to && !owns {
            graph.add(from, to, &named.path.join("::"));
        }
    }
    graph
}

#[test]
fn no_import_cycle_between_files() {
    let cycles = file_graph(source()).cycles();
    assert!(
        cycles.is_empty(),
        "import cycles between files under src/:\n{}",
        cycles.join("\n")
    );
}

/// The file graph lifted to modules: a use of `a/b/c.rs` by `a/d/e.rs` is a use of module
/// `a::b` by its sibling `a::d`. A module's own file and its descendants are not siblings.
fn module_graph(source: &Source) -> Graph {
    let paths = file_modules(source);
    let is_folder = |module: &[String]| {
        paths
            .values()
            .any(|p| p.len() > module.len() && p.starts_with(module))
    };
    let mut graph = Graph::default();
    for (from, to, why) in file_graph(source).edges() {
        let (a, b) = (paths[from], paths[to]);
        let shared = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        if shared == a.len() || shared == b.len() {
            continue;
        }
        let (a, b) = (&a[..=shared], &b[..=shared]);
        if is_folder(a) || is_folder(b) {
            graph.add(&a.join("::"), &b.join("::"), &format!("{from} names {why}"));
        }
    }
    graph
}

#[test]
fn no_import_cycle_between_modules() {
    let cycles = module_graph(source()).cycles();
    assert!(
        cycles.is_empty(),
        "import cycles between folders (modules) under src/:\n{}",
        cycles.join("\n")
    );
}

/// What a file under `src/engine/` may not name: the HTTP stack, the network and async
/// (tokio), which belong to `http/` and `server/`; the command line (clap), `cli/`'s; and MCP's
/// types — rmcp's and `server/`'s, where the `CallToolResult` bytes the Go SDK writes are made.
fn foreign_to_the_engine(source: &Source, named: &source::Named) -> bool {
    let path: Vec<&str> = named.path.iter().map(String::as_str).collect();
    let external = matches!(
        path.as_slice(),
        [
            "axum" | "hyper" | "hyper_util" | "rmcp" | "tower" | "http_body",
            ..
        ] | ["tokio", "net", ..]
    );
    let internal = source
        .resolve(named.module, &named.path)
        .map(|target| source.modules[target.module()].path.as_slice())
        .is_some_and(|module| matches!(module, [first, ..] if first == "server"));
    external || internal
}

#[test]
fn the_engine_names_no_transport_no_async_no_clap_and_no_mcp_type() {
    let source = source();
    let found: Vec<String> = source
        .named
        .iter()
        .filter(|named| source.modules[named.module].file.starts_with("engine/"))
        .filter(|named| foreign_to_the_engine(source, named))
        .map(|named| {
            format!(
                "  {} names {}",
                source.modules[named.module].file,
                named.path.join("::")
            )
        })
        .collect();
    assert!(
        found.is_empty(),
        "engine files that name the network, the HTTP stack, tokio, clap or MCP's types:\n{}",
        dedup(found).join("\n")
    );
}

#[test]
fn only_the_cli_exits() {
    let source = source();
    let found: Vec<String> = source
        .named
        .iter()
        .filter(|named| !source.modules[named.module].file.starts_with("cli/"))
        .filter(|named| named.path.windows(2).any(|w| w == ["process", "exit"]))
        .map(|named| {
            format!(
                "  {} calls process::exit",
                source.modules[named.module].file
            )
        })
        .collect();
    assert!(
        found.is_empty(),
        "files outside src/cli/ that exit the process:\n{}",
        dedup(found).join("\n")
    );
}

fn dedup(mut lines: Vec<String>) -> Vec<String> {
    lines.sort();
    lines.dedup();
    lines
}

/// Each layer (a folder under `src/`) and the layers it may name: each names only layers
/// below it, and `go/` none.
const LAYERS: &[(&str, &[&str])] = &[
    ("go", &[]),
    ("engine", &["go"]),
    ("grade", &["engine"]),
    ("tasks", &["engine", "grade"]),
    ("http", &["engine", "go"]),
    ("admin", &["engine", "grade", "http"]),
    ("server", &["engine", "go", "http", "admin"]),
    ("dashboard", &["engine", "grade", "http", "admin", "server"]),
    ("probe", &["engine", "server"]),
    (
        "cli",
        &[
            "engine",
            "go",
            "grade",
            "tasks",
            "http",
            "admin",
            "server",
            "dashboard",
            "probe",
        ],
    ),
];

#[test]
fn each_layer_names_only_the_layers_below_it() {
    let source = source();
    let mut found = Vec::new();
    for named in &source.named {
        let file = &source.modules[named.module].file;
        let Some((from, _)) = file.split_once('/') else {
            continue;
        };
        let Some(to) = source
            .resolve(named.module, &named.path)
            .and_then(|target| source.modules[target.module()].path.first())
        else {
            continue;
        };
        let allowed = LAYERS
            .iter()
            .find(|(layer, _)| *layer == from)
            .unwrap_or_else(|| panic!("src/{from}/ is in no row of LAYERS"))
            .1;
        if to != from && !allowed.contains(&to.as_str()) {
            found.push(format!(
                "  {file} ({from}/) names {} ({to}/)",
                named.path.join("::")
            ));
        }
    }
    assert!(
        found.is_empty(),
        "files that name a layer their own may not:\n{}",
        dedup(found).join("\n")
    );
}

/// The macros that write to the terminal.
const PRINTING: &[&str] = &["print", "println", "eprint", "eprintln", "dbg"];

#[test]
fn only_the_cli_prints() {
    let source = source();
    let files = |module: usize| &source.modules[module].file;
    let macros = source
        .macros
        .iter()
        .filter(|(_, name)| PRINTING.contains(&name.as_str()))
        .map(|(module, name)| (files(*module), format!("{name}!")));
    let streams = source
        .named
        .iter()
        .filter(|named| {
            named.path.first().is_some_and(|first| first != "tokio")
                && named
                    .path
                    .windows(2)
                    .any(|w| w[0] == "io" && (w[1] == "stdout" || w[1] == "stderr"))
        })
        .map(|named| (files(named.module), named.path.join("::")));
    let found: Vec<String> = macros
        .chain(streams)
        .filter(|(file, _)| !file.starts_with("cli/"))
        .map(|(file, what)| format!("  {file} calls {what}"))
        .collect();
    assert!(
        found.is_empty(),
        "files outside src/cli/ that print:\n{}",
        dedup(found).join("\n")
    );
}

/// ARCHITECTURE.md's invariants, each a bullet ending in ` — ` and the tests that hold it.
#[test]
fn each_invariant_in_architecture_md_names_the_tests_that_hold_it() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let section = text
        .split("\n## Invariants\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("ARCHITECTURE.md has an Invariants section");
    let tests = root.join("tests/integration");
    let exists = |test: &str| {
        let Some((file, name)) = test.split_once("::") else {
            return false;
        };
        let sources = [
            tests.join(format!("{file}.rs")),
            tests.join(file).join("mod.rs"),
        ];
        let wanted = format!("fn {name}(");
        sources
            .iter()
            .any(|path| std::fs::read_to_string(path).is_ok_and(|text| text.contains(&wanted)))
    };
    let mut found = Vec::new();
    for bullet in section.split("\n- ").skip(1) {
        let bullet = bullet.split_whitespace().collect::<Vec<_>>().join(" ");
        let named: Vec<&str> = bullet
            .rsplit_once(" — ")
            .map(|(_, held_by)| held_by.split('`').skip(1).step_by(2).collect())
            .unwrap_or_default();
        if named.is_empty() {
            found.push(format!("  no test named: {bullet}"));
        }
        for test in named.into_iter().filter(|test| !exists(test)) {
            found.push(format!("  no such test {test}: {bullet}"));
        }
    }
    assert!(
        found.is_empty(),
        "ARCHITECTURE.md's invariants without the tests that hold them:\n{}",
        found.join("\n")
    );
}

/// The data world's room (`src/engine/world/`): the modules inside it.
const WORLD: [&str; 2] = ["engine", "world"];

/// The world's inner module that `named`'s path walks through or names, if any: a path may
/// name `engine::world`'s own items (its front door, re-exports included), not the modules
/// behind it.
fn world_inside<'s>(source: &'s Source, named: &source::Named) -> Option<&'s [String]> {
    (1..=named.path.len()).find_map(|end| {
        let Some(Target::Module(module)) = source.resolve(named.module, &named.path[..end]) else {
            return None;
        };
        let path = source.modules[module].path.as_slice();
        (path.len() > WORLD.len() && path.starts_with(&WORLD.map(str::to_owned))).then_some(path)
    })
}

#[test]
fn nothing_outside_the_world_names_its_inner_modules() {
    let source = source();
    let found: Vec<String> = source
        .named
        .iter()
        .filter(|named| {
            !source.modules[named.module]
                .file
                .starts_with("engine/world/")
        })
        .filter_map(|named| {
            let inner = world_inside(source, named)?;
            Some(format!(
                "  {} names {} (inside {})",
                source.modules[named.module].file,
                named.path.join("::"),
                inner.join("::")
            ))
        })
        .collect();
    assert!(
        found.is_empty(),
        "files outside src/engine/world/ that name the world's inner modules, not its front \
         door (engine::world's own items):\n{}",
        dedup(found).join("\n")
    );
}

/// ARCHITECTURE.md's drawing of a call's path, so that it cannot go stale: every file it
/// names (from `src/`) exists, and the count the text after it states — `That is N files: a
/// of `x/`, b of `y/` …` — is the count of distinct files the drawing names, in all and per
/// folder.
#[test]
fn the_calls_path_names_files_that_exist_and_counts_them() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let section = text
        .split("\n## A call's path\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("ARCHITECTURE.md has a section \"A call's path\"");
    let mut parts = section.split("\n```");
    let drawing = parts
        .nth(1)
        .expect("the section holds a drawing in a fenced block");
    let after = parts.next().unwrap_or_default();
    let named: std::collections::BTreeSet<&str> = drawing
        .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '/' | '.')))
        .filter(|word| word.ends_with(".rs"))
        .collect();
    let mut found: Vec<String> = named
        .iter()
        .filter(|file| !root.join("src").join(file).is_file())
        .map(|file| format!("  src/{file} is named in the drawing but does not exist"))
        .collect();
    let mut per_folder: BTreeMap<&str, usize> = BTreeMap::new();
    for file in &named {
        *per_folder
            .entry(file.split_once('/').map_or("", |(folder, _)| folder))
            .or_default() += 1;
    }
    let stated = after
        .split_once("That is ")
        .and_then(|(_, rest)| rest.split_once(" files"))
        .map(|(count, rest)| {
            (
                count,
                rest.split_once('.').map_or(rest, |(counts, _)| counts),
            )
        });
    match stated {
        None => found.push("  no \"That is N files: …\" after the drawing".to_owned()),
        Some((total, counts)) => {
            if total.parse() != Ok(named.len()) {
                found.push(format!(
                    "  the text says {total} files, the drawing names {}",
                    named.len()
                ));
            }
            let stated_folders: BTreeMap<&str, usize> = counts
                .split(" of `")
                .zip(counts.split(" of `").skip(1))
                .filter_map(|(before, after)| {
                    let count = before.rsplit(' ').next()?.parse().ok()?;
                    Some((after.split_once("/`")?.0, count))
                })
                .collect();
            if stated_folders != per_folder {
                found.push(format!(
                    "  the text counts {stated_folders:?} per folder, the drawing names {per_folder:?}"
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "ARCHITECTURE.md's drawing of a call's path against src/ and its count:\n{}",
        found.join("\n")
    );
}
