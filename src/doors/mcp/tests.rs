use super::{serve, tools};
use crate::settings::target::Target;
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile};
use serde_json::{json, Value};

/// Runs the server over `messages`, a line each, and returns its answers.
fn exchange(messages: &[Value]) -> Vec<Value> {
    let mut input = String::new();
    for m in messages {
        input.push_str(&m.to_string());
        input.push('\n');
    }
    exchange_text(&input)
}

fn exchange_text(input: &str) -> Vec<Value> {
    let mut output = Vec::new();
    serve(&mut input.as_bytes(), &mut output).unwrap();
    String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[allow(
    clippy::needless_pass_by_value,
    reason = "called with `json!` literals"
)]
fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[allow(
    clippy::needless_pass_by_value,
    reason = "called with `json!` literals"
)]
fn call(id: u64, name: &str, arguments: Value) -> Value {
    request(
        id,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
}

fn initialize(version: &str) -> Value {
    request(
        0,
        "initialize",
        json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    )
}

/// The structured content of a call, checked against the tool's own output schema.
fn structured(answer: &Value, tool: &str) -> Value {
    let result = &answer["result"];
    assert_eq!(result["isError"], false, "{answer:#}");
    let content = result["structuredContent"].clone();
    let listed = tools::tools();
    let schema = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == tool)
        .map(|t| t["outputSchema"].clone())
        .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&content)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:?} in {content:#}");
    // The text is the same JSON, for clients that read only text.
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, content);
    content
}

#[test]
fn its_own_tools_list_passes_schema_lint_for_every_default_client_and_revision() {
    let listing = json!({"tools": tools::tools()}).to_string();
    for target in [
        Target::Mcp20250618,
        Target::Mcp20251125,
        Target::Mcp20260728,
    ] {
        let settings = Settings {
            target: Some(target),
            ..Settings::default()
        };
        let file = SourceFile::new(FileId(0), "tools.json".into(), None, &listing, true);
        let linted = crate::engine::lint_source(file, &settings, true);
        let found: Vec<String> = linted
            .diagnostics
            .iter()
            .map(|d| format!("{} {} at {}", d.rule.code, d.message, d.pointer))
            .collect();
        assert!(found.is_empty(), "{target}: {found:#?}");
        assert_eq!(
            linted.schema_kind(),
            Some(crate::schema::units::FileKind::ToolsList)
        );
    }
}

