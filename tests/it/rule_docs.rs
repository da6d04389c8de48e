//! Every rule has a doc in `rules/` (whose header declares its metadata), and every `json bad`
//! example triggers exactly its rule while every `json good` example triggers nothing.

use schema_lint::diagnostic::meta;
use schema_lint::engine::{lint_loaded, lint_source};
use schema_lint::fix::{fix_run, Offer};
use schema_lint::rules;
use schema_lint::rules::docs::{self, Example, ExampleKind};
use schema_lint::settings::{FixIdMode, Settings};
use schema_lint::syntax::source::{FileId, SourceFile};
use schema_lint::workspace::load_source;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::rule_fixtures;
use rule_fixtures::{Fixture, Kind};

/// Settings an example asks for with words after its kind (`fix-id=defs`).
fn settings_for(example: &Example) -> (Settings, bool) {
    let mut settings = Settings::default();
    let mut allow_unsafe = false;
    for option in &example.options {
        match option.as_str() {
            "fix-id=defs" => settings.fix_id = FixIdMode::Defs,
            "unsafe" => allow_unsafe = true,
            "fix" | "audit" | "server" | "jsonc" => {}
            o if o.starts_with("also=") => {}
            o if o.starts_with("target=") => {
                let name = &o["target=".len()..];
                settings.target = Some(
                    <schema_lint::settings::target::Target as clap::ValueEnum>::from_str(
                        name, false,
                    )
                    .unwrap_or_else(|e| {
                        panic!("bad target `{name}` at line {}: {e}", example.line)
                    }),
                );
            }
            // `clients=openai-strict,default`: the clients the run is for (a provider's rule runs
            // only when its client is selected).
            o if o.starts_with("clients=") => {
                let names: Vec<&str> = o["clients=".len()..].split(',').collect();
                let chosen = schema_lint::settings::clients::parse(&names)
                    .unwrap_or_else(|e| panic!("bad clients at line {}: {e}", example.line));
                settings.clients = chosen.clients;
                settings.versions = chosen.versions;
            }
            o if o.starts_with("select=") => {
                settings.selection.extend_select =
                    o["select=".len()..].split(',').map(str::to_owned).collect();
            }
            other => panic!("unknown example option `{other}` at line {}", example.line),
        }
    }
    (settings, allow_unsafe)
}

fn source(text: &str) -> SourceFile {
    named_source("example.json", text)
}

/// The name an example is linted under: `example.jsonc` for a `jsonc` block.
fn example_name(example: &Example) -> &'static str {
    if example.options.iter().any(|o| o == "jsonc") {
        "example.jsonc"
    } else {
        "example.json"
    }
}

fn named_source(name: &str, text: &str) -> SourceFile {
    SourceFile::new(FileId(0), name.into(), None, text, true)
}

fn codes_for(text: &str, name: &str, settings: &Settings) -> BTreeSet<&'static str> {
    let linted = lint_source(named_source(name, text), settings, true);
    linted.diagnostics.iter().map(|d| d.rule.code).collect()
}

/// The findings `schema-lint audit` reports for a capture.
fn audit_codes(capture: &str) -> BTreeSet<&'static str> {
    let audit = schema_lint::audit::audit(capture, &schema_lint::audit::Options::default());
    assert!(
        audit.input_errors.is_empty(),
        "the capture does not parse: {:?}",
        audit.input_errors
    );
    assert!(!audit.calls.is_empty(), "the capture holds no call");
    audit
        .calls
        .iter()
        .flat_map(|c| c.findings.iter().map(|f| f.rule.code))
        .collect()
}

/// The findings of `check --server` on a stdio server that answers every request it reads with
/// `answer` (a JSON-RPC message, given the request's id).
fn server_codes(answer: &str, settings: &Settings) -> BTreeSet<&'static str> {
    let (run, _) = server_run(answer, settings);
    run.diagnostics().iter().map(|d| d.rule.code).collect()
}

