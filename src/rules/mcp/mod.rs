//! `SL5xx`: MCP tool schemas (the shape clients require of an output or input schema).

pub(crate) mod shape;
pub(super) mod sl501_output_root_not_object;
pub(super) mod sl502_boolean_property_schema;
pub(super) mod sl503_required_not_declared;
pub(super) mod sl504_result_wrapper;
pub(super) mod sl505_closed_output_object;
pub(super) mod sl506_complexity;
pub(super) mod sl507_input_root_not_object;
pub(super) mod sl508_format_asserted_by_ts_clients;
// The OpenAI strict-mode checks (SL701-SL703), until the providers family exists.
#[allow(dead_code)]
pub(crate) mod strict;
#[allow(dead_code)]
pub(crate) mod strict_keywords;
#[allow(dead_code)]
pub(crate) mod strict_limits;
#[allow(dead_code)]
pub(crate) mod strict_shape;
