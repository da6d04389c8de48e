//! Generated JSON Schema documents, for the structured fuzz target (`fuzz/`, which includes this
//! file) and the property tests (`tests/it/properties.rs`, which feed it proptest's bytes). The
//! documents look like real schemas (`$id`, `$ref`, `$defs`, anchors, `properties`, `items`,
//! `tools/list` documents) and draw names from small pools, so that references often land; the
//! identifiers are valid and invalid (`my_tool:out`, fragments, URNs, spaces) so that fixes
//! happen; and each file is written in its own style (indentation, CRLF, BOM, escapes, member
//! order, duplicate keys, numbers beyond `f64`).

#![allow(dead_code, reason = "each user of the generator takes a part of it")]

pub mod check;

use arbitrary::{Result, Unstructured};
use std::fmt::Write as _;

/// A JSON value as it will be written: member order and duplicate keys kept, numbers as text.
#[derive(Clone, Debug)]
pub enum J {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

/// How a file is written.
#[derive(Clone, Debug)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent switches of a writer, each drawn on its own"
)]
pub struct Style {
    /// `None`: all on one line; `Some("  ")`, `Some("\t")`...: one member per line.
    pub indent: Option<&'static str>,
    pub crlf: bool,
    pub bom: bool,
    /// Characters outside ASCII written as `\uXXXX`.
    pub escape_non_ascii: bool,
    pub space_after_colon: bool,
    pub final_newline: bool,
}

impl Style {
    fn arbitrary(u: &mut Unstructured<'_>) -> Result<Self> {
        Ok(Self {
            indent: *u.choose(&[None, Some("  "), Some("    "), Some("\t"), Some(" ")])?,
            crlf: u.ratio(1, 4)?,
            bom: u.ratio(1, 6)?,
            escape_non_ascii: u.ratio(1, 4)?,
            space_after_colon: u.arbitrary()?,
            final_newline: u.arbitrary()?,
        })
    }
}

fn write_str(out: &mut String, s: &str, style: &Style) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if !c.is_ascii() && style.escape_non_ascii => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write_value(out: &mut String, j: &J, style: &Style, depth: usize) {
    let newline = if style.crlf { "\r\n" } else { "\n" };
    let line = |out: &mut String, depth: usize| {
        if let Some(indent) = style.indent {
            out.push_str(newline);
            out.push_str(&indent.repeat(depth));
        }
    };
    match j {
        J::Null => out.push_str("null"),
        J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        J::Num(n) => out.push_str(n),
        J::Str(s) => write_str(out, s, style),
        J::Arr(items) if items.is_empty() => out.push_str("[]"),
        J::Obj(members) if members.is_empty() => out.push_str("{}"),
        J::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    if style.indent.is_none() {
                        out.push(' ');
                    }
                }
                line(out, depth + 1);
                write_value(out, item, style, depth + 1);
            }
            line(out, depth);
            out.push(']');
        }
        J::Obj(members) => {
            out.push('{');
            for (i, (key, value)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    if style.indent.is_none() {
                        out.push(' ');
                    }
                }
                line(out, depth + 1);
                write_str(out, key, style);
                out.push(':');
                if style.space_after_colon {
                    out.push(' ');
                }
                write_value(out, value, style, depth + 1);
            }
            line(out, depth);
            out.push('}');
        }
    }
}

/// `j` as text in `style`.
#[must_use]
pub fn write(j: &J, style: &Style) -> String {
    let mut out = String::new();
    if style.bom {
        out.push('\u{feff}');
    }
    write_value(&mut out, j, style, 0);
    if style.final_newline {
        out.push_str(if style.crlf { "\r\n" } else { "\n" });
    }
    out
}

/// Words for keys, names and URI segments: plain, with characters that need escaping in a JSON
/// pointer or a URI, non-ASCII, and empty.
const WORDS: &[&str] = &[
    "a", "b", "node", "item", "my_tool", "out", "x y", "a/b", "t~1", "%25", "é", "日本", "", "_",
    "A-1",
];

/// File names of a generated run: several folders, so that relative references cross them.
pub const FILES: &[&str] = &["a.json", "b.json", "sub/c.json", "sub/d.schema.json"];