/// The run of `check --server` on a stdio server that answers every request it reads with
/// `answer`, and the server's command line.
fn server_run(answer: &str, settings: &Settings) -> (schema_lint::Run, String) {
    use schema_lint::workspace::live;
    let dir = std::env::temp_dir().join(format!("schema-lint-doc-server-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{:016x}.json", fingerprint(answer)));
    std::fs::write(&file, answer).unwrap();
    let responder = dir.join("responder.py");
    std::fs::write(
        &responder,
        "import json, sys\n\
         answer = json.load(open(sys.argv[1]))\n\
         for line in sys.stdin:\n    \
             request = json.loads(line)\n    \
             if 'id' in request:\n        \
                 print(json.dumps(dict(answer, id=request['id'])), flush=True)\n",
    )
    .unwrap();
    let command = format!(
        "python3 {} {}",
        shlex_quote(responder.to_str().unwrap()),
        shlex_quote(file.to_str().unwrap())
    );
    let server = live::Server::command(&command, &[]).unwrap();
    let options = live::Options {
        protocol: None,
        timeout: std::time::Duration::from_secs(30),
    };
    let input = live::input(&server, &options);
    let run = schema_lint::engine::run_with(&[], None, vec![input], settings);
    let _ = std::fs::remove_file(&file);
    (run, command)
}

fn fingerprint(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// `text` as one word of a POSIX shell command line.
fn shlex_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The text and the findings left after `--fix` on one file, SL901 included.
fn fixed(text: &str, settings: &Settings, allow_unsafe: bool) -> (String, BTreeSet<&'static str>) {
    let run = lint_loaded(vec![load_source(source(text), true)], settings);
    let mut outcome = fix_run(
        run,
        settings,
        Offer {
            unsafe_fixes: allow_unsafe,
            follow_on: false,
        },
        &|_| Ok(()),
    );
    schema_lint::fix::rejections::attach_rejections(&mut outcome);
    let codes = outcome
        .run
        .diagnostics()
        .iter()
        .map(|d| d.rule.code)
        .collect();
    (outcome.run.files[0].file.text.to_string(), codes)
}

/// The rules reported elsewhere than by linting a schema: SL100 and SL102 by the loader, `SL6xx` by the
/// audit, SL901 by the fix loop. Every other doc must have a rule that lints.
const REPORTED_ELSEWHERE: &[&str] = &[
    "SL100", "SL102", "SL601", "SL602", "SL603", "SL604", "SL605", "SL606", "SL607", "SL901",
];

#[test]
fn every_doc_has_its_sections_and_a_rule_that_reports_it() {
    let linting: BTreeSet<&str> = rules::all().iter().map(|r| r.meta().code).collect();
    for meta in meta::ALL {
        let doc =
            docs::doc_for(meta).unwrap_or_else(|| panic!("{} has no doc in rules/", meta.code));
        for section in [
            "## What it does",
            "## Why is this bad",
            "## Example",
            "## Fix safety",
        ] {
            assert!(
                doc.contains(section),
                "rules/{}.md lacks `{section}`",
                meta.code
            );
        }
        assert!(
            linting.contains(meta.code) != REPORTED_ELSEWHERE.contains(&meta.code),
            "rules/{}.md: a rule is implemented by `impl Rule` in src/rules/<family>/, or reported \
             elsewhere (and listed in REPORTED_ELSEWHERE), never both nor neither",
            meta.code
        );
    }
    // Each rule's `meta()` is the metadata its doc declares, and the registry is in code order.
    let codes: Vec<&str> = rules::all().iter().map(|r| r.meta().code).collect();
    let mut sorted = codes.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(codes, sorted);
    for rule in rules::all() {
        assert!(std::ptr::eq(
            rule.meta(),
            meta::find(rule.meta().code).unwrap()
        ));
    }
}

#[test]
fn every_doc_belongs_to_a_rule_and_every_file_is_embedded() {
    let embedded: BTreeSet<&str> = docs::docs().iter().map(|(c, _)| *c).collect();
    let registered: BTreeSet<&str> = meta::ALL.iter().map(|m| m.code).collect();
    assert_eq!(embedded, registered);
    let on_disk: BTreeSet<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"))
            .unwrap()
            .map(Result::unwrap)
            // `rules/clients/` holds the clients' pages, not rules.
            .filter(|e| e.path().is_file())
            .map(|e| {
                e.file_name()
                    .to_string_lossy()
                    .trim_end_matches(".md")
                    .to_owned()
            })
            .collect();
    assert_eq!(
        on_disk,
        registered.iter().map(|s| (*s).to_owned()).collect()
    );
}

/// The findings an example is checked against: the audit's for a capture, else the linter's.
fn found_in(example: &Example, settings: &Settings) -> BTreeSet<&'static str> {
    if example.options.iter().any(|o| o == "audit") {
        audit_codes(&example.text)
    } else if example.options.iter().any(|o| o == "server") {
        server_codes(&example.text, settings)
    } else {
        codes_for(&example.text, example_name(example), settings)
    }
}

