//! Embeds every rule doc of `rules/` in the binary: writes `docs.rs` into `OUT_DIR` with one
//! `(code, include_str!(...))` pair per `rules/<CODE>.md`, sorted by code.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut codes: Vec<String> = std::fs::read_dir(&dir)
        .expect("the rules/ folder")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".md").map(str::to_owned)
        })
        .collect();
    codes.sort();
    let mut out = String::from("&[\n");
    for code in codes {
        let path = dir.join(format!("{code}.md"));
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            out,
            "    ({code:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push(']');
    let target = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("docs.rs");
    std::fs::write(target, out).expect("write docs.rs");
}
