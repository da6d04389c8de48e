//! Containment: `$ref` resolution never opens a network connection nor a file outside the
//! linted set, and `--fix` writes only files of the set, only through a temporary file renamed
//! in the same folder, never through a symlink; two `--fix` runs at once leave every file as it
//! was or fully fixed.
//!
//! The system-call test needs `strace` (`apt-get install -y strace`); without it, it says so and
//! passes. The canary tests need nothing: a file outside the set whose content would change the
//! verdict if it were read, beside the same file inside the set to show that it would.

use crate::common;

use common::{changed, lint_in, snapshot, Scratch, FIXABLE, FIXED};
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(120);

/// References that lead out of the set: a local file, a file beside the set, the cloud metadata
/// address, the web, and a `file://` URI of a file that exists outside the set.
fn outward_refs(outside: &Path) -> Vec<String> {
    vec![
        "file:///etc/passwd".to_owned(),
        "../../outside.json".to_owned(),
        "../outside/canary.json".to_owned(),
        "http://169.254.169.254/latest/meta-data".to_owned(),
        "https://example.com/schema.json".to_owned(),
        format!("file://{}/canary.json#/$defs/x", outside.display()),
        "https://canary.example/canary.json".to_owned(),
    ]
}

/// A set that references outward from a schema file and from a `tools/list` document, with
/// fixable findings so that `--fix` runs the proof (compile) over them; and the files outside.
fn containment_tree(dir: &Scratch) -> PathBuf {
    let outside = dir.join("outside");
    // Would resolve the canary references if read, and is a broken schema.
    dir.write(
        "outside/canary.json",
        r#"{"$id": "https://canary.example/canary.json", "$defs": {"x": {"type": 5}}, "type": 5}"#,
    );
    dir.write("outside.json", r#"{"type": 5}"#);
    let refs = outward_refs(&outside);
    let properties: Vec<String> = refs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            format!(
                "\"p{i}\": {{\"$ref\": {}}}",
                serde_json::to_string(r).unwrap()
            )
        })
        .collect();
    dir.write(
        "set/refs.json",
        format!(
            "{{\n  \"$id\": \"my_tool:refs\",\n  \"type\": \"object\",\n  \"properties\": {{\n    {},\n    \"frag\": {{\"$id\": \"#my_tool:frag\"}}\n  }}\n}}\n",
            properties.join(",\n    ")
        ),
    );
    dir.write(
        "set/sub/tools.json",
        format!(
            "{{\"tools\": [{{\"name\": \"t\", \"inputSchema\": {{\"type\": \"object\"}}, \"outputSchema\": {{\"$id\": \"my_tool:out\", \"type\": \"object\", \"properties\": {{{}}}}}}}]}}\n",
            properties.join(", ")
        ),
    );
    dir.write("set/tool.json", FIXABLE);
    dir.join("set")
}

