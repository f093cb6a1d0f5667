//! JSON-RPC as production's Go SDK speaks it, for every transport: reading messages, the
//! envelope checks and their refusals, and answers written byte for byte as Go writes them.

pub(crate) mod codes;
mod message;
mod methods;

pub(crate) use codes::{
    INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, RESOURCE_NOT_FOUND, UNCODED,
};
pub(crate) use message::{
    Id, Message, Request, RpcError, decode, error_message, kind, read_batch, result_message,
};
pub(crate) use methods::{Method, Refusal, check};