const DIALECTS: &[&str] = &[
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-06/schema#",
    "http://json-schema.org/draft-04/schema#",
    "https://example.com/custom-meta",
];

/// The names a document draws from, so that references meet what they name.
struct Pools {
    words: Vec<String>,
    ids: Vec<String>,
    anchors: Vec<String>,
    def_keys: Vec<String>,
}

fn word(u: &mut Unstructured<'_>) -> Result<String> {
    if u.ratio(1, 12)? {
        let s: String = u.arbitrary()?;
        return Ok(s.chars().take(12).collect());
    }
    Ok((*u.choose(WORDS)?).to_owned())
}

fn pick(u: &mut Unstructured<'_>, pool: &[String]) -> Result<String> {
    if pool.is_empty() {
        word(u)
    } else {
        Ok(u.choose(pool)?.clone())
    }
}

/// A `$id` value: valid (absolute, relative, URN) or not (a scheme with `_`, a fragment, spaces).
fn id(u: &mut Unstructured<'_>) -> Result<String> {
    let w = word(u)?;
    let w2 = word(u)?;
    Ok(match u.int_in_range(0..=9)? {
        0 => format!("https://example.com/{w}.json"),
        1 => format!("{w}.json"),
        2 => format!("urn:{w}:{w2}"),
        3 => format!("my_tool:{w}"),
        4 => format!("{w}_{w2}:output"),
        5 => format!("#{w}"),
        6 => format!("https://example.com/{w}#{w2}"),
        7 => (*u.choose(FILES)?).to_owned(),
        8 => format!("tools/{w} {w2}"),
        _ => u.arbitrary::<String>()?.chars().take(20).collect(),
    })
}

/// A `$ref` value: into the document, to an anchor, to an id or another file, outward, broken.
fn reference(u: &mut Unstructured<'_>, pools: &Pools) -> Result<String> {
    Ok(match u.int_in_range(0..=12)? {
        0 => "#".to_owned(),
        1 => format!("#/$defs/{}", pick(u, &pools.def_keys)?),
        2 => format!("#/definitions/{}", pick(u, &pools.def_keys)?),
        3 => format!("#/properties/{}", pick(u, &pools.words)?),
        4 => format!("#{}", pick(u, &pools.anchors)?),
        5 => pick(u, &pools.ids)?,
        6 => format!(
            "{}#/$defs/{}",
            pick(u, &pools.ids)?,
            pick(u, &pools.def_keys)?
        ),
        7 => format!("{}#", u.choose(FILES)?),
        8 => format!("../{}", u.choose(FILES)?),
        9 => (*u.choose(&[
            "file:///etc/passwd",
            "https://example.com/schema.json",
            "http://169.254.169.254/latest/meta-data",
            "../../outside.json",
        ])?)
        .to_owned(),
        10 => format!("{}#{}", pick(u, &pools.ids)?, pick(u, &pools.anchors)?),
        11 => format!(
            "{}#/{}/{}",
            u.choose(FILES)?,
            u.choose(&["$defs", "definitions"])?,
            pick(u, &pools.def_keys)?
        ),
        _ => u.arbitrary::<String>()?.chars().take(20).collect(),
    })
}

fn number(u: &mut Unstructured<'_>) -> Result<J> {
    Ok(J::Num(
        (*u.choose(&[
            "0",
            "-0",
            "1",
            "2.5",
            "1e400",
            "-1e400",
            "1e-400",
            "123456789012345678901234567890",
            "1E+2",
            "-7",
        ])?)
        .to_owned(),
    ))
}

/// Data (not schema): `const`, `enum`, `default`, `examples`, unknown keywords. It may look like
/// a schema, which the linter must leave alone.
fn data(u: &mut Unstructured<'_>, pools: &Pools, depth: usize) -> Result<J> {
    if depth > 3 {
        return Ok(J::Null);
    }
    Ok(match u.int_in_range(0..=6)? {
        0 => J::Null,
        1 => J::Bool(u.arbitrary()?),
        2 => number(u)?,
        3 => J::Str(word(u)?),
        4 => J::Arr(
            (0..u.int_in_range(0..=2)?)
                .map(|_| data(u, pools, depth + 1))
                .collect::<Result<_>>()?,
        ),
        5 => J::Obj(vec![
            ("$id".to_owned(), J::Str(id(u)?)),
            ("$ref".to_owned(), J::Str(reference(u, pools)?)),
        ]),
        _ => J::Obj(
            (0..u.int_in_range(0..=2)?)
                .map(|_| Ok((word(u)?, data(u, pools, depth + 1)?)))
                .collect::<Result<_>>()?,
        ),
    })
}

