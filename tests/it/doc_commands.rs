//! Every `schema-lint` command the README and the manual in `docs/` show in a `sh` block is one
//! the command line takes: its words parse as `schema-lint` parses them, and those that name only
//! files of this repository (the bundled example, the fixtures) run, with no error (exit 0 or 1,
//! never 2). A renamed option, a removed command or a path that moved fails here.

use clap::Parser;
use schema_lint::cli::args::Cli;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_schema-lint");

/// The `schema-lint` command lines of every `sh` block of `text`.
fn commands(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_sh = !in_sh && trimmed == "```sh";
            continue;
        }
        if in_sh && trimmed.starts_with("schema-lint ") {
            found.push(trimmed.to_owned());
        }
    }
    found
}

#[test]
fn every_command_the_docs_show_parses_and_the_local_ones_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let (mut parsed, mut ran) = (0, 0);
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for line in commands(&text) {
            // `#` starts a comment, as in a shell.
            let mut words = shlex::split(&line).unwrap_or_else(|| panic!("{page:?}: `{line}`"));
            // What the shell does with the output is the shell's.
            if let Some(at) = words.iter().position(|w| {
                matches!(
                    w.as_str(),
                    ">" | ">>" | "<" | "|" | "&&" | "||" | "2>" | "2>&1"
                )
            }) {
                words.truncate(at);
            }
            if let Err(e) = Cli::try_parse_from(&words) {
                panic!("{}: `{line}` does not parse: {e}", page.display());
            }
            parsed += 1;
            let args = &words[1..];
            let local = !args.is_empty()
                && !args.iter().any(|a| {
                    matches!(
                        a.as_str(),
                        "--server"
                            | "--url"
                            | "--fix"
                            | "--write-baseline"
                            | "--watch"
                            | "mcp"
                            | "server"
                            | "record"
                            | "session"
                            | "audit"
                            | "diff"
                            | "dump"
                    )
                })
                && args
                    .iter()
                    .filter(|a| !a.starts_with('-'))
                    .all(|a| a.contains('/') && root.join(a).exists());
            if local {
                let out = Command::new(BIN)
                    .args(args)
                    .current_dir(root)
                    .stdin(Stdio::null())
                    .output()
                    .unwrap();
                let code = out.status.code();
                assert!(
                    matches!(code, Some(0 | 1)),
                    "{}: `{line}` exited {code:?}: {}",
                    page.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
                ran += 1;
            }
        }
    }
    assert!(parsed > 30, "{parsed} commands parsed");
    assert!(ran > 0, "{ran} commands run");
}
