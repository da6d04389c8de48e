//! `SL4xx`: `$schema`, the dialect in force and its keywords.

pub(crate) mod ancestry;
mod sl401_root_required;
pub(super) mod sl401_schema_invalid;
mod sl402_respell;
pub(super) mod sl402_unknown_dialect;
pub(super) mod sl403_dialect_keyword_mismatch;
pub(super) mod sl404_nested_schema_keyword;
pub(super) mod sl405_empty_enum;
pub(super) mod sl406_pattern_not_portable;
