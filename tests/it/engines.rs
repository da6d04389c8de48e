//! The rules agree with the engine tier (`testdata/engines/`, measured by
//! `tests/integration/engines.sh`):
//!
//! - each case of `testdata/engines/cases/` is reported with the class it stands for, or, for a
//!   class no client breaks on, possibly not at all;
//! - on each `json bad` example of the rule docs and each bad fixture of `testdata/rules/`, every
//!   client an engine saw fail is named by some finding's `breaks`, and no finding claims a
//!   failure of a client the engines saw handle the example; every example `observed.json`
//!   holds is still one of them;
//! - the findings' severities follow who breaks;
//! - each rule doc lists every class of its rule, with exactly the clients measured;
//! - each input-role case (`"role": "input"`: a tool's input schema, which the tier runs through
//!   the hosts' and providers' own conversions) gets a finding claiming, as measured, what each
//!   of those did with it;
//! - each listing case of `testdata/engines/listings/` (a `tools/list` result the SDK clients
//!   themselves read) is reported with its class, and the findings on it claim that a client
//!   loses the listing, or the tool, exactly where the client did;
//! - the clients read a key given twice as SL101's note says (the listing cases served raw).

use schema_lint::diagnostic::breaks::{self, Client, Evidence};
use schema_lint::diagnostic::{Diagnostic, Severity};
use schema_lint::engine::lint_source;
use schema_lint::settings::Settings;
use schema_lint::syntax::source::{FileId, SourceFile};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::Path;

use crate::rule_fixtures;

fn data() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/engines"))
}

fn observed() -> Value {
    let text = std::fs::read_to_string(data().join("observed.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The findings on a schema, or on a `tools/list` of `before` then `schema` as output schemas.
fn lint(schema: &Value, before: &[Value], settings: &Settings) -> Vec<Diagnostic> {
    let document = if before.is_empty() {
        schema.clone()
    } else {
        let tools: Vec<Value> = before
            .iter()
            .chain(std::iter::once(schema))
            .enumerate()
            .map(|(i, s)| json!({"name": format!("tool_{i}"), "inputSchema": {"type": "object"}, "outputSchema": s}))
            .collect();
        json!({ "tools": tools })
    };
    lint_document(&document, settings)
}

fn lint_document(document: &Value, settings: &Settings) -> Vec<Diagnostic> {
    lint_text(&serde_json::to_string_pretty(document).unwrap(), settings)
}

fn lint_text(text: &str, settings: &Settings) -> Vec<Diagnostic> {
    let file = SourceFile::new(FileId(0), "case.json".into(), None, text, true);
    lint_source(file, settings, true).diagnostics
}

/// The text a listing case serves raw (`"raw": "raw/x.txt"`, beside the case), if any.
fn raw_text(case: &Value) -> Option<String> {
    let path = data().join("listings").join(case["raw"].as_str()?);
    Some(std::fs::read_to_string(path).unwrap())
}

/// The settings a case names: its `target`, if any.
fn settings_of(case: &Value) -> Settings {
    let target = case["target"].as_str().map(|t| {
        <schema_lint::settings::target::Target as clap::ValueEnum>::from_str(t, false).unwrap()
    });
    Settings {
        target,
        ..Settings::default()
    }
}

/// The `.json` files of a folder of `testdata/engines/`, each named by its stem, sorted.
fn case_files(folder: &str) -> Vec<(String, Value)> {
    let mut paths: Vec<_> = std::fs::read_dir(data().join(folder))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            (name, serde_json::from_str(&text).unwrap())
        })
        .collect()
}

/// Whether a finding of `class` is there, or, for a class no client breaks on, the rule may be
/// silent; the problem otherwise.
fn reported(name: &str, class: &str, found: &[Diagnostic]) -> Option<String> {
    let known = breaks::of(class)
        .unwrap_or_else(|| panic!("{name}: class `{class}` is not in breaks.json"));
    let code = class.split('/').next().unwrap();
    let classes: Vec<&str> = found.iter().filter_map(|d| d.class).collect();
    let silent = !found.iter().any(|d| d.rule.code == code);
    (!(classes.contains(&class) || (known.is_empty() && silent)))
        .then(|| format!("{name}: expected a finding of class `{class}`, got {classes:?}"))
}

/// The clients whose engine failed on a case (checking less does not count).
fn failing(row: &Value) -> BTreeSet<&'static str> {
    Client::ALL
        .iter()
        .map(|c| c.name())
        .filter(|c| {
            row[c]["effect"]
                .as_str()
                .is_some_and(|e| e != "accepts-invalid-output")
        })
        .collect()
}

