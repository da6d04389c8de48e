//! `schema-lint session` against fake MCP servers (`tests/live/fake_server.py`, Python's standard
//! library only): for each host a configuration in its format, where the host keeps it; the
//! request the host builds (its names, its order, its filters); the tool that breaks it named,
//! with the fix in the user's hands; secrets absent from every output; a project's servers
//! started only with consent; configurations only read.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_schema-lint");

pub(crate) fn script() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/live/fake_server.py")
        .display()
        .to_string()
}

/// A fresh folder with a project (`proj`) and a home (`home`).
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("schema-lint-session-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("proj")).unwrap();
    std::fs::create_dir_all(dir.join("home")).unwrap();
    dir
}

pub(crate) fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A listing file of `tools` in `dir`, and the stdio command (program, args) serving it.
pub(crate) fn listing(dir: &Path, name: &str, tools: &Value) -> (String, Vec<String>) {
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, serde_json::json!({ "tools": tools }).to_string()).unwrap();
    (
        "python3".to_owned(),
        vec![script(), format!("listing={}", path.display())],
    )
}

pub(crate) fn tool(name: &str, input: &Value) -> Value {
    serde_json::json!({"name": name, "inputSchema": input})
}

pub(crate) fn object() -> Value {
    serde_json::json!({"type": "object", "properties": {"q": {"type": "string"}}})
}

/// A JSON `mcpServers`-style entry for a stdio command.
pub(crate) fn stdio(command: &(String, Vec<String>)) -> Value {
    serde_json::json!({"command": command.0, "args": command.1})
}

/// Runs schema-lint in `dir/proj` with `HOME` at `dir/home`, killing it should it outlive a
/// minute; (code, stdout, stderr).
pub(crate) fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .current_dir(dir.join("proj"))
        .env("HOME", dir.join("home"))
        .env("NO_COLOR", "1")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("CODEX_HOME")
        .env_remove("APPDATA")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("schema-lint {args:?} ran for a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["session", "--output-format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run(dir, &all, &[]);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v, err)
}

fn host<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == name)
        .unwrap_or_else(|| panic!("no host {name}: {v:#}"))
}

