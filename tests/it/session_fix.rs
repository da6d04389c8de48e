//! `schema-lint session --fix` and `--unfix` against fake MCP servers: a server whose tool breaks
//! a host is wrapped in `schema-lint proxy` in that host's configuration (only its `command` and
//! `args` change, comments and every other byte kept, the original beside it); the session then
//! judges the host through the proxy and says it works; `--unfix` gives the entry its own command
//! back, keeping what the user changed since. JSON with comments and Codex's TOML.

use crate::session::{listing, object, run, scratch, script, stdio, tool, write};
use serde_json::{json, Value};
use std::path::Path;

const BIN: &str = env!("CARGO_BIN_EXE_schema-lint");

/// A schema gemini-cli refuses (a `title` beside a `$ref`), which the port rewrites.
fn ref_sibling() -> Value {
    json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/x", "title": "A"}},
        "$defs": {"x": {"type": "string"}}
    })
}

fn session_json(dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["session", "--output-format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run(dir, &all, &[]);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v, err)
}

fn summary(v: &Value, host: &str) -> String {
    v["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == host)
        .unwrap_or_else(|| panic!("no {host}: {v:#}"))["summary"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The path of the binary as a JSON string literal (what `--fix` writes for `command`).
fn bin_literal() -> String {
    let exe = std::fs::canonicalize(BIN).unwrap();
    serde_json::to_string(exe.to_str().unwrap()).unwrap()
}

/// A project whose gemini-cli settings (with a comment, trailing commas, `env` and `cwd`) name a
/// server with a tool gemini-cli refuses: (folder, settings file, its text, the server's command,
/// its arguments as the file writes them, the secret in `env`).
fn gemini_project(
    name: &str,
) -> (
    std::path::PathBuf,
    std::path::PathBuf,
    String,
    (String, Vec<String>),
    String,
    &'static str,
) {
    let dir = scratch(name);
    let server = listing(
        &dir,
        "gem",
        &json!([tool("search", &object()), tool("ref_tool", &ref_sibling())]),
    );
    let secret = "sk-fix-0123456789abcdef";
    let args = serde_json::to_string(&server.1).unwrap();
    let original = format!(
        "{{\n  // gemini-cli keeps comments\n  \"mcpServers\": {{\n    \"gem\": {{\n      \
         \"command\": \"{}\",\n      \"args\": {args},\n      \"env\": {{\"TOKEN\": \"{secret}\"}},\n      \
         \"cwd\": \".\"\n    }},\n  }},\n}}\n",
        server.0
    );
    let config = dir.join("proj/.gemini/settings.json");
    write(&config, &original);
    (dir, config, original, server, args, secret)
}

#[test]
fn fix_wraps_the_server_that_breaks_gemini_cli_and_unfix_gives_its_bytes_back() {
    let (dir, config, original, server, args, secret) = gemini_project("fix-gemini");
    // Without consent, a project's server is not started: nothing is judged, nothing written.
    let (_, out, err) = run(&dir, &["session", "--fix"], &[]);
    assert_eq!(read(&config), original, "{out}{err}");
    assert!(out.contains("nothing to wrap"), "{out}");

    let (code, v, err) = session_json(&dir, &["--fix", "--trust-project"]);
    assert_eq!(code, 0, "everything that broke is wrapped: {v:#}\n{err}");
    assert_eq!(
        summary(&v, "gemini-cli"),
        "every request fails: gem/ref_tool"
    );
    let edit = &v["edits"][0];
    assert_eq!(edit["action"], "wrapped", "{v:#}");
    assert_eq!(
        (
            edit["host"].as_str(),
            edit["server"].as_str(),
            edit["client"].as_str()
        ),
        (Some("gemini-cli"), Some("gem"), Some("gemini-cli"))
    );
    assert_eq!(edit["repaired"], json!(["ref_tool"]));
    assert!(!v.to_string().contains(secret), "no secret in the output");
    // Only `command` and `args` changed: the comment, the trailing commas, `env` and `cwd` stay.
    let wrapped = read(&config);
    let inner = serde_json::to_string(&server.0).unwrap();
    let expected = original
        .replacen(
            &format!("\"command\": {inner}"),
            &format!("\"command\": {}", bin_literal()),
            1,
        )
        .replacen(
            &format!("\"args\": {args}"),
            &format!(
                "\"args\": [\"proxy\",\"--for\",\"gemini-cli\",\"--\",{inner},{}",
                &args[1..]
            ),
            1,
        );
    assert_eq!(wrapped, expected);
    let backup = dir.join("proj/.gemini/settings.json.schema-lint-backup");
    assert_eq!(read(&backup), original, "the original kept beside it");
    assert_eq!(edit["backup"], backup.display().to_string());

    // The host, judged through the proxy: it works.
    let (code, v, err) = session_json(&dir, &["--trust-project"]);
    assert_eq!(
        (code, summary(&v, "gemini-cli").as_str()),
        (0, "works"),
        "{v:#}\n{err}"
    );
    let notes = v["hosts"][0]["servers"][0]["notes"].to_string();
    assert!(
        notes.contains("wrapped in `schema-lint proxy --for gemini-cli`"),
        "{notes}"
    );

    // A second `--fix`: nothing breaks, nothing changes, no second backup.
    let (code, out, _) = run(&dir, &["session", "--fix", "--trust-project"], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("nothing to wrap"), "{out}");
    assert_eq!(read(&config), wrapped);
    assert!(!dir
        .join("proj/.gemini/settings.json.schema-lint-backup.2")
        .exists());

    // `--unfix` after the user changed the file: their change stays, the entry is theirs again.
    let edited = wrapped.replace("\"cwd\": \".\"", "\"cwd\": \".\",\n      \"timeout\": 5000");
    write(&config, &edited);
    let (code, out, err) = run(&dir, &["session", "--unfix"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "unwrapped: gemini-cli `gem` in {}",
            config.display()
        )),
        "{out}"
    );
    assert_eq!(
        read(&config),
        original.replace("\"cwd\": \".\"", "\"cwd\": \".\",\n      \"timeout\": 5000")
    );
    assert_eq!(
        read(&backup),
        original,
        "the backup is not the file now: kept"
    );
}

#[test]
fn fix_then_unfix_give_the_original_bytes_and_the_backup_goes() {
    let (dir, config, original, ..) = gemini_project("fix-unfix");
    let backup = dir.join("proj/.gemini/settings.json.schema-lint-backup");
    run(&dir, &["session", "--fix", "--trust-project"], &[]);
    assert_ne!(read(&config), original);
    let (code, out, _) = run(&dir, &["session", "--unfix"], &[]);
    assert_eq!(code, 0);
    assert_eq!(read(&config), original);
    assert!(!backup.exists(), "{out}");
    let (_, out, _) = run(&dir, &["session", "--unfix"], &[]);
    assert!(out.contains("nothing to unwrap"), "{out}");
}

#[test]
fn a_second_fix_keeps_the_first_original_and_a_server_the_port_cannot_repair_is_said() {
    let dir = scratch("fix-second");
    let gem = listing(&dir, "gem", &json!([tool("ref_tool", &ref_sibling())]));
    let config = dir.join("home/.gemini/settings.json");
    let first = json!({"mcpServers": {"a": stdio(&gem)}}).to_string();
    write(&config, &first);
    #[cfg(unix)]
    let mode = |p: &Path| {
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(p).unwrap().permissions())
            & 0o777
    };
    #[cfg(unix)]
    std::fs::set_permissions(&config, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let (code, out, err) = run(&dir, &["session", "--fix"], &[]);
    assert_eq!(code, 0, "the user's own file: no consent asked\n{out}{err}");
    #[cfg(unix)]
    {
        let backup = dir.join("home/.gemini/settings.json.schema-lint-backup");
        assert_eq!(
            (mode(&config), mode(&backup)),
            (0o600, 0o600),
            "private stays private"
        );
    }
    let after_first = read(&config);
    let mut v: Value = serde_json::from_str(&after_first).unwrap();
    v["mcpServers"]["b"] = stdio(&gem);
    let second = v.to_string();
    write(&config, &second);
    let (code, out, _) = run(&dir, &["session", "--fix"], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("wrapped: gemini-cli `b`"), "{out}");
    assert!(
        !out.contains("wrapped: gemini-cli `a`"),
        "already wrapped: {out}"
    );
    let backups = dir.join("home/.gemini/settings.json.schema-lint-backup");
    assert_eq!(
        read(&backups),
        first,
        "the first original, never overwritten"
    );
    assert_eq!(
        read(&dir.join("home/.gemini/settings.json.schema-lint-backup.2")),
        second
    );
    let (code, out, _) = run(&dir, &["session", "--unfix"], &[]);
    assert_eq!(code, 0);
    assert_eq!(out.matches("unwrapped:").count(), 2, "{out}");
    let back: Value = serde_json::from_str(&read(&config)).unwrap();
    assert_eq!(back["mcpServers"]["a"], stdio(&gem));
    assert_eq!(back["mcpServers"]["b"], stdio(&gem));

    // Claude Code drops a listing with an array root; the port cannot make it an object.
    let bad = listing(
        &dir,
        "bad",
        &json!([tool("list", &json!({"type": "array"}))]),
    );
    let claude = json!({"mcpServers": {"arr": stdio(&bad)}}).to_string();
    write(&dir.join("home/.claude.json"), &claude);
    let (code, out, _) = run(&dir, &["session", "--fix", "--host", "claude-code"], &[]);
    assert_eq!(code, 1, "it still breaks: {out}");
    assert!(
        out.contains("not wrapped: claude-code `arr`")
            && out.contains("the port for claude-code changes nothing"),
        "{out}"
    );
    assert_eq!(read(&dir.join("home/.claude.json")), claude);
    assert!(!dir.join("home/.claude.json.schema-lint-backup").exists());
}

#[test]
fn codex_toml_is_wrapped_for_the_client_that_breaks_and_unwrapped_as_written() {
    let dir = scratch("fix-codex");
    let nullable = json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}});
    let server = listing(&dir, "cdx", &json!([tool("maybe", &nullable)]));
    let original = format!(
        "# my Codex\nmodel = \"o3\"\n\n[mcp_servers.cdx]\ncommand = {:?} # the interpreter\n\
         args = [\n  {:?},\n  {:?},\n]\nenv = {{ TOKEN = \"tok-0123456789\" }}\n",
        server.0, server.1[0], server.1[1]
    );
    let config = dir.join("home/.codex/config.toml");
    write(&config, &original);
    let judged = ["session", "--host", "codex", "--clients", "gemini"];
    let (code, out, _) = run(&dir, &judged, &[]);
    assert_eq!(code, 1, "Gemini refuses a type list: {out}");
    let mut fix = judged.to_vec();
    fix.push("--fix");
    let (code, out, err) = run(&dir, &fix, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("in `schema-lint proxy --for gemini`")
            && out.contains("ported for gemini, the client whose findings break"),
        "{out}"
    );
    let exe = std::fs::canonicalize(BIN).unwrap();
    let expected = original
        .replacen(
            &format!("command = {:?}", server.0),
            &format!("command = {}", bin_literal()),
            1,
        )
        .replacen(
            "args = [\n",
            &format!(
                "args = [\n  \"proxy\",\n  \"--for\",\n  \"gemini\",\n  \"--\",\n  {:?},\n",
                server.0
            ),
            1,
        );
    assert_eq!(read(&config), expected, "{}", exe.display());
    assert!(!out.contains("tok-0123456789"));
    let (code, out, _) = run(&dir, &judged, &[]);
    assert_eq!(code, 0, "judged through the proxy: {out}");
    assert!(out.starts_with("codex: works"), "{out}");
    let (code, _, _) = run(&dir, &["session", "--unfix"], &[]);
    assert_eq!(code, 0);
    assert_eq!(read(&config), original);
}

