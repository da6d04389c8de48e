//! `schema-lint diff` on the fixture pairs of `testdata/diff/<case>/`: `old.json`, `new.json`, an
//! optional `args` (one argument a line, after `diff old.json new.json`), and beside them
//! `expected.json`, the exit code and the JSON output (`SCHEMA_LINT_BLESS=1` writes it). Every
//! breaking finding carries a counterexample, which this test checks again on both versions with
//! the `jsonschema` crate (formats asserted); `tests/integration/diff.sh` checks the same with
//! Python's `jsonschema`.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/diff");
    let mut out: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn run(case: &Path) -> Value {
    let mut args = vec![
        "diff".to_owned(),
        "old.json".to_owned(),
        "new.json".to_owned(),
        "--output-format".to_owned(),
        "json".to_owned(),
    ];
    if let Ok(extra) = std::fs::read_to_string(case.join("args")) {
        args.extend(extra.lines().map(str::to_owned));
    }
    let out = Command::new(env!("CARGO_BIN_EXE_schema-lint"))
        .args(&args)
        .current_dir(case)
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout: Value = serde_json::from_slice(&out.stdout).unwrap();
    json!({"exit": out.status.code(), "output": stdout})
}

/// The schema a finding is about, in one version: the whole file, or the tool's schema
/// (`true` where the tool has none).
fn schema_of(document: &Value, finding: &Value) -> Value {
    let Some(tool) = finding["tool"].as_str() else {
        return document.clone();
    };
    let tools = document
        .get("tools")
        .or_else(|| document.pointer("/result/tools"))
        .and_then(Value::as_array)
        .unwrap();
    let tool = tools.iter().find(|t| t["name"] == tool);
    let schema = finding["schema"].as_str().unwrap();
    tool.and_then(|t| t.get(schema))
        .cloned()
        .unwrap_or(Value::Bool(true))
}

fn valid(schema: &Value, instance: &Value) -> bool {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap()
        .is_valid(instance)
}

