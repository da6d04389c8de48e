//! `schema-lint session --explain-error TEXT` against fake MCP servers
//! (`tests/live/fake_server.py`): each error form a host's user pastes (Anthropic, `OpenAI`,
//! Bedrock, Gemini, zod, a host's own text) mapped to the server, the tool and the pointer in the
//! request the host builds, with that tool's finding and both fixes from the session's own
//! judgement; a text that names no tool is refused before any server starts.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::BIN;
use crate::session::{listing, long_name, object, stdio, tool, write};

/// A fresh folder with a project (`proj`) and a home (`home`).
fn scratch(name: &str) -> PathBuf {
    crate::session::scratch(&format!("explain-{name}"))
}

/// A stdio server (an `mcpServers` entry) listing `tools`, its listing kept in `dir`.
fn server(dir: &Path, name: &str, tools: &Value) -> Value {
    stdio(&listing(dir, name, tools))
}

/// Runs schema-lint in `dir/proj` with `HOME` at `dir/home`; (code, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    crate::session::run(dir, args, &[])
}

/// `session --explain-error ERROR ARGS... --output-format json`: the explanation of its one
/// error in `host`.
fn explain(dir: &Path, error: &str, args: &[&str], host: &str) -> Value {
    let mut all = vec![
        "session",
        "--output-format",
        "json",
        "--explain-error",
        error,
    ];
    all.extend_from_slice(args);
    let (code, out, err) = run(dir, &all);
    assert!(matches!(code, 0 | 1), "exit {code}: {out}\n{err}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    let explained = v["explained"].as_array().unwrap();
    assert_eq!(explained.len(), 1, "one place read: {v:#}");
    explained[0]["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == host)
        .unwrap_or_else(|| panic!("no host {host}: {v:#}"))
        .clone()
}

/// The (server, tool, pointer) an explanation maps its error to; it must be mapped to one.
fn place(h: &Value) -> (String, String, String) {
    assert_eq!(h["mapped"], true, "not mapped to one tool: {h:#}");
    let p = &h["places"][0];
    (
        p["server"].as_str().unwrap().to_owned(),
        p["tool"].as_str().unwrap().to_owned(),
        p["pointer"].as_str().unwrap_or("").to_owned(),
    )
}

fn triple(server: &str, tool: &str, pointer: &str) -> (String, String, String) {
    (server.to_owned(), tool.to_owned(), pointer.to_owned())
}

/// The codes of the findings shown for the place an explanation maps to.
fn codes(h: &Value) -> Vec<String> {
    h["places"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_owned())
        .collect()
}

/// A Claude Code user's configuration: `weather-service-production` (a tool whose name is too
/// long under that key, one fine, one whose root is an array) and `gh`.
fn claude_code(dir: &Path) {
    let weather = server(
        dir,
        "weather",
        &json!([
            tool(&long_name(55), &object()),
            tool("ok", &object()),
            tool("list", &json!({"type": "array"}))
        ]),
    );
    let gh = server(
        dir,
        "gh",
        &json!([
            tool("search_code", &object()),
            tool(
                "pick",
                &json!({"anyOf": [{"type": "object"}, {"type": "object", "properties": {"a": {"type": "string"}}}]})
            )
        ]),
    );
    write(
        &dir.join("home/.claude.json"),
        &json!({"mcpServers": {"weather-service-production": weather, "gh": gh}}).to_string(),
    );
}

#[test]
fn anthropic_tools_n_custom_name_is_the_name_too_long_and_the_key_to_shorten() {
    let dir = scratch("anthropic-name");
    claude_code(&dir);
    let error = r#"API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"tools.187.custom.name: String should have at most 64 characters"}}"#;
    let h = explain(&dir, error, &[], "claude-code");
    assert_eq!(
        place(&h),
        triple(
            "weather-service-production",
            &long_name(55),
            "/result/tools/0/name"
        )
    );
    assert!(h["by"][0].as_str().unwrap().contains("over 64"), "{h:#}");
    // The count of Claude Code's own tools is not guessed.
    assert!(
        h["notes"][0]
            .as_str()
            .unwrap()
            .contains("index 187 is at most"),
        "{h:#}"
    );
    let f = &h["places"][0]["findings"][0];
    assert_eq!(f["code"], "SL710");
    assert!(
        f["user_fix"]
            .as_str()
            .unwrap()
            .contains("a key of at most 2 characters"),
        "{f:#}"
    );
    assert!(f["help"].is_string(), "the author's fix beside");
}

#[test]
fn anthropic_index_maps_by_place_when_the_hosts_own_tools_are_counted() {
    let dir = scratch("anthropic-index");
    let two_long = server(
        &dir,
        "s",
        &json!([
            tool(&long_name(60), &object()),
            tool("ok", &object()),
            tool(&long_name(61), &object())
        ]),
    );
    write(
        &dir.join("home/.claude.json"),
        &json!({"mcpServers": {"srv": two_long}}).to_string(),
    );
    let error = "tools.14.custom.name: String should have at most 64 characters";
    // Two names are too long: the content cannot tell which.
    let h = explain(&dir, error, &[], "claude-code");
    assert_eq!(
        (h["mapped"].as_bool(), h["candidates"].as_u64()),
        (Some(false), Some(2))
    );
    // 12 tools of Claude Code's own first: index 14 is the third MCP tool.
    let h = explain(&dir, error, &["--builtin-tools", "12"], "claude-code");
    assert_eq!(
        place(&h),
        triple("srv", &long_name(61), "/result/tools/2/name")
    );
    assert!(
        h["by"][0].as_str().unwrap().starts_with("index 14"),
        "{h:#}"
    );
    // Index 5 after 12 of its own is one of Claude Code's own tools.
    let h = explain(
        &dir,
        "tools.5.custom.name: String should have at most 64 characters",
        &["--builtin-tools", "12"],
        "claude-code",
    );
    assert_eq!(h["candidates"], 0);
    assert!(
        h["notes"][0].as_str().unwrap().contains("own 12 tools"),
        "{h:#}"
    );
}

#[test]
fn anthropic_input_schema_maps_to_the_tool_with_a_finding_there() {
    let dir = scratch("anthropic-schema");
    claude_code(&dir);
    let error = "tools.31.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level";
    // Two tools have a finding on their input schema: both are named, neither chosen.
    let h = explain(&dir, error, &[], "claude-code");
    assert_eq!(
        (h["mapped"].as_bool(), h["candidates"].as_u64()),
        (Some(false), Some(2))
    );
    let named: Vec<&str> = h["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["tool"].as_str().unwrap())
        .collect();
    assert_eq!(named, ["list", "pick"]);
    // Without the array root, the root `anyOf` is the one.
    let gh = server(
        &dir,
        "gh",
        &json!([
            tool("search_code", &object()),
            tool(
                "pick",
                &json!({"anyOf": [{"type": "object"}, {"type": "object", "properties": {"a": {"type": "string"}}}]})
            )
        ]),
    );
    let other = server(&dir, "other", &json!([tool("ok", &object())]));
    write(
        &dir.join("home/.claude.json"),
        &json!({"mcpServers": {"other": other, "gh": gh}}).to_string(),
    );
    let h = explain(&dir, error, &[], "claude-code");
    assert_eq!(
        place(&h),
        triple("gh", "pick", "/result/tools/2/inputSchema")
    );
    assert!(codes(&h).contains(&"SL704".to_owned()), "{h:#}");
}

#[test]
fn anthropic_tool_reference_in_messages_is_the_name_too_long() {
    let dir = scratch("anthropic-messages");
    claude_code(&dir);
    let error = "messages.6.content.0.tool_result.content.2.tool_reference.tool_name: String should have at most 64 characters";
    let h = explain(&dir, error, &[], "claude-code");
    assert_eq!(
        place(&h),
        triple(
            "weather-service-production",
            &long_name(55),
            "/result/tools/0/name"
        )
    );
    assert_eq!(codes(&h), ["SL710"]);
}

#[test]
fn claude_codes_own_text_names_the_tool_by_its_prefixed_name() {
    let dir = scratch("host-text");
    claude_code(&dir);
    let error = "API Error: 400 Tool reference 'mcp__gh__search_code' not found in available tools";
    let h = explain(&dir, error, &[], "claude-code");
    assert_eq!(place(&h), triple("gh", "search_code", "/result/tools/3"));
    assert!(h["by"][0]
        .as_str()
        .unwrap()
        .contains("mcp__gh__search_code"));
    // anthropics/claude-code#81863: a claude.ai connector's name, from no configuration read.
    let error = "API Error: 400 Tool reference 'mcp__claude_ai_Indeed__get_company_data' not found in available tools";
    let h = explain(&dir, error, &[], "claude-code");
    assert_eq!(h["candidates"], 0);
    let notes = h["notes"].to_string();
    assert!(
        notes.contains("named `mcp__claude_ai_Indeed__get_company_data`")
            && notes.contains("no server is keyed `claude_ai_Indeed`"),
        "{h:#}"
    );
}

#[test]
fn a_gemini_answer_with_several_places_explains_each() {
    let dir = scratch("gemini-many");
    let gem = server(
        &dir,
        "gem",
        &json!([
            tool(
                "one",
                &json!({"type": "object", "properties": {"n": {"type": "integer", "exclusiveMinimum": 0}}})
            ),
            tool(
                "two",
                &json!({"type": "object", "properties": {
                    "a": {"type": "string"},
                    "mode": {"const": "fast"}
                }})
            )
        ]),
    );
    write(
        &dir.join("home/.gemini/settings.json"),
        &json!({"mcpServers": {"gem": gem}}).to_string(),
    );
    // zed-industries/zed#43231's form: one line per place, each said twice.
    let error = "Invalid JSON payload received. Unknown name \"exclusiveMinimum\" at 'tools[0].function_declarations[40].parameters.properties[0].value': Cannot find field.\n\
                 Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[41].parameters.properties[1].value': Cannot find field.\n\
                 {\"field\": \"tools[0].function_declarations[41].parameters.properties[1].value\"}";
    let (code, out, err) = run(
        &dir,
        &[
            "session",
            "--output-format",
            "json",
            "--explain-error",
            error,
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let places: Vec<(String, String, String)> = v["explained"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| place(&e["hosts"][0]))
        .collect();
    assert_eq!(
        places,
        [
            triple(
                "gem",
                "one",
                "/result/tools/0/inputSchema/properties/n/exclusiveMinimum"
            ),
            triple(
                "gem",
                "two",
                "/result/tools/1/inputSchema/properties/mode/const"
            ),
        ]
    );
}

#[test]
fn bedrock_tool_config_index_maps_to_the_root_that_is_not_an_object() {
    let dir = scratch("bedrock");
    claude_code(&dir);
    let error = "The value at toolConfig.tools.26.toolSpec.inputSchema.json.type must be one of the following: object";
    let h = explain(&dir, error, &[], "claude-code");
    assert_eq!(
        place(&h),
        triple(
            "weather-service-production",
            "list",
            "/result/tools/2/inputSchema/type"
        )
    );
    assert_eq!(h["places"][0]["finding_at_pointer"], true);
    let f = &h["places"][0]["findings"][0];
    assert_eq!(f["verdict"], "breaks");
    assert!(f["user_fix"]
        .as_str()
        .unwrap()
        .contains("Disable the server `weather-service-production`"));
}

/// A Cursor user's configuration: `srv` has a name over 64 characters and an object that is not
/// closed (judged with `--clients openai-strict`).
fn cursor(dir: &Path) {
    let closed = json!({"type": "object", "properties": {"q": {"type": "string"}},
                        "required": ["q"], "additionalProperties": false});
    let open_inside = json!({"type": "object", "properties": {"permissions": {"type": "object",
        "properties": {"read": {"type": "boolean"}}, "required": ["read"]}},
        "required": ["permissions"], "additionalProperties": false});
    let srv = server(
        dir,
        "srv",
        &json!([
            tool("fine", &closed),
            tool(&long_name(70), &closed),
            tool("set_perms", &open_inside)
        ]),
    );
    write(
        &dir.join("home/.cursor/mcp.json"),
        &json!({"mcpServers": {"srv": srv}}).to_string(),
    );
}

#[test]
fn openai_tools_n_function_name_maps_to_the_long_name() {
    let dir = scratch("openai-name");
    cursor(&dir);
    let error = "Error: 400 Invalid 'tools[40].function.name': string too long. Expected a string with maximum length 64, but got a string with length 70 instead.";
    let h = explain(&dir, error, &["--clients", "openai"], "cursor");
    assert_eq!(
        place(&h),
        triple("srv", &long_name(70), "/result/tools/1/name")
    );
    assert_eq!(codes(&h), ["SL710"]);
}

#[test]
fn openai_invalid_schema_for_function_maps_by_name_and_context() {
    let dir = scratch("openai-function");
    cursor(&dir);
    // lastmile-ai/openai-agents-mcp#2's form.
    let error = "Invalid schema for function 'set_perms': In context=('properties', 'permissions'), 'additionalProperties' is required to be supplied and to be false.";
    let h = explain(&dir, error, &["--clients", "openai-strict"], "cursor");
    assert_eq!(
        place(&h),
        triple(
            "srv",
            "set_perms",
            "/result/tools/2/inputSchema/properties/permissions"
        )
    );
    assert_eq!(h["places"][0]["finding_at_pointer"], true, "{h:#}");
    assert_eq!(codes(&h)[0], "SL701");
}

#[test]
fn openai_tools_n_parameters_maps_to_the_schema_with_a_finding() {
    let dir = scratch("openai-parameters");
    let srv = server(
        &dir,
        "vs",
        &json!([
            tool("get.time", &object()),
            tool(
                "list.ids",
                &json!({"type": "object", "properties": {"ids": {"type": "array"}}})
            ),
            tool("other", &object())
        ]),
    );
    write(
        &dir.join("proj/.vscode/mcp.json"),
        &json!({"servers": {"vs": srv}}).to_string(),
    );
    // smallmain/vscode-unify-chat-provider#162's form, from VS Code's request.
    let error = "400 tools[85].parameters: 'object' is not of type 'object', 'boolean'";
    let h = explain(&dir, error, &["--trust-project"], "vscode");
    assert_eq!(
        place(&h),
        triple("vs", "list.ids", "/result/tools/1/inputSchema")
    );
    assert_eq!(codes(&h), ["SL711"]);
}

#[test]
fn gemini_function_declarations_maps_the_nth_property_to_its_name() {
    let dir = scratch("gemini");
    let gem = server(
        &dir,
        "gem",
        &json!([
            tool("one", &object()),
            tool(
                "two",
                &json!({"type": "object", "properties": {
                    "a": {"type": "string"},
                    "mode": {"const": "fast"}
                }})
            )
        ]),
    );
    write(
        &dir.join("home/.gemini/settings.json"),
        &json!({"mcpServers": {"gem": gem}}).to_string(),
    );
    let error = r#"{"error": {"code": 400, "message": "Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[17].parameters.properties[1].value': Cannot find field.", "status": "INVALID_ARGUMENT", "details": [{"fieldViolations": [{"field": "tools[0].function_declarations[17].parameters.properties[1].value"}]}]}}"#;
    let h = explain(&dir, error, &[], "gemini-cli");
    assert_eq!(
        place(&h),
        triple(
            "gem",
            "two",
            "/result/tools/1/inputSchema/properties/mode/const"
        )
    );
    assert!(
        h["by"][0].as_str().unwrap().contains("the only tool with"),
        "{h:#}"
    );
}

#[test]
fn a_zod_path_counts_one_servers_listing() {
    let dir = scratch("zod");
    let a = server(&dir, "a", &json!([tool("a0", &object())]));
    let b = server(
        &dir,
        "b",
        &json!([
            tool("b0", &object()),
            tool("b1", &json!({"type": "string"}))
        ]),
    );
    write(
        &dir.join("home/.cursor/mcp.json"),
        &json!({"mcpServers": {"alpha": a, "beta": b}}).to_string(),
    );
    // cloudflare/playwright-mcp#28's form, escaped as a log prints it.
    let error = r#"Error listing tools: [{\"received\":\"string\",\"code\":\"invalid_literal\",\"expected\":\"object\",\"path\":[\n \"tools\",\n 1,\n \"inputSchema\",\n \"type\"\n ],\"message\":\"Invalid literal value, expected \\\"object\\\"\"}]"#;
    let h = explain(&dir, error, &[], "cursor");
    // Only `beta` lists a second tool: its listing's index 1, the request's third tool.
    assert_eq!(
        place(&h),
        triple("beta", "b1", "/result/tools/2/inputSchema/type")
    );

    // A host whose filters leave that tool out: named, and said to be outside its request.
    let mut beta = b.clone();
    beta["excludeTools"] = json!(["b1"]);
    write(
        &dir.join("home/.gemini/settings.json"),
        &json!({"mcpServers": {"alpha": a, "beta": beta}}).to_string(),
    );
    let (_, out, err) = run(
        &dir,
        &["session", "--host", "gemini-cli", "--explain-error", error],
    );
    assert!(
        out.contains("gemini-cli: beta/b1 (left out of the request by the host's filters) (by index 1 of a server's listing)")
            && out.contains("not in gemini-cli's request: not judged for it"),
        "{out}{err}"
    );
}

#[test]
fn vscodes_own_text_names_the_tool_by_the_name_it_sends() {
    let dir = scratch("vscode");
    let srv = server(
        &dir,
        "vs",
        &json!([
            tool("get.time", &object()),
            tool(
                "list.ids",
                &json!({"type": "object", "properties": {"ids": {"type": "array"}}})
            )
        ]),
    );
    write(
        &dir.join("proj/.vscode/mcp.json"),
        &json!({"servers": {"My Server": srv}}).to_string(),
    );
    let error = "Failed to validate tool mcp_my_server_list_ids: Error: tool parameters array type must have items";
    let h = explain(&dir, error, &["--trust-project"], "vscode");
    assert_eq!(
        place(&h),
        triple("My Server", "list.ids", "/result/tools/1")
    );
    assert_eq!(codes(&h), ["SL711"]);
}

#[test]
fn every_format_shows_the_place_and_both_fixes_and_bad_input_starts_nothing() {
    let dir = scratch("formats");
    claude_code(&dir);
    let error = "tools.187.custom.name: String should have at most 64 characters";
    let (code, out, err) = run(&dir, &["session", "--explain-error", error]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("claude-code: weather-service-production/get_")
            && out.contains("at `/result/tools/0/name`")
            && out.contains("your fix: Give the server a key of at most 2 characters")
            && out.contains("the author's fix: "),
        "{out}"
    );
    let (_, out, _) = run(
        &dir,
        &[
            "session",
            "--explain-error",
            error,
            "--output-format",
            "markdown",
        ],
    );
    assert!(
        out.contains("| claude-code | weather-service-production | get_")
            && out.contains("/result/tools/0/name")
            && out.contains("your fix: "),
        "{out}"
    );

    // A text naming no tool: exit 2, and no server of the project was started for it.
    let marker = dir.join("started");
    let line = format!("open({:?}, 'w').write('ran')", marker.display().to_string());
    write(
        &dir.join("proj/.mcp.json"),
        &json!({"mcpServers": {"evil": {"command": "python3", "args": ["-c", line]}}}).to_string(),
    );
    let (code, out, err) = run(
        &dir,
        &[
            "session",
            "--trust-project",
            "--explain-error",
            "something went wrong",
        ],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("names no tool"), "{err}");
    assert!(
        !marker.exists(),
        "a server started for an error it could not read"
    );
}

#[test]
fn the_error_can_come_from_standard_input_with_its_json_escapes() {
    let dir = scratch("stdin");
    claude_code(&dir);
    let mut child = Command::new(BIN)
        .args(["session", "--output-format", "json", "--explain-error", "-"])
        .current_dir(dir.join("proj"))
        .env("HOME", dir.join("home"))
        .env_remove("XDG_CONFIG_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // As Claude Code's log prints it: the API's message, escaped inside a JSON string.
    let pasted = "[{\"error\":\"Error: 400 {\\\"type\\\":\\\"error\\\",\\\"error\\\":{\\\"type\\\":\\\"invalid_request_error\\\",\\\"message\\\":\\\"tools.9.custom.name: String should have at most 64 characters\\\"}}\"}]\n";
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), pasted.as_bytes()).unwrap();
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let h = &v["explained"][0]["hosts"][0];
    assert_eq!(v["explained"][0]["index"], 9);
    assert_eq!(
        place(h),
        triple(
            "weather-service-production",
            &long_name(55),
            "/result/tools/0/name"
        )
    );
}
