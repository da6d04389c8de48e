//! The incremental path against a fresh lint: after each edit (a definition removed and put
//! back, an identifier changed, a reference moved, a parse error), what the server last
//! published for every open document equals what a new server publishes for the same buffers,
//! and what `check` reports for the same texts on disk; an edit publishes the changed document
//! and the documents a reference ties to it, no other. So does a change on disk the client
//! reports.

use super::position::{Encoding, Lines};
use super::tests::{project, uri, Client};
use lsp_server::Message;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const DRAFT7: &str = "http://json-schema.org/draft-07/schema#";

fn a(defs: &str, id: &str) -> String {
    format!(
        "{{\n  \"$schema\": \"{DRAFT7}\",\n  \"$id\": \"{id}\",\n  \"definitions\": {{{defs}}}\n}}\n"
    )
}

fn b(target: &str) -> String {
    format!(
        "{{\n  \"$schema\": \"{DRAFT7}\",\n  \"properties\": {{\"w\": {{\"$ref\": \"a.json#/definitions/{target}\"}}}}\n}}\n"
    )
}

fn c(description: &str) -> String {
    format!("{{\"$id\": \"tool_c:output\", \"description\": \"{description}\", \"type\": \"object\"}}\n")
}

const DEFS: &str = "\"x\": {\"type\": \"string\"}, \"y\": {\"type\": \"integer\"}";

/// The diagnostics last published, by URI.
type Published = BTreeMap<String, Vec<Value>>;

/// Reads what the server sends until it publishes `uri` at `version`, then what it sent before
/// answering one more request (so everything of that lint): the URIs published, in order.
fn settle(client: &mut Client, seen: &mut Published, uri: &str, version: i64) -> Vec<String> {
    let mut published = Vec::new();
    let mut record = |n: &lsp_server::Notification, published: &mut Vec<String>| {
        if n.method != "textDocument/publishDiagnostics" {
            return false;
        }
        let at = n.params["uri"].as_str().unwrap().to_owned();
        let found = n.params["diagnostics"].as_array().cloned().unwrap();
        seen.insert(at.clone(), found);
        published.push(at.clone());
        at == uri && n.params["version"] == version
    };
    loop {
        let n = match client.pending.pop_front() {
            Some(n) => n,
            None => match client.recv() {
                Message::Notification(n) => n,
                Message::Request(r) => {
                    client.answer(&r);
                    continue;
                }
                Message::Response(_) => continue,
            },
        };
        if record(&n, &mut published) {
            break;
        }
    }
    let _ = client.request("textDocument/hover", json!({}));
    while let Some(n) = client.pending.pop_front() {
        record(&n, &mut published);
    }
    published
}

/// What a new server publishes for `buffers` (path, text), opened in order.
fn fresh(root: &Path, buffers: &[(PathBuf, String)]) -> Published {
    let mut client = Client::start();
    client.initialize(root, &["utf-8"], &Value::Null);
    let mut seen = Published::new();
    for (path, text) in buffers {
        client.open(path, text);
        settle(&mut client, &mut seen, &uri(path), 1);
    }
    assert_eq!(client.exit(true), 0);
    seen
}