#[test]
fn fixture_pairs_match_their_expected_output() {
    let bless = std::env::var_os("SCHEMA_LINT_BLESS").is_some();
    let mut failures = Vec::new();
    for case in cases() {
        let got = run(&case);
        let expected_path = case.join("expected.json");
        if bless {
            let text = serde_json::to_string_pretty(&got).unwrap() + "\n";
            std::fs::write(&expected_path, text).unwrap();
        } else if !expected_path.exists() || read_json(&expected_path) != got {
            failures.push(format!(
                "{}: got\n{}",
                case.display(),
                serde_json::to_string_pretty(&got).unwrap()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_counterexample_separates_the_two_versions() {
    if std::env::var_os("SCHEMA_LINT_BLESS").is_some() {
        // The other test is writing the expected files.
        return;
    }
    let mut proofs = 0;
    for case in cases() {
        let expected = read_json(&case.join("expected.json"));
        let (old, new) = (
            read_json(&case.join("old.json")),
            read_json(&case.join("new.json")),
        );
        let findings = expected["output"]["findings"].as_array().unwrap();
        let breaking = findings.iter().any(|f| f["verdict"] == "breaking");
        assert_eq!(
            expected["exit"],
            json!(i32::from(breaking)),
            "{}",
            case.display()
        );
        for f in findings {
            let proof = &f["counterexample"];
            if f["kind"] == "tool-removed" || f["kind"] == "file-removed" {
                assert!(proof.is_null());
                continue;
            }
            assert_eq!(
                f["verdict"] == "breaking",
                !proof.is_null(),
                "{}: {f}",
                case.display()
            );
            if proof.is_null() {
                continue;
            }
            let (a, b) = (schema_of(&old, f), schema_of(&new, f));
            let instance = &proof["instance"];
            let (keep, other) = if proof["valid_under"] == "old" {
                (a, b)
            } else {
                (b, a)
            };
            assert!(valid(&keep, instance), "{}: {f}", case.display());
            assert!(!valid(&other, instance), "{}: {f}", case.display());
            proofs += 1;
        }
    }
    assert!(
        proofs >= 20,
        "only {proofs} counterexamples in the fixtures"
    );
}

fn schema_lint(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_schema-lint"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
        .status
        .success();
    assert!(ok, "git {args:?}");
}

#[test]
fn base_compares_the_work_tree_with_a_ref_without_checking_out() {
    let dir = std::env::temp_dir().join(format!("schema-lint-diff-base-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("schemas")).unwrap();
    git(&dir, &["init", "-q"]);
    let old = r#"{"type": "object", "properties": {"id": {"type": "string"}}}"#;
    std::fs::write(dir.join("schemas/item.json"), old).unwrap();
    std::fs::write(dir.join("schemas/gone.json"), r#"{"type": "string"}"#).unwrap();
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "one"]);
    let new = r#"{"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}"#;
    std::fs::write(dir.join("schemas/item.json"), new).unwrap();
    std::fs::remove_file(dir.join("schemas/gone.json")).unwrap();
    let (code, stdout, stderr) = schema_lint(
        &dir,
        &["diff", "--base", "HEAD", "--output-format", "concise"],
    );
    assert_eq!(stderr, "");
    assert_eq!(
        stdout,
        "HEAD:schemas/gone.json:1:1: error: SL800 `HEAD:schemas/gone.json` removed\n\
         schemas/item.json:1:75: error: SL800 `id` is now required (counterexample, valid under OLD and rejected by NEW: {})\n"
    );
    assert_eq!(code, 1);
    // Nothing was checked out: the work tree is as it was.
    assert_eq!(
        std::fs::read_to_string(dir.join("schemas/item.json")).unwrap(),
        new
    );
    assert!(!dir.join("schemas/gone.json").exists());
    // One file named, unchanged since the ref: nothing to report.
    git(&dir, &["checkout", "-q", "--", "."]);
    let (code, stdout, _) = schema_lint(&dir, &["diff", "--base", "HEAD", "schemas/item.json"]);
    assert_eq!(
        (code, stdout.as_str()),
        (
            0,
            "0 breaking, 0 warnings, 0 compatible changes in 1 schema\n"
        )
    );
    let (code, _, stderr) = schema_lint(&dir, &["diff", "--base", "no-such-ref"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not a commit"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A live NEW (`flag` is `--server` or `--url`, `at` the command or URL) against a dump of it
/// committed beside: nothing, then, once the dump names a tool the server no longer lists,
/// `tool-removed` (breaking, exit 1).
fn live_new_against_its_dump(name: &str, flag: &str, at: &str) {
    let dir = std::env::temp_dir().join(format!("schema-lint-diff-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (code, dump, stderr) = schema_lint(&dir, &["dump", flag, at]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::write(dir.join("tools.json"), &dump).unwrap();
    let (code, stdout, stderr) = schema_lint(&dir, &["diff", "tools.json", flag, at]);
    assert_eq!(stderr, "");
    assert!(
        stdout.starts_with("0 breaking, 0 warnings, 0 compatible changes in "),
        "{stdout}"
    );
    assert_eq!(code, 0);
    let mut committed: Value = serde_json::from_str(&dump).unwrap();
    let tools = committed
        .pointer_mut("/result/tools")
        .and_then(Value::as_array_mut)
        .unwrap();
    let mut extra = tools[0].clone();
    extra["name"] = json!("retired_tool");
    tools.push(extra);
    std::fs::write(
        dir.join("tools.json"),
        serde_json::to_string_pretty(&committed).unwrap(),
    )
    .unwrap();
    let (code, stdout, _) = schema_lint(
        &dir,
        &["diff", "tools.json", flag, at, "--output-format", "json"],
    );
    let out: Value = serde_json::from_str(&stdout).unwrap();
    let kinds: Vec<&Value> = out["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| &f["kind"])
        .collect();
    assert_eq!(kinds, [&json!("tool-removed")]);
    assert_eq!(code, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--server`: NEW is the stdio fake server of `tests/live/fake_server.py`.
#[test]
fn a_running_server_is_new_against_its_committed_dump() {
    let server = format!(
        "python3 {}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/live/fake_server.py modern")
            .display()
    );
    live_new_against_its_dump("live", "--server", &server);
}

/// A server process, stopped however the test ends.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `--url`: NEW is the Streamable HTTP server of `tests/live/fake_server.py`, on a free loopback
/// port.
#[test]
fn a_server_at_a_url_is_new_against_its_committed_dump() {
    let dir = std::env::temp_dir().join(format!("schema-lint-diff-http-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let portfile = dir.join("port");
    let _server = Server(
        Command::new("python3")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/live/fake_server.py"))
            .args(["http", portfile.to_str().unwrap()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !portfile.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the HTTP server did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let port = std::fs::read_to_string(&portfile).unwrap();
    let url = format!("http://127.0.0.1:{}/mcp", port.trim());
    live_new_against_its_dump("url", "--url", &url);
    let _ = std::fs::remove_dir_all(&dir);
}
