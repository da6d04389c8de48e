//! Generates, into `OUT_DIR`, everything that would otherwise be written twice about the rules:
//!
//! - `docs.rs`: one `(code, include_str!(...))` pair per `rules/<CODE>.md`, sorted by code;
//! - `rule_meta.rs`: each rule's metadata (`pub static SL201: RuleMeta`, and `ALL` in code
//!   order), read from its doc's header, the one place it is declared:
//!   `# CODE name`, then `Category: … · Severity: … · Fix: …[ · Default: off]`, then the summary;
//! - `registry.rs`: the rules that lint, one `&family::module::Type` per `impl Rule for Type` in
//!   `src/rules/<family>/slNNN_<name>.rs`, in code order;
//! - `breaks.rs`: the engine tier's model, `testdata/engines/breaks.json` (which clients each
//!   class of findings breaks, and how), as `(class, &[Break])` pairs sorted by class.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    let docs = root.join("rules");
    println!("cargo:rerun-if-changed={}", docs.display());
    let mut codes: Vec<String> = std::fs::read_dir(&docs)
        .expect("the rules/ folder")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".md").map(str::to_owned)
        })
        .collect();
    codes.sort();

    let mut embedded = String::from("&[\n");
    let mut metas = String::new();
    let mut all = String::from(
        "/// Every rule's metadata, in code order.\npub static ALL: &[&RuleMeta] = &[\n",
    );
    for code in &codes {
        let path = docs.join(format!("{code}.md"));
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            embedded,
            "    ({code:?}, include_str!({:?})),",
            path.display().to_string()
        );
        let text = std::fs::read_to_string(&path).expect("a rule doc");
        let header = header(&text).unwrap_or_else(|e| panic!("rules/{code}.md: {e}"));
        assert_eq!(
            header.code, *code,
            "rules/{code}.md: the title names another code"
        );
        let _ = writeln!(
            metas,
            "/// {code} `{name}`: {summary}\n#[allow(clippy::doc_markdown)]\npub static {code}: RuleMeta = RuleMeta {{\n    \
             code: {code:?},\n    name: {name:?},\n    summary: {summary:?},\n    \
             category: Category::{category},\n    severity: Severity::{severity},\n    \
             fix: FixAvailability::{fix},\n    default_enabled: {enabled},\n}};\n",
            name = header.name,
            summary = header.summary,
            category = header.category,
            severity = header.severity,
            fix = header.fix,
            enabled = header.default_enabled,
        );
        let _ = writeln!(all, "    &{code},");
    }
    embedded.push(']');
    all.push_str("];\n");
    metas.push_str(&all);
    write(&out_dir, "docs.rs", &embedded);
    write(&out_dir, "rule_meta.rs", &metas);
    write(&out_dir, "registry.rs", &registry(&root.join("src/rules")));
    write(
        &out_dir,
        "breaks.rs",
        &breaks(&root.join("testdata/engines/breaks.json")),
    );
}

/// `&[("SL201/malformed-scheme", &[Break { .. }, ...]), ...]` from the engine tier's
/// `breaks.json`: `{class: [{"client", "effect", "detail"}]}`.
fn breaks(path: &Path) -> String {
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (tests/integration/engines.sh --write makes it)",
            path.display()
        )
    });
    let model: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut classes: Vec<_> = model.iter().collect();
    classes.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = String::from("&[\n");
    for (class, entries) in classes {
        let _ = write!(out, "    ({class:?}, &[");
        for entry in entries
            .as_array()
            .unwrap_or_else(|| panic!("{class}: not a list"))
        {
            let field = |key: &str| {
                entry[key]
                    .as_str()
                    .unwrap_or_else(|| panic!("{class}: an entry without `{key}`"))
            };
            let client = match field("client") {
                "ts-sdk-v1" => "TsSdkV1",
                "ts-sdk-v2" => "TsSdkV2",
                "python-sdk" => "PythonSdk",
                "python-sdk+format" => "PythonSdkFormat",
                "jsonschema-rs" => "JsonschemaRs",
                other => panic!("{class}: unknown client `{other}`"),
            };
            let effect = match field("effect") {
                "compile-error" => "CompileError",
                "unresolved-reference" => "UnresolvedReference",
                "wrong-binding" => "WrongBinding",
                "rejects-valid-output" => "RejectsValidOutput",
                "accepts-invalid-output" => "AcceptsInvalidOutput",
                "loses-tool-list" => "LosesToolList",
                "loses-tool" => "LosesTool",
                other => panic!("{class}: unknown effect `{other}`"),
            };
            let _ = write!(
                out,
                "Break {{ client: Client::{client}, effect: Effect::{effect}, detail: {:?} }}, ",
                field("detail")
            );
        }
        out.push_str("]),\n");
    }
    out.push(']');
    out
}

