//! One verdict, every door: over every `tools/list` listing of `testdata/` (the bundled example,
//! the real dumps, the rules' and the engine tier's listings), the doors say one thing about each
//! tool and client.
//! - `matrix`'s cells are the worst verdict of the `breaks` entries that `check`'s JSON gives on
//!   the tool for that client;
//! - `check`'s severities follow the verdicts of the selected clients: an error exactly when one
//!   of them breaks (or with the rule's own severity where no client is named), and `decided_by`
//!   names the clients that made it so;
//! - the listing served by a fake MCP server gives what its file gives.
//!
//! The language server's diagnostics for a file are compared with `check`'s in `tests/it/server.rs`.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_schema-lint");
/// The clients of the measurement, beyond the default ones.
const CLIENTS: &str = "default,openai-strict,gemini,anthropic";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Every `tools/list` listing under `testdata/`, as paths relative to the repository.
fn listings() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root().join("testdata")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                // The JSON Schema Test Suite holds no listing.
                if !path.ends_with("jsts") {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let Ok(value) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            let tools = value
                .get("tools")
                .or_else(|| value.pointer("/result/tools"))
                .and_then(Value::as_array);
            if tools.is_some_and(|t| !t.is_empty() && t.iter().all(|t| t["name"].is_string())) {
                found.push(path.strip_prefix(root()).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

fn run(args: &[&str], env: &[(&str, &str)]) -> (i32, Value) {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null());
    for (k, v) in env {
        command.env(k, v);
    }
    let out = command.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "{args:?}: {e}: {text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), value)
}

fn verdict_rank(word: &str) -> u8 {
    match word {
        "works" => 0,
        "warns" => 1,
        "breaks" => 2,
        other => panic!("unknown verdict {other}"),
    }
}

/// The JSON pointer of each tool of a listing, by name.
fn tool_pointers(path: &Path) -> BTreeMap<String, String> {
    let value: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(path)).unwrap()).unwrap();
    let (tools, prefix) = match value.get("tools") {
        Some(tools) => (tools, "/tools"),
        None => (value.pointer("/result/tools").unwrap(), "/result/tools"),
    };
    tools
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (
                t["name"].as_str().unwrap().to_owned(),
                format!("{prefix}/{i}"),
            )
        })
        .collect()
}

fn within(pointer: &str, tool: &str) -> bool {
    pointer == tool || pointer.starts_with(&format!("{tool}/"))
}

