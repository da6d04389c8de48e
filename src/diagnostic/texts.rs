//! The rule docs and client pages embedded in the binary: one text, deflated by `build.rs`
//! (`texts.z`), inflated once, the first time a command reads a doc or a page (`schema-lint
//! rule`, `clients`, a SARIF report's help); a check that reads none pays nothing.

use std::sync::OnceLock;

static DEFLATED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/texts.z"));

/// Every doc and page, one after another; [`slice`] cuts one out.
fn all() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let bytes =
            miniz_oxide::inflate::decompress_to_vec(DEFLATED).expect("build.rs deflated the texts");
        String::from_utf8(bytes).expect("the texts are UTF-8")
    })
}

/// The text `build.rs` placed at `start..end` (bytes), as its tables give them.
#[must_use]
pub fn slice(start: usize, end: usize) -> &'static str {
    &all()[start..end]
}
