//! The whole project behind every partial run: configuration patterns relative to the
//! configuration's folder from anywhere, named files resolving references into the rest of the
//! project, fixes that follow a renamed `$id` into files that were not named (or refuse to),
//! walks that report broken schemas and say when they find none, `.gitignore`, and the note on
//! output schemas linted without the MCP rules.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_schema-lint");

/// A fresh project folder (a git checkout when `git`) with `files` (path, text).
fn project(name: &str, git: bool, files: &[(&str, &str)]) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("schema-lint-project-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    if git {
        std::fs::create_dir_all(dir.join(".git")).unwrap();
    }
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// Runs schema-lint in `cwd` with `stdin`: (exit code, stdout, stderr).
fn run_in(cwd: &Path, args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "200")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(text) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn run(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    run_in(cwd, args, None)
}

const BAD: &str = r#"{"$id": "my_tool:output", "type": "object"}"#;

/// The files named in a `concise` report.
fn reported(out: &str) -> Vec<String> {
    let mut files: Vec<String> = out
        .lines()
        .filter_map(|l| l.split_once(':').map(|(f, _)| f.to_owned()))
        .collect();
    files.dedup();
    files
}

#[test]
fn configuration_patterns_are_relative_to_the_configuration_from_anywhere() {
    let dir = project(
        "config",
        false,
        &[
            (
                "schema-lint.toml",
                "exclude = [\"vendor/**\"]\n[per-file-ignores]\n\"legacy/*.json\" = [\"invalid-id-uri\"]\n\"schemas/a.json\" = [\"SL201\"]\n",
            ),
            ("vendor/v.json", BAD),
            ("legacy/old.json", BAD),
            ("schemas/a.json", BAD),
            ("schemas/b.json", BAD),
        ],
    );
    let concise = ["--output-format", "concise"];
    // From the folder that holds the configuration (pre-commit and CI run there).
    let (code, out, _) = run(&dir, &concise);
    assert_eq!(code, 1);
    assert_eq!(reported(&out), ["schemas/b.json"], "{out}");
    // Named files, as pre-commit passes them.
    let (_, out, _) = run(
        &dir,
        &[
            "legacy/old.json",
            "schemas/a.json",
            "schemas/b.json",
            "--output-format",
            "concise",
        ],
    );
    assert_eq!(reported(&out), ["schemas/b.json"], "{out}");
    // From a subfolder.
    let (_, out, _) = run(
        &dir.join("schemas"),
        &[
            "a.json",
            "b.json",
            "../legacy/old.json",
            "--output-format",
            "concise",
        ],
    );
    assert_eq!(reported(&out), ["b.json"], "{out}");
    // From the parent.
    let name = dir.file_name().unwrap().to_str().unwrap();
    let (_, out, _) = run(dir.parent().unwrap(), &[name, "--output-format", "concise"]);
    assert_eq!(reported(&out), [format!("{name}/schemas/b.json")], "{out}");
}

const TICKET: &str = "{\n  \"$id\": \"urn:my_tool:ticket\",\n  \"type\": \"object\"\n}\n";
const LIST: &str =
    "{\n  \"type\": \"array\",\n  \"items\": {\"$ref\": \"urn:my_tool:ticket\"}\n}\n";