fn schemas(u: &mut Unstructured<'_>, pools: &Pools, depth: usize, max: u32) -> Result<Vec<J>> {
    (0..u.int_in_range(1..=max)?)
        .map(|_| schema(u, pools, depth + 1))
        .collect()
}

fn named_schemas(
    u: &mut Unstructured<'_>,
    pools: &Pools,
    depth: usize,
    keys: &[String],
) -> Result<J> {
    let n = u.int_in_range(0..=3)?;
    let mut members = Vec::new();
    for _ in 0..n {
        members.push((pick(u, keys)?, schema(u, pools, depth + 1)?));
    }
    Ok(J::Obj(members))
}

/// One keyword of a schema object, or `None` to stop adding members.
fn keyword(u: &mut Unstructured<'_>, pools: &Pools, depth: usize) -> Result<(String, J)> {
    let k = |s: &str| s.to_owned();
    Ok(match u.int_in_range(0..=27)? {
        0 | 1 => (k("$id"), J::Str(id(u)?)),
        2 => (k("id"), J::Str(id(u)?)),
        3 | 4 => (k("$ref"), J::Str(reference(u, pools)?)),
        5 => (k("$dynamicRef"), J::Str(reference(u, pools)?)),
        6 => (k("$anchor"), J::Str(pick(u, &pools.anchors)?)),
        7 => (k("$dynamicAnchor"), J::Str(pick(u, &pools.anchors)?)),
        8 | 9 => (k("$defs"), named_schemas(u, pools, depth, &pools.def_keys)?),
        10 => (
            k("definitions"),
            named_schemas(u, pools, depth, &pools.def_keys)?,
        ),
        11 | 12 => (
            k("properties"),
            named_schemas(u, pools, depth, &pools.words)?,
        ),
        13 => (k("items"), schema(u, pools, depth + 1)?),
        14 => (k("items"), J::Arr(schemas(u, pools, depth, 2)?)),
        15 => (k("prefixItems"), J::Arr(schemas(u, pools, depth, 2)?)),
        16 => (
            k(u.choose(&["allOf", "anyOf", "oneOf"])?),
            J::Arr(schemas(u, pools, depth, 3)?),
        ),
        17 => (
            k(u.choose(&[
                "not",
                "if",
                "then",
                "else",
                "additionalProperties",
                "contains",
            ])?),
            schema(u, pools, depth + 1)?,
        ),
        18 | 19 => (
            k("type"),
            match u.int_in_range(0..=4)? {
                0 => J::Str(k("object")),
                1 => J::Str(k("string")),
                2 => J::Arr(vec![J::Str(k("string")), J::Str(k("null"))]),
                3 => J::Num(k("5")),
                _ => J::Str(k(
                    u.choose(&["array", "integer", "number", "boolean", "null"])?
                )),
            },
        ),
        20 => (
            k("required"),
            J::Arr(
                (0..u.int_in_range(0..=2)?)
                    .map(|_| Ok(J::Str(pick(u, &pools.words)?)))
                    .collect::<Result<_>>()?,
            ),
        ),
        21 => (
            k(u.choose(&["const", "default", "x-data"])?),
            data(u, pools, 0)?,
        ),
        22 => (
            k(u.choose(&["enum", "examples"])?),
            J::Arr(vec![data(u, pools, 0)?]),
        ),
        23 => (
            k(u.choose(&["minimum", "maximum", "multipleOf", "minLength"])?),
            number(u)?,
        ),
        24 => (
            k("x-schema-lint-ignore"),
            J::Str(k(u.choose(&["SL201", "invalid-id-uri", "SL3", "SL5"])?)),
        ),
        25 => (k("$schema"), J::Str(k(u.choose(DIALECTS)?))),
        26 => (k("additionalProperties"), J::Bool(u.arbitrary()?)),
        _ => (k("format"), J::Str(k("uri"))),
    })
}

