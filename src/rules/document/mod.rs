//! `SL1xx`: the JSON document itself (SL100 parse errors are reported by the engine while loading),
//! and the suppression comments of a JSONC file (SL103).

pub(super) mod sl101_duplicate_key;
pub(super) mod sl103_invalid_suppression;