/// A bad example (`at` names it) triggers exactly its rule and what `also=` names; with `fix`,
/// `--fix` must refuse its fix and change nothing.
fn check_bad(at: &str, code: &str, example: &Example) {
    let (settings, allow_unsafe) = settings_for(example);
    if example.options.iter().any(|o| o == "fix") {
        let (text, left) = fixed(&example.text, &settings, allow_unsafe);
        assert!(
            left.contains(code) && text == example.text,
            "{at}: --fix must refuse this example's fix and change nothing; left {left:?}"
        );
        return;
    }
    // `also=SL301` names findings the example triggers by nature besides its own.
    let mut wanted = BTreeSet::from([meta::find(code).expect("a known code").code]);
    for o in &example.options {
        if let Some(list) = o.strip_prefix("also=") {
            wanted.extend(
                list.split(',')
                    .map(|c| meta::find(c).expect("a known code").code),
            );
        }
    }
    let found = found_in(example, &settings);
    assert_eq!(
        found, wanted,
        "{at}: the bad example must trigger exactly {wanted:?}"
    );
}

fn check_good(at: &str, example: &Example) {
    let (settings, _) = settings_for(example);
    let found = found_in(example, &settings);
    assert!(
        found.is_empty(),
        "{at}: the good example triggers {found:?}"
    );
}

/// `--fix` makes `want` of the bad text, with the settings of `settings_of`, and leaves nothing
/// (the fix loop proves it compiles, or refuses it as SL901).
fn check_fixed(at: &str, bad: &str, want: &str, settings_of: &Example) {
    let (settings, allow_unsafe) = settings_for(settings_of);
    let (text, left) = fixed(bad, &settings, allow_unsafe);
    assert_eq!(
        text, want,
        "{at}: the fixed example is not what --fix makes of the bad one"
    );
    assert!(left.is_empty(), "{at}: after the fix, {left:?} remain");
}

