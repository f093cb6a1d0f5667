//! The JSON-RPC error codes production's SDK answers with, by name: JSON-RPC 2.0's own, MCP's,
//! and v1.7.0's codes for protocol 2026-07-28's per-request checks.

/// An error the SDK returns without a code of its own, which `jsonrpc2` writes as 0.
pub(crate) const UNCODED: i64 = 0;
/// JSON-RPC's invalid request: an envelope the SDK refuses.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's method not found.
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC's invalid params (an unknown tool among them, and v1.7.0's unknown resource).
pub(crate) const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC's internal error, as a fault or a shutdown answers a call.
pub(crate) const INTERNAL_ERROR: i64 = -32603;
/// MCP's resource not found, as v1.6.1 answers an unknown resource.
pub(crate) const RESOURCE_NOT_FOUND: i64 = -32002;
/// v1.7.0's code for a header that disagrees with the body (or is missing).
pub(crate) const HEADER_MISMATCH: i64 = -32020;
/// v1.7.0's code for capabilities a method needs that the client did not declare.
pub(crate) const MISSING_CLIENT_CAPABILITIES: i64 = -32021;
/// v1.7.0's code for a per-request protocol version it does not speak.
pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
