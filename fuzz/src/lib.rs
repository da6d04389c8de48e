//! What the fuzz targets share: the schema generator and the pipeline checks of `tests/it/gen`,
//! included as they are, so that the fuzzer and the property tests hold `--fix` to the same
//! promises.

#[path = "../../tests/it/gen/mod.rs"]
pub mod gen;

use gen::check::Knobs;

/// Knobs drawn from a hash of the input, so that the bytes themselves stay a plain document.
#[must_use]
pub fn knobs_of(data: &[u8]) -> Knobs {
    let h = data.iter().fold(0x811c_9dc5_u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    Knobs {
        default_draft: (h & 3) as u8,
        fix_id_defs: h & 4 != 0,
        target: ((h >> 3) & 3) as u8,
        unsafe_fixes: h & 32 != 0,
    }
}