fn strace_available() -> bool {
    Command::new("strace")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `path` made absolute against `cwd`, with `.` and `..` resolved by the text alone.
fn lexical(cwd: &Path, path: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for c in cwd.join(path).components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Files a process opens before and around `main` that are not the user's: the dynamic loader
/// and libraries, `/proc/self` (the stack guard, the cgroup CPU quota) and the cgroup files.
fn runtime_file(path: &Path) -> bool {
    let p = path.to_string_lossy();
    [
        "/etc/ld.so.cache",
        "/etc/ld.so.preload",
        "/lib/",
        "/lib64/",
        "/usr/lib/",
        "/usr/lib64/",
        "/proc/self/",
        "/proc/thread-self/",
        "/sys/fs/cgroup/",
        "/sys/devices/system/cpu/",
    ]
    .iter()
    .any(|prefix| p == *prefix || p.starts_with(prefix))
}

/// Whether `path`, inside `set` by its text, is a symlink (or lies in a symlinked folder) that
/// leads out of it (checked once the run is over: the links of these tests stay as they are).
fn leads_out(set: &Path, path: &Path) -> bool {
    let real_set = set.canonicalize().unwrap_or_else(|_| set.to_path_buf());
    path.canonicalize()
        .is_ok_and(|real| !real.starts_with(&real_set))
}

/// One traced system call: its name, the first quoted argument, the whole line.
struct Call {
    name: String,
    path: Option<String>,
    line: String,
}

fn parse_trace(log: &str) -> Vec<Call> {
    log.lines()
        .filter_map(|line| {
            // `PID name(args) = ret`; strace's own notes start with `+++` or `---`.
            let rest = line.split_once(' ').map_or(line, |(_, r)| r).trim_start();
            if rest.starts_with("+++") || rest.starts_with("---") || rest.starts_with('<') {
                return None;
            }
            let name = rest.split('(').next()?.to_owned();
            let path = rest
                .split_once('"')
                .and_then(|(_, r)| r.split_once('"'))
                .map(|(p, _)| p.to_owned());
            Some(Call {
                name,
                path,
                line: line.to_owned(),
            })
        })
        .collect()
}

/// Runs the binary under strace in `set` and checks every call it made.
fn traced(set: &Path, args: &[&str], log: &Path) -> Vec<String> {
    let mut cmd = Command::new("strace");
    cmd.args(["-f", "-qq", "-s", "4096", "-o"])
        .arg(log)
        .args([
            "-e",
            "trace=network,open,openat,openat2,creat,rename,renameat,renameat2,unlink,unlinkat,\
             link,linkat,symlink,symlinkat,mkdir,mkdirat,truncate,execve",
        ])
        .arg(common::BIN)
        .args(args)
        .current_dir(set)
        // `cargo test` points the loader at the toolchain's folders; the binary needs none.
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("LD_PRELOAD");
    let ran = common::run_with_limit(cmd, LIMIT);
    let code = ran.exit();
    assert!(code == 0 || code == 1, "{ran:#?}");
    let log = std::fs::read_to_string(log).unwrap();
    check_trace(set, args, &log)
}

/// The state of a trace check: what was opened for writing, and what is wrong so far.
struct TraceCheck<'a> {
    set: &'a Path,
    temps: Vec<PathBuf>,
    problems: Vec<String>,
    reads_in_set: usize,
}

impl TraceCheck<'_> {
    fn problem(&mut self, what: &str, call: &Call) {
        self.problems.push(format!("{what}: {}", call.line));
    }

    fn open(&mut self, call: &Call) {
        let Some(path) = &call.path else {
            return self.problem("an open without a path", call);
        };
        if !path.starts_with('/') && !call.line.contains("AT_FDCWD") && call.name != "open" {
            return self.problem("an open relative to a descriptor", call);
        }
        let abs = lexical(self.set, path);
        let writes = ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC"]
            .iter()
            .any(|f| call.line.contains(f))
            || call.name == "creat";
        let inside = abs.starts_with(self.set);
        // `schema-lint.toml` is looked for in the folders above the first path.
        let config = abs.file_name().is_some_and(|n| n == "schema-lint.toml")
            && abs.parent().is_some_and(|p| self.set.starts_with(p));
        if writes {
            // A temporary file, or the copy of an original kept while renaming (where the file
            // system has no hard links).
            let temp = abs.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.ends_with(".schema-lint.tmp") || n.ends_with(".schema-lint.orig")
            });
            if inside && temp && !call.line.contains(" = -1 ") {
                self.temps.push(abs);
            } else {
                self.problem("a write that is not a temp file of the set", call);
            }
            if !call.line.contains("O_EXCL") {
                self.problem("a temp file opened without O_EXCL", call);
            }
        } else if inside && leads_out(self.set, &abs) {
            self.problem("opened a symlink that leads outside the set", call);
        } else if inside {
            self.reads_in_set += 1;
        } else if !config && !runtime_file(&abs) {
            self.problem("opened outside the set", call);
        }
    }

    fn rename(&mut self, call: &Call) {
        // Both paths: `rename("./.a.json.1.0.schema-lint.tmp", "./a.json")`.
        let quoted: Vec<&str> = call.line.split('"').skip(1).step_by(2).collect();
        let [from, to] = quoted[..] else {
            return self.problem("a rename I cannot read", call);
        };
        let (from, to) = (lexical(self.set, from), lexical(self.set, to));
        let named_after_target = match (from.file_name(), to.file_name()) {
            (Some(f), Some(t)) => {
                let f = f.to_string_lossy();
                f.starts_with(&format!(".{}.", t.to_string_lossy()))
                    && (f.ends_with(".schema-lint.tmp") || f.ends_with(".schema-lint.orig"))
            }
            _ => false,
        };
        if !self.temps.contains(&from)
            || from.parent() != to.parent()
            || !to.starts_with(self.set)
            || !named_after_target
        {
            self.problem("a rename that is not temp -> file in one folder", call);
        }
        if std::fs::symlink_metadata(&to).is_ok_and(|m| m.file_type().is_symlink()) {
            self.problem("renamed over a symlink", call);
        }
    }

    /// A file of the set kept under a second name while the fixes are renamed in:
    /// `linkat(AT_FDCWD, "./a.json", AT_FDCWD, "./.a.json.1.0.schema-lint.orig", 0)`.
    fn link(&mut self, call: &Call) {
        let quoted: Vec<&str> = call.line.split('"').skip(1).step_by(2).collect();
        let [from, to] = quoted[..] else {
            return self.problem("a link I cannot read", call);
        };
        let (from, to) = (lexical(self.set, from), lexical(self.set, to));
        let kept = match (from.file_name(), to.file_name()) {
            (Some(f), Some(t)) => {
                let t = t.to_string_lossy();
                t.starts_with(&format!(".{}.", f.to_string_lossy()))
                    && t.ends_with(".schema-lint.orig")
            }
            _ => false,
        };
        if !kept || from.parent() != to.parent() || !from.starts_with(self.set) {
            return self.problem("a link that is not file -> its kept original", call);
        }
        self.temps.push(to);
    }
}

