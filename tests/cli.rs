//! CLI snapshots: each folder under `testdata/cli/` holds the files of one case, an `args` file
//! (one argument per line, run with the case folder as working directory, standard input from
//! `stdin` when present) and `expected.txt` with the exit code, stdout and stderr.
//! Regenerate with `SCHEMA_LINT_BLESS=1 cargo test --test cli` and review the diff like code.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn run_case(dir: &Path) -> String {
    let args_text = std::fs::read_to_string(dir.join("args")).unwrap_or_default();
    let args: Vec<&str> = args_text.lines().filter(|l| !l.is_empty()).collect();
    let stdin_file = dir.join("stdin");
    let mut child = Command::new(env!("CARGO_BIN_EXE_schema-lint"))
        .args(&args)
        .current_dir(dir.join("files"))
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
    for dir in cases {
        std::fs::create_dir_all(dir.join("files")).unwrap();
        let actual = run_case(&dir);
        let expected_path = dir.join("expected.txt");
        if bless {
            std::fs::write(&expected_path, &actual).unwrap();
            continue;
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