#[test]
fn the_handshake_agrees_on_a_2025_revision() {
    for (asked, agreed) in [
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2024-11-05", "2025-11-25"),
        ("2026-07-28", "2025-11-25"),
    ] {
        let answers = exchange(&[
            initialize(asked),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            request(1, "ping", json!({})),
        ]);
        assert_eq!(answers.len(), 2, "a notification gets no answer");
        assert_eq!(answers[0]["result"]["protocolVersion"], agreed);
        assert_eq!(answers[0]["result"]["serverInfo"]["name"], "schema-lint");
        assert!(answers[0]["result"]["capabilities"]["tools"].is_object());
        assert_eq!(answers[1], json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    }
}

#[test]
fn a_2026_client_is_served_statelessly() {
    let meta = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}});
    let answers = exchange(&[
        request(0, "server/discover", meta.clone()),
        request(1, "tools/list", meta.clone()),
        request(
            2,
            "tools/list",
            json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2025-11-25"}}),
        ),
    ]);
    let discover = &answers[0]["result"];
    assert_eq!(discover["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(discover["resultType"], "complete");
    assert_eq!(
        discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "schema-lint"
    );
    assert_eq!(answers[1]["result"]["resultType"], "complete");
    assert_eq!(answers[1]["result"]["ttlMs"], 0);
    assert_eq!(answers[1]["result"]["tools"].as_array().unwrap().len(), 4);
    assert_eq!(answers[2]["error"]["code"], -32022);
    assert_eq!(
        answers[2]["error"]["data"]["supported"],
        json!(["2026-07-28"])
    );
}

#[test]
fn bad_requests_get_json_rpc_errors_and_the_server_reads_on() {
    let answers = exchange_text(
        "not json\n\
         [1, 2]\n\
         \n\
         {\"jsonrpc\": \"2.0\", \"id\": null, \"method\": \"ping\"}\n\
         {\"jsonrpc\": \"2.0\", \"id\": 1}\n\
         {\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"resources/list\"}\n\
         {\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": {\"name\": \"rm\"}}\n\
         {\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"tools/call\", \"params\": {\"name\": \"lint_schema\", \"arguments\": 1}}\n\
         {\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"tools/list\", \"params\": {\"cursor\": \"x\"}}\n\
         {\"jsonrpc\": \"2.0\", \"id\": 6, \"method\": \"tools/list\", \"params\": 7}\n\
         {\"jsonrpc\": \"2.0\", \"id\": 7, \"result\": {}}\n\
         {\"jsonrpc\": \"2.0\", \"id\": \"last\", \"method\": \"ping\"}\n",
    );
    let codes: Vec<(Value, Value)> = answers
        .iter()
        .map(|a| (a["id"].clone(), a["error"]["code"].clone()))
        .collect();
    assert_eq!(
        codes,
        [
            (Value::Null, json!(-32700)),
            (Value::Null, json!(-32600)),
            (Value::Null, json!(-32600)),
            (json!(1), json!(-32600)),
            (json!(2), json!(-32601)),
            (json!(3), json!(-32602)),
            (json!(4), json!(-32602)),
            (json!(5), json!(-32602)),
            (json!(6), json!(-32602)),
            (json!("last"), Value::Null),
        ]
    );
    assert_eq!(answers.last().unwrap()["result"], json!({}));
}

#[test]
fn a_line_longer_than_a_message_may_be_is_refused_and_the_next_one_answered() {
    let long = format!(
        "{{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"params\": {{\"x\": \"{}\"}}}}\n",
        "a".repeat(crate::workspace::live::MAX_MESSAGE)
    );
    let answers = exchange_text(&format!(
        "{long}{{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"ping\"}}\n"
    ));
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[0]["error"]["code"], -32700);
    assert_eq!(answers[1]["id"], 2);
}

#[test]
fn lint_schema_reports_sl201_with_the_clients_it_breaks() {
    let answers = exchange(&[
        call(
            1,
            "lint_schema",
            json!({"schema": {"$id": "my_tool:output", "type": "object"}}),
        ),
        call(
            2,
            "lint_schema",
            json!({"schema": "{\"$id\": \"my_tool:output\", \"type\": \"object\"}", "target": "json-schema"}),
        ),
        call(
            3,
            "lint_schema",
            json!({"schema": {"type": "object", "properties": {"a": {"type": "string"}}}}),
        ),
    ]);
    let first = structured(&answers[0], "lint_schema");
    assert_eq!(first["target"], "mcp-2025-11-25");
    assert_eq!(first["summary"]["errors"], 1);
    let finding = &first["findings"][0];
    assert_eq!(finding["code"], "SL201");
    assert_eq!(finding["pointer"], "/$id");
    assert_eq!(finding["fix"]["applicability"], "safe");
    let broken: Vec<&str> = finding["breaks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["client"].as_str())
        .collect();
    assert!(
        broken.contains(&"ts-sdk-v1") && broken.contains(&"ts-sdk-v2"),
        "{broken:?}"
    );
    // Given as text, positions are the text's own.
    let second = structured(&answers[1], "lint_schema");
    assert_eq!(second["target"], "json-schema");
    assert_eq!(second["findings"][0]["code"], "SL201");
    assert_eq!(
        (
            &second["findings"][0]["line"],
            &second["findings"][0]["column"]
        ),
        (&json!(1), &json!(17))
    );
    let clean = structured(&answers[2], "lint_schema");
    assert_eq!(clean["findings"], json!([]));
}

#[test]
fn a_ref_to_another_file_cannot_resolve_and_the_finding_says_why() {
    let answers = exchange(&[call(
        1,
        "lint_schema",
        json!({"schema": {"type": "object", "properties": {"a": {"$ref": "other.json#/$defs/a"}, "b": {"$ref": "#/nowhere"}}}}),
    )]);
    let content = structured(&answers[0], "lint_schema");
    let findings = content["findings"].as_array().unwrap();
    let external = findings
        .iter()
        .find(|f| f["pointer"] == "/properties/a/$ref")
        .unwrap();
    assert!(
        external["note"]
            .as_str()
            .unwrap()
            .starts_with("schema-lint mcp reads no file"),
        "{external:#}"
    );
    let local = findings
        .iter()
        .find(|f| f["pointer"] == "/properties/b/$ref")
        .unwrap();
    assert!(!local["note"]
        .as_str()
        .unwrap_or("")
        .contains("reads no file"));
}

#[test]
fn fix_schema_returns_the_proven_schema_and_what_changed() {
    let text = "{\n    \"$id\": \"my_tool:output\",\n    \"type\": \"object\"\n}\n";
    let answers = exchange(&[
        call(
            1,
            "fix_schema",
            json!({"schema": {"$id": "my_tool:output", "type": "object"}}),
        ),
        call(2, "fix_schema", json!({"schema": text})),
        call(3, "fix_schema", json!({"schema": {"type": "object"}})),
        call(4, "fix_schema", json!({"schema": [1]})),
        call(5, "fix_schema", json!({"schema": "{"})),
    ]);
    let fixed = structured(&answers[0], "fix_schema");
    assert_eq!(fixed["changed"], true);
    assert_eq!(
        fixed["schema"],
        json!({"$id": "my_tool_output", "type": "object"})
    );
    assert_eq!(fixed["applied"][0]["code"], "SL201");
    assert_eq!(fixed["findings"], json!([]));
    // Text keeps its layout: only the fixed bytes change.
    let kept = structured(&answers[1], "fix_schema");
    assert_eq!(
        kept["text"],
        text.replace("my_tool:output", "my_tool_output")
    );
    let same = structured(&answers[2], "fix_schema");
    assert_eq!(
        (&same["changed"], &same["schema"]),
        (&json!(false), &json!({"type": "object"}))
    );
    for failed in &answers[3..] {
        assert_eq!(failed["result"]["isError"], true, "{failed:#}");
    }
}

#[test]
fn unsafe_fixes_only_when_asked() {
    // SL501's fix (`"type": "object"` added to a root that has none) is unsafe: it changes which
    // outputs validate.
    let schema =
        json!({"properties": {"temperature": {"type": "number"}}, "required": ["temperature"]});
    let answers = exchange(&[
        call(
            1,
            "fix_schema",
            json!({"schema": schema, "target": "mcp-2025-06-18"}),
        ),
        call(
            2,
            "fix_schema",
            json!({"schema": schema, "target": "mcp-2025-06-18", "unsafe": true}),
        ),
    ]);
    let safe = structured(&answers[0], "fix_schema");
    assert_eq!(safe["changed"], false, "{safe:#}");
    assert_eq!(safe["findings"][0]["code"], "SL501", "{safe:#}");
    assert_eq!(
        safe["findings"][0]["fix"]["applicability"], "unsafe",
        "{safe:#}"
    );
    let unsafe_ = structured(&answers[1], "fix_schema");
    assert_eq!(unsafe_["changed"], true, "{unsafe_:#}");
    assert_eq!(unsafe_["schema"]["type"], "object", "{unsafe_:#}");
    assert_eq!(
        unsafe_["applied"][0]["applicability"], "unsafe",
        "{unsafe_:#}"
    );
    assert_eq!(unsafe_["findings"], json!([]), "{unsafe_:#}");
}

#[test]
fn lint_tools_list_and_explain_rule() {
    let listing = json!({"tools": [{"name": "t", "inputSchema": {"type": "object"},
        "outputSchema": {"$id": "my_tool:output", "type": "object"}}]});
    let answers = exchange(&[
        call(1, "lint_tools_list", json!({"document": listing})),
        call(
            2,
            "lint_tools_list",
            json!({"document": {"type": "object"}}),
        ),
        call(3, "explain_rule", json!({"code": "invalid-id-uri"})),
        call(
            4,
            "lint_schema",
            json!({"schema": {}, "clients": ["default", "nobody"]}),
        ),
        call(
            5,
            "lint_schema",
            json!({"schema": {}, "target": "mcp-1999"}),
        ),
        call(6, "lint_schema", json!({})),
    ]);
    let listed = structured(&answers[0], "lint_tools_list");
    assert_eq!(listed["findings"][0]["code"], "SL201");
    assert_eq!(
        listed["findings"][0]["pointer"],
        "/tools/0/outputSchema/$id"
    );
    assert_eq!(answers[1]["result"]["isError"], true);
    let rule = structured(&answers[2], "explain_rule");
    assert_eq!(rule["code"], "SL201");
    assert!(rule["doc"].as_str().unwrap().contains("SL201"));
    for failed in &answers[3..] {
        assert_eq!(failed["result"]["isError"], true, "{failed:#}");
    }
}

/// Every result of every tool validates against the tool's own output schema, on every schema
/// and listing of the rules' fixtures and the bundled examples (every `format`, `$ref`, tuple and
/// wrapper the rules know), for the default clients and for every client: a `breaks` entry
/// without a `detail`, a documented source or a `decided_by` must fit the declared shape.
#[test]
fn every_result_of_every_tool_fits_its_declared_output_schema() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut files = Vec::new();
    for dir in ["rules", "examples", "cli"] {
        let mut stack = vec![root.join(dir)];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "json") {
                    files.push(path);
                }
            }
        }
    }
    files.sort();
    assert!(files.len() > 100, "{} fixtures", files.len());
    let all: Vec<&str> = crate::diagnostic::breaks::Client::ALL
        .iter()
        .map(|c| c.name())
        .collect();
    let mut checked = 0;
    let mut without_detail = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let listing = serde_json::from_str::<Value>(&text)
            .ok()
            .is_some_and(|v| v.get("tools").is_some() || v.pointer("/result/tools").is_some());
        let mut calls = vec![
            call(1, "lint_schema", json!({"schema": text})),
            call(2, "lint_schema", json!({"schema": text, "clients": all})),
            call(3, "fix_schema", json!({"schema": text, "unsafe": true})),
        ];
        if listing {
            calls.push(call(4, "lint_tools_list", json!({"document": text})));
            calls.push(call(
                5,
                "lint_tools_list",
                json!({"document": text, "clients": all}),
            ));
        }
        let answers = exchange(&calls);
        for (answer, sent) in answers.iter().zip(&calls) {
            let tool = sent["params"]["name"].as_str().unwrap();
            // A fixture that is no JSON at all is a tool error, not a result to check.
            if answer["result"]["isError"] == true {
                continue;
            }
            let content = structured(answer, tool);
            let findings = content["findings"]
                .as_array()
                .or_else(|| content["remaining"].as_array())
                .cloned()
                .unwrap_or_default();
            without_detail += findings
                .iter()
                .flat_map(|f| f["breaks"].as_array().cloned().unwrap_or_default())
                .filter(|b| b.get("detail").is_none())
                .count();
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked} results checked");
    // The shape the Python client refused: entries without a `detail` are among them.
    assert!(without_detail > 0);
}

