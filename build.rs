//! Generates, into `OUT_DIR`, everything that would otherwise be written twice about the rules:
//!
//! - `docs.rs`: one `(code, start, end)` per `rules/<CODE>.md`, sorted by code, where its text is
//!   in `texts.z` (every doc and client page in one text, deflated), as the file holds it but for
//!   its scope line (below), which is metadata, not prose;
//! - `rule_meta.rs`: each rule's metadata (`pub static SL201: RuleMeta`, and `ALL` in code
//!   order), read from its doc's header, the one place it is declared:
//!   `# CODE name`, then `Category: … · Severity: … · Fix: …[ · Default: off]`, then, where the
//!   rule does not lint every schema for every target, `[Targets: …][ · Roles: …][ · Clients: …]`
//!   (see [`scope`]), then the summary;
//! - `registry.rs`: the rules that lint, one `&family::module::Type` per `impl Rule for Type` in
//!   `src/rules/<family>/slNNN_<name>.rs`, in code order;
//! - `classes.rs`: the engine tier's model, `testdata/engines/breaks.json` (which clients each
//!   class of findings breaks, and how), as one constant per class (`SL201/malformed-scheme` is
//!   `SL201_MALFORMED_SCHEME`), so a rule cannot name a class the tier has no case of, and `ALL`,
//!   sorted by class.

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

    // Every rule doc and client page, in one text, deflated: `texts.z` (the docs are a third of
    // a megabyte of Markdown, which the shipped binary's size bound cannot afford as it is).
    let mut blob = String::new();
    let mut embedded = String::from("&[\n");
    let mut metas = String::new();
    let mut all = String::from(
        "/// Every rule's metadata, in code order.\npub static ALL: &[&RuleMeta] = &[\n",
    );
    let mut documented = Model::new();
    for code in &codes {
        let path = docs.join(format!("{code}.md"));
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("a rule doc");
        let header = header(&text).unwrap_or_else(|e| panic!("rules/{code}.md: {e}"));
        documented_breaks(code, &text, &mut documented);
        let served = match &header.scope_line {
            Some(line) => text.replacen(&format!("{line}\n\n"), "", 1),
            None => text.clone(),
        };
        let start = blob.len();
        blob.push_str(&served);
        let _ = writeln!(embedded, "    ({code:?}, {start}, {}),", blob.len());
        assert_eq!(
            header.code, *code,
            "rules/{code}.md: the title names another code"
        );
        let _ = writeln!(
            metas,
            "/// {code} `{name}`: {summary}\n#[allow(clippy::doc_markdown)]\npub static {code}: RuleMeta = RuleMeta {{\n    \
             code: {code:?},\n    name: {name:?},\n    summary: {summary:?},\n    \
             category: Category::{category},\n    severity: Severity::{severity},\n    \
             fix: FixAvailability::{fix},\n    default_enabled: {enabled},\n    scope: {scope},\n}};\n",
            name = header.name,
            summary = header.summary,
            category = header.category,
            severity = header.severity,
            fix = header.fix,
            enabled = header.default_enabled,
            scope = scope(&header),
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
        "classes.rs",
        &classes(&root.join("testdata/engines/breaks.json"), &documented),
    );
    write(
        &out_dir,
        "clients.rs",
        &client_pages(&root.join("rules/clients"), &mut blob),
    );
    let deflated = miniz_oxide::deflate::compress_to_vec(blob.as_bytes(), 10);
    let path = Path::new(&out_dir).join("texts.z");
    if std::fs::read(&path).ok().as_deref() != Some(&deflated[..]) {
        std::fs::write(&path, deflated).expect("OUT_DIR is writable");
    }
}

/// Classes and their breaks, as `breaks.json` holds them.
type Model = serde_json::Map<String, serde_json::Value>;