/// What `check --output-format json` reports for `buffers` written in a copy of the project:
/// by file name, each finding's (code, start, end, pointer).
fn check(name: &str, buffers: &[(PathBuf, String)], disk: &[(&str, &str)]) -> Vec<Finding> {
    let mut files: Vec<(String, String)> = buffers
        .iter()
        .map(|(p, t)| (file_name(p), t.clone()))
        .collect();
    files.extend(disk.iter().map(|(n, t)| ((*n).to_owned(), (*t).to_owned())));
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(n, t)| (&**n, &**t)).collect();
    let dir = project(name, &borrowed);
    // What `check DIR --output-format json` runs: the configuration in force for the folder, no
    // option over it.
    let config = crate::settings::resolve::in_force(false, None, Some(&dir)).unwrap();
    let settings =
        crate::settings::Settings::resolve(config, crate::settings::Overrides::default());
    let run = crate::engine::run(std::slice::from_ref(&dir), None, &settings);
    let rendered = crate::report::render(
        &run,
        crate::report::OutputFormat::Json,
        crate::report::Style::default(),
    );
    let report: Value = serde_json::from_str(&rendered).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let mut found: Vec<Finding> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| Finding {
            file: file_name(Path::new(d["path"].as_str().unwrap())),
            code: d["code"].as_str().unwrap().to_owned(),
            start: usize::try_from(d["start"].as_u64().unwrap()).unwrap(),
            end: usize::try_from(d["end"].as_u64().unwrap()).unwrap(),
            pointer: d["pointer"].as_str().unwrap().to_owned(),
        })
        .filter(|f| buffers.iter().any(|(p, _)| file_name(p) == f.file))
        .collect();
    found.sort();
    found
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Finding {
    file: String,
    code: String,
    start: usize,
    end: usize,
    pointer: String,
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// The findings the server published for `buffers`, as [`check`] has them (UTF-8 columns).
fn findings(seen: &Published, buffers: &[(PathBuf, String)]) -> Vec<Finding> {
    let mut found = Vec::new();
    for (path, text) in buffers {
        let lines = Lines::new(text, Encoding::Utf8, false);
        let position = |v: &Value| serde_json::from_value(v.clone()).unwrap();
        for d in &seen[&uri(path)] {
            found.push(Finding {
                file: file_name(path),
                code: d["code"].as_str().unwrap().to_owned(),
                start: lines.offset(position(&d["range"]["start"])),
                end: lines.offset(position(&d["range"]["end"])),
                pointer: d["data"]["pointer"].as_str().unwrap().to_owned(),
            });
        }
    }
    found.sort();
    found
}

#[test]
#[allow(clippy::too_many_lines, reason = "one session, edit after edit")]
fn after_each_edit_the_diagnostics_equal_a_fresh_lint() {
    // `d.json`, never opened, references `a.json` too: context only.
    let d = b("y").replace("\"w\"", "\"v\"");
    let disk: Vec<(&str, String)> = vec![
        ("a.json", a(DEFS, "https://example.com/a.json")),
        ("b.json", b("x")),
        ("c.json", c("first")),
        ("d.json", d.clone()),
    ];
    let on_disk: Vec<(&str, &str)> = disk.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let root = project("edits", &on_disk);
    let (pa, pb, pc) = (
        root.join("a.json"),
        root.join("b.json"),
        root.join("c.json"),
    );
    let mut buffers: Vec<(PathBuf, String)> = vec![
        (pa.clone(), a(DEFS, "https://example.com/a.json")),
        (pb.clone(), b("x")),
        (pc.clone(), c("first")),
    ];
    let mut client = Client::start();
    client.initialize(&root, &["utf-8"], &Value::Null);
    let mut seen = Published::new();
    for (path, text) in &buffers {
        client.open(path, text);
        settle(&mut client, &mut seen, &uri(path), 1);
    }
    let (ua, ub, uc) = (uri(&pa), uri(&pb), uri(&pc));
    // (which buffer, its new text, the documents the edit must publish, exactly)
    let edits: Vec<(usize, String, Vec<&str>)> = vec![
        // `x` goes: the reference of `b.json` no longer resolves.
        (
            0,
            a(
                "\"y\": {\"type\": \"integer\"}",
                "https://example.com/a.json",
            ),
            vec![&ua, &ub],
        ),
        // Nothing ties `c.json` to another document: it alone is linted again.
        (2, c("second"), vec![&uc]),
        // `x` is back: `b.json` resolves it again.
        (0, a(DEFS, "https://example.com/a.json"), vec![&ua, &ub]),
        // A new identifier: every document may read differently.
        (
            0,
            a(DEFS, "https://example.com/other.json"),
            vec![&ua, &ub, &uc],
        ),
        // The reference moves to `y`.
        (1, b("y"), vec![&ua, &ub]),
        // A parse error (in text that says it is a schema, so that a walk reports it too):
        // `a.json` declares nothing any more.
        (
            0,
            format!("{{\"$schema\": \"{DRAFT7}\", \"definitions\": "),
            vec![&ua, &ub, &uc],
        ),
        (
            0,
            a(DEFS, "https://example.com/a.json"),
            vec![&ua, &ub, &uc],
        ),
        (1, b("nope"), vec![&ua, &ub]),
    ];
    let mut versions = [1_i64; 3];
    let mut fired = 0;
    for (n, (which, text, expected)) in edits.into_iter().enumerate() {
        versions[which] += 1;
        let path = buffers[which].0.clone();
        client.change(&path, i32::try_from(versions[which]).unwrap(), &text);
        buffers[which].1 = text;
        let mut published = settle(&mut client, &mut seen, &uri(&path), versions[which]);
        published.sort();
        let mut expected: Vec<String> = expected.into_iter().map(str::to_owned).collect();
        expected.sort();
        assert_eq!(published, expected, "edit {n}: what was published");
        let again = fresh(&root, &buffers);
        assert_eq!(seen, again, "edit {n}: the diagnostics of a fresh lint");
        let cli = check(&format!("edits-check-{n}"), &buffers, &[("d.json", &d)]);
        assert_eq!(
            findings(&seen, &buffers),
            cli,
            "edit {n}: what check reports"
        );
        fired += usize::from(!seen[&ub].is_empty());
    }
    assert!(fired >= 2, "some edits left `b.json` with findings");
    // `d.json` changes on disk and the client says so: read again, it ties `a.json` (which it
    // references) and nothing else.
    let d = b("x").replace("\"w\"", "\"v\"");
    std::fs::write(root.join("d.json"), &d).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&root.join("d.json")), "type": 2}]}),
    );
    let published = settle(&mut client, &mut seen, &ua, versions[0]);
    assert_eq!(
        published,
        std::slice::from_ref(&ua),
        "a change on disk: what was published"
    );
    assert_eq!(
        seen,
        fresh(&root, &buffers),
        "a change on disk: a fresh lint"
    );
    let cli = check("edits-check-disk", &buffers, &[("d.json", &d)]);
    assert_eq!(
        findings(&seen, &buffers),
        cli,
        "a change on disk: what check reports"
    );
    assert_eq!(client.exit(true), 0);
    let _ = std::fs::remove_dir_all(&root);
}

