use super::*;
use crate::syntax::document::parse;

fn index_of(files: &[(&str, &str)]) -> (RunIndex, Vec<Node>) {
    let roots: Vec<Node> = files.iter().map(|(_, t)| parse(t).unwrap()).collect();
    let inputs: Vec<IndexInput<'_>> = files
        .iter()
        .zip(&roots)
        .enumerate()
        .map(|(i, ((name, _), root))| IndexInput {
            file: FileId(i),
            path: Some(Path::new(name)),
            name,
            root,
            kind: FileKind::Schema,
        })
        .collect();
    (RunIndex::build(&inputs, Draft::Draft202012), roots)
}

fn resolve_all(index: &RunIndex, roots: &[Node]) -> Vec<(String, Resolution)> {
    index
        .refs
        .iter()
        .map(|r| (r.raw.to_string(), index.resolve(r, |f| roots.get(f.0))))
        .collect()
}

#[test]
fn resolves_local_cross_file_anchor_and_bad_ids() {
    let (index, roots) = index_of(&[
        (
            "/s/a.json",
            r#"{"$id": "my_tool:output", "properties": {"x": {"$anchor": "ax", "type": "string"}},
                "$defs": {"n": {"$id": "https://example.com/n.json", "$defs": {"m": {}}}}}"#,
        ),
        (
            "/s/b.json",
            r##"{"properties": {
                "a": {"$ref": "my_tool:output#/properties/x"},
                "b": {"$ref": "a.json#ax"},
                "c": {"$ref": "https://example.com/n.json#/$defs/m"},
                "d": {"$ref": "#/properties/a"},
                "e": {"$ref": "https://example.com/other.json"},
                "f": {"$ref": "missing.json"},
                "g": {"$ref": "#/properties/zz"},
                "h": {"$ref": "bad ref"}}}"##,
        ),
    ]);
    let found = |file: usize, pointer: &str| Resolution::Found {
        file: FileId(file),
        pointer: pointer.to_owned(),
    };
    let got = resolve_all(&index, &roots);
    assert_eq!(got[0].1, found(0, "/properties/x"));
    assert_eq!(got[1].1, found(0, "/properties/x"));
    assert_eq!(got[2].1, found(0, "/$defs/n/$defs/m"));
    assert_eq!(got[3].1, found(1, "/properties/a"));
    assert_eq!(
        got[4].1,
        Resolution::Remote("https://example.com/other.json".into())
    );
    assert!(matches!(got[5].1, Resolution::Missing(_)));
    assert!(matches!(got[6].1, Resolution::Missing(_)));
    assert_eq!(got[7].1, Resolution::Invalid);
}

#[test]
fn nested_ids_change_the_base() {
    let (index, roots) = index_of(&[(
        "/s/root.json",
        r##"{"$id": "https://example.com/root.json",
            "$defs": {"inner": {"$id": "dir/inner.json", "$defs": {"x": {}},
                                "properties": {"p": {"$ref": "#/$defs/x"}, "q": {"$ref": "../root.json"}}}}}"##,
    )]);
    let got = resolve_all(&index, &roots);
    assert_eq!(
        got[0].1,
        Resolution::Found {
            file: FileId(0),
            pointer: "/$defs/inner/$defs/x".into()
        }
    );
    assert_eq!(
        got[1].1,
        Resolution::Found {
            file: FileId(0),
            pointer: String::new()
        }
    );
    assert!(index.id_taken("dir/inner.json", Some("https://example.com/dir/inner.json")));
}

#[test]
fn a_file_with_a_root_id_is_also_reachable_by_its_path() {
    let (index, roots) = index_of(&[
        (
            "/s/a.json",
            r#"{"$id": "https://example.com/a.json", "$defs": {"x": {}}}"#,
        ),
        (
            "/s/b.json",
            r#"{"properties": {"p": {"$ref": "a.json#/$defs/x"}, "q": {"$ref": "https://example.com/a.json#/$defs/x"}}}"#,
        ),
    ]);
    let got = resolve_all(&index, &roots);
    let x = Resolution::Found {
        file: FileId(0),
        pointer: "/$defs/x".into(),
    };
    assert_eq!(got[0].1, x);
    assert_eq!(got[1].1, x);
}

