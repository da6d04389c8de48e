//! `schema-lint port --for CLIENT`: each folder of `testdata/port/` holds `input.json` (a real
//! server's listing), `client`, and what the command makes of it: `expected.json` (standard
//! output), `expected.report.json` (`--report`), `expected.stderr` and `exit`. Porting the output
//! again changes nothing, and the library entry makes the same document.

use crate::common::{Scratch, BIN};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn cases() -> Vec<PathBuf> {
    let out = crate::common::case_dirs("port");
    assert!(out.len() >= 4, "testdata/port holds the cases");
    out
}

struct Ported {
    stdout: String,
    stderr: String,
    report: String,
    code: i32,
}

fn port(client: &str, input: &Path, scratch: &Scratch) -> Ported {
    let report = scratch.join("report.json");
    let out = Command::new(BIN)
        .args(["port", "--for", client])
        .arg(input)
        .arg("--report")
        .arg(&report)
        .current_dir(input.parent().unwrap())
        .output()
        .unwrap();
    Ported {
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        report: std::fs::read_to_string(&report).unwrap_or_default(),
        code: out.status.code().unwrap(),
    }
}

fn client_of(case: &Path) -> String {
    std::fs::read_to_string(case.join("client"))
        .unwrap()
        .trim()
        .to_owned()
}

#[test]
fn port_snapshots() {
    let bless = std::env::var_os("SCHEMA_LINT_BLESS").is_some();
    let mut stale = Vec::new();
    for case in cases() {
        let scratch = Scratch::new("port");
        let got = port(&client_of(&case), &case.join("input.json"), &scratch);
        let files = [
            ("expected.json", got.stdout),
            ("expected.report.json", got.report),
            ("expected.stderr", got.stderr),
            ("exit", format!("{}\n", got.code)),
        ];
        for (name, text) in files {
            let path = case.join(name);
            if bless {
                std::fs::write(&path, &text).unwrap();
            } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "out of date (SCHEMA_LINT_BLESS=1 cargo test --test it port::, then review): {stale:?}"
    );
}

#[test]
fn porting_twice_changes_nothing() {
    for case in cases() {
        let client = client_of(&case);
        let scratch = Scratch::new("port-twice");
        let first = port(&client, &case.join("input.json"), &scratch);
        let once = scratch.write("once.json", &first.stdout);
        let again = port(&client, &once, &scratch);
        assert_eq!(again.stdout, first.stdout, "{}", case.display());
        let report: Value = serde_json::from_str(&again.report).unwrap();
        assert_eq!(
            report["changes"],
            Value::Array(Vec::new()),
            "{}",
            case.display()
        );
        assert_eq!(again.code, first.code, "{}", case.display());
    }
}

#[test]
fn a_port_changes_only_what_it_reports_and_says_each_meaning() {
    for case in cases() {
        let scratch = Scratch::new("port-meaning");
        let got = port(&client_of(&case), &case.join("input.json"), &scratch);
        let report: Value = serde_json::from_str(&got.report).unwrap();
        let changes = report["changes"].as_array().unwrap();
        let input = std::fs::read_to_string(case.join("input.json")).unwrap();
        // Nothing changed without a change reported, and the other way round.
        assert_eq!(
            changes.is_empty(),
            got.stdout == input,
            "{}",
            case.display()
        );
        for c in changes {
            let differs = c["differs"].as_array().map_or(0, Vec::len);
            match c["meaning"].as_str().unwrap() {
                "kept" => assert_eq!(differs, 0, "{c}"),
                "changed" => assert!(differs > 0, "{c}"),
                other => panic!("meaning `{other}`"),
            }
        }
        // Exit 2 exactly when something is left, and it is said.
        let left = report["left"].as_array().unwrap();
        assert_eq!(got.code == 2, !left.is_empty(), "{}", case.display());
        assert!(left
            .iter()
            .all(|l| got.stderr.contains(l.as_str().unwrap())));
    }
}

#[test]
fn the_library_entry_ports_as_the_command_does() {
    use schema_lint::diagnostic::breaks::Client;
    for case in cases() {
        let client = client_of(&case);
        let input: Value =
            serde_json::from_str(&std::fs::read_to_string(case.join("input.json")).unwrap())
                .unwrap();
        let ported = schema_lint::port(&input, Client::named(&client).unwrap());
        let scratch = Scratch::new("port-lib");
        let cli: Value =
            serde_json::from_str(&port(&client, &case.join("input.json"), &scratch).stdout)
                .unwrap();
        assert_eq!(ported.schema, cli, "{}", case.display());
    }
}

#[test]
fn what_is_not_json_exits_2_with_its_place() {
    let scratch = Scratch::new("port-bad");
    let bad = scratch.write("bad.json", "{\n  \"type\": \"object\",\n}\n");
    let got = port("gemini", &bad, &scratch);
    assert_eq!(got.code, 2);
    assert!(got.stdout.is_empty());
    assert!(
        got.stderr
            .contains("bad.json:2:19: Trailing commas are not allowed"),
        "{}",
        got.stderr
    );
    let got = port("nobody", &bad, &scratch);
    assert_eq!(got.code, 2);
    assert!(
        got.stderr.contains("unknown client `nobody`"),
        "{}",
        got.stderr
    );
}
