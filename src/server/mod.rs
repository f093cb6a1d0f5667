//! The engine behind MCP.
