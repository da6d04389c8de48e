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
mod sl508_values;
pub(super) mod sl509_required_with_default;
pub(super) mod sl510_listing_envelope;
pub(super) mod sl511_constructor_property;
