//! `SL2xx`: `$id`, `$anchor` and `$dynamicAnchor`.

mod ajv_ids;
pub(super) mod sl201_invalid_id_uri;
pub(super) mod sl202_id_has_fragment;
pub(super) mod sl203_urn_not_portable;
pub(super) mod sl204_duplicate_id;
pub(super) mod sl205_invalid_anchor;
pub(super) mod sl206_id_not_normalized;
pub(super) mod sl207_id_beside_ref;