/// A schema whose findings would make a result larger than the TypeScript clients read in one
/// message (10 MiB, and the result holds the findings twice) gets the first findings that fit
/// and says how many it left out; the counts stay those of every finding.
#[test]
fn a_result_stays_within_what_clients_read_in_one_message() {
    let properties: serde_json::Map<String, Value> = (0..6000)
        .map(|i| (format!("p{i}"), json!({"type": "string", "format": "uri"})))
        .collect();
    let schema = json!({"type": "object", "properties": properties});
    let clients: Vec<&str> = crate::diagnostic::breaks::Client::ALL
        .iter()
        .map(|c| c.name())
        .collect();
    let answers = exchange(&[call(
        1,
        "lint_schema",
        json!({"schema": schema, "clients": clients}),
    )]);
    let line = serde_json::to_string(&answers[0]).unwrap();
    assert!(line.len() < 10 << 20, "{} bytes", line.len());
    let content = structured(&answers[0], "lint_schema");
    let shown = content["findings"].as_array().unwrap().len();
    let omitted = content["summary"]["omitted"].as_u64().unwrap_or(0);
    assert!(omitted > 0, "{shown} findings, none left out");
    assert_eq!(
        content["summary"]["findings"].as_u64().unwrap(),
        u64::try_from(shown).unwrap() + omitted
    );
}