fn write(dir: &str, name: &str, text: &str) {
    std::fs::write(Path::new(dir).join(name), text).expect("write into OUT_DIR");
}

struct Header {
    code: String,
    name: String,
    category: String,
    severity: String,
    fix: String,
    default_enabled: bool,
    summary: String,
}

/// The header of a rule doc, with its values as the Rust variants they name.
fn header(doc: &str) -> Result<Header, String> {
    let mut lines = doc.lines().filter(|l| !l.trim().is_empty());
    let title = lines.next().ok_or("empty doc")?;
    let (code, name) = title
        .strip_prefix("# ")
        .and_then(|t| t.split_once(' '))
        .ok_or("the first line must be `# CODE name`")?;
    let facts = lines.next().ok_or("missing the `Category: …` line")?;
    let mut fields = facts.split(" · ").map(|f| f.split_once(": "));
    let mut field = |key: &str| match fields.next().flatten() {
        Some((k, v)) if k == key => Ok(variant(v.trim())),
        _ => Err(format!("expected `{key}: …` in `{facts}`")),
    };
    let category = field("Category")?;
    let severity = field("Severity")?;
    let fix = field("Fix")?;
    let default_enabled = match fields.next() {
        None | Some(Some(("Default", "on"))) => true,
        Some(Some(("Default", "off"))) => false,
        Some(_) => {
            return Err(format!(
                "expected `Default: on|off` at the end of `{facts}`"
            ))
        }
    };
    let summary = lines.next().ok_or("missing the summary line")?.trim();
    Ok(Header {
        code: code.to_owned(),
        name: name.to_owned(),
        category,
        severity,
        fix,
        default_enabled,
        summary: summary.to_owned(),
    })
}

/// `identifiers` -> `Identifiers`.
fn variant(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `&[&family::slNNN_name::Type, ...]` for every `impl Rule for Type` of a rule file.
fn registry(rules: &Path) -> String {
    println!("cargo:rerun-if-changed={}", rules.display());
    let mut found: Vec<(String, String)> = Vec::new();
    let mut families: Vec<_> = std::fs::read_dir(rules)
        .expect("src/rules")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .collect();
    families.sort_by_key(std::fs::DirEntry::file_name);
    for family in families {
        let family_name = family
            .file_name()
            .into_string()
            .expect("a UTF-8 folder name");
        let mut files: Vec<_> = std::fs::read_dir(family.path())
            .expect("a rule family folder")
            .filter_map(Result::ok)
            .collect();
        files.sort_by_key(std::fs::DirEntry::file_name);
        for file in files {
            let name = file.file_name().into_string().expect("a UTF-8 file name");
            let Some(module) = name.strip_suffix(".rs") else {
                continue;
            };
            let is_rule_file = module.len() > 6
                && module.starts_with("sl")
                && module[2..5].bytes().all(|b| b.is_ascii_digit())
                && module.as_bytes()[5] == b'_';
            if !is_rule_file {
                continue;
            }
            println!("cargo:rerun-if-changed={}", file.path().display());
            let text = std::fs::read_to_string(file.path()).expect("a rule file");
            for line in text.lines() {
                let Some(rest) = line.trim().strip_prefix("impl Rule for ") else {
                    continue;
                };
                let ty: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                found.push((
                    module[..5].to_ascii_uppercase(),
                    format!("&{family_name}::{module}::{ty}"),
                ));
            }
        }
    }
    found.sort();
    let mut out = String::from("&[\n");
    for (_, path) in found {
        let _ = writeln!(out, "    {path},");
    }
    out.push(']');
    out
}