/// The documented breaks a rule doc declares, in its ```` ```breaks ```` blocks (JSON of
/// `breaks.json`'s shape, each entry with `source`, what backs it: see [`documented_entry`]),
/// added to `into`.
fn documented_breaks(code: &str, doc: &str, into: &mut Model) {
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```breaks" {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        let model: Model = serde_json::from_str(&block.join("\n"))
            .unwrap_or_else(|e| panic!("rules/{code}.md: a `breaks` block: {e}"));
        for (class, entries) in model {
            assert!(
                class.starts_with(&format!("{code}/")),
                "rules/{code}.md: the `breaks` block names `{class}`, another rule's class"
            );
            let list = entries
                .as_array()
                .unwrap_or_else(|| panic!("rules/{code}.md: `{class}` is not a list"));
            for entry in list {
                if let Err(e) = documented_entry(entry) {
                    panic!("rules/{code}.md: `{class}`: {e}");
                }
            }
            let slot = into
                .entry(class)
                .or_insert_with(|| serde_json::Value::Array(Vec::new()));
            slot.as_array_mut()
                .expect("a list")
                .extend(list.iter().cloned());
        }
    }
}

/// Checks one documented break of a `breaks` block (its `versions`, where it holds for some of
/// the client's versions only, are checked where the table is written: see [`versions`]):
/// `source` is a list of what backs it, each
/// `{"url": "https://…", "quote": "…", "read": "YYYY-MM-DD"}` (the sentence or error text of the
/// source that backs the claim, and the day it was read there), and the client's words the note
/// quotes (`detail`, when there are any) are words of those quotes: each piece of it between
/// `…` is in one quote.
fn documented_entry(entry: &serde_json::Value) -> Result<(), String> {
    let sources = entry["source"].as_array().map_or(&[][..], Vec::as_slice);
    if sources.is_empty() {
        return Err("a documented break needs `source`, a list of `{url, quote, read}`".into());
    }
    let mut quotes = Vec::new();
    for source in sources {
        let field = |key: &str| source[key].as_str().unwrap_or_default();
        let (url, quote, read) = (field("url"), field("quote"), field("read"));
        if !url.starts_with("https://") {
            return Err(format!("a source needs `url`, an https URL: `{source}`"));
        }
        if quote.trim().is_empty() {
            return Err(format!(
                "`{url}` needs `quote`, the words of it that back the claim"
            ));
        }
        if !is_date(read) {
            return Err(format!(
                "`{url}` needs `read`, the day it was read (`YYYY-MM-DD`)"
            ));
        }
        quotes.push(quote);
    }
    let detail = entry["detail"].as_str().unwrap_or_default();
    if let Some(piece) = unquoted(detail, &quotes) {
        return Err(format!(
            "the detail's words `{piece}` are in none of its sources' quotes"
        ));
    }
    Ok(())
}

/// The `Versions { .. }` of an entry's `versions`, `{"from": "2.1.260", "until": null}`: the
/// client's versions the behaviour holds for, from the first it was seen in up to the one that
/// fixed it (excluded), each end a dotted version or `null` (open); every version when absent.
fn versions(value: &serde_json::Value) -> Result<String, String> {
    if value.is_null() {
        return Ok("Versions::ALL".to_owned());
    }
    let object = value
        .as_object()
        .ok_or("`versions` must be `{\"from\": …, \"until\": …}`")?;
    if let Some(key) = object.keys().find(|k| *k != "from" && *k != "until") {
        return Err(format!("`versions` has `{key}`: only `from` and `until`"));
    }
    let mut ends = Vec::new();
    for key in ["from", "until"] {
        match &object.get(key) {
            None | Some(serde_json::Value::Null) => ends.push("None".to_owned()),
            Some(serde_json::Value::String(v)) if is_version(v) => {
                ends.push(format!("Some({v:?})"));
            }
            Some(other) => {
                return Err(format!(
                    "`versions.{key}` must be a version (`2.1.260`) or null, not `{other}`"
                ))
            }
        }
    }
    if ends.iter().all(|e| e == "None") {
        return Err("`versions` names neither end: leave it out".to_owned());
    }
    Ok(format!(
        "Versions {{ from: {}, until: {} }}",
        ends[0], ends[1]
    ))
}