#[test]
fn doc_examples_trigger_exactly_their_rule() {
    let mut checked = 0;
    for (code, doc) in docs::docs() {
        let examples = docs::examples(doc);
        assert!(
            examples.iter().any(|e| e.kind == ExampleKind::Bad)
                && examples.iter().any(|e| e.kind == ExampleKind::Good),
            "rules/{code}.md needs a `json bad` and a `json good` example"
        );
        let mut last_bad: Option<&Example> = None;
        for example in &examples {
            let at = format!("rules/{code}.md:{}", example.line);
            match example.kind {
                ExampleKind::Bad => {
                    check_bad(&at, code, example);
                    // A refused fix shows no `fixed` block.
                    last_bad = (!example.options.iter().any(|o| o == "fix")).then_some(example);
                }
                ExampleKind::Good => check_good(&at, example),
                ExampleKind::Fixed => {
                    let bad = last_bad
                        .unwrap_or_else(|| panic!("{at}: a `fixed` block must follow a `bad` one"));
                    check_fixed(&at, &bad.text, &example.text, example);
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 2 * docs::docs().len());
}

/// A fixture as the doc example it stands for.
fn as_example(fixture: &Fixture) -> Example {
    Example {
        kind: match fixture.kind {
            Kind::Bad => ExampleKind::Bad,
            Kind::Good => ExampleKind::Good,
        },
        text: fixture.text.clone(),
        line: 0,
        options: fixture.options.clone(),
    }
}

/// Every schema rule (`SL2xx`-`SL5xx`, `SL7xx`) has a fixture folder with a bad fixture at least, and
/// every file of a folder belongs to a fixture: `<name>.json` and beside it `<name>.options`,
/// `<name>.fixed.json` (a bad one's) and `<name>.txt`.
#[test]
fn every_schema_rule_has_a_fixture_folder() {
    let schema_rule = |code: &str| matches!(code.as_bytes().get(2), Some(b'2'..=b'5' | b'7'));
    let folders: BTreeSet<String> = rule_fixtures::folders()
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    let wanted: BTreeSet<String> = meta::ALL
        .iter()
        .map(|m| m.code)
        .filter(|c| schema_rule(c))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        folders, wanted,
        "testdata/rules/<CODE>/: one folder per schema rule"
    );
    let fixtures = rule_fixtures::all();
    for code in &wanted {
        assert!(
            fixtures
                .iter()
                .any(|f| &f.code == code && f.kind == Kind::Bad),
            "testdata/rules/{code}/ holds no bad fixture"
        );
    }
    for (code, dir) in rule_fixtures::folders() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let file = entry.unwrap().file_name().to_string_lossy().into_owned();
            let (stem, bad_only) = [
                (".fixed.json", true),
                (".json", false),
                (".options", false),
                (".txt", false),
            ]
            .iter()
            .find_map(|(ext, bad)| file.strip_suffix(ext).map(|s| (s.to_owned(), *bad)))
            .unwrap_or_else(|| panic!("testdata/rules/{code}/{file}: not a fixture's file"));
            assert!(
                fixtures.iter().any(|f| f.code == code
                    && f.name == stem
                    && (!bad_only || f.kind == Kind::Bad)),
                "testdata/rules/{code}/{file} belongs to no fixture"
            );
        }
    }
}

/// Each fixture meets what its name says, as the doc examples do: a bad one triggers exactly its
/// rule, a good one nothing, and its `.fixed.json` is what `--fix` writes, clean.
#[test]
fn fixtures_trigger_exactly_their_rule() {
    let fixtures = rule_fixtures::all();
    assert!(fixtures.len() >= 40, "only {} fixtures", fixtures.len());
    for fixture in &fixtures {
        let example = as_example(fixture);
        let at = fixture.label();
        match fixture.kind {
            Kind::Bad => check_bad(&at, &fixture.code, &example),
            Kind::Good => check_good(&at, &example),
        }
        if let Some(want) = &fixture.fixed {
            check_fixed(&at, &fixture.text, want, &example);
        }
    }
}

#[test]
fn fixable_rules_show_their_fix() {
    for meta in meta::ALL {
        let doc = docs::doc_for(meta).unwrap();
        let has_fixed = docs::examples(doc)
            .iter()
            .any(|e| e.kind == ExampleKind::Fixed);
        let fixable = meta.fix != meta::FixAvailability::None;
        assert_eq!(
            has_fixed, fixable,
            "rules/{}.md: a fixable rule shows a `json fixed` example, others none",
            meta.code
        );
    }
}

/// The rule table of docs/rules.md is generated from the rules' metadata: this test fails when it is
/// out of date, and `SCHEMA_LINT_BLESS=1 cargo test --test it rule_docs::` writes it anew.
#[test]
fn readme_rule_table_is_generated_from_the_metadata() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let header = "| code | name | category | severity | fix | summary |\n";
    let start = readme
        .find(header)
        .expect("docs/rules.md has the rule table");
    let end = readme[start..]
        .find("\n\n")
        .map_or(readme.len(), |n| start + n + 1);
    let table = schema_lint::report::catalogue::markdown(meta::ALL);
    if readme[start..end] == table {
        return;
    }
    if std::env::var_os("SCHEMA_LINT_BLESS").is_some() {
        std::fs::write(
            path,
            format!("{}{table}{}", &readme[..start], &readme[end..]),
        )
        .unwrap();
    } else {
        panic!(
            "docs/rules.md's rule table is out of date: run `SCHEMA_LINT_BLESS=1 cargo test --test \
             rule_docs`\n--- expected\n{table}"
        );
    }
}

