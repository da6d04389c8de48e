//! The table of `check` options in docs/check.md lists exactly the long options `schema-lint check
//! --help` prints (but `--help`), so an option added, renamed or removed without its line in the
//! docs/check.md fails here.

use std::collections::BTreeSet;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_schema-lint");

/// The long option a line of `--help` starts with (`  -q, --quiet  ...` gives `--quiet`).
fn help_option(line: &str) -> Option<String> {
    let line = line.trim_start();
    let line = match line.strip_prefix('-') {
        Some(rest) if !rest.starts_with('-') => rest.split_once(", ")?.1,
        _ => line,
    };
    let name: String = line
        .strip_prefix("--")?
        .chars()
        .take_while(|c| c.is_ascii_lowercase() || *c == '-')
        .collect();
    (!name.is_empty()).then(|| format!("--{name}"))
}

/// Every `--option` named in the first cell of the rows of the README's `check` option table.
fn readme_options() -> BTreeSet<String> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/check.md")).unwrap();
    let table = readme
        .split_once("Options of `check`:")
        .expect("docs/check.md has its `Options of `check`:` table")
        .1;
    let table = table.split("\n### ").next().unwrap();
    let mut options = BTreeSet::new();
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        let cell = row.split('|').nth(1).unwrap();
        let mut rest = cell;
        while let Some(at) = rest.find("--") {
            let name: String = rest[at + 2..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            if !name.is_empty() {
                options.insert(format!("--{name}"));
            }
            rest = &rest[at + 2 + name.len()..];
        }
    }
    options
}

#[test]
fn the_readme_option_table_lists_every_option_of_check_help() {
    let out = Command::new(BIN)
        .args(["check", "--help"])
        .env("COLUMNS", "200")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help: BTreeSet<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(help_option)
        .filter(|o| o != "--help")
        .collect();
    assert!(help.len() > 20, "{help:?}");
    let readme = readme_options();
    let missing: Vec<_> = help.difference(&readme).collect();
    let stale: Vec<_> = readme.difference(&help).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "docs/check.md's option table of `check` is out of date: missing {missing:?}, not options of `check --help` {stale:?}"
    );
}

#[test]
fn help_lines_name_their_long_option() {
    assert_eq!(
        help_option("  -q, --quiet  only errors").as_deref(),
        Some("--quiet")
    );
    assert_eq!(
        help_option("      --output-format <OUTPUT_FORMAT>").as_deref(),
        Some("--output-format")
    );
    assert_eq!(help_option("          Files and folders"), None);
    assert_eq!(help_option("  -V  the version"), None);
}

/// The help of `--fix-only-named` says what is refused in a sentence that parses.
#[test]
fn fix_only_named_help_says_what_is_refused() {
    let out = Command::new(BIN)
        .args(["check", "--help"])
        .env("COLUMNS", "400")
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let line = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("--fix-only-named"))
        .nth(1)
        .expect("`--fix-only-named` in `check --help`");
    assert!(
        line.contains("a fix that would change one (to follow a renamed `$id`"),
        "{line}"
    );
}
