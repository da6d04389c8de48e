//! The parse-only baseline of the benchmark: discover the same files as `schema-lint`, read and
//! parse each strictly (the same parser, in parallel, as a lint run does), nothing else. With
//! `--serde`, each file is parsed by `serde_json` into a `Value` instead: the plain parse issue 31
//! measures the check against.
//! Usage: `cargo run --release --example parse_only -- [--serde] PATHS...`

use rayon::prelude::*;
use std::path::PathBuf;

fn main() {
    let mut serde = false;
    let paths: Vec<PathBuf> = std::env::args_os()
        .skip(1)
        .filter(|a| {
            let flag = a == "--serde";
            serde |= flag;
            !flag
        })
        .map(PathBuf::from)
        .collect();
    let files = schema_lint::workspace::discover::discover(&paths, &|_| true).files;
    let (bytes, parsed) = files
        .par_iter()
        .map(|c| match std::fs::read(&c.path) {
            Ok(b) => {
                let ok = std::str::from_utf8(&b).is_ok_and(|t| {
                    if serde {
                        serde_json::from_str::<serde_json::Value>(t).is_ok()
                    } else {
                        schema_lint::syntax::document::parse(t).is_ok()
                    }
                });
                (b.len(), usize::from(ok))
            }
            Err(_) => (0, 0),
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    println!("{} files, {parsed} parsed, {bytes} bytes", files.len());
}