/// What a user sees of one example, linted as the file `name`: the full human report, and for a
/// `bad` example the text `--fix` makes of it and the report after the fix.
fn snapshot_of(example: &Example, name: &str) -> String {
    let (settings, allow_unsafe) = settings_for(example);
    let style = schema_lint::report::Style {
        color: false,
        width: 100,
        quiet: false,
        summary: true,
        baselined: 0,
    };
    if example.options.iter().any(|o| o == "audit") {
        let audit =
            schema_lint::audit::audit(&example.text, &schema_lint::audit::Options::default());
        return format!(
            "-- schema-lint audit\n{}",
            schema_lint::report::audit::human(&audit, "example.jsonl", false)
        );
    }
    let human = |run: &schema_lint::Run| {
        schema_lint::report::render(run, schema_lint::report::OutputFormat::Human, style)
    };
    if example.options.iter().any(|o| o == "server") {
        // The responder's command line (a script and a temporary file) shows as what a user
        // would have typed.
        let (mut run, _) = server_run(&example.text, &settings);
        "python3 server.py".clone_into(&mut run.files[0].file.name);
        return format!(
            "-- schema-lint --server 'python3 server.py'\n{}",
            human(&run)
        );
    }
    let run = lint_loaded(
        vec![load_source(named_source(name, &example.text), true)],
        &settings,
    );
    let mut out = format!("-- schema-lint {name}\n{}", human(&run));
    if example.kind == ExampleKind::Bad {
        let mut outcome = fix_run(
            run,
            &settings,
            Offer {
                unsafe_fixes: allow_unsafe,
                follow_on: false,
            },
            &|_| Ok(()),
        );
        schema_lint::fix::rejections::attach_rejections(&mut outcome);
        let text = &outcome.run.files[0].file.text;
        if **text == example.text {
            out.push_str("-- --fix changes nothing\n");
        } else {
            let _ = write!(out, "-- --fix writes\n{text}");
        }
        let _ = write!(out, "-- then reports\n{}", human(&outcome.run));
    }
    out
}

