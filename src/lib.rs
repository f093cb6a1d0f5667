//! careem-mcp: production careem-mcp's tools, schemas and answers, served from scenario files.
//!
//! Six layers: [`engine`] (files to answers, no protocol), [`server`] (the engine behind MCP
//! over Streamable HTTP, legacy SSE and stdio), [`admin`] (every control of a run over HTTP,
//! on a listener of its own), [`dashboard`] (the page beside it, on the same API), [`probe`]
//! (the client side of MCP: the acceptance suite) and [`cli`] (the only layer that prints or
//! exits). Only `server` and `probe` know MCP. [`grade`] (a run scored by its end state) and
//! [`tasks`] (the task suite, graded so) are clients of the engine beside them, through its
//! front door only, as τ²-bench keeps its evaluator apart from its domains; `cli`, `admin`
//! and `dashboard` call them. [`go`] is a leaf beside them all: Go's formatting and wording,
//! used by the engine and the server alike. [`http`] is the hardened HTTP listener that
//! `server`, `admin` and `dashboard` share.

pub(crate) mod admin;
pub mod cli;
pub(crate) mod dashboard;
pub mod engine;
pub mod go;
pub mod grade;
pub mod http;
pub mod probe;
pub mod server;
pub mod tasks;