/// What is wrong in a trace of a run over `set` with `args`.
fn check_trace(set: &Path, args: &[&str], log: &str) -> Vec<String> {
    let calls = parse_trace(log);
    let mut check = TraceCheck {
        set,
        temps: Vec::new(),
        problems: Vec::new(),
        reads_in_set: 0,
    };
    let (mut execs, mut renames) = (0, 0);
    for call in &calls {
        match call.name.as_str() {
            "execve" => {
                execs += 1;
                if execs > 1 {
                    check.problem("started another program", call);
                }
            }
            "open" | "openat" | "openat2" | "creat" => check.open(call),
            "link" | "linkat" => check.link(call),
            "rename" | "renameat" | "renameat2" => {
                renames += 1;
                check.rename(call);
            }
            "unlink" | "unlinkat" => {
                let path = call.path.as_deref().map(|p| lexical(set, p));
                if !path.is_some_and(|p| check.temps.contains(&p)) {
                    check.problem("removed a file that is not its temp file", call);
                }
            }
            // Every other traced call is a network call (socket, connect, sendto, ...) or makes
            // a folder or a link: none is allowed.
            _ => check.problem("unexpected system call", call),
        }
    }
    // The trace saw the run: the files of the set were read, and `--fix` renamed its fixes in.
    if check.reads_in_set < 2 {
        check.problems.push(format!(
            "the trace shows no read of the set ({} calls)",
            calls.len()
        ));
    }
    if args.contains(&"--fix") && renames == 0 {
        check
            .problems
            .push("the trace shows no rename under --fix".to_owned());
    }
    check.problems
}

#[test]
fn the_trace_check_catches_what_it_must() {
    let set = Path::new("/w/set");
    let log = r#"7 execve("/bin/schema-lint", ["schema-lint", "--fix", "."], 0x0 /* 3 vars */) = 0
7 openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3
7 openat(AT_FDCWD, "./a.json", O_RDONLY|O_CLOEXEC) = 3
7 openat(AT_FDCWD, "./b.json", O_RDONLY|O_CLOEXEC) = 3
8 openat(AT_FDCWD, "./../outside.json", O_RDONLY|O_CLOEXEC) = 3
8 openat(AT_FDCWD, "/etc/passwd", O_RDONLY|O_CLOEXEC) = 3
8 socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_IP) = 4
8 connect(4, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("169.254.169.254")}, 16) = 0
7 openat(AT_FDCWD, "./a.json", O_WRONLY|O_TRUNC|O_CLOEXEC) = 3
7 openat(AT_FDCWD, "./.b.json.7.0.schema-lint.tmp", O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC, 0666) = 3
7 rename("./.b.json.7.0.schema-lint.tmp", "./sub/b.json") = 0
7 unlink("./a.json") = 0
7 linkat(AT_FDCWD, "./a.json", AT_FDCWD, "./../outside.json", 0) = 0
9 execve("/bin/sh", ["sh"], 0x0 /* 3 vars */) = 0
7 +++ exited with 0 +++
"#;
    let problems = check_trace(set, &["--fix", "."], log);
    let kinds = [
        "opened outside the set: 8 openat(AT_FDCWD, \"./../outside.json\"",
        "opened outside the set: 8 openat(AT_FDCWD, \"/etc/passwd\"",
        "unexpected system call: 8 socket(",
        "unexpected system call: 8 connect(",
        "a write that is not a temp file of the set: 7 openat(AT_FDCWD, \"./a.json\"",
        "a temp file opened without O_EXCL: 7 openat(AT_FDCWD, \"./a.json\"",
        "a rename that is not temp -> file in one folder",
        "removed a file that is not its temp file",
        "a link that is not file -> its kept original",
        "started another program",
    ];
    for kind in kinds {
        assert!(
            problems.iter().any(|p| p.starts_with(kind)),
            "missed {kind}: {problems:#?}"
        );
    }
    assert_eq!(problems.len(), kinds.len(), "{problems:#?}");
}

