//! SL508 format-asserted-by-ts-clients: a `format` of an output schema that the MCP clients
//! treat differently. The TypeScript clients assert `format` (Ajv with ajv-formats) and the
//! Python client does not, so a `date-time` or `time` value without an offset, which Pydantic
//! sends for a naive `datetime`, passes the server's own tests and fails every TypeScript client;
//! so does a `uri`, `email`, `duration`, ... whose value ajv-formats refuses and the generator
//! lets through (`https://example.com/a|b` from Pydantic's `HttpUrl`, `sl508_values`), a warning
//! then; a format ajv-formats does not know (`uint32`, which schemars writes) is checked by no client
//! and makes Ajv log a warning each time it compiles the schema.

use super::shape as mcp;
use super::sl508_values as values;
use crate::diagnostic::breaks::classes;
use crate::diagnostic::meta::SL508 as META;
use crate::diagnostic::{Diagnostic, Severity};
use crate::rules::analysis::generator::Generator;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::syntax::document::Node;

pub struct FormatAssertedByTsClients;

/// Every format ajv-formats 3.0.1 registers (its `formatNames`), as the TS SDK clients add them
/// with `addFormats(ajv)`: the engine tier's case `sl508-ajv-known-formats` compiles a schema
/// with each, and Ajv logs no warning for any.
pub const AJV_FORMATS: [&str; 26] = [
    "date",
    "time",
    "date-time",
    "iso-time",
    "iso-date-time",
    "duration",
    "uri",
    "uri-reference",
    "uri-template",
    "url",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "regex",
    "uuid",
    "json-pointer",
    "json-pointer-uri-fragment",
    "relative-json-pointer",
    "byte",
    "int32",
    "int64",
    "float",
    "double",
    "password",
    "binary",
];

impl Rule for FormatAssertedByTsClients {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        // Most output schemas have no `format`: the tree and the generator are only worked out
        // for those that do.
        if !cx.subschemas.iter().any(|s| s.node.get("format").is_some()) {
            return;
        }
        let tree = cx.tree();
        let made_by = cx.generator();
        for (i, sub) in cx.subschemas.iter().enumerate() {
            let Some(member) = sub
                .node
                .as_object()
                .and_then(|m| m.iter().rev().find(|m| m.key == "format"))
            else {
                continue;
            };
            let Some(format) = member.value.as_str() else {
                continue;
            };
            // Under `not` a format that fails makes the output pass: no client rejects it there.
            if tree.keywords_above(i).any(|k| k == "not") {
                continue;
            }
            let pointer = format!("{}/format", sub.pointer);
            let legacy = matches!(sub.draft, Draft::Draft4 | Draft::Draft6 | Draft::Draft7);
            let diagnostic = match format {
                "date-time" | "time" if may_be_string(sub.node) => {
                    let class = match (format, legacy) {
                        ("date-time", false) => classes::SL508_NAIVE_DATE_TIME,
                        ("date-time", true) => classes::SL508_NAIVE_DATE_TIME_DRAFT7,
                        (_, false) => classes::SL508_NAIVE_TIME,
                        (_, true) => classes::SL508_NAIVE_TIME_DRAFT7,
                    };
                    let example = if format == "time" {
                        "09:30:00"
                    } else {
                        "2026-12-01T11:00:00"
                    };
                    // The schema's own `pattern`, `const` or `enum` already refuses the naive
                    // value (zod's `z.iso.datetime()` writes a `pattern` that requires `Z`):
                    // every client rejects it alike, and no valid output is at stake.
                    if excludes(sub.node, example) {
                        continue;
                    }
                    let naive = cx.report(member.value.span,
                        format!(
                            "`\"format\": \"{format}\"` is asserted by the TypeScript clients, which reject a \
                             value without an offset (`{example}`)"
                        ),
                    )
                    .label("values need an offset (`Z`, `+01:00`)")
                    .help(with_marker(&naive_help(format, made_by), made_by))
                    .note(naive_note(format, example, made_by))
                    .class(class)
                    .depends_on_output();
                    // Whether the values carry an offset is not in the schema: no change to it
                    // clears the finding (Pydantic's `AwareDatetime` writes the same schema), so
                    // it is advice; `schema-lint audit` sees the values and reports a naive one
                    // as an SL605 error.
                    naive.severity(Severity::Info)
                }
                f if may_be_string(sub.node) && values::asserted(f).is_some() => {
                    let Some(finding) = rejected_value(cx, sub.node, member.value.span, f, legacy, made_by)
                    else {
                        continue;
                    };
                    finding
                }
                f if !AJV_FORMATS.contains(&f) => cx.report(member.value.span,
                    format!(
                        "Ajv does not know `\"format\": \"{f}\"`: the TypeScript clients check nothing for it \
                         and log a warning each time they compile the schema"
                    ),
                )
                .severity(Severity::Info)
                .label("not an ajv-formats format")
                .help(unknown_help(f, made_by))
                .note(format!(
                    "The TS SDK clients build Ajv with `strict: false` and ajv-formats, which knows {} formats; \
                     for any other Ajv logs `unknown format \"{f}\" ignored in schema at path \"#{}\"` through \
                     `console.warn` (twice) at every compile and validates nothing. No client rejects output for it",
                    AJV_FORMATS.len(),
                    ajv_path(&sub.pointer, &cx.unit.pointer),
                ))
                .class(classes::SL508_UNKNOWN_FORMAT),
                _ => continue,
            };
            out.push(diagnostic.pointer(pointer));
        }
    }
}

