//! `SL3xx`: `$ref` and `$dynamicRef`, and the `$defs` keys they name.

pub(crate) mod defs_keys;
pub(super) mod sl301_invalid_ref_uri;
pub(super) mod sl302_unresolved_ref;
pub(super) mod sl303_remote_ref;
pub(super) mod sl304_defs_key_needs_escaping;
pub(super) mod sl305_ref_outside_defs;
