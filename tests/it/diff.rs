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
    crate::common::case_dirs("diff")
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

/// The contract changes of a `diff --output-format json` document: the `change` field of each
/// diagnostic that has one.
fn changes(output: &Value) -> Vec<&Value> {
    output["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d.get("change"))
        .collect()
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
        let findings = changes(&expected["output"]);
        let breaking = findings.iter().any(|f| f["verdict"] == "breaking");
        assert_eq!(
            expected["exit"],
            json!(i32::from(breaking)),
            "{}",
            case.display()
        );
        for f in findings {
            let f = f.clone();
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
            let (a, b) = (schema_of(&old, &f), schema_of(&new, &f));
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
    let kinds: Vec<&Value> = changes(&out).iter().map(|f| &f["kind"]).collect();
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

/// A scratch git repository for one test, removed however the test ends.
struct Repo(PathBuf);

impl Repo {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("schema-lint-diff-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("schemas")).unwrap();
        git(&dir, &["init", "-q"]);
        Repo(dir)
    }

    fn write(&self, path: &str, text: impl AsRef<[u8]>) {
        let path = self.0.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn commit(&self) {
        git(&self.0, &["add", "-A", "."]);
        git(&self.0, &["commit", "-q", "-m", "base"]);
    }

    /// `diff --base HEAD ARGS --output-format json`: the exit code, the document, stderr.
    fn diff_json(&self, args: &[&str]) -> (i32, Value, String) {
        let mut all = vec!["diff", "--base", "HEAD", "--output-format", "json"];
        all.extend(args);
        let (code, stdout, stderr) = schema_lint(&self.0, &all);
        let document =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
        (code, document, stderr)
    }
}

impl Drop for Repo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The codes and messages of a document's diagnostics.
fn codes(document: &Value) -> Vec<(String, String)> {
    document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Issue 40: `diff --output-format json` is the one diagnostics document `check` prints (its
/// version, its diagnostics with every field `check` gives them, its summary), the contract
/// changes diagnostics with a `change` field holding the counterexample, the lint findings new
/// in NEW beside them.
#[test]
fn json_is_the_diagnostics_document_check_prints() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/diff/input-required-added");
    let (_, diff, _) = schema_lint(
        &dir,
        &["diff", "old.json", "new.json", "--output-format", "json"],
    );
    let (_, check, _) = schema_lint(&dir, &["check", "new.json", "--output-format", "json"]);
    let (diff, check): (Value, Value) = (
        serde_json::from_str(&diff).unwrap(),
        serde_json::from_str(&check).unwrap(),
    );
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys(&diff), keys(&check), "{diff}");
    assert_eq!(diff["version"], check["version"]);
    for key in keys(&check["summary"]) {
        assert!(diff["summary"].get(&key).is_some(), "summary.{key}: {diff}");
    }
    let change = diff["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "SL800")
        .unwrap_or_else(|| panic!("{diff}"));
    for d in check["diagnostics"].as_array().unwrap() {
        for key in keys(d) {
            if key != "related" {
                assert!(change.get(&key).is_some(), "`{key}` missing: {change}");
            }
        }
    }
    assert_eq!(change["change"]["kind"], "required-added");
    assert_eq!(change["change"]["verdict"], "breaking");
    assert_eq!(change["change"]["counterexample"]["valid_under"], "old");
    assert_eq!(diff["summary"]["changes"]["breaking"], 1);
    assert_eq!(diff["summary"]["errors"], 1);
}

/// Issue 40: `--fail-on`'s help says which value is the default only where it is (`diff`'s is
/// `error`, `check`'s `warning`).
#[test]
fn fail_on_help_names_the_default_it_has() {
    for command in ["check", "diff"] {
        let (_, help, _) = schema_lint(Path::new("."), &[command, "--help"]);
        let section = &help[help.find("--fail-on").unwrap()..];
        let section = &section[..section.find("[default: ").unwrap() + 30];
        let default = section
            .split("[default: ")
            .nth(1)
            .and_then(|s| s.split(']').next())
            .unwrap();
        for line in section.lines().filter(|l| l.contains("the default")) {
            assert!(
                line.trim_start().starts_with(&format!("- {default}:")),
                "`{command} --help` says `{}` but defaults to `{default}`",
                line.trim()
            );
        }
    }
}

/// Issue 40: `--base` lints NEW as `check` does, with the project as context: a `$ref` to an id
/// another folder declares resolves (no SL302 new in NEW, as `check schemas` reports none), and
/// a `$ref` to nothing is still new in NEW.
#[test]
fn base_lints_new_with_the_project_as_context() {
    let repo = Repo::new("context");
    repo.write(
        "defs/money.json",
        r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:my-company:money", "type": "object"}"#,
    );
    let plain = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"price": {"type": "object"}}}"#;
    for name in ["a", "b", "c"] {
        repo.write(&format!("schemas/{name}.json"), plain);
    }
    repo.commit();
    let referencing = plain.replace(
        r#"{"type": "object"}"#,
        r#"{"$ref": "urn:my-company:money"}"#,
    );
    for name in ["a", "b", "c"] {
        repo.write(&format!("schemas/{name}.json"), &referencing);
    }
    let (code, check, _) = schema_lint(&repo.0, &["check", "schemas", "--output-format", "json"]);
    assert_eq!(code, 0, "{check}");
    let (_, document, stderr) = repo.diff_json(&["schemas/"]);
    let lint: Vec<_> = codes(&document)
        .into_iter()
        .filter(|(c, _)| !c.starts_with("SL80"))
        .collect();
    assert_eq!(lint, [], "{document}\n{stderr}");
    // What NEW does introduce is still reported.
    repo.write(
        "schemas/c.json",
        plain.replace(r#"{"type": "object"}"#, r#"{"$ref": "urn:nowhere"}"#),
    );
    let (_, document, _) = repo.diff_json(&["schemas/"]);
    let lint: Vec<_> = codes(&document)
        .into_iter()
        .filter(|(c, _)| !c.starts_with("SL80"))
        .collect();
    assert_eq!(lint.len(), 1, "{document}");
    assert!(lint[0].1.contains("urn:nowhere"), "{document}");
}

/// Issue 40: a file `check` passes over or reports on its own (here: not UTF-8, in both
/// versions) does not stop `--base`: the other files are compared, exit 0; a file NEW breaks
/// that way is reported as new in NEW (SL100, exit 2, as `check` exits on it).
#[test]
fn base_goes_on_past_a_file_that_is_not_utf8() {
    let repo = Repo::new("utf8");
    repo.write("schemas/latin1.json", b"{\"title\": \"caf\xe9\"}\n");
    repo.write("schemas/ok.json", r#"{"type": "string"}"#);
    repo.write("notes/latin1.json", b"{\"title\": \"caf\xe9\"}\n");
    repo.commit();
    repo.write("schemas/ok.json", r#"{"type": ["string", "null"]}"#);
    let (code, document, stderr) = repo.diff_json(&[]);
    assert_eq!(stderr, "");
    assert_eq!(
        codes(&document),
        [(
            "SL803".to_owned(),
            "type widened from `string` to `null`, `string`".to_owned()
        )],
        "{document}"
    );
    assert_eq!(code, 0);
    repo.write("schemas/ok.json", b"{\"type\": \"str\xe9ng\"}");
    let (code, document, _) = repo.diff_json(&[]);
    assert_eq!(
        codes(&document),
        [(
            "SL100".to_owned(),
            "The file is not valid UTF-8: unexpected byte 0xE9".to_owned()
        )],
        "{document}"
    );
    assert_eq!(code, 2);
}

/// Issue 41, item 6: removed files whose names git quotes (`café.json`, `quo"te.json`, a
/// newline) are removals too.
#[test]
fn base_sees_the_removal_of_files_git_quotes() {
    let repo = Repo::new("quoted");
    let names = [
        "café.json",
        "quo\"te.json",
        "new\nline.json",
        "tab\there.json",
        "star*.json",
    ];
    for name in names {
        repo.write(&format!("schemas/{name}"), r#"{"type": "string"}"#);
    }
    repo.commit();
    for name in names {
        std::fs::remove_file(repo.0.join("schemas").join(name)).unwrap();
    }
    let (code, document, stderr) = repo.diff_json(&["schemas/"]);
    assert_eq!(stderr, "");
    let removed: Vec<&Value> = changes(&document)
        .into_iter()
        .filter(|c| c["kind"] == "file-removed")
        .collect();
    assert_eq!(removed.len(), names.len(), "{document}");
    assert_eq!(code, 1);
}

/// Issue 41, item 2: a tracked schema replaced by a symbolic link that leads out of the
/// checkout is not read (as `check schemas/` does not), on either side: the work tree's link,
/// and a link committed at the ref (mode 120000), whose target is never looked up on disk. A
/// link that stays in the folder is followed in the ref's tree.
#[cfg(unix)]
#[test]
fn base_does_not_follow_links_out_of_the_checkout() {
    use std::os::unix::fs::symlink;
    let repo = Repo::new("links");
    let secret = repo.0.with_extension("secret.json");
    std::fs::write(
        &secret,
        r#"{"type": "string", "description": "hunter2-TOPSECRET"}"#,
    )
    .unwrap();
    repo.write("schemas/creds.json", r#"{"type": "object"}"#);
    repo.write(
        "schemas/real.json",
        r#"{"type": "object", "properties": {"x": {"type": "string"}}}"#,
    );
    symlink(&secret, repo.0.join("schemas/old-link.json")).unwrap();
    symlink("real.json", repo.0.join("schemas/inside.json")).unwrap();
    repo.commit();
    std::fs::remove_file(repo.0.join("schemas/creds.json")).unwrap();
    symlink(&secret, repo.0.join("schemas/creds.json")).unwrap();
    std::fs::remove_file(repo.0.join("schemas/old-link.json")).unwrap();
    repo.write("schemas/old-link.json", r#"{"type": "object"}"#);
    for format in ["json", "human", "concise"] {
        let (_, stdout, stderr) = schema_lint(
            &repo.0,
            &[
                "diff",
                "--base",
                "HEAD",
                "schemas/",
                "--output-format",
                format,
            ],
        );
        assert!(!stdout.contains("hunter2"), "{stdout}");
        assert!(!stderr.contains("hunter2"), "{stderr}");
    }
    let (_, document, _) = repo.diff_json(&["schemas/"]);
    let kinds: Vec<(String, String)> = changes(&document)
        .iter()
        .map(|c| {
            let place = if c["new"].is_null() {
                &c["old"]
            } else {
                &c["new"]
            };
            (
                c["kind"].as_str().unwrap().to_owned(),
                place["path"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "file-removed".to_owned(),
                "HEAD:schemas/creds.json".to_owned()
            ),
            ("file-added".to_owned(), "schemas/old-link.json".to_owned()),
        ],
        "{document}"
    );
    // Named, the link at the ref is refused with a reason (exit 2), never read.
    let (code, _, stderr) = repo.diff_json(&["schemas/old-link.json"]);
    assert!(stderr.contains("symbolic link that leads out"), "{stderr}");
    assert!(
        !stderr.contains("hunter2") && !stderr.contains(secret.to_str().unwrap()),
        "{stderr}"
    );
    assert_eq!(code, 2);
    let _ = std::fs::remove_file(&secret);
}

/// Issue 41, item 5: `diff` reads no more of either version than `check` reads of a file
/// (256 MiB), a blob's size looked up before it is read: under a 512 MiB address-space limit,
/// a blob of 257 MiB at the ref (the same file in the work tree) is refused with a reason,
/// exit 2, where the whole blob was read (and the run aborted).
#[cfg(unix)]
#[test]
fn base_reads_neither_version_past_checks_bound() {
    use std::io::Write as _;
    let repo = Repo::new("large");
    {
        let file = std::fs::File::create(repo.0.join("schemas/big.json")).unwrap();
        let mut out = std::io::BufWriter::new(file);
        out.write_all(br#"{"type": "string", "description": ""#)
            .unwrap();
        let chunk = vec![b'a'; 1 << 20];
        for _ in 0..257 {
            out.write_all(&chunk).unwrap();
        }
        out.write_all(b"\"}\n").unwrap();
    }
    repo.write("schemas/small.json", r#"{"type": "string"}"#);
    repo.commit();
    repo.write("schemas/small.json", r#"{"type": "integer"}"#);
    let bin = env!("CARGO_BIN_EXE_schema-lint");
    let run = |args: &str| {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v 524288 && exec '{bin}' {args}"))
            .current_dir(&repo.0)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, stderr) = run("diff --base HEAD schemas/ --output-format concise");
    assert!(
        stderr.contains("`HEAD:schemas/big.json`: cannot read the file: it is larger than 256 MiB"),
        "{stderr}"
    );
    assert!(
        stdout.contains("schemas/small.json"),
        "the other file is compared: {stdout}"
    );
    assert_eq!(code, Some(2), "{stderr}");
    // Two files named, the larger read no further than the bound either.
    let (code, _, stderr) = run("diff schemas/big.json schemas/small.json");
    assert!(stderr.contains("larger than 256 MiB"), "{stderr}");
    assert_eq!(code, Some(2), "{stderr}");
}
