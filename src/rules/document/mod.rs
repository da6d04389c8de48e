//! `SL1xx`: the JSON document itself (SL100 parse errors are reported by the engine while loading).

pub(super) mod sl101_duplicate_key;