fn linked(name: &str) -> PathBuf {
    project(
        name,
        true,
        &[
            ("schemas/ticket.json", TICKET),
            ("schemas/list.json", LIST),
            ("schemas/unrelated.json", r#"{"type": "string"}"#),
        ],
    )
}

#[test]
fn a_named_file_resolves_references_into_the_rest_of_the_project() {
    let dir = linked("resolve");
    let (code, out, err) = run(&dir, &["schemas/list.json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("All checks passed (1 file linted)"), "{out}");
    // From a subfolder too, and from standard input named after the file.
    let (code, out, _) = run(&dir.join("schemas"), &["list.json"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = run_in(
        &dir,
        &["-", "--stdin-filename", "schemas/list.json"],
        Some(LIST),
    );
    assert_eq!(code, 0, "{out}");
    // A reference that the whole project cannot resolve is still reported.
    let broken = LIST.replace("ticket", "tickets");
    std::fs::write(dir.join("schemas/list.json"), broken).unwrap();
    let (code, out, _) = run(&dir, &["schemas/list.json", "--output-format", "concise"]);
    assert_eq!(code, 1);
    assert!(out.contains("error: SL30"), "{out}");
}

#[test]
fn a_fix_follows_a_renamed_id_into_the_files_that_name_it() {
    let dir = linked("fix");
    let (code, out, _) = run(&dir, &["--fix", "schemas/ticket.json"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("Also changed, to follow a renamed `$id`: `schemas/list.json`"),
        "{out}"
    );
    let list = std::fs::read_to_string(dir.join("schemas/list.json")).unwrap();
    assert_eq!(list, LIST.replace("my_tool", "my-tool"));
    // The whole project lints clean: no dangling reference was left behind.
    let (code, out, _) = run(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("All checks passed (3 files linted)"), "{out}");
}

#[test]
fn a_fix_that_would_change_an_unnamed_file_is_refused_where_it_may_not() {
    let dir = linked("fix-only-named");
    let (code, out, _) = run(&dir, &["--fix", "--fix-only-named", "schemas/ticket.json"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("SL901") && out.contains("which was not named (`--fix-only-named`)"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("schemas/ticket.json")).unwrap(),
        TICKET
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("schemas/list.json")).unwrap(),
        LIST
    );
    // Standard input is printed, never written: no other file may change with it.
    let (code, out, err) = run_in(
        &dir,
        &["-", "--stdin-filename", "schemas/ticket.json", "--fix"],
        Some(TICKET),
    );
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(out, TICKET, "the buffer comes back unchanged");
    assert!(
        err.contains("fixing standard input changes no other file"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("schemas/list.json")).unwrap(),
        LIST
    );
}

#[test]
fn walks_report_broken_schemas_and_say_when_they_find_none() {
    let dir = project(
        "walks",
        false,
        &[
            ("outputs/get_weather.output.json", "{\"type\": \"object\",}"),
            (
                "data/record.json",
                "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\",}",
            ),
            ("data/other.json", "{\"a\": 1,}"),
            ("package.json", r#"{"name": "x"}"#),
        ],
    );
    let (code, out, _) = run(&dir, &["--output-format", "concise"]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        reported(&out),
        ["data/record.json", "outputs/get_weather.output.json"],
        "{out}"
    );
    let empty = project("none", false, &[("package.json", r#"{"name": "x"}"#)]);
    let (code, out, _) = run(&empty, &[]);
    assert_eq!(code, 0);
    assert!(out.contains("No schema files found"), "{out}");
    let (code, _, err) = run(&empty, &["--output-format", "json"]);
    assert_eq!(code, 0);
    assert!(err.contains("No schema files found"), "{err}");
}

#[test]
fn walks_honour_gitignore_unless_told_not_to() {
    let dir = project(
        "gitignore",
        true,
        &[
            (".gitignore", "generated/\n"),
            ("generated/bad.json", BAD),
            ("schemas/good.json", r#"{"type": "object"}"#),
        ],
    );
    let (code, out, _) = run(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = run(
        &dir,
        &["--no-respect-gitignore", "--output-format", "concise"],
    );
    assert_eq!(code, 1);
    assert_eq!(reported(&out), ["generated/bad.json"], "{out}");
    // A file named on the command line is always linted.
    let (code, _, _) = run(&dir, &["generated/bad.json"]);
    assert_eq!(code, 1);
}

#[test]
fn output_schemas_without_the_mcp_rules_get_a_note_and_mcp_files_turns_them_on() {
    let array = r#"{"type": "array", "items": {"type": "number"}}"#;
    let dir = project("mcp-note", false, &[("outputs/forecast.json", array)]);
    let (code, _, err) = run(&dir, &[]);
    assert_eq!(code, 0);
    assert!(
        err.contains(
            "1 schema file looks like MCP tool output schemas (such as `outputs/forecast.json`)"
        ),
        "{err}"
    );
    std::fs::write(
        dir.join("schema-lint.toml"),
        "mcp-files = [\"outputs/**\"]\n",
    )
    .unwrap();
    let (code, out, err) = run(&dir, &["--output-format", "concise"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("error: SL501"), "{out}");
    assert!(!err.contains("note:"), "{err}");
}
