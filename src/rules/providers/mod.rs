//! `SL7xx`: what hosts and model providers accept of a tool's schema (strict function calling,
//! Anthropic's and Gemini's subsets, Bedrock, and the hosts that forward tools to them). Each
//! rule names the clients it is about in its doc's scope line (`Clients: openai-strict`), so it
//! runs only when one of them is selected (`--clients`); its classes' breaks are documented in
//! the doc's `breaks` block, with sources, or measured by the engine tier on the clients' open
//! code.

mod gemini;
mod gemini_code;
mod gemini_fixes;
mod gemini_inline;
mod listing;
pub(crate) mod strict;

pub(super) mod sl701_strict_object_shape;
pub(super) mod sl702_strict_unsupported_keyword;
pub(super) mod sl703_strict_limits;
pub(super) mod sl704_root_combinator;
pub(super) mod sl705_anthropic_strict_unsupported;
pub(super) mod sl706_request_limits;
pub(super) mod sl707_gemini_parameters;
pub(super) mod sl708_gemini_json_schema;
pub(super) mod sl709_bedrock_tool_spec;
pub(super) mod sl710_tool_name;
pub(super) mod sl711_array_without_items;
pub(super) mod sl712_provider_refused_shape;