fn names(h: &Value) -> Vec<String> {
    h["request"]["names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap().to_owned())
        .collect()
}

/// The (server, tool, code) of every finding that breaks the host.
fn breaking(h: &Value) -> Vec<(String, String, String)> {
    h["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["verdict"] == "breaks")
        .map(|f| {
            (
                f["server"].as_str().unwrap_or("").to_owned(),
                f["tool"].as_str().unwrap_or("").to_owned(),
                f["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// A tool name of `n` characters.
pub(crate) fn long_name(n: usize) -> String {
    let mut s = String::from("get_");
    while s.len() < n {
        s.push('x');
    }
    s
}

#[test]
fn claude_code_names_tools_by_the_users_key_and_a_long_key_fails_every_request() {
    let dir = scratch("claude-code");
    // 55 characters: `mcp__k__` + 55 = 63 fit; `mcp__weather-service-production__` + 55 do not.
    let name = long_name(55);
    let server = listing(
        &dir,
        "w",
        &serde_json::json!([tool(&name, &object()), tool("ok", &object())]),
    );
    let config = serde_json::json!({"mcpServers": {
        "weather-service-production": stdio(&server),
    }});
    write(&dir.join("proj/.mcp.json"), &config.to_string());
    let (code, v, _) = json(&dir, &["--trust-project"]);
    let h = host(&v, "claude-code");
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(h["verdict"], "breaks");
    assert_eq!(
        h["summary"],
        format!("every request fails: weather-service-production/{name}")
    );
    assert_eq!(
        names(h),
        [
            format!("mcp__weather-service-production__{name}"),
            "mcp__weather-service-production__ok".to_owned()
        ]
    );
    assert_eq!(
        breaking(h),
        [(
            "weather-service-production".to_owned(),
            name.clone(),
            "SL710".to_owned()
        )]
    );
    let fix = h["findings"][0]["user_fix"].as_str().unwrap();
    assert!(fix.contains("a key of at most 2 characters"), "{fix}");
    assert!(
        h["findings"][0]["help"].is_string(),
        "the author's help beside"
    );

    // The same tool under a key short enough: the request Claude Code sends is valid, and the
    // prefix is not counted twice (SL710's own estimate of the prefix stays out of it).
    let config = serde_json::json!({"mcpServers": {"k": stdio(&server)}});
    write(&dir.join("proj/.mcp.json"), &config.to_string());
    let (code, v, _) = json(&dir, &["--trust-project"]);
    let h = host(&v, "claude-code");
    assert_eq!(
        (code, h["summary"].as_str().unwrap()),
        (0, "works"),
        "{v:#}"
    );
    assert_eq!(names(h)[0].len(), 63);
}

#[test]
fn claude_code_reads_the_users_and_the_local_scope_and_loses_a_listing() {
    let dir = scratch("claude-json");
    let bad = listing(
        &dir,
        "bad",
        &serde_json::json!([
            tool("list", &serde_json::json!({"type": "array"})),
            tool("b", &object())
        ]),
    );
    let good = listing(&dir, "good", &serde_json::json!([tool("g", &object())]));
    let proj = dir.join("proj").display().to_string();
    let config = serde_json::json!({
        "mcpServers": {"usr": stdio(&good)},
        "projects": {proj: {"mcpServers": {"loc": stdio(&bad)}}},
    });
    write(&dir.join("home/.claude.json"), &config.to_string());
    // The user's own files: trusted, no consent asked.
    let (code, v, err) = json(&dir, &[]);
    let h = host(&v, "claude-code");
    assert_eq!(code, 1, "{v:#}\n{err}");
    assert_eq!(h["summary"], "every tool of loc lost");
    assert!(names(h).contains(&"mcp__usr__g".to_owned()));
    let f = h["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["verdict"] == "breaks")
        .unwrap();
    assert_eq!(
        (f["server"].as_str(), f["tool"].as_str()),
        (Some("loc"), Some("list"))
    );
    assert!(f["user_fix"]
        .as_str()
        .unwrap()
        .contains("Disable the server `loc`"));
}

#[test]
fn gemini_cli_fails_every_request_on_a_ref_sibling_until_exclude_tools_leaves_it_out() {
    let dir = scratch("gemini");
    let ref_sibling = serde_json::json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/x", "title": "A"}},
        "$defs": {"x": {"type": "string"}}
    });
    let server = listing(
        &dir,
        "gem",
        &serde_json::json!([
            tool("search files", &object()),
            tool("ref_tool", &ref_sibling),
            tool(&long_name(70), &object())
        ]),
    );
    let mut entry = stdio(&server);
    write(
        &dir.join("proj/.gemini/settings.json"),
        &serde_json::json!({"mcpServers": {"gem": entry.clone()}}).to_string(),
    );
    let (code, v, _) = json(&dir, &["--trust-project"]);
    let h = host(&v, "gemini-cli");
    assert_eq!(code, 1);
    assert_eq!(h["summary"], "every request fails: gem/ref_tool");
    let sent = names(h);
    assert_eq!(sent[0], "mcp_gem_search_files");
    assert_eq!(sent[1], "mcp_gem_ref_tool");
    assert_eq!(sent[2].len(), 63, "cut in the middle as gemini-cli does");
    assert!(sent[2].contains("..."));
    let fix = h["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["verdict"] == "breaks")
        .unwrap()["user_fix"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        fix.contains("`ref_tool` to `excludeTools` of `gem`"),
        "{fix}"
    );

    // The user's fix, applied: the request no longer holds the tool, and works.
    entry["excludeTools"] = serde_json::json!(["ref_tool"]);
    write(
        &dir.join("proj/.gemini/settings.json"),
        &serde_json::json!({"mcpServers": {"gem": entry.clone()}}).to_string(),
    );
    let (code, v, _) = json(&dir, &["--trust-project"]);
    let h = host(&v, "gemini-cli");
    assert_eq!(
        (code, h["summary"].as_str().unwrap()),
        (0, "works"),
        "{v:#}"
    );
    assert_eq!(names(h).len(), 2);

    // `includeTools` keeps only what it names; `mcp.excluded` leaves a server out.
    entry["includeTools"] = serde_json::json!(["search files"]);
    let config = serde_json::json!({"mcpServers": {"gem": entry, "other": stdio(&server)},
                                    "mcp": {"excluded": ["other"]}});
    write(&dir.join("proj/.gemini/settings.json"), &config.to_string());
    let (_, v, _) = json(&dir, &["--trust-project"]);
    let h = host(&v, "gemini-cli");
    assert_eq!(names(h), ["mcp_gem_search_files"]);
    let other = &h["servers"][1];
    assert_eq!(other["state"], "not-started");
    assert!(other["why"].as_str().unwrap().contains("`mcp.excluded`"));
}

#[test]
fn codex_reads_its_toml_names_and_hashes_as_its_code_does_and_says_what_is_disabled() {
    let dir = scratch("codex");
    let server = listing(
        &dir,
        "cdx",
        &serde_json::json!([
            tool("a.b", &object()),
            tool(&long_name(70), &object()),
            tool("gone", &object())
        ]),
    );
    let toml = format!(
        "[mcp_servers.cdx]\ncommand = {:?}\nargs = [{:?}, {:?}]\ndisabled_tools = [\"gone\"]\n\n\
         [mcp_servers.off]\ncommand = \"python3\"\nenabled = false\n",
        server.0, server.1[0], server.1[1]
    );
    write(&dir.join("home/.codex/config.toml"), &toml);
    let (code, v, _) = json(&dir, &["--host", "codex"]);
    let h = host(&v, "codex");
    assert_eq!(code, 0, "{v:#}");
    let sent = names(h);
    assert_eq!(sent.len(), 2, "`disabled_tools` leaves `gone` out");
    assert_eq!(sent[0], "mcp__cdx__a_b");
    assert_eq!(sent[1].len(), 64);
    // Its first 24 characters, then the SHA-1 of `mcp__cdx__<tool>` in hex.
    assert!(sent[1].starts_with("mcp__cdx__get_xxxxxxxxxx"));
    // (Python's hashlib: sha1(b"mcp__cdx__get_" + b"x" * 66).)
    assert_eq!(
        sent[1],
        "mcp__cdx__get_xxxxxxxxxx3f2bd8536c9d4c37d3e27e222535257a0dda131d"
    );
    let off = &h["servers"][1];
    assert_eq!(
        (off["key"].as_str(), off["state"].as_str()),
        (Some("off"), Some("not-started"))
    );
    assert!(off["why"].as_str().unwrap().contains("`enabled = false`"));
    assert_eq!(
        v["hosts"].as_array().unwrap().len(),
        1,
        "`--host` judges only codex"
    );
}

#[test]
fn vscode_reads_jsonc_servers_and_says_the_prompts_it_cannot_answer() {
    let dir = scratch("vscode");
    let no_items = serde_json::json!({"type": "object", "properties": {"ids": {"type": "array"}}});
    let server = listing(
        &dir,
        "vs",
        &serde_json::json!([tool("list.ids", &no_items)]),
    );
    let text = format!(
        "{{\n  // VS Code's mcp.json takes comments\n  \"inputs\": [{{\"id\": \"key\", \"type\": \"promptString\"}}],\n  \
         \"servers\": {{\n    \"My Server\": {{\"type\": \"stdio\", \"command\": {:?}, \"args\": [{:?}, {:?}]}},\n    \
         \"asks\": {{\"command\": \"python3\", \"env\": {{\"KEY\": \"${{input:key}}\"}}}},\n  }},\n}}\n",
        server.0, server.1[0], server.1[1]
    );
    write(&dir.join("proj/.vscode/mcp.json"), &text);
    let (code, v, _) = json(&dir, &["--trust-project"]);
    let h = host(&v, "vscode");
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(names(h), ["mcp_my_server_list_ids"]);
    assert_eq!(
        breaking(h),
        [(
            "My Server".to_owned(),
            "list.ids".to_owned(),
            "SL711".to_owned()
        )]
    );
    assert_eq!(
        h["summary"],
        "every request fails: My Server/list.ids; 1 server not started"
    );
    let asks = &h["servers"][1];
    assert!(
        asks["why"]
            .as_str()
            .unwrap()
            .contains("`${input:key}` is a prompt"),
        "{asks}"
    );
}

#[test]
fn cursor_claude_desktop_and_windsurf_keep_the_tools_own_names() {
    let dir = scratch("closed");
    let long = long_name(70);
    let server = listing(
        &dir,
        "s",
        &serde_json::json!([tool(&long, &object()), tool("fine", &object())]),
    );
    let config = serde_json::json!({"mcpServers": {"srv": stdio(&server)}}).to_string();
    write(&dir.join("home/.cursor/mcp.json"), &config);
    write(
        &dir.join("home/.config/Claude/claude_desktop_config.json"),
        &config,
    );
    write(&dir.join("home/.codeium/windsurf/mcp_config.json"), &config);
    let (code, v, _) = json(&dir, &[]);
    assert_eq!(code, 1);
    let desktop = host(&v, "claude-desktop");
    assert_eq!(names(desktop), [long.clone(), "fine".to_owned()]);
    assert_eq!(desktop["summary"], "1 tool of srv lost");
    let cursor = host(&v, "cursor");
    assert_eq!(
        cursor["summary"], "works",
        "the model claims nothing of Cursor here"
    );
    let windsurf = host(&v, "windsurf");
    assert!(windsurf["verdict"].is_null());
    assert!(windsurf["summary"]
        .as_str()
        .unwrap()
        .starts_with("not judged"));
    assert_eq!(windsurf["request"]["tools"], 2);

    // `--clients` adds the provider a host uses: OpenAI refuses a name over 64 characters.
    let (code, v, _) = json(&dir, &["--host", "cursor", "--clients", "openai"]);
    let cursor = host(&v, "cursor");
    assert_eq!(code, 1);
    assert_eq!(
        cursor["summary"],
        format!("every request fails: srv/{long}")
    );
}

#[test]
fn a_file_named_tells_its_host_by_place_or_by_host_and_bad_files_are_placed() {
    let dir = scratch("named");
    let server = listing(&dir, "s", &serde_json::json!([tool("t", &object())]));
    let config = serde_json::json!({"mcpServers": {"x": stdio(&server)}}).to_string();
    write(&dir.join("proj/servers.json"), &config);
    let (code, out, err) = run(&dir, &["session", "servers.json"], &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("servers.json") && err.contains("--host"),
        "{err}"
    );
    let (code, v, _) = json(
        &dir,
        &["servers.json", "--host", "cursor", "--trust-project"],
    );
    assert_eq!(code, 0);
    assert_eq!(names(host(&v, "cursor")), ["t"]);

    write(
        &dir.join("proj/.mcp.json"),
        "{\"mcpServers\": {\n  \"x\": }\n}",
    );
    write(&dir.join("home/.cursor/mcp.json"), &config);
    let (code, out, err) = run(&dir, &["session"], &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains(".mcp.json:2:"), "file and position: {err}");
    assert!(out.contains("cursor: works"), "the run goes on: {out}");
}

#[test]
fn a_projects_servers_start_only_with_consent_and_the_users_are_trusted() {
    let dir = scratch("consent");
    let marker = dir.join("started");
    // A server that would leave a mark if it ran: `python3 -c` writing a file.
    let code_line = format!("open({:?}, 'w').write('ran')", marker.display().to_string());
    let config = serde_json::json!({"mcpServers": {"evil": {"command": "python3", "args": ["-c", code_line]}}});
    write(&dir.join("proj/.mcp.json"), &config.to_string());
    let good = listing(&dir, "g", &serde_json::json!([tool("t", &object())]));
    write(
        &dir.join("home/.cursor/mcp.json"),
        &serde_json::json!({"mcpServers": {"mine": stdio(&good)}}).to_string(),
    );
    let (code, out, err) = run(&dir, &["session"], &[]);
    assert!(!marker.exists(), "a project's server ran without consent");
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("not started: `evil` of claude-code") && err.contains("no consent"),
        "{err}"
    );
    assert!(
        out.contains("claude-code: works; 1 server not started"),
        "{out}"
    );
    assert!(
        out.contains("mine (") && out.contains("1 of 1 tools sent"),
        "{out}"
    );

    let (_, _, _) = run(&dir, &["session", "--trust-project"], &[]);
    assert!(marker.exists(), "`--trust-project` starts it");
}

#[test]
fn secrets_from_env_headers_and_variables_never_reach_the_output() {
    let dir = scratch("secrets");
    let secret = "sk-live-0123456789abcdef";
    let from_var = "var-secret-9876543210";
    let config = serde_json::json!({"mcpServers": {
        "leaky": {"command": "python3", "args": [script(), "env-leak", "--token=${MY_TOKEN}"],
                  "env": {"SECRET_TOKEN": secret}},
        "remote": {"type": "http", "url": "http://127.0.0.1:9/mcp",
                   "headers": {"Authorization": format!("Bearer {secret}x")}},
    }});
    let original = config.to_string();
    write(&dir.join("home/.claude.json"), &original);
    for format in ["human", "json", "markdown"] {
        let (code, out, err) = run(
            &dir,
            &["session", "--output-format", format],
            &[("MY_TOKEN", from_var)],
        );
        assert_eq!(code, 1, "{out}{err}");
        let all = format!("{out}{err}");
        assert!(
            !all.contains(secret) && !all.contains(from_var),
            "{format}: {all}"
        );
        if format != "markdown" {
            // The server did print it on its way out: what reaches the output is hidden.
            assert!(
                all.contains("auth failed with token [secret]"),
                "{format}: {all}"
            );
        }
    }
    let (_, out, _) = run(&dir, &["session", "--output-format", "json"], &[]);
    assert!(!out.contains(secret));
    assert_eq!(
        std::fs::read_to_string(dir.join("home/.claude.json")).unwrap(),
        original,
        "a configuration is only read"
    );
}

#[test]
fn unset_variables_are_said_not_guessed() {
    let dir = scratch("vars");
    let config = serde_json::json!({"mcpServers": {
        "needs": {"command": "python3", "args": ["${SERVER_HOME_UNSET_FOR_TEST}/s.py"]},
    }});
    write(&dir.join("home/.cursor/mcp.json"), &config.to_string());
    let (code, v, _) = json(&dir, &[]);
    let h = host(&v, "cursor");
    assert_eq!(code, 0);
    let why = h["servers"][0]["why"].as_str().unwrap();
    assert!(
        why.contains("`SERVER_HOME_UNSET_FOR_TEST`, which is not set"),
        "{why}"
    );
    assert_eq!(h["summary"], "works; 1 server not started");
}

/// `--host NAME@VERSION` selects the host's client at that version in the client model: one
/// listing, two versions, two verdicts, each from the claims that hold there.
#[test]
fn a_host_named_at_a_version_is_judged_by_the_claims_of_that_version() {
    let dir = scratch("versions");
    // A 2026-07-28 server whose `tools/list` result has no `resultType`, `ttlMs` or
    // `cacheScope`: Claude Code drops its listing from 2.1.228 on (the caching hints) and from
    // 2.1.260 on (`resultType`); before, it reads the tools.
    let bare = ("python3".to_owned(), vec![script(), "bare".to_owned()]);
    write(
        &dir.join("proj/.mcp.json"),
        &serde_json::json!({"mcpServers": {"env": stdio(&bare)}}).to_string(),
    );
    let (code, v, err) = json(&dir, &["--trust-project", "--host", "claude-code@2.1.200"]);
    let h = host(&v, "claude-code");
    assert_eq!(
        (code, h["summary"].as_str().unwrap()),
        (0, "works"),
        "{v:#}\n{err}"
    );
    assert_eq!(h["version"], "2.1.200");

    let (code, v, _) = json(&dir, &["--trust-project", "--host", "claude-code@2.1.260"]);
    let h = host(&v, "claude-code");
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(h["summary"], "every tool of env lost");
    // Both on the server's listing, not on a tool.
    let listing_lost = ("env".to_owned(), String::new(), "SL510".to_owned());
    assert_eq!(breaking(h), [listing_lost.clone(), listing_lost]);
    let fix = h["findings"][0]["user_fix"].as_str().unwrap();
    assert!(fix.contains("use claude-code before 2.1.260"), "{fix}");
    // A bare host is its newest known version: the same verdict as 2.1.260.
    let (code, v, _) = json(&dir, &["--trust-project", "--host", "claude-code@latest"]);
    assert_eq!(code, 1);
    assert_eq!(host(&v, "claude-code")["version"], Value::Null);
    let (_, human, _) = run(
        &dir,
        &[
            "session",
            "--trust-project",
            "--host",
            "claude-code@2.1.260",
        ],
        &[],
    );
    assert!(
        human.starts_with("claude-code@2.1.260: every tool of env lost\n"),
        "{human}"
    );

    // gemini-cli before 0.28.0 fails the calls of a tool stamped 2020-12; from 0.28.0 on it
    // reads it.
    let stamped = listing(
        &dir,
        "stamped",
        &serde_json::json!([tool(
            "stamp",
            &serde_json::json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {"q": {"type": "string"}}
            })
        )]),
    );
    write(
        &dir.join("proj/.gemini/settings.json"),
        &serde_json::json!({"mcpServers": {"st": stdio(&stamped)}}).to_string(),
    );
    let (code, v, _) = json(&dir, &["--trust-project", "--host", "gemini-cli@0.27.4"]);
    let h = host(&v, "gemini-cli");
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(h["summary"], "1 tool of st lost");
    assert_eq!(
        breaking(h),
        [("st".to_owned(), "stamp".to_owned(), "SL402".to_owned())]
    );
    let fix = h["findings"][0]["user_fix"].as_str().unwrap();
    assert!(
        fix.contains("update gemini-cli to 0.28.0 or later"),
        "{fix}"
    );
    let (code, v, _) = json(&dir, &["--trust-project", "--host", "gemini-cli@0.28.0"]);
    assert_eq!(
        (code, host(&v, "gemini-cli")["summary"].as_str().unwrap()),
        (0, "works"),
        "{v:#}"
    );
}

#[test]
fn a_host_version_is_checked() {
    let dir = scratch("bad-versions");
    for (args, says) in [
        (vec!["--host", "claude-code@next"], "a version is numbers"),
        (vec!["--host", "windsurf@1.2"], "no client for windsurf"),
        (
            vec![
                "--host",
                "claude-code@2.1.200",
                "--clients",
                "claude-code@2.1.260",
            ],
            "named at two versions",
        ),
    ] {
        let mut all = vec!["session"];
        all.extend(args);
        let (code, _, err) = run(&dir, &all, &[]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
}

/// VS Code's user folder: `settings.json` (`mcp` → `servers`, where VS Code kept them before
/// 1.102) and `mcp.json`, a key in both read from `mcp.json`; a `settings.json` without `mcp`
/// is no configuration.
#[test]
fn vscode_reads_the_users_settings_and_mcp_json() {
    let dir = scratch("vscode-user");
    let user = dir.join("home/.config/Code/User");
    // Every VS Code user has settings: without `mcp`, no host to judge.
    write(
        &user.join("settings.json"),
        "{\n  // theme\n  \"editor.fontSize\": 14,\n}\n",
    );
    let (code, _, err) = run(&dir, &["session"], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("No MCP configuration found"), "{err}");

    let old = listing(
        &dir,
        "old",
        &serde_json::json!([tool("from_settings", &object())]),
    );
    let new = listing(
        &dir,
        "new",
        &serde_json::json!([tool("from_mcp_json", &object())]),
    );
    let array = listing(
        &dir,
        "arr",
        &serde_json::json!([tool("rows", &serde_json::json!({"type": "array"}))]),
    );
    let settings = serde_json::json!({
        "editor.fontSize": 14,
        "mcp": {"servers": {"both": stdio(&old), "legacy": stdio(&array)}},
    });
    write(&user.join("settings.json"), &settings.to_string());
    write(
        &user.join("mcp.json"),
        &serde_json::json!({"servers": {"both": stdio(&new)}}).to_string(),
    );
    // The user's own files: no consent asked.
    let (code, v, err) = json(&dir, &[]);
    let h = host(&v, "vscode");
    assert_eq!(code, 1, "{v:#}\n{err}");
    let mut sent = names(h);
    sent.sort();
    assert_eq!(sent, ["mcp_both_from_mcp_json", "mcp_legacy_rows"], "{v:#}");
    let scopes: Vec<&Value> = h["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["scope"])
        .collect();
    assert!(scopes.iter().all(|s| *s == "user"), "{v:#}");
    assert_eq!(
        breaking(h)[0],
        ("legacy".to_owned(), "rows".to_owned(), "SL711".to_owned())
    );
    let files: Vec<&str> = v["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["file"].as_str().unwrap())
        .collect();
    assert!(
        files.iter().any(|f| f.ends_with("Code/User/settings.json")),
        "{files:?}"
    );
    assert!(
        files.iter().any(|f| f.ends_with("Code/User/mcp.json")),
        "{files:?}"
    );

    // Named on the command line, a user `settings.json` tells its host by its place.
    let (_, v, _) = json(&dir, &[user.join("settings.json").to_str().unwrap()]);
    let mut sent = names(host(&v, "vscode"));
    sent.sort();
    assert_eq!(sent, ["mcp_both_from_settings", "mcp_legacy_rows"]);
}

/// Claude Code's plugins: the servers of each installed plugin (its `.mcp.json` and the
/// `mcpServers` of its `plugin.json`, `${CLAUDE_PLUGIN_ROOT}` its root), named
/// `mcp__plugin_<plugin>_<server>__<tool>`; a plugin not enabled is said, not started; a plugin
/// installed for another project is not this project's.
#[test]
fn claude_code_reads_its_plugins_servers() {
    let dir = scratch("plugins");
    let cache = dir.join("home/.claude/plugins/cache/market");
    let figma = cache.join("figma/1.0.0");
    let other = cache.join("other/0.1.0");
    let off = cache.join("off/2.0.0");
    // The listing sits inside the plugin, reached through `${CLAUDE_PLUGIN_ROOT}`.
    std::fs::create_dir_all(&figma).unwrap();
    let bad = serde_json::json!({"type": "array"});
    std::fs::write(
        figma.join("tools.json"),
        serde_json::json!({"tools": [tool("get_design", &object()), tool("bad", &bad)]})
            .to_string(),
    )
    .unwrap();
    let in_root = serde_json::json!({
        "command": "python3",
        "args": [script(), "listing=${CLAUDE_PLUGIN_ROOT}/tools.json"],
    });
    // `.mcp.json` with the servers as the whole file.
    write(
        &figma.join(".mcp.json"),
        &serde_json::json!({"figma": in_root}).to_string(),
    );
    let inline = listing(
        &dir,
        "inline",
        &serde_json::json!([tool("ping", &object())]),
    );
    write(
        &figma.join(".claude-plugin/plugin.json"),
        &serde_json::json!({"name": "figma", "mcpServers": {"api": stdio(&inline)}}).to_string(),
    );
    write(
        &other.join(".mcp.json"),
        &serde_json::json!({"mcpServers": {"x": stdio(&inline)}}).to_string(),
    );
    write(
        &off.join(".mcp.json"),
        &serde_json::json!({"mcpServers": {"y": stdio(&inline)}}).to_string(),
    );
    let registry = serde_json::json!({
        "version": 2,
        "plugins": {
            "figma@market": [{"scope": "user", "installPath": figma, "version": "1.0.0"}],
            "other@market": [{"scope": "project", "projectPath": "/somewhere/else", "installPath": other}],
            "off@market": [{"scope": "user", "installPath": off}],
        }
    });
    write(
        &dir.join("home/.claude/plugins/installed_plugins.json"),
        &registry.to_string(),
    );
    write(
        &dir.join("home/.claude/settings.json"),
        &serde_json::json!({"enabledPlugins": {"figma@market": true, "other@market": true}})
            .to_string(),
    );
    let (code, v, err) = json(&dir, &[]);
    let h = host(&v, "claude-code");
    assert_eq!(code, 1, "{v:#}\n{err}");
    assert_eq!(
        names(h),
        [
            "mcp__plugin_figma_figma__get_design",
            "mcp__plugin_figma_figma__bad",
            "mcp__plugin_figma_api__ping",
        ],
        "{v:#}"
    );
    assert_eq!(h["summary"], "every tool of plugin_figma_figma lost");
    let f = h["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["verdict"] == "breaks")
        .unwrap();
    assert_eq!(f["tool"], "bad");
    let fix = f["user_fix"].as_str().unwrap();
    assert!(fix.contains("Turn the plugin `figma@market` off"), "{fix}");
    let servers: Vec<(&str, &str)> = h["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["key"].as_str().unwrap(), s["state"].as_str().unwrap()))
        .collect();
    assert_eq!(
        servers,
        [
            ("plugin_figma_figma", "listed"),
            ("plugin_figma_api", "listed"),
            ("plugin_off_y", "not-started"),
        ],
        "another project's plugin is not this one's: {v:#}"
    );
    let off_why = h["servers"][2]["why"].as_str().unwrap();
    assert!(
        off_why.contains("`off@market` is installed but not enabled"),
        "{off_why}"
    );
}

/// Every server of a configuration of 10 starts at once under the default `--jobs`: each waits
/// until all 10 are running before it answers (a server started in a second wave would leave
/// the first waiting until they give up), so the session lasts about as long as the slowest
/// server's start (benches/session.py measures it).
#[test]
fn ten_servers_start_at_once_by_default() {
    let dir = scratch("at-once");
    let barrier = dir.join("barrier");
    std::fs::create_dir_all(&barrier).unwrap();
    let mode = format!("barrier={}:10", barrier.display());
    let servers: serde_json::Map<String, Value> = (0..10)
        .map(|i| {
            // Each its own command (the same one twice is started once).
            let server = serde_json::json!({
                "command": "python3",
                "args": [script(), mode],
                "env": {"SERVER_NUMBER": format!("number {i}")},
            });
            (format!("s{i}"), server)
        })
        .collect();
    write(
        &dir.join("home/.claude.json"),
        &serde_json::json!({ "mcpServers": servers }).to_string(),
    );
    let (code, v, err) = json(&dir, &[]);
    let h = host(&v, "claude-code");
    let listed = h["servers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["state"] == "listed")
        .count();
    assert_eq!(listed, 10, "{v:#}\n{err}");
    assert_ne!(code, 2, "{err}");
}
