//! `cargo run -p xtask -- gen-world`: rewrites the generated ride and location
//! tool files from the world tables, and says which ones changed.

use std::process::ExitCode;

const USAGE: &str = "usage: cargo run -p xtask -- gen-world";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [task] if task == "gen-world" => match gen_world() {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: {error:#}");
                ExitCode::FAILURE
            }
        },
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Writes every generated file whose bytes differ from what is checked in.
fn gen_world() -> anyhow::Result<()> {
    let repo = xtask::repo();
    let files = xtask::world(&repo)?;
    let mut written = 0;
    for file in &files {
        let path = repo.join(file.path);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current != file.text {
            std::fs::write(&path, &file.text)
                .map_err(|e| anyhow::anyhow!("writing {}: {e}", file.path))?;
            println!("wrote {}", file.path);
            written += 1;
        }
    }
    println!("{written} of {} generated files changed", files.len());
    Ok(())
}