/// A finding on a format whose values the TS clients check (`uri`, `email`, `duration`, ...),
/// naming a value they reject that the schema lets through: a warning where the detected
/// generator lets such a value through to the wire, info otherwise. `None` where the schema's
/// own `pattern`, `const` or `enum` refuses every such value already.
fn rejected_value(
    cx: &UnitContext<'_>,
    node: &Node,
    span: crate::syntax::source::Span,
    format: &str,
    legacy: bool,
    made_by: Option<Generator>,
) -> Option<Diagnostic> {
    let asserted = values::asserted(format)?;
    let class = if legacy {
        asserted.class_draft7
    } else {
        asserted.class
    };
    // The class's measured break names its first value (`rejected[0]`): where the schema's own
    // `pattern`, `const` or `enum` refuses it (zod writes a `pattern` for `z.email()`,
    // `z.uuid()`, `z.iso.date()`), no client rejects valid output on that claim, and nothing is
    // reported.
    if excludes(node, asserted.rejected.first()?) {
        return None;
    }
    let sent = values::lets_through(made_by, format).and_then(|l| {
        let value = l.values.iter().copied().find(|v| !excludes(node, v))?;
        Some((l, value))
    });
    let why = format!(
        "ajv-formats 3.0.1 (`addFormats(ajv)`, as the TS SDK clients call it) checks every \
         `{format}` in the output: {}. JSON Schema 2020-12 makes `format` an annotation, and the \
         Python client does not check it",
        asserted.allows
    );
    let after = "A schema does not show which values the server sends, and no change to it clears \
         this; `schema-lint audit` checks the values a server really sends (SL605)";
    let finding = if let Some((lets, value)) = sent {
        let generator = values::name(lets.generator);
        cx.report(
            span,
            format!(
                "`\"format\": \"{format}\"` is asserted by the TypeScript clients, which reject \
                 `{value}`, a value {generator} lets through"
            ),
        )
        .severity(Severity::Warning)
        .label(format!(
            "{generator} can send a value here that the TypeScript clients reject"
        ))
        .help(with_marker(lets.help, made_by))
        .note(format!(
            "{}: the server sends `{value}`, passes its own tests and the Python client, and the \
             call fails in every TypeScript client. {why}. {after}",
            lets.how
        ))
    } else {
        let value = asserted.rejected[0];
        let generator = match made_by.and_then(|g| values::safe(g, format)) {
            Some(safe) => format!("{safe}. "),
            None => String::new(),
        };
        cx.report(
            span,
            format!(
                "`\"format\": \"{format}\"` is asserted by the TypeScript clients, which reject \
                 a value such as `{value}`"
            ),
        )
        .severity(Severity::Info)
        .label("the TypeScript clients check this format")
        .help(with_marker(
            "Make sure the server sends only values the TypeScript clients accept in this field; \
             if it does, silence this finding here with `x-schema-lint-ignore`",
            made_by,
        ))
        .note(format!("{why}. {generator}{after}"))
    };
    Some(finding.class(class).depends_on_output())
}