/// The quick fix the server offers at the first finding of `path`: its edits' new texts.
fn quick_fix(client: &mut Client, path: &Path, finding: &Value) -> Vec<String> {
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(path)},
            "range": finding["range"],
            "context": {"diagnostics": [finding]},
        }),
    );
    let actions = actions.unwrap();
    let quick = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "quickfix")
        .expect("a quick fix");
    let changes = quick["edit"]["changes"].as_object().unwrap();
    changes
        .values()
        .flat_map(|edits| edits.as_array().unwrap())
        .map(|e| e["newText"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn each_document_gets_its_own_fixes() {
    // Two open documents of one project, each with a fixable finding first.
    let root = project("own-fixes", &[]);
    let (one, two) = (root.join("one.json"), root.join("two.json"));
    let mut client = Client::start();
    client.initialize(&root, &["utf-8"], &Value::Null);
    let mut seen = Published::new();
    client.open(&one, &c("one").replace("tool_c", "tool_one"));
    settle(&mut client, &mut seen, &uri(&one), 1);
    client.open(&two, &c("two").replace("tool_c", "tool_two"));
    settle(&mut client, &mut seen, &uri(&two), 1);
    let first = |p: &Path| seen[&uri(p)][0].clone();
    let (f1, f2) = (first(&one), first(&two));
    assert!(quick_fix(&mut client, &one, &f1)
        .iter()
        .all(|t| t.contains("tool_one_output")));
    let fixed = quick_fix(&mut client, &two, &f2);
    assert!(
        fixed.iter().all(|t| t.contains("tool_two_output")),
        "{fixed:?}"
    );
    assert_eq!(client.exit(true), 0);
    let _ = std::fs::remove_dir_all(&root);
}