#[test]
fn pointers_are_percent_decoded_then_unescaped() {
    let (index, roots) = index_of(&[(
        "/s/p.json",
        r##"{"$defs": {"a/b": {}, "t~n": {}, "c%d": {}, "e f": {}, "": {"": {}}},
            "properties": {
                "a": {"$ref": "#/$defs/a~1b"},
                "b": {"$ref": "#/$defs/t~0n"},
                "c": {"$ref": "#/$defs/c%25d"},
                "d": {"$ref": "#/$defs/e%20f"},
                "e": {"$ref": "#/%24defs/a~1b"},
                "f": {"$ref": "#/$defs//"},
                "g": {"$ref": "#/$defs/a/b"},
                "h": {"$ref": "#/$defs/a%2Fb"},
                "i": {"$ref": "#/properties/a/$ref"}}}"##,
    )]);
    let got = resolve_all(&index, &roots);
    let found = |p: &str| Resolution::Found {
        file: FileId(0),
        pointer: p.to_owned(),
    };
    assert_eq!(got[0].1, found("/$defs/a~1b"));
    assert_eq!(got[1].1, found("/$defs/t~0n"));
    assert_eq!(got[2].1, found("/$defs/c%d"));
    assert_eq!(got[3].1, found("/$defs/e f"));
    assert_eq!(got[4].1, found("/$defs/a~1b"));
    assert_eq!(got[5].1, found("/$defs//"));
    assert!(matches!(got[6].1, Resolution::Missing(_)));
    // `%2F` decodes to a `/`, which then separates tokens (RFC 6901 section 6).
    assert!(matches!(got[7].1, Resolution::Missing(_)));
    // A pointer may name any value, not only a subschema.
    assert_eq!(got[8].1, found("/properties/a/$ref"));
}

#[test]
fn anchors_belong_to_their_resource() {
    let (index, roots) = index_of(&[(
        "/s/an.json",
        r##"{"$id": "https://example.com/root.json",
            "$defs": {
                "a": {"$anchor": "top"},
                "b": {"$id": "inner.json", "$defs": {"c": {"$anchor": "deep"}, "d": {"$dynamicAnchor": "dyn"}}},
                "e": {"$ref": "#top"},
                "f": {"$ref": "#deep"},
                "g": {"$ref": "inner.json#deep"},
                "h": {"$dynamicRef": "inner.json#dyn"}}}"##,
    )]);
    let got = resolve_all(&index, &roots);
    assert_eq!(
        got[0].1,
        Resolution::Found {
            file: FileId(0),
            pointer: "/$defs/a".into()
        }
    );
    assert!(matches!(got[1].1, Resolution::Missing(_)));
    assert_eq!(
        got[2].1,
        Resolution::Found {
            file: FileId(0),
            pointer: "/$defs/b/$defs/c".into()
        }
    );
    assert_eq!(
        got[3].1,
        Resolution::Found {
            file: FileId(0),
            pointer: "/$defs/b/$defs/d".into()
        }
    );
}

#[test]
fn a_plain_name_id_is_an_anchor_in_every_draft() {
    for schema in [
        "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft/2020-12/schema",
    ] {
        let text = format!(
            r##"{{"$schema": "{schema}", "definitions": {{"p": {{"$id": "#point"}}}},
                "properties": {{"a": {{"$ref": "#point"}}}}}}"##
        );
        let (index, roots) = index_of(&[("/s/pn.json", text.as_str())]);
        assert_eq!(
            resolve_all(&index, &roots)[0].1,
            Resolution::Found {
                file: FileId(0),
                pointer: "/definitions/p".into()
            },
            "{schema}"
        );
    }
}

#[test]
fn relative_ids_of_a_tool_schema_resolve_within_it() {
    let text = r#"{"tools": [{"name": "t", "inputSchema": {"type": "object"},
        "outputSchema": {"$id": "./out.json", "$defs": {"k": {"$id": "sub/k.json"}},
            "properties": {"a": {"$ref": "./out.json#/$defs/k"}, "b": {"$ref": "out.json"},
                           "c": {"$ref": "sub/k.json"}, "d": {"$ref": "other.json"}}}}]}"#;
    let root = parse(text).unwrap();
    let inputs = [IndexInput {
        file: FileId(0),
        path: Some(Path::new("/s/tools.json")),
        name: "tools.json",
        root: &root,
        kind: FileKind::ToolsList,
    }];
    let index = RunIndex::build(&inputs, Draft::Draft202012);
    let roots = [root.clone()];
    let got = resolve_all(&index, &roots);
    let out = "/tools/0/outputSchema";
    let found = |p: &str| Resolution::Found {
        file: FileId(0),
        pointer: p.to_owned(),
    };
    assert_eq!(got[0].1, found(&format!("{out}/$defs/k")));
    assert_eq!(got[1].1, found(out));
    assert_eq!(got[2].1, found(&format!("{out}/$defs/k")));
    assert!(matches!(got[3].1, Resolution::Missing(_)));
}