#[test]
#[allow(clippy::too_many_lines, reason = "one walk over both doors' reports")]
fn matrix_cells_are_the_worst_verdict_of_checks_entries_and_severities_follow_them() {
    let listings = listings();
    assert!(listings.len() > 50, "{} listings", listings.len());
    let mut cells = 0;
    let mut claimed = 0;
    // One run of each door over every listing.
    let files: Vec<&str> = listings.iter().map(|p| p.to_str().unwrap()).collect();
    let mut args = vec![
        "--isolated",
        "--output-format",
        "json",
        "--clients",
        CLIENTS,
    ];
    args.extend(&files);
    let (_, check) = run(&[&["check"], &args[..]].concat(), &[]);
    let (matrix_exit, matrix) = run(&[&["matrix"], &args[..]].concat(), &[]);
    let mut breaks_anywhere = false;
    for path in &listings {
        let file = path.to_str().unwrap();
        let all = check["diagnostics"].as_array().unwrap();
        let diagnostics: Vec<&Value> = all.iter().filter(|d| d["path"] == file).collect();
        let selected: Vec<&str> = matrix["clients"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        // Severities follow the verdicts of the selected clients.
        for d in &diagnostics {
            let entries = d["breaks"].as_array().unwrap();
            if entries.is_empty() {
                continue;
            }
            let of = |verdict: &str| -> Vec<&str> {
                selected
                    .iter()
                    .copied()
                    .filter(|c| {
                        entries
                            .iter()
                            .filter(|b| b["client"] == *c)
                            .map(|b| b["verdict"].as_str().unwrap())
                            .max_by_key(|v| verdict_rank(v))
                            == Some(verdict)
                    })
                    .collect()
            };
            let breaking = of("breaks");
            let severity = d["severity"].as_str().unwrap();
            assert_eq!(
                severity == "error",
                !breaking.is_empty(),
                "{file}: {} at {} is {severity}, selected clients that break: {breaking:?}",
                d["code"],
                d["pointer"]
            );
            let decided: Vec<&str> = d["decided_by"]
                .as_array()
                .map(|a| a.iter().map(|c| c.as_str().unwrap()).collect())
                .unwrap_or_default();
            match severity {
                "error" => assert_eq!(decided, breaking, "{file}: {d:#}"),
                "warning" => assert_eq!(decided, of("warns"), "{file}: {d:#}"),
                _ => assert!(decided.is_empty(), "{file}: {d:#}"),
            }
            for b in entries {
                let effect = b["effect"].as_str().unwrap();
                let warns_only = matches!(
                    effect,
                    "accepts-invalid-output"
                        | "loses-strict"
                        | "rewrites-schema"
                        | "fetches-remote"
                );
                let expected = if warns_only || b["depends_on_data"] == true {
                    "warns"
                } else {
                    "breaks"
                };
                assert_eq!(b["verdict"], expected, "{file}: {b}");
            }
            claimed += 1;
        }
        // Each cell is the worst verdict of the entries on its tool (a grouped finding is on
        // each tool it names), or of a lost listing's on any tool of the document.
        let pointers = tool_pointers(path);
        let mut lost: BTreeMap<&str, u8> = BTreeMap::new();
        let mut worst: BTreeMap<(String, &str), u8> = BTreeMap::new();
        for d in &diagnostics {
            let on: Vec<&String> = pointers
                .iter()
                .filter(|(_, p)| {
                    within(d["pointer"].as_str().unwrap(), p)
                        || d["related"].as_array().is_some_and(|r| {
                            r.iter().any(|l| {
                                l["path"] == d["path"]
                                    && l["pointer"].as_str().is_some_and(|lp| within(lp, p))
                            })
                        })
                })
                .map(|(name, _)| name)
                .collect();
            for b in d["breaks"].as_array().unwrap() {
                let client = b["client"].as_str().unwrap();
                let rank = verdict_rank(b["verdict"].as_str().unwrap());
                if b["effect"] == "loses-tool-list" && !on.is_empty() {
                    let l = lost.entry(client).or_default();
                    *l = (*l).max(rank);
                }
                for name in &on {
                    let w = worst.entry(((*name).clone(), client)).or_default();
                    *w = (*w).max(rank);
                }
            }
        }
        let mut breaks_somewhere = false;
        for row in matrix["rows"].as_array().unwrap() {
            let Some(tool) = row["tool"].as_str() else {
                continue;
            };
            if row["file"] != file {
                continue;
            }
            for cell in row["cells"].as_array().unwrap() {
                let client = cell["client"].as_str().unwrap();
                let expected = worst
                    .get(&(tool.to_owned(), client))
                    .copied()
                    .unwrap_or(0)
                    .max(lost.get(client).copied().unwrap_or(0));
                let got = verdict_rank(cell["verdict"].as_str().unwrap());
                assert_eq!(got, expected, "{file}: {tool} · {client}: {cell:#}");
                breaks_somewhere |= got == 2;
                cells += 1;
            }
        }
        // Every cell that breaks is an error in `check`.
        breaks_anywhere |= breaks_somewhere;
        if breaks_somewhere {
            assert!(
                diagnostics.iter().any(|d| d["severity"] == "error"),
                "{file}: a cell breaks, and check has no error"
            );
        }
    }
    // `matrix` fails exactly when a cell breaks.
    assert_eq!(matrix_exit == 1, breaks_anywhere, "exit {matrix_exit}");
    assert!(cells > 1000, "{cells} cells");
    assert!(claimed > 100, "{claimed} findings with claims");
}

/// (code, severity, pointer, the verdict of each client) of every finding, in order.
type Said = Vec<(String, String, String, Vec<(String, String)>)>;

fn said(check: &Value) -> Said {
    check["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["severity"].as_str().unwrap().to_owned(),
                d["pointer"].as_str().unwrap().to_owned(),
                d["breaks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| {
                        (
                            b["client"].as_str().unwrap().to_owned(),
                            b["verdict"].as_str().unwrap().to_owned(),
                        )
                    })
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn a_listing_served_by_a_server_gives_what_its_file_gives() {
    let script = root().join("tests/live/fake_server.py");
    // The bundled example, the real dumps, and every listing of the rules' fixtures: the server
    // answers at 2025-11-25, and the file is linted for that revision.
    let mut chosen: Vec<PathBuf> = Vec::new();
    for path in listings() {
        // A `$ref` to another document resolves against the files beside a listing's file,
        // which a server's listing has none of.
        let text = std::fs::read_to_string(root().join(&path)).unwrap();
        if path.starts_with("testdata/engines")
            || refs_elsewhere(&serde_json::from_str(&text).unwrap())
        {
            continue;
        }
        chosen.push(path);
    }
    assert!(chosen.len() > 20, "{} listings", chosen.len());
    let mut files = vec![
        "--isolated",
        "--output-format",
        "json",
        "--clients",
        CLIENTS,
    ];
    files.extend(chosen.iter().map(|p| p.to_str().unwrap()));
    let (_, from_files) = run(
        &[&["check", "--target", "mcp-2025-11-25"], &files[..]].concat(),
        &[],
    );
    let servers: Vec<String> = chosen
        .iter()
        .map(|p| {
            format!(
                "python3 {} listing={}",
                script.display(),
                root().join(p).display()
            )
        })
        .collect();
    let mut args = vec![
        "check",
        "--isolated",
        "--output-format",
        "json",
        "--clients",
        CLIENTS,
    ];
    for server in &servers {
        args.push("--server");
        args.push(server);
    }
    let (code, live) = run(&args, &[]);
    assert_ne!(code, 2, "{live:#}");
    let mut compared = 0;
    for (path, server) in chosen.iter().zip(&servers) {
        let file = path.to_str().unwrap();
        let of = |report: &Value, name: &str| -> Value {
            let mine: Vec<Value> = report["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["path"] == name)
                .cloned()
                .collect();
            serde_json::json!({"diagnostics": mine})
        };
        let from_file = of(&from_files, file);
        let live = of(&live, server);
        // A dump's pointers and a server's are under `/result/tools`, a bare listing's under
        // `/tools`; what only a file has is its JSON text (duplicate keys, a BOM, how it is
        // written: SL1xx).
        // The order of findings follows their place in the text, which a server writes its own
        // way: compared as sets.
        let normal = |found: Said| -> Said {
            let mut found: Said = found
                .into_iter()
                .filter(|f| !f.0.starts_with("SL1"))
                .map(|mut f| {
                    if let Some(rest) = f.2.strip_prefix("/result") {
                        f.2 = rest.to_owned();
                    }
                    f
                })
                .collect();
            found.sort();
            found
        };
        // A file whose text a server could not send as it is (a repeated key, which the
        // server's JSON parser drops) is another listing on the wire.
        if said(&from_file).iter().any(|f| f.0.starts_with("SL1")) {
            continue;
        }
        let expected = normal(said(&from_file));
        let got = normal(said(&live));
        assert_eq!(got, expected, "{file}: live and file differ");
        compared += 1;
    }
    assert!(compared > 20, "{compared} listings compared");
}

/// Whether a `$ref` or `$dynamicRef` in `value` names another document than its own.
fn refs_elsewhere(value: &Value) -> bool {
    match value {
        Value::Object(members) => members.iter().any(|(k, v)| {
            ((k == "$ref" || k == "$dynamicRef") && v.as_str().is_some_and(|r| !r.starts_with('#')))
                || refs_elsewhere(v)
        }),
        Value::Array(items) => items.iter().any(refs_elsewhere),
        _ => false,
    }
}
