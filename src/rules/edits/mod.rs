//! Edits that the fixes of several rules share: renaming a `$id` with every `$ref` that names it
//! ([`rename`]), repairing an invalid `$id` ([`id_fix`]), reaching a subschema through the
//! root's `$defs` instead of its `$id` ([`defs_fix`]), moving a subschema into the root's `$defs`
//! in the file's own style ([`relocate`]), moving the target of a `$ref` there with every
//! reference into it ([`hoist`]), removing an object's member in its layout ([`members`]),
//! removing an array's repeated values ([`dedupe`]), and writing a `$ref`'s target out where the
//! reference was ([`inline`]).

pub mod dedupe;
pub mod defs_fix;
pub mod hoist;
pub mod id_fix;
pub mod inline;
pub mod members;
pub(crate) mod relocate;
pub mod rename;
