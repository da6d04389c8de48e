//! Structured: runs of JSON Schemas built by the generator of `tests/it/gen` (ids valid and not,
//! refs, `$defs`, anchors, properties, items, `tools/list` documents, varied formatting), through
//! the same pipeline and checks as the property tests.

#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use schema_lint_fuzz::gen::{check::check, check::Knobs, generated};

fuzz_target!(|data: &[u8]| {
    let Ok(g) = generated(&mut Unstructured::new(data)) else {
        return;
    };
    let knobs = Knobs {
        default_draft: g.default_draft,
        fix_id_defs: g.fix_id_defs,
        target: g.target,
        unsafe_fixes: g.unsafe_fixes,
    };
    check(&g.files, knobs, true);
});
