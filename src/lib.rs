//! careem-mcp: production careem-mcp's tools, schemas and answers, served from scenario files.
//!
//! Three layers: [`engine`] (files to answers, no protocol), [`server`] (the engine behind MCP
//! over Streamable HTTP, legacy SSE and stdio) and [`cli`] (the only layer that prints or exits).

pub mod cli;
pub mod engine;
pub mod server;