/// A help, then how to mark the field from the generator's code: a schema that no change clears
/// (the values decide) is silenced on the field, which the author writes through the generator.
fn with_marker(help: &str, made_by: Option<Generator>) -> String {
    format!(
        "{help}. {}",
        crate::rules::analysis::generator::ignore_marker(
            made_by,
            "SL508",
            "once the server sends only values they accept",
        )
    )
}

/// Whether the schema's `type` lets a string through (`format` checks only strings).
fn may_be_string(node: &Node) -> bool {
    mcp::type_names(node).is_none_or(|t| t.contains(&"string"))
}

/// Ajv's `errSchemaPath` of a subschema: its pointer below the unit's root.
fn ajv_path<'p>(pointer: &'p str, unit: &str) -> &'p str {
    pointer.strip_prefix(unit).unwrap_or(pointer)
}

/// Whether the schema's own `pattern`, `const` or `enum` refuses `value`, as the jsonschema
/// crate reads them (a `pattern` it cannot compile refuses nothing here).
fn excludes(node: &Node, value: &str) -> bool {
    let Some(members) = node.as_object() else {
        return false;
    };
    let mut own = serde_json::Map::new();
    for m in members {
        if matches!(m.key.as_str(), "pattern" | "const" | "enum") {
            own.insert(m.key.to_string(), m.value.to_value());
        }
    }
    if own.is_empty() {
        return false;
    }
    jsonschema::validator_for(&serde_json::Value::Object(own))
        .is_ok_and(|v| !v.is_valid(&serde_json::Value::String(value.to_owned())))
}

/// Why the TypeScript clients reject a naive value, with what the detected generator does.
fn naive_note(format: &str, example: &str, made_by: Option<Generator>) -> String {
    let why = format!(
        "RFC 3339 requires an offset in a `{format}`, and Ajv with ajv-formats (3.0.1, \
         `addFormats(ajv)` as the TS SDK clients call it) checks it; JSON Schema 2020-12 makes \
         `format` an annotation, and the Python client does not check it."
    );
    let field = if format == "time" { "time" } else { "datetime" };
    let generator = match made_by {
        Some(Generator::Pydantic) => format!(
            " Pydantic writes `\"format\": \"{format}\"` for a `{field}` field and serialises a naive \
             value without an offset (`{example}`): the server passes its own tests and every call fails \
             in a TypeScript client."
        ),
        None => format!(
            " Pydantic, for one, writes `\"format\": \"{format}\"` for a `{field}` field and serialises \
             a naive value without an offset (`{example}`): such a server passes its own tests and every \
             call fails in a TypeScript client."
        ),
        Some(Generator::Zod) => format!(
            " zod checks the string in the server before it is sent, so a `{format}` without an offset \
             fails there first unless the schema allows one (`local: true`)."
        ),
        Some(Generator::Schemars) => " chrono serialises a `DateTime<Utc>` with an offset and a \
             `NaiveDateTime` without one; the schema is the same for both."
            .to_owned(),
    };
    format!(
        "{why}{generator} A schema does not show whether the values carry an offset, so this is \
         advice (info); `schema-lint audit` checks the values a server really sends (SL605)"
    )
}

