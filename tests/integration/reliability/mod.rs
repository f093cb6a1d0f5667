//! Reliability and security (issue 7, `docs/RELIABILITY.md`), one file per concern: bad input
//! over all three transports, files broken under a running server, property tests of the
//! parser, renderer and matcher, the security rules, a bounded soak over all three transports,
//! and graceful shutdown of the real binary. Every row of the catalogue names a test here or
//! one it cites.

mod bad_input;
mod files;
mod properties;
mod security;
#[cfg(unix)]
mod shutdown;
mod soak;

/// What a client sees of any failure inside a call.
const INTERNAL_ERROR: &str = "internal server error";

/// `{"a": {"a": … 1 … }}`, `depth` objects deep.
fn nested(depth: usize) -> String {
    format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth))
}

/// A tools/call request as text, with the arguments spliced in as given.
fn call_text(tool: &str, arguments: &str) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )
    .into_bytes()
}