/// Numbers separated by dots, as `Versions` compares them.
fn is_version(text: &str) -> bool {
    !text.is_empty()
        && text
            .split('.')
            .all(|p| !p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// `YYYY-MM-DD`.
fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}

/// The first piece of `detail` (split at `…`, the words it leaves out) that no quote holds.
fn unquoted<'a>(detail: &'a str, quotes: &[&str]) -> Option<&'a str> {
    detail
        .split('…')
        .map(str::trim)
        .filter(|piece| !piece.is_empty())
        .find(|piece| !quotes.iter().any(|q| q.contains(piece)))
}

/// `PAGES`: every client's page, `rules/clients/<name>.md`, as `(name, text)`; a client
/// without one does not build.
fn client_pages(dir: &Path, blob: &mut String) -> String {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut out = String::from(
        "/// Every client's page, in client order: its name, and where its text is in `texts.z`.\n\
         pub static PAGES: &[(&str, usize, usize)] = &[\n",
    );
    for (name, _) in CLIENTS {
        let path = dir.join(format!("{name}.md"));
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (every client has a page)", path.display()));
        assert!(
            text.starts_with(&format!("# {name}\n")),
            "{}: the first line must be `# {name}`",
            path.display()
        );
        let start = blob.len();
        blob.push_str(&text);
        let _ = writeln!(out, "    ({name:?}, {start}, {}),", blob.len());
    }
    out.push_str("];\n");
    out
}

/// The constant that names a class: `SL201/malformed-scheme` -> `SL201_MALFORMED_SCHEME`,
/// `SL303/meta-schema:draft7>2020-12` -> `SL303_META_SCHEMA_DRAFT7_2020_12`.
fn constant(class: &str) -> String {
    let mut out = String::new();
    for c in class.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_uppercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_owned()
}

/// `pub const SL201_MALFORMED_SCHEME: Class = Class { name: .., breaks: &[Break { .. }, ...] };`
/// for every class of the engine tier's `breaks.json` (`{class: [{"client", "effect",
/// "detail"}]}`, measured) and of the rule docs' `breaks` blocks (documented, with `source`), and
/// `ALL`, every class sorted by name. A client the tier measured for a class keeps only its
/// measured breaks there.
fn classes(path: &Path, documented: &Model) -> String {
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (tests/integration/engines.sh --write makes it)",
            path.display()
        )
    });
    let mut model: Model =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for (class, entries) in documented {
        let slot = model
            .entry(class.clone())
            .or_insert_with(|| serde_json::Value::Array(Vec::new()));
        let list = slot.as_array_mut().expect("a list");
        let measured: Vec<String> = list
            .iter()
            .filter_map(|e| e["client"].as_str().map(str::to_owned))
            .collect();
        for entry in entries.as_array().expect("a list") {
            let client = entry["client"].as_str().unwrap_or_default();
            if !measured.iter().any(|m| m == client) {
                list.push(entry.clone());
            }
        }
        // The order reports list clients in, then as declared.
        list.sort_by_key(|e| {
            let client = e["client"].as_str().unwrap_or_default();
            CLIENTS.iter().position(|(n, _)| *n == client)
        });
    }
    let mut classes: Vec<_> = model.iter().collect();
    classes.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = String::new();
    let mut all = String::from("/// Every class, sorted by name.\npub static ALL: &[Class] = &[\n");
    let mut names = std::collections::BTreeSet::new();
    for (class, entries) in classes {
        let name = constant(class);
        assert!(
            names.insert(name.clone()),
            "{class}: another class has the constant name `{name}`"
        );
        let _ = writeln!(all, "    {name},");
        let _ = write!(
            out,
            "/// `{class}`.\npub const {name}: Class = Class {{ name: {class:?}, breaks: &["
        );
        for entry in entries
            .as_array()
            .unwrap_or_else(|| panic!("{class}: not a list"))
        {
            let field = |key: &str| {
                entry[key]
                    .as_str()
                    .unwrap_or_else(|| panic!("{class}: an entry without `{key}`"))
            };
            let client = CLIENTS
                .iter()
                .find(|(n, _)| *n == field("client"))
                .unwrap_or_else(|| panic!("{class}: unknown client `{}`", field("client")))
                .1;
            let effect = EFFECTS
                .iter()
                .find(|(n, _)| *n == field("effect"))
                .unwrap_or_else(|| panic!("{class}: unknown effect `{}`", field("effect")))
                .1;
            let evidence = match entry["source"].as_array() {
                None => "Evidence::Measured".to_owned(),
                Some(sources) => {
                    let list = |key: &str| {
                        let items: Vec<String> = sources
                            .iter()
                            .map(|s| format!("{:?}", s[key].as_str().expect("checked")))
                            .collect();
                        items.join(", ")
                    };
                    format!(
                        "Evidence::Documented {{ sources: &[{}], quotes: &[{}], read: &[{}] }}",
                        list("url"),
                        list("quote"),
                        list("read")
                    )
                }
            };
            let versions = versions(&entry["versions"])
                .unwrap_or_else(|e| panic!("{class}: `{}`: {e}", field("client")));
            let _ = write!(
                out,
                "Break {{ client: Client::{client}, effect: Effect::{effect}, detail: {:?}, \
                 evidence: {evidence}, versions: {versions} }}, ",
                field("detail")
            );
        }
        out.push_str("] };\n");
    }
    all.push_str("];\n");
    out.push_str(&all);
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
    /// The `Targets: … · Roles: … · Clients: …` line, as written, when there is one.
    scope_line: Option<String>,
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
    let mut summary = lines.next().ok_or("missing the summary line")?;
    let mut scope_line = None;
    if ["Targets: ", "Roles: ", "Clients: ", "Grouped: "]
        .iter()
        .any(|k| summary.starts_with(k))
    {
        scope_line = Some(summary.to_owned());
        summary = lines.next().ok_or("missing the summary line")?;
    }
    let summary = summary.trim();
    Ok(Header {
        code: code.to_owned(),
        name: name.to_owned(),
        category,
        severity,
        fix,
        default_enabled,
        scope_line,
        summary: summary.to_owned(),
    })
}

