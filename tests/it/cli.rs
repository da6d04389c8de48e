//! CLI snapshots: each folder under `testdata/cli/` holds one case: the input tree in `files/`,
//! an `args` file (one argument per line), standard input in `stdin` when present, and
//! `expected.txt` with the exit code, stdout and stderr. The command runs in a fresh copy of
//! `files/`; when `expected-files/` exists, the copy must afterwards equal it byte for byte
//! (that is how `--fix` results are checked), and every other case must leave its files as
//! they were. Regenerate with `SCHEMA_LINT_BLESS=1 cargo test --test it cli::` and review the diff
//! like code.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    // Git keeps no empty folder: a case without input files may have no `files/`.
    if !from.exists() {
        return;
    }
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Every file below `dir`, by relative path, with its bytes.
fn tree(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                stack.push(entry.path());
            } else {
                let rel = entry
                    .path()
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(entry.path()).unwrap());
            }
        }
    }
    out
}

fn case_args(dir: &Path) -> Vec<String> {
    let args_text = std::fs::read_to_string(dir.join("args")).unwrap_or_default();
    args_text
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

fn run_case(dir: &Path, work: &Path) -> String {
    run_with(dir, work, &case_args(dir))
}

fn run_with(dir: &Path, work: &Path, args: &[String]) -> String {
    let stdin_file = dir.join("stdin");
    let mut child = Command::new(env!("CARGO_BIN_EXE_schema-lint"))
        .args(args)
        .current_dir(work)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        if stdin_file.exists() {
            stdin
                .write_all(&std::fs::read(&stdin_file).unwrap())
                .unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status
            .code()
            .map_or("signal".to_owned(), |c| c.to_string()),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/cli");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("args").exists())
        .collect();
    cases.sort();
    cases
}

#[test]
fn cli_snapshots() {
    let bless = std::env::var_os("SCHEMA_LINT_BLESS").is_some();
    let mut failures = Vec::new();
    let cases = cases();
    assert!(
        cases.len() >= 10,
        "expected the CLI cases under testdata/cli"
    );
    let scratch = std::env::temp_dir().join(format!("schema-lint-cli-{}", std::process::id()));
    for dir in cases {
        std::fs::create_dir_all(dir.join("files")).unwrap();
        let work = scratch.join(dir.file_name().unwrap());
        let _ = std::fs::remove_dir_all(&work);
        copy_tree(&dir.join("files"), &work);
        let actual = run_case(&dir, &work);
        let expected_path = dir.join("expected.txt");
        let expected_files = dir.join("expected-files");
        let after = tree(&work);
        if bless {
            std::fs::write(&expected_path, &actual).unwrap();
            if expected_files.exists() {
                let _ = std::fs::remove_dir_all(&expected_files);
                copy_tree(&work, &expected_files);
            }
            continue;
        }
        let wanted = if expected_files.exists() {
            tree(&expected_files)
        } else {
            tree(&dir.join("files"))
        };
        if after != wanted {
            let differing: Vec<&String> = after
                .keys()
                .chain(wanted.keys())
                .filter(|k| after.get(*k) != wanted.get(*k))
                .collect();
            failures.push(format!(
                "{}: files after the run differ from {}: {differing:?}",
                dir.display(),
                if expected_files.exists() {
                    "expected-files/"
                } else {
                    "the input (nothing may change)"
                }
            ));
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{}:\n--- expected\n{expected}\n--- actual\n{actual}",
                dir.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every check case again with `--memory-budget 0`: a run that lets go of every file once it is
/// indexed and reads it again to lint it must say exactly what the run that keeps them says.
#[test]
fn cli_snapshots_streaming() {
    let mut failures = Vec::new();
    let mut checked = 0;
    let scratch =
        std::env::temp_dir().join(format!("schema-lint-cli-stream-{}", std::process::id()));
    for dir in cases() {
        let mut args = case_args(&dir);
        let at = match args.first().map(String::as_str) {
            Some("check") => 1,
            Some("rules" | "rule" | "clients" | "matrix" | "audit" | "diff" | "help") => continue,
            _ => 0,
        };
        if args.iter().any(|a| {
            matches!(
                a.as_str(),
                "--fix" | "--diff" | "--help" | "-h" | "--version"
            )
        }) {
            continue;
        }
        args.insert(at, "--memory-budget".to_owned());
        args.insert(at + 1, "0".to_owned());
        let work = scratch.join(dir.file_name().unwrap());
        let _ = std::fs::remove_dir_all(&work);
        copy_tree(&dir.join("files"), &work);
        let actual = run_with(&dir, &work, &args);
        let expected = std::fs::read_to_string(dir.join("expected.txt")).unwrap_or_default();
        checked += 1;
        if expected != actual {
            failures.push(format!(
                "{}:\n--- expected\n{expected}\n--- actual\n{actual}",
                dir.display()
            ));
        }
    }
    assert!(checked >= 50, "only {checked} check cases");
    assert!(
        failures.is_empty(),
        "{} case(s) differ when streaming:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// `check --since REF`: the JSON files changed since the ref (modified and untracked, a name
/// git would quote among them) are linted, with the rest of the project as context (the `$ref`
/// into an unchanged file resolves), and the unchanged files are not reported.
#[test]
fn since_lints_changed_files_with_the_project_as_context() {
    let dir = std::env::temp_dir().join(format!("schema-lint-since-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "sub/a.json",
        r#"{"$id": "https://example.com/a.json", "$defs": {"x": {"type": "string"}}}"#,
    );
    write("unchanged.json", r#"{"$id": "bad_id:unchanged"}"#);
    write("b.json", r#"{"type": "object"}"#);
    git(&dir, &["init", "-q", "."]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "init"]);
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_schema-lint"))
            .args(args)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, _) = run(&["check", "--since", "HEAD"]);
    assert_eq!(code, Some(0));
    assert_eq!(stdout, "No JSON file changed since `HEAD`\n");

    write(
        "b.json",
        r#"{"properties": {"p": {"$ref": "https://example.com/a.json#/$defs/x"},
 "q": {"$ref": "https://example.com/a.json#/$defs/nope"}}}"#,
    );
    write("café.json", r#"{"$id": "bad_id:new"}"#);
    write("package.json", r#"{"name": "not a schema"}"#);
    let (code, stdout, stderr) = run(&["check", "--since", "HEAD", "--output-format", "concise"]);
    assert_eq!(
        stdout,
        "b.json:2:51: error: SL302 `$ref` `https://example.com/a.json#/$defs/nope` resolves to \
         nothing\ncafé.json:1:16: error: SL201 `$id` `bad_id:new` is not a valid URI reference\n",
        "{stderr}"
    );
    assert_eq!(code, Some(1));

    // Committed, the changes are still changes since the first commit, and none since HEAD.
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "two"]);
    let (_, stdout, _) = run(&["check", "--since", "HEAD~1", "--output-format", "concise"]);
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    let (code, _, stderr) = run(&["check", "--since", "no-such-ref"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("error: --since: `git diff no-such-ref` failed"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check --watch`: a first report, then, after a file is edited, a report with the new
/// finding. The timeouts only stop a hung test; nothing is timed.
#[test]
fn watch_lints_again_after_an_edit() {
    use std::io::BufRead;
    let dir = std::env::temp_dir().join(format!("schema-lint-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.json"), r#"{"type": "object"}"#).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_schema-lint"))
        .args(["check", "--watch", "."])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines_tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            if lines_tx.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let guard = std::time::Duration::from_secs(120);
    let mut wait_for = |wanted: &str| -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match lines.recv_timeout(guard) {
                Ok(line) => {
                    let done = line.starts_with(wanted);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(e) => {
                    let _ = child.kill();
                    panic!("no `{wanted}` line ({e}); saw {seen:#?}");
                }
            }
        }
    };
    wait_for("All checks passed (1 file linted)");
    std::fs::write(
        dir.join("a.json"),
        r#"{"$id": "bad_id:x", "type": "object"}"#,
    )
    .unwrap();
    let report = wait_for("Found 1 finding (1 error) in 1 file linted");
    assert!(
        report
            .iter()
            .any(|l| l.contains("`$id` `bad_id:x` is not a valid URI reference")),
        "{report:#?}"
    );
    // Fixed again: the next report passes.
    std::fs::write(dir.join("a.json"), r#"{"type": "object"}"#).unwrap();
    wait_for("All checks passed (1 file linted)");
    child.kill().unwrap();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