/// A schema: an object of keywords, or now and then a boolean.
fn schema(u: &mut Unstructured<'_>, pools: &Pools, depth: usize) -> Result<J> {
    if u.ratio(1, 12)? {
        return Ok(J::Bool(u.arbitrary()?));
    }
    let max = if depth > 5 { 1 } else { 6 };
    let n = u.int_in_range(0..=max)?;
    let mut members = Vec::with_capacity(n);
    for _ in 0..n {
        if depth > 6 {
            members.push((
                "type".to_owned(),
                J::Str((*u.choose(&["string", "object"])?).to_owned()),
            ));
        } else {
            members.push(keyword(u, pools, depth)?);
        }
    }
    // Now and then a key twice (the last wins, SL101 reports it).
    if !members.is_empty() && u.ratio(1, 16)? {
        let i = u.choose_index(members.len())?;
        let again = members[i].clone();
        members.push(again);
    }
    Ok(J::Obj(members))
}

/// A root: a schema (with a `$schema` now and then), or a `tools/list` document.
fn root(u: &mut Unstructured<'_>, pools: &Pools) -> Result<J> {
    if u.ratio(1, 4)? {
        let tools = (0..u.int_in_range(1..=2)?)
            .map(|_| {
                let mut tool = vec![("name".to_owned(), J::Str(word(u)?))];
                tool.push(("inputSchema".to_owned(), schema(u, pools, 1)?));
                if u.ratio(3, 4)? {
                    tool.push(("outputSchema".to_owned(), schema(u, pools, 1)?));
                }
                Ok(J::Obj(tool))
            })
            .collect::<Result<Vec<_>>>()?;
        let list = J::Obj(vec![("tools".to_owned(), J::Arr(tools))]);
        return Ok(if u.arbitrary()? {
            J::Obj(vec![
                ("jsonrpc".to_owned(), J::Str("2.0".to_owned())),
                ("id".to_owned(), J::Num("1".to_owned())),
                ("result".to_owned(), list),
            ])
        } else {
            list
        });
    }
    let mut s = schema(u, pools, 0)?;
    if let J::Obj(members) = &mut s {
        if u.ratio(1, 3)? {
            members.insert(
                0,
                (
                    "$schema".to_owned(),
                    J::Str((*u.choose(DIALECTS)?).to_owned()),
                ),
            );
        }
        if u.ratio(1, 2)? {
            members.insert(0, ("$id".to_owned(), J::Str(id(u)?)));
        }
    }
    Ok(s)
}

/// A generated run: files (name, text) and the settings to lint them with.
#[derive(Clone, Debug)]
pub struct Generated {
    pub files: Vec<(String, String)>,
    /// 0: 2020-12 (the default), 1: draft-07, 2: draft-04, 3: 2019-09.
    pub default_draft: u8,
    pub fix_id_defs: bool,
    /// 0: by file kind, 1: `mcp-2025-06-18`, 2: `mcp-2026-07-28`, 3: `json-schema`.
    pub target: u8,
    pub unsafe_fixes: bool,
}

/// Builds a run from unstructured bytes (fuzzer or proptest).
///
/// # Errors
/// When the bytes run out before anything was built.
pub fn generated(u: &mut Unstructured<'_>) -> Result<Generated> {
    let mut pools = Pools {
        words: Vec::new(),
        ids: Vec::new(),
        anchors: Vec::new(),
        def_keys: Vec::new(),
    };
    for _ in 0..u.int_in_range(1..=4)? {
        pools.words.push(word(u)?);
        pools.def_keys.push(word(u)?);
        pools.anchors.push(word(u)?);
        pools.ids.push(id(u)?);
    }
    let n = u.int_in_range(1..=FILES.len())?;
    let mut files = Vec::with_capacity(n);
    for name in &FILES[..n] {
        let style = Style::arbitrary(u)?;
        files.push(((*name).to_owned(), write(&root(u, &pools)?, &style)));
    }
    Ok(Generated {
        files,
        default_draft: u.int_in_range(0..=3)?,
        fix_id_defs: u.ratio(1, 3)?,
        target: u.int_in_range(0..=3)?,
        unsafe_fixes: u.arbitrary()?,
    })
}