#[test]
fn a_url_server_that_breaks_a_host_is_said_with_the_proxy_command_to_write() {
    let dir = scratch("fix-url");
    let tools = dir.join("remote.json");
    let listed = json!({"tools": [tool("ref_tool", &ref_sibling())]});
    std::fs::write(&tools, listed.to_string()).unwrap();
    let portfile = dir.join("port");
    let mut server = std::process::Command::new("python3")
        .args([script().as_str(), "http", portfile.to_str().unwrap()])
        .env("FAKE_LISTING", &tools)
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !portfile.exists() && start.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let port = read(&portfile);
    let secret = "sk-url-0123456789abcdef";
    let settings = dir.join("home/.gemini/settings.json");
    let original = json!({"mcpServers": {"remote": {
        "httpUrl": format!("http://127.0.0.1:{port}/listing?key={secret}"),
        "headers": {"Authorization": format!("Bearer {secret}")}
    }}})
    .to_string();
    write(&settings, &original);
    let (code, v, err) = session_json(&dir, &["--fix"]);
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(code, 1, "the host still breaks: {v:#}\n{err}");
    assert_eq!(
        summary(&v, "gemini-cli"),
        "every request fails: remote/ref_tool"
    );
    let edit = &v["edits"][0];
    assert_eq!(edit["action"], "not-wrapped", "{v:#}");
    let why = edit["why"].as_str().unwrap();
    assert!(
        why.contains("schema-lint proxy --for gemini-cli --url URL --header 'Authorization: ...'"),
        "{why}"
    );
    assert!(!v.to_string().contains(secret), "no secret in the output");
    assert_eq!(read(&settings), original, "the file is not touched");
}