/// Per rule, the full human output of every example of its doc and the text `--fix` makes of
/// each bad one, in `testdata/rules/<CODE>.txt`. `SCHEMA_LINT_BLESS=1 cargo test --test
/// rule_docs` writes them anew; review their diff like code.
#[test]
fn rule_snapshots() {
    let bless = std::env::var_os("SCHEMA_LINT_BLESS").is_some();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/rules");
    std::fs::create_dir_all(&dir).unwrap();
    let mut stale = Vec::new();
    for (code, doc) in docs::docs() {
        let mut actual = String::new();
        for example in docs::examples(doc) {
            if example.kind == ExampleKind::Fixed {
                continue;
            }
            let kind = if example.kind == ExampleKind::Bad {
                "bad"
            } else {
                "good"
            };
            let jsonc = example.options.iter().any(|o| o == "jsonc");
            let title = std::iter::once(if jsonc { "jsonc" } else { "json" })
                .chain(std::iter::once(kind))
                .chain(
                    example
                        .options
                        .iter()
                        .map(String::as_str)
                        .filter(|o| *o != "jsonc"),
                )
                .collect::<Vec<_>>()
                .join(" ");
            let _ = writeln!(
                actual,
                "==== rules/{code}.md:{} {title}\n{}{}",
                example.line,
                example.text,
                snapshot_of(&example, example_name(&example))
            );
        }
        let path = dir.join(format!("{code}.txt"));
        if bless {
            std::fs::write(&path, &actual).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(actual.as_str()) {
            stale.push(format!("testdata/rules/{code}.txt"));
        }
    }
    assert!(
        stale.is_empty(),
        "out of date (run `SCHEMA_LINT_BLESS=1 cargo test --test it rule_docs::` and review the diff): {}",
        stale.join(", ")
    );
}

/// Beside each fixture of `testdata/rules/<CODE>/`, `<name>.txt`: what `snapshot_of` shows of
/// it (blessed and reviewed as the doc snapshots are).
#[test]
fn fixture_snapshots() {
    let bless = std::env::var_os("SCHEMA_LINT_BLESS").is_some();
    let mut stale = Vec::new();
    for fixture in rule_fixtures::all() {
        let file = format!("{}.json", fixture.name);
        let actual = snapshot_of(&as_example(&fixture), &file);
        let path = fixture.snapshot_path();
        if bless {
            std::fs::write(&path, &actual).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(actual.as_str()) {
            stale.push(format!("{}.txt", fixture.label()));
        }
    }
    assert!(
        stale.is_empty(),
        "out of date (run `SCHEMA_LINT_BLESS=1 cargo test --test it rule_docs::` and review the diff): {}",
        stale.join(", ")
    );
}

/// A doc's scope line (`Targets: … · Roles: … · Clients: … · Grouped: …`, after the `Category:` line) is
/// metadata: the embedded doc, which `schema-lint rule` prints and SARIF carries, is the file
/// without it, and a rule without one lints every target.
#[test]
fn the_scope_line_is_metadata_not_prose() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
    let mut scoped = 0;
    for meta in meta::ALL {
        let file = std::fs::read_to_string(format!("{dir}/{}.md", meta.code)).unwrap();
        let served = docs::doc_for(meta).unwrap();
        let line = file.lines().nth(4).filter(|l| {
            ["Targets: ", "Roles: ", "Clients: ", "Grouped: "]
                .iter()
                .any(|k| l.starts_with(k))
        });
        if let Some(line) = line {
            scoped += 1;
            assert!(
                !served.contains(line),
                "{}: the scope line is served",
                meta.code
            );
            assert_eq!(served, file.replacen(&format!("{line}\n\n"), "", 1));
        } else {
            assert_eq!(served, file, "{}", meta.code);
            for target in [
                schema_lint::settings::target::Target::JsonSchema,
                schema_lint::settings::target::Target::Mcp20251125,
            ] {
                assert_eq!(
                    meta.severity_for(target),
                    Some(meta.severity),
                    "{}",
                    meta.code
                );
            }
        }
    }
    assert!(scoped >= 8, "the MCP rules declare their scope");
}

/// Every `documented` break names its sources with the words of each that back it and the day it
/// was read, and the client's words a note quotes (`detail`) are words of those quotes: a claim
/// whose quote is not in its source is a bug like a wrong verdict (issue 46).
#[test]
fn every_documented_break_quotes_its_sources() {
    use schema_lint::diagnostic::breaks::{self, Evidence};
    let mut documented = 0;
    for class in breaks::classes() {
        for b in breaks::of(class).unwrap_or_default() {
            let Evidence::Documented {
                sources,
                quotes,
                read,
            } = b.evidence
            else {
                continue;
            };
            documented += 1;
            let at = format!("{class} ({})", b.client.name());
            assert!(!sources.is_empty(), "{at}: no source");
            assert_eq!(
                sources.len(),
                quotes.len(),
                "{at}: a source without a quote"
            );
            assert_eq!(
                sources.len(),
                read.len(),
                "{at}: a source without the day read"
            );
            for ((url, quote), day) in sources.iter().zip(quotes).zip(read) {
                assert!(url.starts_with("https://"), "{at}: `{url}` is no https URL");
                assert!(!quote.trim().is_empty(), "{at}: `{url}` has an empty quote");
                assert!(
                    day.len() == 10 && day.as_bytes()[4] == b'-' && day.as_bytes()[7] == b'-',
                    "{at}: `{url}` read on `{day}`, not a YYYY-MM-DD day"
                );
            }
            for piece in b.detail.split('…').map(str::trim).filter(|p| !p.is_empty()) {
                assert!(
                    quotes.iter().any(|q| q.contains(piece)),
                    "{at}: the note quotes `{piece}`, which none of its sources says"
                );
            }
        }
    }
    assert!(documented > 30, "only {documented} documented breaks");
}

/// A client page's documented evidence is a list of sources, each with the day it was read and
/// the words of it that back the page: `- <https URL> (read YYYY-MM-DD): "<quote>" (what it
/// backs)`; no source is cited outside that list.
#[test]
fn every_client_page_quotes_its_documented_sources() {
    use schema_lint::diagnostic::breaks::Client;
    let mut sources = 0;
    for client in Client::ALL {
        let page = client.page();
        let Some(evidence) = page.split("\n## Evidence\n").nth(1) else {
            panic!("{client}: no `## Evidence` section");
        };
        let evidence = evidence.split("\n## ").next().unwrap_or_default();
        assert!(
            !evidence.contains("Documented: http") && !evidence.contains("documented: http"),
            "{client}: a documented source outside the list of quoted sources"
        );
        let quoted: Vec<&str> = evidence
            .lines()
            .filter_map(|l| l.strip_prefix("- "))
            .filter_map(|l| l.split_once(" (read ").map(|(url, _)| url))
            .collect();
        // What the page says outside the quotes: a bullet's note after its quote, other lines
        // whole.
        let said: String = evidence
            .lines()
            .map(
                |l| match l.strip_prefix("- ").filter(|b| b.contains(" (read ")) {
                    Some(bullet) => bullet.rfind('"').map_or("", |end| &bullet[end..]),
                    None => l,
                },
            )
            .collect::<Vec<_>>()
            .join("\n");
        for cited in said.split("https://").skip(1) {
            let url = cited
                .split(|c: char| c.is_whitespace() || matches!(c, ')' | ',' | ';' | '`'))
                .next()
                .unwrap_or_default()
                .trim_end_matches('.');
            assert!(
                quoted
                    .iter()
                    .any(|q| q.strip_prefix("https://") == Some(url)),
                "{client}: https://{url} is cited without a quote of its own"
            );
        }
        for line in evidence.lines().filter(|l| l.starts_with("- https://")) {
            sources += 1;
            let rest = line.trim_start_matches("- ");
            let (url, rest) = rest
                .split_once(" (read ")
                .unwrap_or_else(|| panic!("{client}: `{line}` has no `(read YYYY-MM-DD)`"));
            assert!(!url.contains(' '), "{client}: `{url}` is not one URL");
            let (day, quote) = rest
                .split_once("): \"")
                .unwrap_or_else(|| panic!("{client}: `{line}` has no quote after the day"));
            assert!(day.len() == 10, "{client}: `{day}` is not YYYY-MM-DD");
            // The quote ends at its last `"`; what follows in parentheses says what it backs.
            let words = quote.rfind('"').map_or("", |end| &quote[..end]);
            assert!(
                !words.trim().is_empty(),
                "{client}: `{line}` has no quote between `\"`"
            );
        }
    }
    assert!(
        sources > 10,
        "only {sources} quoted sources on the client pages"
    );
}

/// A documented break in a report (`--output-format json`, SARIF) carries its sources' words and
/// the day each was read, beside the URLs, in the same order.
#[test]
fn a_reported_documented_break_carries_its_quotes() {
    use schema_lint::diagnostic::breaks;
    let b = breaks::of("SL701/array-without-items")
        .unwrap_or_default()
        .iter()
        .find(|b| b.evidence.name() == "documented")
        .expect("SL701/array-without-items is documented for openai-strict");
    let json = serde_json::to_value(b.reported(Some("read_files"), false)).expect("serializes");
    let list = |key: &str| json[key].as_array().map_or(0, Vec::len);
    assert_eq!(json["evidence"], "documented");
    assert!(list("source") > 0, "{json}");
    assert_eq!(list("quote"), list("source"), "{json}");
    assert_eq!(list("read"), list("source"), "{json}");
    let detail = json["detail"].as_str().unwrap_or_default();
    assert!(
        json["quote"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|q| q.as_str().is_some_and(|q| q.contains(detail))),
        "{json}"
    );
}
