//! Edits that the fixes of several rules share: renaming a `$id` with every `$ref` that names it
//! ([`rename`]), repairing an invalid `$id` ([`id_fix`]), and reaching a subschema through the
//! root's `$defs` instead of its `$id` ([`defs_fix`]).

pub mod defs_fix;
pub mod id_fix;
pub mod rename;