#[test]
fn references_open_no_connection_and_no_file_outside_the_set() {
    if !strace_available() {
        eprintln!(
            "SKIPPED references_open_no_connection_and_no_file_outside_the_set: strace is not \
             installed (apt-get install -y strace)"
        );
        return;
    }
    let dir = Scratch::new("strace");
    let set = containment_tree(&dir);
    // A symlink in the set to a fixable file outside it: neither read (a walk does not follow a
    // link out of the walked folder) nor written.
    dir.write("outside/linked.json", FIXABLE);
    std::os::unix::fs::symlink("../outside/linked.json", set.join("linked.json")).unwrap();
    let outside_before = snapshot(&dir.join("outside"));
    let set = set.canonicalize().unwrap();
    let log = dir.join("trace.log");
    let mut problems = Vec::new();
    for args in [
        &["."][..],
        &["--output-format", "json", "."],
        &["--fix", "."],
        &[
            "--fix",
            "--unsafe-fixes",
            "--fix-id",
            "defs",
            "--target",
            "mcp-2026-07-28",
            ".",
        ],
        &["--diff", "tool.json", "refs.json"],
    ] {
        // Start from the same files each time.
        let _ = std::fs::remove_dir_all(&set);
        containment_tree(&dir);
        std::os::unix::fs::symlink("../outside/linked.json", set.join("linked.json")).unwrap();
        for p in traced(&set, args, &log) {
            problems.push(format!("{args:?}: {p}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(changed(&outside_before, &snapshot(&dir.join("outside"))).is_empty());
}

/// The json output of a run, parsed.
fn json_findings(dir: &Path, args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["--output-format", "json"];
    all.extend_from_slice(args);
    let ran = lint_in(dir, &all, LIMIT);
    ran.exit();
    let value: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    value["diagnostics"].as_array().cloned().unwrap_or_default()
}

#[test]
fn a_canary_outside_the_set_changes_nothing() {
    let dir = Scratch::new("canary");
    // `../outside/can ary.json` is not a URI (the space): SL301 offers to percent-encode it only
    // when the encoded reference resolves in the run. Outside the set it must not resolve.
    dir.write("outside/can ary.json", r#"{"type": "object"}"#);
    // Its `$id` is what the rename of `my_tool:output` would pick: were it read, the fix would
    // have to choose `my_tool_output_2`.
    dir.write(
        "outside/taken.json",
        r#"{"$id": "my_tool_output", "type": "object"}"#,
    );
    dir.write(
        "set/refs.json",
        r#"{"$id": "my_tool:output", "properties": {"a": {"$ref": "../outside/can ary.json"}, "b": {"$ref": "../outside/taken.json"}}}"#,
    );
    // The control: the same files inside a set do change the verdict.
    dir.write("control/inside/can ary.json", r#"{"type": "object"}"#);
    dir.write(
        "control/inside/taken.json",
        r#"{"$id": "my_tool_output", "type": "object"}"#,
    );
    dir.write(
        "control/refs.json",
        r#"{"$id": "my_tool:output", "properties": {"a": {"$ref": "inside/can ary.json"}, "b": {"$ref": "inside/taken.json"}}}"#,
    );
    // The findings whose fix depends on what the run holds (other rules may report the
    // references as unresolved or remote: they are not the point here).
    let fixes = |dir: &Path| -> Vec<(String, Option<String>)> {
        json_findings(dir, &["."])
            .iter()
            .filter(|d| matches!(d["code"].as_str(), Some("SL201" | "SL301")))
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_owned(),
                    d["fix"]["title"].as_str().map(str::to_owned),
                )
            })
            .collect()
    };
    assert_eq!(
        fixes(&dir.join("control")),
        [
            (
                "SL201".to_owned(),
                Some("Rename `$id` `my_tool:output` to `my_tool_output_2`".to_owned())
            ),
            (
                "SL301".to_owned(),
                Some("Percent-encode `inside/can ary.json` as `inside/can%20ary.json`".to_owned())
            ),
        ]
    );
    assert_eq!(
        fixes(&dir.join("set")),
        [
            (
                "SL201".to_owned(),
                Some("Rename `$id` `my_tool:output` to `my_tool_output`".to_owned())
            ),
            ("SL301".to_owned(), None),
        ]
    );
    // Named one by one on the command line, the same.
    let named = json_findings(&dir.join("set"), &["refs.json"]);
    let sl301: Vec<_> = named.iter().filter(|d| d["code"] == "SL301").collect();
    assert_eq!(sl301.len(), 1);
    assert!(sl301[0]["fix"].is_null());
}

#[cfg(unix)]
#[test]
fn fix_writes_only_inside_the_set_and_never_through_a_symlink() {
    use std::os::unix::fs::symlink;
    let dir = Scratch::new("fix-symlinks");
    dir.write("outside/target.json", FIXABLE);
    dir.write("outside/folder/in-linked-folder.json", FIXABLE);
    dir.write("set/own.json", FIXABLE);
    dir.write(
        "set/real.json",
        FIXABLE.replace("my_tool:output", "my_tool:real"),
    );
    symlink("../outside/target.json", dir.join("set/to-outside.json")).unwrap();
    symlink("real.json", dir.join("set/a-to-real.json")).unwrap();
    symlink("../outside/folder", dir.join("set/linked-folder")).unwrap();
    let outside_before = snapshot(&dir.join("outside"));
    let ran = lint_in(
        &dir.join("set"),
        &["--fix", "--output-format", "concise", "."],
        LIMIT,
    );
    // The link that leads out of the walked folder is not walked (#24 item 7); the one inside is.
    assert_eq!(ran.exit(), 0, "{ran:#?}");
    assert_eq!(ran.stdout, "", "{ran:#?}");
    assert!(
        ran.stderr
            .starts_with("Found 2 findings (2 fixed, 0 remaining) in "),
        "{ran:#?}"
    );
    // Named, it is linted and still never written.
    let named = lint_in(
        &dir.join("set"),
        &["--fix", "--output-format", "concise", "to-outside.json"],
        LIMIT,
    );
    assert_eq!(named.exit(), 1, "{named:#?}");
    assert_eq!(
        named.stdout.lines().collect::<Vec<_>>(),
        [
            "to-outside.json:2:18: error: SL201 `$id` `my_tool:output` is not a valid URI reference",
            "to-outside.json:2:18: error: SL901 Fix for SL201 not applied: `to-outside.json` is a symlink; schema-lint does not write through symlinks",
        ]
    );
    assert!(changed(&outside_before, &snapshot(&dir.join("outside"))).is_empty());
    assert_eq!(
        std::fs::read_to_string(dir.join("set/own.json")).unwrap(),
        FIXED
    );
    // Reached through a symlink too, fixed under its own path; the symlinks are still symlinks.
    assert_eq!(
        std::fs::read_to_string(dir.join("set/real.json")).unwrap(),
        FIXED.replace("my_tool_output", "my_tool_real")
    );
    for link in ["to-outside.json", "a-to-real.json", "linked-folder"] {
        assert!(std::fs::symlink_metadata(dir.join("set").join(link))
            .unwrap()
            .file_type()
            .is_symlink());
    }
    // Nothing left behind.
    let leftovers: Vec<String> = snapshot(&dir.path)
        .into_keys()
        .filter(|k| k.contains(".schema-lint."))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A tree of `n` files with fixes of every kind: `$id` renames with the `$ref`s in another file
/// of the same folder that name them, `$id` fragments to `$anchor`, percent-encoded references,
/// URNs; CRLF and a byte order mark.
fn race_tree(dir: &Path, n: usize) {
    for i in 0..n {
        let text = match i % 4 {
            0 => format!(
                "{{\n  \"$id\": \"my_tool:out{i}\",\n  \"type\": \"object\",\n  \"properties\": {{\"self\": {{\"$ref\": \"my_tool:out{i}#\"}}}}\n}}\n"
            ),
            1 => format!(
                "{{\r\n  \"$defs\": {{\"a\": {{\"$id\": \"#frag{i}\"}}}},\r\n  \"$ref\": \"my_tool:out{}\"\r\n}}\r\n",
                i - 1
            ),
            2 => format!(
                "{{\"$id\": \"https://example.com/{i}.json\", \"$defs\": {{\"my key\": {{\"type\": \"string\"}}}}, \"properties\": {{\"k\": {{\"$ref\": \"#/$defs/my key\"}}}}}}"
            ),
            _ => format!(
                "\u{feff}{{\"$id\": \"urn:my_tool:{i}\", \"title\": \"é{i}\", \"type\": \"object\"}}\n"
            ),
        };
        let path = dir.join(format!("d{}/f{i:04}.json", i / 8));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn two_fix_runs_at_once_leave_each_file_as_it_was_or_fully_fixed() {
    let dir = Scratch::new("race");
    let n = 300;
    let original = dir.join("original");
    race_tree(&original, n);
    let before = snapshot(&original);
    // The fixed tree, from one run alone.
    let reference = dir.join("reference");
    race_tree(&reference, n);
    let ran = lint_in(&reference, &["--fix", "--quiet", "."], LIMIT);
    assert!(matches!(ran.exit(), 0 | 1), "{ran:#?}");
    let fixed = snapshot(&reference);
    assert_eq!(changed(&before, &fixed).len(), n, "every file has a fix");
    for round in 0..3_u64 {
        let work = dir.join(&format!("round{round}"));
        race_tree(&work, n);
        let start = |work: &Path| {
            Command::new(common::BIN)
                .args(["--fix", "--quiet", "."])
                .current_dir(work)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        // At once, then with the second run starting while the first is writing.
        let mut a = start(&work);
        std::thread::sleep(Duration::from_millis(300 * round));
        let mut b = start(&work);
        let deadline = std::time::Instant::now() + LIMIT;
        for child in [&mut a, &mut b] {
            loop {
                if let Some(status) = child.try_wait().unwrap() {
                    let code = status.code().expect("no signal");
                    let mut err = String::new();
                    if let Some(mut e) = child.stderr.take() {
                        std::io::Read::read_to_string(&mut e, &mut err).unwrap();
                    }
                    assert!(matches!(code, 0 | 1), "round {round}: exit {code}\n{err}");
                    break;
                }
                assert!(std::time::Instant::now() < deadline, "round {round}: hung");
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        let after = snapshot(&work);
        assert_eq!(
            after.keys().collect::<Vec<_>>(),
            before.keys().collect::<Vec<_>>(),
            "round {round}: files appeared or vanished (temp files left?)"
        );
        for (path, entry) in &after {
            let common::Entry::File(bytes) = entry else {
                panic!("{path}: not a file");
            };
            let text = std::str::from_utf8(bytes).unwrap();
            assert!(
                serde_json::from_str::<serde_json::Value>(text.trim_start_matches('\u{feff}'))
                    .is_ok(),
                "round {round}: {path} does not parse"
            );
            assert!(
                Some(entry) == before.get(path) || Some(entry) == fixed.get(path),
                "round {round}: {path} is neither the original nor the fixed text:\n{text}"
            );
        }
    }
}

#[test]
fn no_network_client_is_built_in() {
    // The `jsonschema` crate fetches remote references only with its `resolve-http` (reqwest) and
    // `resolve-file` features: they are off.
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let line = manifest
        .lines()
        .find(|l| l.starts_with("jsonschema ="))
        .expect("jsonschema is a dependency");
    assert!(line.contains("default-features = false"), "{line}");
    assert!(!line.contains("resolve-"), "{line}");
    // The one HTTP client is ureq, for `--url` (a server the user names): no other client and
    // no async runtime is in the lock file, and only the live-server transports use ureq, so
    // nothing that resolves or lints a schema can reach the network.
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    for client in [
        "reqwest",
        "hyper",
        "curl",
        "isahc",
        "attohttpc",
        "native-tls",
        "openssl",
        "tokio",
    ] {
        assert!(
            !lock.contains(&format!("name = \"{client}\"")),
            "`{client}` is in Cargo.lock"
        );
    }
    let mut users = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src"
    ))];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if std::fs::read_to_string(&path)
                .unwrap_or_default()
                .contains("ureq::")
            {
                users.push(
                    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
                        .unwrap()
                        .to_owned(),
                );
            }
        }
    }
    users.sort();
    assert_eq!(
        users,
        [
            std::path::PathBuf::from("src/workspace/live/forward.rs"),
            std::path::PathBuf::from("src/workspace/live/http.rs"),
        ],
        "only the transports to a server the user names (--url, and record --upstream) may use the HTTP client"
    );
}

// --- #24 containment ---

/// Runs the binary in `dir` with at most 4 GiB of address space: on a read without end it dies
/// (exit by signal or abort) instead of taking the machine's memory.
fn lint_bounded(dir: &Path, args: &[&str]) -> common::Ran {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -v 4194304; exec \"$0\" \"$@\"")
        .arg(common::BIN)
        .args(args)
        .current_dir(dir);
    common::run_with_limit(cmd, LIMIT)
}

/// #24 item 4: a named path through a symlinked folder that leads out of the project is never
/// written (its real sibling, which `$ref`s its id, would be left dangling), and the project of
/// a path is that of its real folder.
#[cfg(unix)]
#[test]
fn a_fix_never_writes_through_a_symlinked_folder_out_of_the_project() {
    let dir = Scratch::new("linked-folder");
    std::fs::create_dir_all(dir.join("project/.git")).unwrap();
    dir.write("project/own.json", r#"{"type": "object"}"#);
    dir.write("outside/a.json", FIXABLE);
    dir.write(
        "outside/b.json",
        r#"{"type": "object", "properties": {"a": {"$ref": "my_tool:output"}}}"#,
    );
    std::os::unix::fs::symlink("../outside", dir.join("project/linked")).unwrap();
    let before = snapshot(&dir.join("outside"));
    let ran = lint_in(
        &dir.join("project"),
        &["--fix", "--output-format", "concise", "linked/a.json"],
        LIMIT,
    );
    assert_eq!(ran.exit(), 1, "{ran:#?}");
    assert!(
        changed(&before, &snapshot(&dir.join("outside"))).is_empty(),
        "a file outside the project was written: {ran:#?}"
    );
    assert!(
        ran.stdout.contains(
            "SL901 Fix for SL201 not applied: `linked/a.json` is reached through a symlinked \
             folder that leads out of its project"
        ),
        "{ran:#?}"
    );
    // Inside the project, a symlinked folder is no way out: the fix follows the id into the
    // real sibling, which the context of the real folder holds.
    let inside = Scratch::new("linked-inside");
    std::fs::create_dir_all(inside.join(".git")).unwrap();
    inside.write("real/a.json", FIXABLE);
    inside.write(
        "real/b.json",
        r#"{"type": "object", "properties": {"a": {"$ref": "my_tool:output"}}}"#,
    );
    std::os::unix::fs::symlink("real", inside.join("linked")).unwrap();
    let ran = lint_in(&inside.path, &["--fix", "linked/a.json"], LIMIT);
    assert_eq!(ran.exit(), 0, "{ran:#?}");
    assert_eq!(
        std::fs::read_to_string(inside.join("real/a.json")).unwrap(),
        FIXED
    );
    assert!(std::fs::read_to_string(inside.join("real/b.json"))
        .unwrap()
        .contains("\"my_tool_output\""));
}

/// #24 item 7: a walk takes regular files only and no link out of the walked folder (`/dev/zero`
/// grew memory without end; a secret's first line was printed in the report), and every read
/// is bounded (`--config /dev/zero`, a named device).
#[cfg(unix)]
#[test]
fn a_walk_follows_no_link_out_and_every_read_is_bounded() {
    use std::os::unix::fs::symlink;
    let dir = Scratch::new("walk-links");
    dir.write("secret/creds", "password=TOPSECRET-LINE\n");
    dir.write("set/schemas/tool.json", FIXABLE);
    symlink("/dev/zero", dir.join("set/schemas/zero.json")).unwrap();
    symlink(dir.join("secret/creds"), dir.join("set/schemas/creds.json")).unwrap();
    let ran = lint_bounded(
        &dir.join("set"),
        &["--output-format", "concise", "--color", "never", "."],
    );
    assert_eq!(ran.exit(), 1, "{ran:#?}");
    assert!(!ran.stdout.contains("TOPSECRET"), "{ran:#?}");
    assert!(!ran.stdout.contains("zero.json") && !ran.stdout.contains("creds.json"));
    assert!(ran.stdout.contains("schemas/tool.json"), "{ran:#?}");
    // Named, a device is read up to the bound and refused.
    let named = lint_bounded(&dir.join("set"), &["schemas/zero.json"]);
    assert_eq!(named.exit(), 2, "{named:#?}");
    assert!(named.stdout.contains("larger than 256 MiB"), "{named:#?}");
    let config = lint_bounded(&dir.join("set"), &["--config", "/dev/zero", "."]);
    assert_eq!(config.exit(), 2, "{config:#?}");
    assert!(config.stderr.contains("larger than 1 MiB"), "{config:#?}");
}

/// #24 item 8: with no project marker, or one at a home folder, the project of a named file is
/// its own folder, not the working folder: a far file naming the id is neither read nor
/// rewritten. A context walk stops at its bound and says so.
#[test]
fn an_unmarked_or_home_folder_is_no_project() {
    let dir = Scratch::new("no-marker");
    let far = r#"{"type": "object", "properties": {"a": {"$ref": "my_tool:output"}}}"#;
    dir.write("work/a/tool.json", FIXABLE);
    dir.write("work/elsewhere/far.json", far);
    let ran = lint_in(&dir.join("work"), &["--fix", "a/tool.json"], LIMIT);
    assert_eq!(ran.exit(), 0, "{ran:#?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("work/elsewhere/far.json")).unwrap(),
        far,
        "an unmarked working folder was taken as the project: {ran:#?}"
    );
    // A home folder that is a checkout (dotfiles) is no project either.
    std::fs::create_dir_all(dir.join("work/.git")).unwrap();
    let mut cmd = Command::new(common::BIN);
    cmd.args(["--fix", "a/tool.json"])
        .current_dir(dir.join("work"))
        .env("HOME", dir.join("work"));
    std::fs::write(dir.join("work/a/tool.json"), FIXABLE).unwrap();
    let ran = common::run_with_limit(cmd, LIMIT);
    assert_eq!(ran.exit(), 0, "{ran:#?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("work/elsewhere/far.json")).unwrap(),
        far,
        "a home folder was taken as the project: {ran:#?}"
    );
    // The bound: more `*.json` files than a context walk reads.
    let big = Scratch::new("context-bound");
    std::fs::create_dir_all(big.join(".git")).unwrap();
    big.write("tool.json", r#"{"type": "object"}"#);
    std::fs::create_dir_all(big.join("many")).unwrap();
    for i in 0..20_001 {
        std::fs::write(big.join(&format!("many/f{i:05}.json")), "{}").unwrap();
    }
    let ran = lint_in(&big.path, &["tool.json"], LIMIT);
    assert_eq!(ran.exit(), 0, "{ran:#?}");
    assert!(
        ran.stderr
            .starts_with("note: the project `.` is larger than schema-lint reads for context"),
        "{ran:#?}"
    );
}

/// #24 item 9: a reference to a file outside the linted set reads the same whether the file is
/// there or not, so the report tells nothing of the disk.
#[test]
fn a_reference_out_of_the_set_does_not_probe_the_disk() {
    let dir = Scratch::new("probe");
    dir.write("outside/exists.json", r#"{"type": "object"}"#);
    dir.write(
        "set/refs.json",
        r#"{"type": "object", "properties": {"a": {"$ref": "../outside/exists.json"}, "b": {"$ref": "../outside/missing.json"}}}"#,
    );
    let labels: Vec<String> = json_findings(&dir.join("set"), &["."])
        .iter()
        .filter(|d| d["code"] == "SL302")
        .map(|d| {
            let text = d.to_string();
            text.replace("exists", "X").replace("missing", "X")
        })
        .collect();
    assert_eq!(labels.len(), 2, "{labels:#?}");
    let strip = |t: &str| -> String {
        let v: serde_json::Value = serde_json::from_str(t).unwrap();
        format!("{} {}", v["message"], v["labels"])
    };
    assert_eq!(strip(&labels[0]), strip(&labels[1]));
}
