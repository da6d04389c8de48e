//! The repairs SL201 and SL203 offer for an invalid `$id`, in the mode the settings choose.

use super::UnitContext;
use crate::fix::{Applicability, Fix};
use crate::lint::FixIdMode;
use crate::rename::{rename_edits, unique_id};
use crate::uri::underscore_repair;

/// The fix for the invalid `$id` of the resource rooted at `pointer` in the unit's file.
pub(crate) fn invalid_id_fix(cx: &UnitContext<'_>, pointer: &str) -> Option<Fix> {
    let resource = cx.run.index.resource_at(cx.file.id, pointer)?;
    resource_id_fix(cx, resource)
}

/// The fix for the invalid `$id` of `resource` (anywhere in the run).
pub(crate) fn resource_id_fix(cx: &UnitContext<'_>, resource: usize) -> Option<Fix> {
    let index = cx.run.index;
    let res = &index.resources[resource];
    let value = res.id.as_ref()?.raw.as_str();
    let keyword = res.draft.id_keyword();
    match cx.settings.fix_id {
        FixIdMode::Defs => crate::defs_fix::defs_fix(cx.run, resource),
        FixIdMode::Underscore => {
            let repaired = underscore_repair(value)?;
            let new = unique_id(index, resource, &repaired);
            let edits = rename_edits(cx.run, resource, &new);
            let ref_count = edits.len() - 1;
            let title = match ref_count {
                0 => format!("Rename `{keyword}` `{value}` to `{new}`"),
                1 => {
                    format!("Rename `{keyword}` `{value}` to `{new}` and the `$ref` that names it")
                }
                n => format!(
                    "Rename `{keyword}` `{value}` to `{new}` and the {n} `$ref`s that name it"
                ),
            };
            Some(Fix {
                title,
                applicability: Applicability::Safe,
                edits,
                moves: Vec::new(),
            })
        }
    }
}