const TARGETS: [(&str, &str); 4] = [
    ("mcp-2025-06-18", "Mcp20250618"),
    ("mcp-2025-11-25", "Mcp20251125"),
    ("mcp-2026-07-28", "Mcp20260728"),
    ("json-schema", "JsonSchema"),
];
const ROLES: [(&str, &str); 3] = [
    ("input", "InputSchema"),
    ("output", "OutputSchema"),
    ("schema", "Schema"),
];
/// Every client, as `src/diagnostic/breaks.rs` lists them (`Client::ALL`), with its variant.
const CLIENTS: [(&str, &str); 36] = [
    ("ts-sdk-v1", "TsSdkV1"),
    ("ts-sdk-v2", "TsSdkV2"),
    ("python-sdk", "PythonSdk"),
    ("python-sdk+format", "PythonSdkFormat"),
    ("python-sdk-v1", "PythonSdkV1"),
    ("jsonschema-rs", "JsonschemaRs"),
    ("claude-code", "ClaudeCode"),
    ("claude-desktop", "ClaudeDesktop"),
    ("vscode-copilot", "VscodeCopilot"),
    ("cursor", "Cursor"),
    ("gemini-cli", "GeminiCli"),
    ("codex", "Codex"),
    ("openai-agents", "OpenaiAgents"),
    ("qwen-code", "QwenCode"),
    ("openclaw", "Openclaw"),
    ("openclaude", "Openclaude"),
    ("llxprt-code", "LlxprtCode"),
    ("pi-mcp-adapter", "PiMcpAdapter"),
    ("mastra", "Mastra"),
    ("openai", "Openai"),
    ("openai-strict", "OpenaiStrict"),
    ("anthropic", "Anthropic"),
    ("anthropic-strict", "AnthropicStrict"),
    ("gemini", "Gemini"),
    ("gemini-jsonschema", "GeminiJsonschema"),
    ("bedrock", "Bedrock"),
    ("mistral", "Mistral"),
    ("ollama", "Ollama"),
    ("moonshot", "Moonshot"),
    ("xai", "Xai"),
    ("lmstudio", "Lmstudio"),
    ("dashscope", "Dashscope"),
    ("deepseek", "Deepseek"),
    ("kuadrant", "Kuadrant"),
    ("visual-studio", "VisualStudio"),
    ("vscode-json", "VscodeJson"),
];
/// Every effect, as `Effect` names them.
const EFFECTS: [(&str, &str); 11] = [
    ("compile-error", "CompileError"),
    ("unresolved-reference", "UnresolvedReference"),
    ("wrong-binding", "WrongBinding"),
    ("rejects-valid-output", "RejectsValidOutput"),
    ("accepts-invalid-output", "AcceptsInvalidOutput"),
    ("loses-tool-list", "LosesToolList"),
    ("loses-tool", "LosesTool"),
    ("rejects-request", "RejectsRequest"),
    ("loses-strict", "LosesStrict"),
    ("rewrites-schema", "RewritesSchema"),
    ("fetches-remote", "FetchesRemote"),
];