#[test]
fn every_case_is_reported_with_its_class() {
    let mut problems = Vec::new();
    let cases = case_files("cases");
    assert!(cases.len() > 40, "only {} engine cases", cases.len());
    for (name, case) in cases {
        let Some(class) = case["class"].as_str() else {
            continue;
        };
        let found = lint_case(&case);
        problems.extend(reported(&name, class, &found));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The findings on a schema case: an input-role case (`"role": "input"`) as the `inputSchema` of
/// a tool named by its `tool` (default `report`) in a `tools/list`, every client selected (the
/// provider rules run only for their clients); any other as the schema itself, or after its
/// `before` schemas as output schemas.
fn lint_case(case: &Value) -> Vec<Diagnostic> {
    // A case may name the target it is linted for (rules that speak of MCP clients only).
    let settings = settings_of(case);
    if case["role"] == "input" {
        let tool = case["tool"].as_str().unwrap_or("report");
        let listing = json!({"tools": [{"name": tool, "description": "A tool.", "inputSchema": case["schema"]}]});
        // The hosts' own Ajv was measured as each was before its fix: at those versions.
        let settings = Settings {
            clients: Client::ALL.to_vec(),
            versions: AJV_HOSTS
                .iter()
                .map(|(row, _)| (ajv_host(row), "0".to_owned()))
                .collect(),
            ..settings
        };
        return lint_document(&listing, &settings);
    }
    let before = case["before"].as_array().cloned().unwrap_or_default();
    lint(&case["schema"], &before, &settings)
}

/// The rows of the hosts' own Ajv on the input-role cases (tests/integration/engines/ajv.mjs,
/// `AJV_HOSTS` of observe.py): each the host before the version that changed it, which its
/// claims hold until.
const AJV_HOSTS: [(&str, &str); 7] = [
    ("gemini-cli<0.28.0", "0.28.0"),
    ("qwen-code<0.12.0", "0.12.0"),
    ("llxprt-code<0.10.0", "0.10.0"),
    ("openclaude<0.20.0", "0.20.0"),
    ("openclaw<2026.4.22", "2026.4.22"),
    ("pi-mcp-adapter<2.11.0", "2.11.0"),
    ("mastra<1.2.9", "1.2.9"),
];

/// The client a row of [`AJV_HOSTS`] stands for.
fn ajv_host(row: &str) -> Client {
    let name = row.split('<').next().unwrap();
    Client::named(name).unwrap_or_else(|| panic!("`{row}` names no client"))
}

/// What each host's own Ajv did with an input-role case is claimed, as measured, for the
/// versions the row stands for ([`lint_case`] selects them), and for those only: at the newest
/// version of the host the claim is gone.
#[test]
fn the_hosts_own_ajv_is_claimed_before_their_fix_only() {
    let observed = observed();
    let mut problems = Vec::new();
    let mut measured = 0;
    for (name, case) in case_files("cases") {
        if case["role"] != "input" {
            continue;
        }
        let row = &observed[&name];
        let before = lint_case(&case);
        let tool = case["tool"].as_str().unwrap_or("report");
        let listing = json!({"tools": [{"name": tool, "description": "A tool.", "inputSchema": case["schema"]}]});
        let newest = lint_document(
            &listing,
            &Settings {
                clients: Client::ALL.to_vec(),
                ..settings_of(&case)
            },
        );
        for (host, until) in AJV_HOSTS {
            assert!(row[host].is_object(), "{name}: no result of {host}");
            let Some(effect) = row[host]["effect"].as_str() else {
                continue;
            };
            measured += 1;
            let client = ajv_host(host);
            let claims = |found: &[Diagnostic]| {
                found
                    .iter()
                    .flat_map(|d| d.breaks.iter())
                    .filter(|b| b.client == client && b.effect.name() == effect)
                    .map(|b| (b.evidence, b.versions))
                    .collect::<Vec<_>>()
            };
            let at = claims(&before);
            if !at
                .iter()
                .any(|(e, v)| *e == Evidence::Measured && v.until == Some(until))
            {
                problems.push(format!(
                    "{name}: {host} did `{effect}`, which no finding claims until {until}"
                ));
            }
            if !claims(&newest).is_empty() {
                problems.push(format!(
                    "{name}: {host}'s `{effect}` is claimed of the newest {client}"
                ));
            }
        }
    }
    assert!(measured >= 24, "only {measured} effects of the hosts' Ajv");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// SL402's fix drops a 2020-12 `$schema`: the tier shows that the schema then means the same to
/// every SDK client's engine (an output schema using keywords 2020-12 changed, stamped and not),
/// and that each host whose own Ajv refused the stamped input schema compiles it without the
/// stamp and gives the verdicts the case means.
#[test]
fn dropping_a_2020_12_stamp_changes_no_verdict() {
    let observed = observed();
    let (stamped, bare) = (
        &observed["sl402-2020-12-stamp-output"],
        &observed["sl402-2020-12-unstamped-output"],
    );
    for engine in SDK_ENGINES {
        assert!(stamped[engine].is_object(), "no result of {engine}");
        assert_eq!(
            stamped[engine], bare[engine],
            "{engine} reads the output schema otherwise without its 2020-12 `$schema`"
        );
    }
    let (stamped, bare) = (
        &observed["sl402-2020-12-stamp"],
        &observed["sl402-2020-12-unstamped"],
    );
    for (host, _) in AJV_HOSTS {
        assert_eq!(
            stamped[host]["effect"], "compile-error",
            "{host} compiles the stamped input schema"
        );
        assert_eq!(bare[host]["compile"], "ok", "{host}: {}", bare[host]);
        assert!(bare[host].get("effect").is_none(), "{host}: {}", bare[host]);
    }
}

/// SL402's fix of a draft-07 `$schema` respells in 2020-12 what 2020-12 spells otherwise (a
/// tuple's `items` array and `additionalItems`, `dependencies`) and removes the stamp, so that
/// neither side of the trap refuses it: Claude's 2020-12-only validator, and the hosts whose
/// Ajv's default class has no 2020-12 meta-schema. The tier's case pair is the original and what
/// the fix writes of it; on instances generated to cover what the tuple and the dependencies
/// distinguish, the draft-07 reading of the original (the TS v1 client's Ajv, and each SDK engine
/// that reads `$schema`) and the 2020-12 reading of the fixed schema (TS v2's Ajv2020, Python's
/// `jsonschema`, the crate) give the same verdicts, the case's. The hosts' own Ajv compiles the
/// fixed schema and refuses no instance the original accepts; reading a schema without
/// `$schema` as draft-07, it does not check the respelled keywords, and accepts some instances
/// the original refuses (what rules/SL402.md says of the fix's safety).
#[test]
fn respelling_a_draft_07_schema_changes_no_verdict() {
    let observed = observed();
    let cases: std::collections::BTreeMap<String, Value> =
        case_files("cases").into_iter().collect();
    let (original, respelled) = (
        &cases["sl402-draft7-respellable"],
        &cases["sl402-draft7-respelled"],
    );
    // The case is what the fix writes.
    let text = serde_json::to_string_pretty(&original["schema"]).unwrap();
    let settings = settings_of(original);
    let source = SourceFile::new(FileId(0), "case.json".into(), None, &text, true);
    let run = schema_lint::engine::lint_loaded(
        vec![schema_lint::workspace::load_source(source, true)],
        &settings,
    );
    let outcome =
        schema_lint::fix::fix_run(run, &settings, schema_lint::fix::Offer::UNSAFE, &|_| Ok(()));
    let fixed: Value = serde_json::from_str(&outcome.run.files[0].file.text).unwrap();
    assert_eq!(fixed, respelled["schema"], "the fix writes another schema");
    assert_eq!(original["instances"], respelled["instances"]);
    let want: Vec<&str> = original["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            if i["valid"] == true {
                "valid"
            } else {
                "invalid"
            }
        })
        .collect();
    assert!(want.contains(&"valid") && want.contains(&"invalid"));
    let verdicts = |row: &Value, engine: &str| -> Vec<String> {
        assert_eq!(row[engine]["compile"], "ok", "{engine}: {}", row[engine]);
        row[engine]["instances"]
            .as_array()
            .unwrap_or_else(|| panic!("{engine}: no verdicts"))
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    let (before, after) = (
        &observed["sl402-draft7-respellable"],
        &observed["sl402-draft7-respelled"],
    );
    for engine in SDK_ENGINES {
        assert_eq!(verdicts(before, engine), want, "{engine} on the original");
        if engine != "ts-sdk-v1" {
            assert_eq!(
                verdicts(after, engine),
                want,
                "{engine} on the fixed schema"
            );
        }
    }
    let mut unchecked = 0;
    for (host, _) in AJV_HOSTS {
        let got = verdicts(after, host);
        for (n, (w, g)) in want.iter().zip(&got).enumerate() {
            assert!(
                *w == "invalid" || g == "valid",
                "{host} refuses instance {n}, which the original accepts"
            );
            unchecked += usize::from(*w == "invalid" && g == "valid");
        }
    }
    assert!(
        unchecked > 0,
        "the hosts' Ajv now checks the respelled keywords: rules/SL402.md says otherwise"
    );
}

/// The hosts and providers whose own conversions the tier runs on input-role cases
/// (tests/integration/providers/): what each did with a case, its effect, is claimed by a
/// finding's measured break on it. (A finding may claim more: a class's breaks come from its
/// first case, and a tool's other problem may be what made the client fail first.)
const CONVERTERS: [&str; 3] = ["openai-agents", "gemini", "gemini-cli"];

#[test]
fn every_input_case_claims_what_the_hosts_and_providers_do() {
    let observed = observed();
    let mut problems = Vec::new();
    let mut measured = 0;
    let inputs: Vec<_> = case_files("cases")
        .into_iter()
        .filter(|(_, c)| c["role"] == "input")
        .collect();
    assert!(inputs.len() >= 30, "only {} input-role cases", inputs.len());
    for (name, case) in inputs {
        let row = &observed[&name];
        let seen: BTreeSet<(&str, &str)> = CONVERTERS
            .iter()
            .map(|c| {
                assert!(
                    row[c].is_object(),
                    "{name}: no result of {c} in observed.json"
                );
                (*c, row[c]["effect"].as_str())
            })
            .filter_map(|(c, e)| Some((c, e?)))
            .collect();
        measured += seen.len();
        let found = lint_case(&case);
        let claimed: BTreeSet<(&str, &str)> = found
            .iter()
            .flat_map(|d| d.breaks.iter())
            .filter(|b| b.evidence == Evidence::Measured)
            .map(|b| (b.client.name(), b.effect.name()))
            .collect();
        let missed: Vec<_> = seen.difference(&claimed).collect();
        if !missed.is_empty() {
            problems.push(format!(
                "{name}: the hosts and providers did {missed:?}, which no finding claims"
            ));
        }
    }
    assert!(
        measured >= 20,
        "only {measured} effects measured on the input-role cases"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Two converters are observed on every input-role case (tests/integration/providers/hosts.mjs):
/// `@ai-sdk/openai` (its default, Responses API model, the tool offered with `strict` on and off)
/// and `@langchain/core`'s `convertToOpenAITool(tool, {strict: true})`. Each must send the
/// provider the server's schema and name unchanged, with `strict` as asked: that is what lets the
/// rules' claims of `openai-strict` and `openai` stand for a host built on either, the provider
/// getting the very schema the rules lint (rules/clients/openai-strict.md says so).
#[test]
fn the_openai_converters_send_the_servers_schema_unchanged() {
    let observed = observed();
    let mut problems = Vec::new();
    let inputs: Vec<_> = case_files("cases")
        .into_iter()
        .filter(|(_, c)| c["role"] == "input")
        .collect();
    assert!(inputs.len() >= 30, "only {} input-role cases", inputs.len());
    for (name, _) in &inputs {
        let row = &observed[name];
        let paths = [
            ("ai-sdk-openai", "strict", "request", "sent", true),
            ("ai-sdk-openai", "non-strict", "request", "sent", false),
            ("langchain", "convertToOpenAITool", "convert", "ok", true),
        ];
        for (engine, path, outcome, ok, strict) in paths {
            let result = &row[engine][path];
            let unchanged = result[outcome] == ok
                && result["strict"] == strict
                && result["changes"] == json!([])
                && result.get("name").is_none();
            if !unchanged {
                problems.push(format!("{name}: {engine} ({path}) did not send the server's schema as it is, strict {strict}: {result}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_listing_case_is_reported_and_claims_what_the_clients_do() {
    let observed = observed();
    let lost = |e: &str| matches!(e, "loses-tool-list" | "loses-tool");
    let mut problems = Vec::new();
    let cases = case_files("listings");
    assert!(cases.len() >= 15, "only {} listing cases", cases.len());
    for (name, case) in cases {
        let found = match raw_text(&case) {
            Some(text) => lint_text(&text, &settings_of(&case)),
            None => lint_document(&case["listing"], &settings_of(&case)),
        };
        if let Some(class) = case["class"].as_str() {
            problems.extend(reported(&name, class, &found));
        }
        let row = &observed[format!("listing/{name}")];
        assert!(row.is_object(), "listing/{name} is not in observed.json");
        // Which client lost what: the whole listing, or the tool.
        let failed: BTreeSet<(&str, &str)> = Client::ALL
            .iter()
            .map(|c| c.name())
            .filter_map(|c| Some((c, row[c]["effect"].as_str().filter(|e| lost(e))?)))
            .collect();
        let claimed: BTreeSet<(&str, &str)> = found
            .iter()
            .flat_map(|d| d.breaks.iter())
            // What hosts' documentation says is not what the SDK clients were seen doing.
            .filter(|b| b.evidence == Evidence::Measured && lost(b.effect.name()))
            // A client the listing tier does not run (a host measured on the class's input-role
            // case) is not this case's to confirm.
            .filter(|b| row.get(b.client.name()).is_some())
            .map(|b| (b.client.name(), b.effect.name()))
            .collect();
        if failed != claimed {
            problems.push(format!(
                "listing/{name}: the clients lost the listing or the tool in {failed:?}, the findings claim {claimed:?}"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every bad example the engine tier observes, by the name it gives it (before the suffix of a
/// tool): those of the rule docs (`doc/SL201-1`) and the bad fixtures of `testdata/rules/`.
fn observed_examples() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (code, doc) in schema_lint::rules::docs::docs() {
        let bad = schema_lint::rules::docs::examples(doc)
            .into_iter()
            .filter(|e| e.kind == schema_lint::rules::docs::ExampleKind::Bad)
            .filter(|e| !e.options.iter().any(|o| o == "audit" || o == "server"))
            // A client reads JSON, never a `.jsonc` file: those examples are schema-lint's own.
            .filter(|e| !e.options.iter().any(|o| o == "jsonc"));
        for (n, example) in bad.enumerate() {
            out.push((format!("doc/{code}-{}", n + 1), example.text));
        }
    }
    for fixture in rule_fixtures::all() {
        if fixture.kind == rule_fixtures::Kind::Bad && !fixture.options.iter().any(|o| o == "audit")
        {
            out.push((fixture.engine_key, fixture.text));
        }
    }
    out
}

/// No observation of an example is orphaned: each key of `observed.json` that names an example
/// (`doc/...`, `rules/...`) is an example the tier still gathers, under one name only.
#[test]
fn every_observed_example_is_still_an_example() {
    let examples = observed_examples();
    let names: BTreeSet<&str> = examples.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names.len(),
        examples.len(),
        "two examples share an engine name"
    );
    let observed = observed();
    let orphans: Vec<&String> = observed
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| k.starts_with("doc/") || k.starts_with("rules/"))
        .filter(|k| {
            !names
                .iter()
                .any(|n| k.as_str() == *n || k.starts_with(&format!("{n}/")))
        })
        .collect();
    assert!(
        orphans.is_empty(),
        "observed.json holds examples that neither a rule doc nor a fixture folder has: {orphans:?}"
    );
}

#[test]
fn findings_on_the_doc_examples_claim_what_the_engines_do() {
    let observed = observed();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (name, text) in observed_examples() {
        let Some(row) = observed.get(&name) else {
            continue;
        };
        let Ok(schema) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        checked += 1;
        let found = lint(&schema, &[], &Settings::default());
        // Without instances, only what happens when compiling shows.
        let claimed: BTreeSet<&str> = found
            .iter()
            .flat_map(|d| d.breaks.iter())
            .filter(|b| {
                matches!(
                    b.effect,
                    breaks::Effect::CompileError | breaks::Effect::UnresolvedReference
                )
            })
            .map(|b| b.client.name())
            .collect();
        let failed = failing(row);
        // Python resolves references lazily: an example without instances never reaches them.
        let lazy = |c: &&str| c.starts_with("python-sdk");
        let missed: Vec<_> = failed.difference(&claimed).collect();
        let overclaimed: Vec<_> = claimed.difference(&failed).filter(|c| !lazy(c)).collect();
        if !missed.is_empty() || !overclaimed.is_empty() {
            problems.push(format!(
                "{name}: engines failed {failed:?}, findings claim {claimed:?}"
            ));
        }
    }
    assert!(checked > 20, "only {checked} doc examples observed");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn severity_follows_who_breaks() {
    let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/a b"}}, "$defs": {"a b": {"type": "string"}}});
    let lax = lint(&schema, &[], &Settings::default());
    let strict = lint(
        &schema,
        &[],
        &Settings {
            strict: true,
            ..Settings::default()
        },
    );
    let sl301 = |found: &[Diagnostic]| {
        found
            .iter()
            .find(|d| d.rule.code == "SL301")
            .map(|d| (d.severity, d.class))
    };
    // Only stricter engines refuse a fragment with a space: a warning, an error with `strict`.
    assert_eq!(
        sl301(&lax),
        Some((Severity::Warning, Some("SL301/fragment-chars")))
    );
    assert_eq!(
        sl301(&strict),
        Some((Severity::Error, Some("SL301/fragment-chars")))
    );
    let malformed = lint(
        &json!({"$id": "my_tool:output", "type": "object"}),
        &[],
        &Settings::default(),
    );
    assert_eq!(malformed[0].severity, Severity::Error);
}

/// The plain-schema cases (`"target": "json-schema"`, run through `vscode-json` too): a class
/// that `vscode-json` resolves (it fetched the remote) is a warning on the `json-schema` target,
/// whose note names it, while on an MCP target the MCP clients' failure keeps it an error and the
/// plain consumer is left out of the finding.
#[test]
fn plain_schema_consumers_decide_on_the_json_schema_target() {
    use schema_lint::settings::target::Target;
    let seen = observed();
    let mut checked = 0;
    for (name, case) in case_files("cases") {
        let Some(class) = case["class"].as_str() else {
            continue;
        };
        if case["target"] != "json-schema" {
            continue;
        }
        let vscode = &seen[name.as_str()]["vscode-json"];
        assert_eq!(vscode["effect"], "fetches-remote", "{name}: {vscode}");
        let on = |target| {
            let settings = Settings {
                target: Some(target),
                ..Settings::default()
            };
            lint(&case["schema"], &[], &settings)
                .into_iter()
                .find(|d| d.class == Some(class))
                .unwrap_or_else(|| panic!("{name}: no finding of `{class}` for {target}"))
        };
        let plain = on(Target::JsonSchema);
        assert_eq!(plain.severity, Severity::Warning, "{name}");
        let note = plain.full_note().unwrap_or_default();
        assert!(
            note.contains("vscode-json fetches the remote schema"),
            "{name}: {note}"
        );
        assert!(
            note.contains("ts-sdk-v1 and ts-sdk-v2 cannot resolve"),
            "{name}: {note}"
        );
        let mcp = on(Target::Mcp20251125);
        assert_eq!(mcp.severity, Severity::Error, "{name}");
        assert!(
            mcp.breaks.iter().all(|b| b.client != Client::VscodeJson),
            "{name}: {:?}",
            mcp.breaks
        );
        checked += 1;
    }
    assert!(checked >= 2, "only {checked} plain-schema cases");
}

/// The bullets of a rule doc that start with a class (`` - `SL201/invalid`, ...: breaks `a`,
/// `b`. ``), each with the clients named after its first `breaks` (up to the end of that
/// sentence); `breaks no client` names none.
fn doc_claims(doc: &str) -> Vec<(String, BTreeSet<String>)> {
    let mut bullets: Vec<String> = Vec::new();
    for line in doc.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("- `") {
            bullets.push(rest.to_owned());
        } else if let (Some(last), true) = (bullets.last_mut(), line.starts_with("  ")) {
            last.push(' ');
            last.push_str(line.trim());
        } else {
            bullets.push(String::new());
        }
    }
    let clients: BTreeSet<&str> = Client::ALL.iter().map(|c| c.name()).collect();
    bullets
        .into_iter()
        .filter_map(|b| {
            let (class, rest) = b.split_once('`')?;
            if !class.starts_with("SL") || !class.contains('/') {
                return None;
            }
            let after = &rest[rest.find("breaks ")? + "breaks ".len()..];
            let sentence = after.split(". ").next().unwrap_or(after);
            let named = sentence
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|t| clients.contains(t))
                .map(str::to_owned)
                .collect();
            Some((class.to_owned(), named))
        })
        .collect()
}

#[test]
fn the_docs_claim_what_was_measured() {
    let mut problems = Vec::new();
    for (code, doc) in schema_lint::rules::docs::docs() {
        let claims = doc_claims(doc);
        for (class, named) in &claims {
            let Some(known) = breaks::of(class) else {
                problems.push(format!(
                    "rules/{code}.md: `{class}` is not a class of breaks.json"
                ));
                continue;
            };
            let measured: BTreeSet<String> =
                known.iter().map(|b| b.client.name().to_owned()).collect();
            if *named != measured {
                problems.push(format!(
                    "rules/{code}.md: `{class}` claims {named:?}, breaks.json and the doc's `breaks` \
                 blocks have {measured:?}"
                ));
            }
        }
        for class in breaks::classes().filter(|c| c.starts_with(&format!("{code}/"))) {
            if !claims.iter().any(|(c, _)| c == class) {
                problems.push(format!("rules/{code}.md: says nothing of `{class}`"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// SL101's note says which value of a key given twice the clients read: the last, as `serde_json`
/// does (which is what the `jsonschema` crate is given). Each listing case served raw holds keys
/// twice; every SDK client must have read each output schema as `serde_json` reads it.
#[test]
fn the_clients_read_the_last_of_a_key_given_twice() {
    let twice: Value = serde_json::from_str(r#"{"a": 1, "a": 2}"#).unwrap();
    assert_eq!(twice, json!({"a": 2}), "serde_json keeps the last value");
    let observed = observed();
    let mut checked = 0;
    for (name, case) in case_files("listings") {
        let Some(text) = raw_text(&case) else {
            continue;
        };
        let found = lint_text(&text, &settings_of(&case));
        assert!(
            found.iter().any(|d| d.rule.code == "SL101"),
            "listing/{name}: served raw, but holds no key twice"
        );
        let listing: Value = serde_json::from_str(&text).unwrap();
        let row = &observed[format!("listing/{name}")];
        for client in [
            "ts-sdk-v1",
            "ts-sdk-v2",
            "python-sdk",
            "python-sdk-v1",
            "python-sdk+format",
        ] {
            for tool in listing["tools"].as_array().unwrap() {
                let tool_name = tool["name"].as_str().unwrap();
                let read = &row[client]["read"][tool_name];
                assert_eq!(
                    read, &tool["outputSchema"],
                    "listing/{name}: {client} read `{tool_name}`'s output schema as {read}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 8, "only {checked} output schemas read raw");
}

/// The SDK clients and engines a schema case is judged on.
const SDK_ENGINES: [&str; 6] = [
    "ts-sdk-v1",
    "ts-sdk-v2",
    "python-sdk",
    "python-sdk+format",
    "python-sdk-v1",
    "jsonschema-rs",
];

/// Every schema case's findings claim exactly the SDK clients and engines that failed on it (a
/// measured break that is not `accepts-invalid-output`), but for the cases listed, with what
/// each does, in `testdata/engines/disagreements.txt`: the tail left to do. A case that comes to
/// disagree, or a listed case whose line is no longer what the tier and the rules give, fails.
#[test]
fn every_schema_case_claims_what_its_clients_did() {
    let observed = observed();
    let names = |set: &BTreeSet<&str>| {
        if set.is_empty() {
            "none".to_owned()
        } else {
            set.iter().copied().collect::<Vec<_>>().join(", ")
        }
    };
    let mut lines = Vec::new();
    let mut checked = 0;
    for (name, case) in case_files("cases") {
        let row = &observed[&name];
        if case["role"] == "input" || !row.is_object() {
            continue;
        }
        checked += 1;
        let claimed: BTreeSet<&str> = lint_case(&case)
            .iter()
            .flat_map(|d| d.breaks.iter())
            .filter(|b| {
                b.evidence == Evidence::Measured && b.effect != breaks::Effect::AcceptsInvalidOutput
            })
            .map(|b| b.client.name())
            .filter(|c| SDK_ENGINES.contains(c))
            .collect();
        let failed: BTreeSet<&str> = failing(row)
            .into_iter()
            .filter(|c| SDK_ENGINES.contains(c))
            .collect();
        if claimed != failed {
            lines.push(format!(
                "{name}: failed {}; claimed {}",
                names(&failed),
                names(&claimed)
            ));
        }
    }
    assert!(checked > 200, "only {checked} schema cases observed");
    let listed = std::fs::read_to_string(data().join("disagreements.txt")).unwrap();
    let listed: Vec<&str> = listed
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(
        lines, listed,
        "the cases whose claims differ from what their clients did are not those of \
         testdata/engines/disagreements.txt (a new disagreement is a bug to fix; a listed case \
         that now agrees, or whose line changed, is updated there)"
    );
}

/// The listing cases run again on the stateless revision (`ts-sdk-v2@2026-07-28`,
/// `python-sdk@2026-07-28`, ...): every listing row records them, the cases where a client does
/// otherwise than on 2025-11-25 are those of `testdata/engines/revisions.txt`, and linted for
/// `mcp-2026-07-28` such a case claims no loss of the listing or the tool from a client that
/// kept them on that revision.
#[test]
fn what_the_clients_do_on_2026_07_28_is_recorded_and_claimed_for_that_target() {
    let observed = observed();
    let lost = |e: &str| matches!(e, "loses-tool-list" | "loses-tool");
    let mut lines = Vec::new();
    let mut problems = Vec::new();
    let mut recorded = 0;
    for (name, case) in case_files("listings") {
        let row = &observed[format!("listing/{name}")];
        for (client, result) in row.as_object().unwrap() {
            let Some(base) = client.strip_suffix("@2026-07-28") else {
                continue;
            };
            recorded += 1;
            let then = row[base]["effect"].as_str().unwrap_or("none");
            let now = result["effect"].as_str().unwrap_or("none");
            if then == now {
                continue;
            }
            lines.push(format!(
                "listing/{name} {base}: 2025-11-25 {then}; 2026-07-28 {now}"
            ));
            if lost(now) {
                continue;
            }
            let settings = Settings {
                target: Some(schema_lint::settings::target::Target::Mcp20260728),
                ..Settings::default()
            };
            let found = match raw_text(&case) {
                Some(text) => lint_text(&text, &settings),
                None => lint_document(&case["listing"], &settings),
            };
            let claimed: Vec<String> = found
                .iter()
                .flat_map(|d| d.breaks.iter())
                .filter(|b| b.client.name() == base && lost(b.effect.name()))
                .map(|b| format!("{} {}", b.client.name(), b.effect.name()))
                .collect();
            if !claimed.is_empty() {
                problems.push(format!(
                    "listing/{name}: {base} kept it on 2026-07-28, the findings for that target claim {claimed:?}"
                ));
            }
        }
    }
    assert!(recorded > 100, "only {recorded} results on 2026-07-28");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let listed = std::fs::read_to_string(data().join("revisions.txt")).unwrap();
    let listed: Vec<&str> = listed
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(
        lines, listed,
        "the listing cases where a client does otherwise on 2026-07-28 are not those of \
         testdata/engines/revisions.txt"
    );
}
