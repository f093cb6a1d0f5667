//! The world's jq modules (docs/FORMAT.md, "Computed answers"): `tools/world/rules/NAME.jq`,
//! loaded by the programs that name them with `include` or `import`, beside the flat
//! `tools/world/*.jq` files that stay in front of every program. Through the real binary's
//! `call` and `lint`, as a person writing a world meets them.

use serde_json::json;

use crate::support::{Project, call, http_client, serve_binary, tool_file};

/// A project of the tool `t`, whose one scenario answers `program`, and the world's `files`.
fn project(program: &str, files: &[(&str, &str)]) -> Project {
    let project = Project::empty();
    project.write(
        "tools/t.md",
        &tool_file(
            "t",
            &format!("## Scenario: s\n\n```jq response\n{program}\n```\n"),
        ),
    );
    for (path, text) in files {
        project.write(path, text);
    }
    project
}

const GREET: (&str, &str) = ("tools/world/rules/greet.jq", "def greet_v: \"hello\";\n");
const OUTER: (&str, &str) = (
    "tools/world/rules/outer.jq",
    "# Greets louder.\ninclude \"greet\";\n\ndef outer_v: greet_v + \"!\";\n",
);
const STAMP: (&str, &str) = ("tools/world/rules/stamp.jq", "def stamp_v: .now | date;\n");
const FLAT: (&str, &str) = ("tools/world/old.jq", "def old_v: \"flat\";\n");

#[test]
fn a_program_calls_the_modules_it_loads() {
    let cases = [
        ("include \"greet\"; {v: greet_v}", vec![GREET], "hello"),
        (
            "import \"greet\" as g; {v: g::greet_v}",
            vec![GREET],
            "hello",
        ),
        (
            "include \"outer\";\n{v: outer_v}",
            vec![GREET, OUTER],
            "hello!",
        ),
        // The module reads `.now`: the program's document has it.
        ("include \"stamp\"; {v: stamp_v}", vec![STAMP], "2026-10-05"),
        (
            "include \"greet\"; {v: (greet_v + \" \" + old_v)}",
            vec![GREET, FLAT],
            "hello flat",
        ),
        ("{v: old_v}", vec![GREET, FLAT], "flat"),
    ];
    for (program, files, want) in cases {
        let project = project(program, &files);
        let clock = project.run(&["clock", "set", "2026-10-05T12:00:00Z"]);
        assert_eq!(clock.code, 0, "{}", clock.stderr);
        let run = project.run(&["call", "t"]);
        assert_eq!(run.code, 0, "{program}: {}", run.stderr);
        assert_eq!(run.json()["structuredContent"]["v"], want, "{program}");
    }
}

#[test]
fn lint_names_a_module_not_loaded_missing_or_broken_where_it_is() {
    let broken = (
        "tools/world/rules/greet.jq",
        "def greet_v: \"hello\";\ndef greet_w: nosuch;\n",
    );
    let cases = [
        (
            "{v: greet_v}",
            vec![GREET],
            "tools/t.md:15: scenario \"s\": jq: line 1: undefined filter `greet_v`",
        ),
        (
            "include \"outer\"; {v: greet_v}",
            vec![GREET, OUTER],
            "tools/t.md:15: scenario \"s\": jq: line 1: undefined filter `greet_v`",
        ),
        (
            "include \"nosuch\";\n{v: \"x\"}",
            vec![GREET],
            "tools/t.md:15: scenario \"s\": jq: line 1: cannot load nosuch: no module \"nosuch\": \
             the world has no rules/nosuch.jq",
        ),
        (
            "include \"greet\"; {v: greet_v}",
            vec![broken],
            "tools/world/rules/greet.jq:2: jq: undefined filter `nosuch`",
        ),
    ];
    for (program, files, want) in cases {
        let project = project(program, &files);
        let lint = project.run(&["lint", "--format", "short"]);
        assert_eq!(lint.code, 1, "{program}: {}", lint.stderr);
        // The problem alone: no answer computed from the file that holds it repeats it.
        assert_eq!(
            lint.stdout.lines().collect::<Vec<_>>(),
            [want],
            "{program}:\n{}",
            lint.stdout
        );
    }
}

/// A program that reads the run's clock only through a module it loads runs on each call,
/// with the clock's time: its answer is not kept past the second it was given in.
#[tokio::test(flavor = "multi_thread")]
async fn a_rule_that_reads_the_clock_through_a_module_is_run_at_each_time() {
    let stamp = ("tools/world/rules/stamp.jq", "def stamp_v: .now | iso;\n");
    let project = project("include \"stamp\"; {v: stamp_v}", &[stamp]);
    let set = project.run(&["clock", "set", "2026-10-05T12:00:00Z"]);
    assert_eq!(set.code, 0, "{}", set.stderr);
    let (_server, url, _stderr) = serve_binary(&project, &[]);
    let http = http_client(&url).await;
    let read = || async { call(&http, "t", json!({})).await.expect("it answers") };
    assert_eq!(
        read().await["structuredContent"]["v"],
        "2026-10-05T12:00:00Z"
    );
    let moved = project.run(&["clock", "advance", "90m"]);
    assert_eq!(moved.code, 0, "{}", moved.stderr);
    assert_eq!(
        read().await["structuredContent"]["v"],
        "2026-10-05T13:30:00Z"
    );
}