fn naive_help(format: &str, made_by: Option<Generator>) -> String {
    match (made_by, format) {
        (Some(Generator::Pydantic), "time") => {
            "Pydantic writes this for a `time` field: return times with a `tzinfo` \
             (`time(9, 30, tzinfo=timezone.utc)`, serialised `09:30:00Z`), or declare the field as a `str` \
             you format with an offset"
                .to_owned()
        }
        (Some(Generator::Pydantic), _) => {
            "Pydantic writes this for a `datetime` field: declare it as `pydantic.AwareDatetime` and return \
             timezone-aware values (`datetime.now(timezone.utc)`, serialised `2026-12-01T11:00:00Z`), so that \
             a naive one fails in the server instead of in every TypeScript client. The schema stays the \
             same, and so does this info: silence it on the field with `x-schema-lint-ignore` once the \
             values carry an offset, and let `schema-lint audit` check what the server sends"
                .to_owned()
        }
        (Some(Generator::Zod), _) => format!(
            "zod wrote this schema, and its checks run in the server: keep the string's `{format}` check \
             without `local: true` (`z.iso.datetime()` accepts only `Z`, `z.iso.datetime({{ offset: true }})` \
             also `+01:00`) and the server cannot send a naive value"
        ),
        (Some(Generator::Schemars), _) => {
            "schemars wrote this schema: keep a `chrono::DateTime<Utc>` (or `DateTime<FixedOffset>`) for the \
             field, which serialises with an offset, rather than a `NaiveDateTime`"
                .to_owned()
        }
        (None, _) => format!(
            "Make the server put an offset (`Z` or `+01:00`) in every `{format}` it sends in this field; if it \
             already does, silence this finding here with `x-schema-lint-ignore`"
        ),
    }
}

fn unknown_help(format: &str, made_by: Option<Generator>) -> String {
    match made_by {
        Some(Generator::Schemars) if crate::rules::analysis::generator::SCHEMARS_FORMATS.contains(&format) => format!(
            "schemars writes `{format}` for a Rust number type: every client still checks the `type` (and \
             the `minimum: 0` written for an unsigned one), only the type's range is unchecked. Remove these \
             formats with a transform in the schema settings (schemars 1.x `SchemaSettings::with_transform`) \
             and write the range as `minimum`/`maximum`, or leave them and accept Ajv's warning"
        ),
        _ => format!(
            "Remove `\"format\": \"{format}\"`, or say what it means with keywords every client checks \
             (`minimum`/`maximum`, `pattern`), or use one of the formats ajv-formats knows"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine tier's record of a case.
    fn observed(case: &str) -> serde_json::Value {
        let all: serde_json::Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/engines/observed.json"
        )))
        .unwrap();
        all[case].clone()
    }

    #[test]
    fn ajv_knows_exactly_the_formats_listed() {
        let case: serde_json::Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/engines/cases/sl508-ajv-known-formats.json"
        )))
        .unwrap();
        let mut in_case: Vec<&str> = case["schema"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut listed = AJV_FORMATS.to_vec();
        listed.sort_unstable();
        in_case.sort_unstable();
        assert_eq!(listed, in_case);
        let row = observed("sl508-ajv-known-formats");
        for client in ["ts-sdk-v1", "ts-sdk-v2"] {
            assert_eq!(row[client]["compile"], "ok");
            assert!(row[client].get("warnings").is_none(), "{}", row[client]);
        }
    }

    #[test]
    fn the_note_quotes_the_warning_ajv_logs() {
        // What Ajv logged on the case, and what the note says it logs, for each unknown format.
        let row = observed("sl508-unknown-format");
        for client in ["ts-sdk-v1", "ts-sdk-v2"] {
            let warnings: Vec<&str> = row[client]["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(serde_json::Value::as_str)
                .collect();
            for (format, path) in [
                ("uint32", "/properties/count"),
                ("uint8", "/properties/level"),
            ] {
                let said = format!(
                    "unknown format \"{format}\" ignored in schema at path \"#{}\"",
                    ajv_path(path, "")
                );
                assert!(warnings.contains(&said.as_str()), "{client}: {warnings:?}");
            }
            // Ajv 8.18 logs each one twice per compile.
            assert_eq!(warnings.len(), 4, "{client}: {warnings:?}");
        }
        assert_eq!(
            ajv_path(
                "/tools/0/outputSchema/properties/n",
                "/tools/0/outputSchema"
            ),
            "/properties/n"
        );
    }
}