/// The `Scope { .. }` of a rule from its header's scope line: `Targets:` lists target names (or
/// `mcp`, every MCP revision), each possibly with the rule's severity for it in parentheses
/// (`mcp-2026-07-28 (warning)`); `Roles:` lists `input`, `output` (a tool's schemas) and
/// `schema` (a schema file); `Clients:` lists clients. What the line leaves out is every one,
/// each target at the rule's severity. `Grouped: listing` makes the findings of the rule that
/// share a class in several tools of a `tools/list` document one finding (`engine::group`).
fn scope(header: &Header) -> String {
    let code = &header.code;
    let mut targets: Vec<(String, String)> = TARGETS
        .iter()
        .map(|(_, v)| ((*v).to_owned(), header.severity.clone()))
        .collect();
    let mut roles: Vec<&str> = ROLES.iter().map(|(_, v)| *v).collect();
    let mut clients: Vec<&str> = CLIENTS.iter().map(|(_, v)| *v).collect();
    let pick = |table: &[(&'static str, &'static str)], name: &str| {
        table.iter().find(|(n, _)| *n == name).map_or_else(
            || panic!("rules/{code}.md: unknown `{name}` in the scope line"),
            |(_, v)| *v,
        )
    };
    let mut grouped = false;
    let mut expected = ["Targets", "Roles", "Clients", "Grouped"].iter();
    for field in header.scope_line.iter().flat_map(|l| l.split(" · ")) {
        let (key, list) = field
            .split_once(": ")
            .unwrap_or_else(|| panic!("rules/{code}.md: `{field}` is not `Key: …`"));
        assert!(
            expected.any(|k| *k == key),
            "rules/{code}.md: `{key}` out of place in the scope line (Targets · Roles · Clients · Grouped)"
        );
        let items = list.split(", ").map(str::trim);
        match key {
            "Targets" => {
                targets.clear();
                for item in items {
                    let (name, severity) = match item.split_once(" (") {
                        Some((name, s)) => (name, variant(s.trim_end_matches(')'))),
                        None => (item, header.severity.clone()),
                    };
                    if name == "mcp" {
                        for (_, v) in &TARGETS[..3] {
                            targets.push(((*v).to_owned(), severity.clone()));
                        }
                    } else {
                        targets.push((pick(&TARGETS, name).to_owned(), severity));
                    }
                }
            }
            "Roles" => roles = items.map(|r| pick(&ROLES, r)).collect(),
            "Grouped" => {
                assert!(
                    list == "listing",
                    "rules/{code}.md: `Grouped: {list}`: the one grouping is `Grouped: listing`"
                );
                grouped = true;
            }
            _ => clients = items.map(|c| pick(&CLIENTS, c)).collect(),
        }
    }
    let targets: Vec<String> = targets
        .iter()
        .map(|(t, s)| format!("TargetSeverity {{ target: Target::{t}, severity: Severity::{s} }}"))
        .collect();
    let roles: Vec<String> = roles.iter().map(|r| format!("Role::{r}")).collect();
    let clients: Vec<String> = clients.iter().map(|c| format!("Client::{c}")).collect();
    format!(
        "Scope {{ targets: &[{}], roles: &[{}], clients: &[{}], grouped: {grouped} }}",
        targets.join(", "),
        roles.join(", "),
        clients.join(", ")
    )
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
