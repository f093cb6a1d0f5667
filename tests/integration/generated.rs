//! `tools/` holds what the world's generators write: a hand edit below a generated file's
//! `## Scenarios` heading, or a world table changed without regenerating, fails here.

use crate::support::repo;

#[test]
fn generated_tool_files_match_the_world() {
    let repo = repo();
    let files = xtask::world(&repo).expect("the world's files render");
    assert!(!files.is_empty(), "the world generates no files");
    let stale: Vec<&str> = files
        .iter()
        .filter(|file| {
            std::fs::read_to_string(repo.join(file.path)).ok().as_ref() != Some(&file.text)
        })
        .map(|file| file.path)
        .collect();
    assert!(
        stale.is_empty(),
        "these files differ from what the world generates: {stale:?}; run \
         `cargo run -p xtask -- gen-world` and review the diff"
    );
}
