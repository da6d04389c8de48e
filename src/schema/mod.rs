//! JSON Schema on top of the span tree: dialects ([`dialect`]), where the schemas of a file are
//! ([`units`]), the subschemas of a schema per draft ([`walk`]), the `$defs` model ([`defs`]),
//! the tree as the `jsonschema` crate's JSON representation ([`json_view`]), and two versions of a
//! schema compared ([`compat`]).

pub mod compat;
pub mod defs;
pub mod dialect;
pub mod json_view;
pub mod units;
pub mod walk;
