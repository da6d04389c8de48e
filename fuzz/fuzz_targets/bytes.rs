//! Arbitrary bytes: up to three files (split at form feeds, decoded as UTF-8 with replacement),
//! parsed, linted, rendered in every format, fixed and checked (`tests/it/gen/check.rs`); and the
//! same text as an `audit` capture.

#![no_main]

use libfuzzer_sys::fuzz_target;
use schema_lint_fuzz::gen::{check::check, FILES};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let files: Vec<(String, String)> = text
        .split('\u{c}')
        .zip(FILES)
        .map(|(t, name)| ((*name).to_owned(), t.to_owned()))
        .collect();
    check(&files, schema_lint_fuzz::knobs_of(data), true);
    let _ = schema_lint::audit::audit(&text, &schema_lint::audit::Options::default());
});
