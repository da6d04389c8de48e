//! The two ways MCP clients treat `format` when they validate `structuredContent`, as validators
//! of the `jsonschema` crate:
//!
//! - [`python_client`]: `format` is an annotation. The Python client calls `jsonschema.validate`
//!   without a format checker; JSON Schema 2020-12 means the same. The audit's verdict (`valid`)
//!   is this one, whatever the draft (the crate alone would assert formats in draft-04 to 07).
//! - [`ts_clients`]: `format` asserted as Ajv with ajv-formats 3.0.1 (`addFormats(ajv)`, "full"
//!   mode) asserts it in the TS SDK clients, for the formats whose checks are reproduced, byte
//!   for byte from ajv-formats: `date`, `time`, `date-time`, `iso-time`, `iso-date-time` here,
//!   `uri`, `uri-reference`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid` and `duration` in
//!   [`super::ajv_formats`]. Every other format (`regex`, `uri-template`, `json-pointer`, ...) is
//!   left unchecked, so that a difference between the crate's checks and ajv-formats' is never
//!   reported as a client's verdict.
//!
//! The engine tier measures where the reproduction and Ajv agree (`sl508-format-values`, checked
//! by the tests below); the crate's own `date-time` differs from ajv-formats on a space between
//! date and time, offsets without a colon (`+0100`, `+01`) and leap seconds, which is why it is
//! not used.

use super::ajv_formats;

/// A validator of `schema` with `format` as an annotation, as the Python client validates.
///
/// # Errors
/// The crate's error, in words, when the schema does not compile.
pub fn python_client(schema: &serde_json::Value) -> Result<jsonschema::Validator, String> {
    jsonschema::options()
        .should_validate_formats(false)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// The formats the crate checks on its own, which [`ts_clients`] replaces: with the
/// reproduction of ajv-formats, or with no check.
const BUILTIN: [&str; 19] = [
    "date",
    "date-time",
    "duration",
    "email",
    "hostname",
    "idn-email",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "iri",
    "iri-reference",
    "json-pointer",
    "regex",
    "relative-json-pointer",
    "time",
    "uri",
    "uri-reference",
    "uri-template",
    "uuid",
];

/// The formats whose ajv-formats checks [`ts_clients`] reproduces: the date and time formats
/// here, the others in [`super::ajv_formats`].
pub const REPRODUCED: [&str; 14] = [
    "date",
    "time",
    "date-time",
    "iso-time",
    "iso-date-time",
    "uri",
    "uri-reference",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
    "duration",
    "regex",
];

/// A validator of `schema` with the [`REPRODUCED`] formats asserted as the TS SDK clients
/// assert them (see the module doc); other formats unchecked.
///
/// # Errors
/// The crate's error, in words, when the schema does not compile.
pub fn ts_clients(schema: &serde_json::Value) -> Result<jsonschema::Validator, String> {
    let mut options = jsonschema::options()
        .should_validate_formats(true)
        .should_ignore_unknown_formats(true);
    for name in BUILTIN {
        options = options.with_format(name, |_: &str| true);
    }
    options
        .with_format("date", date)
        .with_format("time", |s: &str| time(s, true))
        .with_format("date-time", |s: &str| date_time(s, true))
        .with_format("iso-time", |s: &str| time(s, false))
        .with_format("iso-date-time", |s: &str| date_time(s, false))
        .with_format("uri", ajv_formats::uri)
        .with_format("uri-reference", ajv_formats::uri_reference)
        .with_format("email", ajv_formats::email)
        .with_format("hostname", ajv_formats::hostname)
        .with_format("ipv4", ajv_formats::ipv4)
        .with_format("ipv6", ajv_formats::ipv6)
        .with_format("uuid", ajv_formats::uuid)
        .with_format("duration", ajv_formats::duration)
        .with_format("regex", ajv_formats::regex)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// `n` ASCII digits at the start of `s`, as a number, and the rest.
fn digits(s: &str, n: usize) -> Option<(u32, &str)> {
    let head = s.get(..n)?;
    if !head.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((head.parse().ok()?, &s[n..]))
}

/// ajv-formats' `date`: `/^(\d\d\d\d)-(\d\d)-(\d\d)$/` and a day that exists.
fn date(s: &str) -> bool {
    let parsed = (|| {
        let (year, rest) = digits(s, 4)?;
        let (month, rest) = digits(rest.strip_prefix('-')?, 2)?;
        let (day, rest) = digits(rest.strip_prefix('-')?, 2)?;
        rest.is_empty().then_some((year, month, day))
    })();
    let Some((year, month, day)) = parsed else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// ajv-formats' `time` (`strict`: an offset is required, as in `time`; `iso-time` without):
/// `/^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i`, hours to 23, minutes
/// to 59, seconds below 60 but for a leap second at 23:59 UTC.
fn time(s: &str, strict: bool) -> bool {
    let parsed = (|| {
        let (hr, rest) = digits(s, 2)?;
        let (min, rest) = digits(rest.strip_prefix(':')?, 2)?;
        let (whole, mut rest) = digits(rest.strip_prefix(':')?, 2)?;
        let mut sec = f64::from(whole);
        if let Some(after) = rest.strip_prefix('.') {
            let n = after.bytes().take_while(u8::is_ascii_digit).count();
            if n == 0 {
                return None;
            }
            sec = format!("{whole}.{}", &after[..n]).parse().ok()?;
            rest = &after[n..];
        }
        // The offset: none, `z`, or a sign, two digits, then an optional `:` and two digits.
        let offset = if rest.is_empty() {
            None
        } else if rest.eq_ignore_ascii_case("z") {
            Some((1, 0, 0))
        } else {
            let sign = match rest.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let (h, rest) = digits(&rest[1..], 2)?;
            let rest = rest.strip_prefix(':').unwrap_or(rest);
            let m = if rest.is_empty() {
                0
            } else {
                let (m, rest) = digits(rest, 2)?;
                if !rest.is_empty() {
                    return None;
                }
                m
            };
            // `+01:` (a colon with no minutes) does not match the regular expression.
            if m == 0 && s.ends_with(':') {
                return None;
            }
            Some((sign, h, m))
        };
        Some((hr, min, sec, offset))
    })();
    let Some((hr, min, sec, offset)) = parsed else {
        return false;
    };
    let (sign, tz_h, tz_m) = offset.unwrap_or((1, 0, 0));
    if tz_h > 23 || tz_m > 59 || (strict && offset.is_none()) {
        return false;
    }
    if hr <= 23 && min <= 59 && sec < 60.0 {
        return true;
    }
    // A leap second: 23:59:60 in UTC.
    let (hr, min, tz_h, tz_m) = (
        i64::from(hr),
        i64::from(min),
        i64::from(tz_h),
        i64::from(tz_m),
    );
    let utc_min = min - tz_m * sign;
    let utc_hr = hr - tz_h * sign - i64::from(utc_min < 0);
    (utc_hr == 23 || utc_hr == -1) && (utc_min == 59 || utc_min == -1) && sec < 61.0
}

/// ajv-formats' `date-time`: the string split at every `t`, `T` or whitespace character must
/// give exactly a `date` and a `time`.
fn date_time(s: &str, strict: bool) -> bool {
    let parts: Vec<&str> = s
        .split(|c: char| c == 't' || c == 'T' || is_js_space(c))
        .collect();
    parts.len() == 2 && date(parts[0]) && time(parts[1], strict)
}

/// JavaScript's `\s`: Unicode's white space (`char::is_whitespace`) but U+0085, plus U+FEFF.
fn is_js_space(c: char) -> bool {
    c == '\u{feff}' || (c.is_whitespace() && c != '\u{85}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn engine_tier(path: &str) -> Value {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("testdata/engines")
                .join(path),
        )
        .unwrap();
        serde_json::from_str(&text).unwrap()
    }

    /// Every instance of the engine tier's SL508 cases gets, from [`ts_clients`], the verdict
    /// Ajv gave it in both TS clients, and from [`python_client`] the Python client's.
    #[test]
    fn agrees_with_the_engines_on_every_measured_value() {
        let observed = engine_tier("observed.json");
        let mut checked = 0;
        for name in [
            "sl508-format-values",
            "sl508-naive-date-time",
            "sl508-naive-date-time-draft7",
            "sl508-naive-time",
            "sl508-naive-time-draft7",
            "sl508-uri",
            "sl508-uri-draft7",
            "sl508-uri-reference",
            "sl508-uri-reference-draft7",
            "sl508-email",
            "sl508-email-draft7",
            "sl508-hostname",
            "sl508-hostname-draft7",
            "sl508-ipv4",
            "sl508-ipv4-draft7",
            "sl508-ipv6",
            "sl508-ipv6-draft7",
            "sl508-uuid",
            "sl508-uuid-draft7",
            "sl508-date",
            "sl508-date-draft7",
            "sl508-duration",
            "sl508-duration-draft7",
            "sl508-regex",
            "sl508-regex-draft7",
        ] {
            let case = engine_tier(&format!("cases/{name}.json"));
            let (ts, py) = (
                ts_clients(&case["schema"]).unwrap(),
                python_client(&case["schema"]).unwrap(),
            );
            for (n, instance) in case["instances"].as_array().unwrap().iter().enumerate() {
                let verdict = |v: bool| json!(if v { "valid" } else { "invalid" });
                for client in ["ts-sdk-v1", "ts-sdk-v2"] {
                    assert_eq!(
                        verdict(ts.is_valid(&instance["data"])),
                        observed[name][client]["instances"][n],
                        "{name} {client} {}",
                        instance["data"]
                    );
                }
                assert_eq!(
                    verdict(py.is_valid(&instance["data"])),
                    observed[name]["python-sdk"]["instances"][n],
                    "{name} python-sdk {}",
                    instance["data"]
                );
                checked += 1;
            }
        }
        assert!(checked > 200, "only {checked} values");
    }

    #[test]
    fn where_the_crate_and_ajv_differ() {
        // Measured in `sl508-format-values` (draft-07, where the crate asserts formats): Ajv
        // accepts these, the crate's own `date-time` does not.
        let observed = engine_tier("observed.json");
        let case = engine_tier("cases/sl508-format-values.json");
        let differ: Vec<String> = case["instances"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .filter(|(n, _)| {
                let row = &observed["sl508-format-values"];
                row["ts-sdk-v1"]["instances"][n] != row["jsonschema-rs"]["instances"][n]
            })
            .map(|(_, i)| i["data"].to_string())
            .collect();
        assert!(
            differ.iter().any(|d| d.contains("2026-12-01 11:00:00Z")),
            "{differ:?}"
        );
        assert!(!differ.iter().any(|d| d.contains("\"2026-12-01T11:00:00\"")));
    }

    #[test]
    fn reproduces_ajv_formats() {
        assert!(date("2028-02-29") && !date("2026-02-29") && !date("2026-12-1"));
        assert!(time("09:30:00Z", true) && !time("09:30:00", true) && time("09:30:00", false));
        assert!(time("09:30:00.25+01:00", true) && time("09:30:00+0100", true));
        assert!(time("09:30:00+01", true) && !time("09:30:00+01:", true));
        assert!(
            time("23:59:60Z", true)
                && time("23:59:60+01:00", false) == time("23:59:60+01:00", true)
        );
        assert!(date_time("2026-12-01 11:00:00Z", true) && !date_time("2026-12-01T11:00:00", true));
        assert!(!date_time("2026-12-01T11:00:00Z\n", true));
        assert!(date_time("2026-12-01\u{feff}11:00:00Z", true));
        assert!(!date_time("2026-12-01\u{85}11:00:00Z", true));
    }

    /// A finding's code, pointer and format.
    type Field<'a> = (&'a str, Option<&'a str>, Option<&'a str>);

    #[test]
    fn a_format_only_the_typescript_clients_assert_is_reported_by_field() {
        // The Python SDK's schema for a model with a `datetime` (Pydantic), and the same as the
        // TS v1 server stamps it (draft-07, where the crate alone would assert formats).
        let pydantic = r#"{"type":"object","properties":{"at":{"format":"date-time","title":"At","type":"string"},"slots":{"type":"array","items":{"type":"string","format":"time"}}},"required":["at"],"title":"Forecast"}"#;
        let draft7 = r#"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"at":{"type":"string","format":"date-time"},"slots":{"type":"array","items":{"type":"string","format":"time"}}},"required":["at"]}"#;
        for schema in [pydantic, draft7] {
            let capture = format!(
                "{}{schema}{}",
                r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":"#,
                r#"}]}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"at":"2026-12-01T11:00:00","slots":["09:30:00Z","10:00:00"]}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":{"at":"2026-12-01T11:00:00Z","slots":["09:30:00+01:00"]}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":4,"result":{"content":[],"structuredContent":{"at":7}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":5,"result":{"content":[],"structuredContent":{"at":"2026-12-01 11:00:00+0100"}}}
"#
            );
            let options = super::super::Options {
                protocol: Some("2025-11-25".to_owned()),
                ..super::super::Options::default()
            };
            let audit = super::super::audit(&capture, &options);
            // The verdict is the Python client's: `format` is not asserted, whatever the draft.
            let verdicts: Vec<(Value, Option<bool>)> = audit
                .calls
                .iter()
                .map(|c| (c.id.clone(), c.valid))
                .collect();
            assert_eq!(
                verdicts,
                [
                    (json!(2), Some(true)),
                    (json!(3), Some(true)),
                    (json!(4), Some(false)),
                    (json!(5), Some(true)),
                ],
                "{schema}"
            );
            let found: Vec<Vec<Field>> = audit
                .calls
                .iter()
                .map(|c| {
                    c.findings
                        .iter()
                        .map(|f| (f.rule.code, f.pointer.as_deref(), f.format.as_deref()))
                        .collect()
                })
                .collect();
            // Call 5: a space and `+0100` are a `date-time` for ajv-formats (not for the crate's own
            // check, which the audit does not use for the TS clients).
            assert_eq!(
                found,
                [
                    vec![
                        ("SL605", Some("/at"), Some("date-time")),
                        ("SL605", Some("/slots/1"), Some("time"))
                    ],
                    vec![],
                    vec![],
                    vec![],
                ],
                "{schema}"
            );
            assert!(audit.calls[0].fails(false) && !audit.calls[1].fails(false));
            assert!(audit.calls[0].findings[0]
                .message
                .starts_with("`/at` is \"2026-12-01T11:00:00\", not a `date-time`"));
        }
    }

    #[test]
    fn a_format_is_found_through_any_of_one_of_all_of_and_ref() {
        // Each schema puts `format: date-time` on `/at` another way: Pydantic's
        // `Optional[datetime]` (`anyOf` with null), a `oneOf`, an `allOf`, a `$ref` into `$defs`,
        // and the `Optional` model in a list behind a `$ref` (`list[M]`, `mcp` 2.3.0's schema).
        let dt = r#"{"type":"string","format":"date-time"}"#;
        let schemas = [
            (
                format!(
                    r#"{{"type":"object","properties":{{"at":{{"anyOf":[{dt},{{"type":"null"}}],"default":null}}}}}}"#
                ),
                "/at",
            ),
            (
                format!(
                    r#"{{"type":"object","properties":{{"at":{{"oneOf":[{dt},{{"type":"integer"}}]}}}}}}"#
                ),
                "/at",
            ),
            (
                format!(r#"{{"type":"object","properties":{{"at":{{"allOf":[{dt}]}}}}}}"#),
                "/at",
            ),
            (
                format!(
                    r##"{{"type":"object","$defs":{{"When":{dt}}},"properties":{{"at":{{"$ref":"#/$defs/When"}}}}}}"##
                ),
                "/at",
            ),
            (
                format!(
                    r##"{{"type":"object","$defs":{{"M":{{"type":"object","properties":{{"at":{{"anyOf":[{dt},{{"type":"null"}}]}}}}}}}},"properties":{{"result":{{"type":"array","items":{{"$ref":"#/$defs/M"}}}}}},"required":["result"]}}"##
                ),
                "/result/0/at",
            ),
        ];
        for (schema, pointer) in schemas {
            let content = if pointer == "/at" {
                r#"{"at":"2026-12-01T11:00:00"}"#
            } else {
                r#"{"result":[{"at":"2026-12-01T11:00:00"}]}"#
            };
            let capture = format!(
                "{}{schema}{}{content}{}",
                r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":"#,
                r#"}]}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}
{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":"#,
                "}}\n"
            );
            let options = super::super::Options {
                protocol: Some("2025-11-25".to_owned()),
                ..super::super::Options::default()
            };
            let audit = super::super::audit(&capture, &options);
            let call = &audit.calls[0];
            assert_eq!(call.valid, Some(true), "{schema}");
            let found: Vec<Field> = call
                .findings
                .iter()
                .map(|f| (f.rule.code, f.pointer.as_deref(), f.format.as_deref()))
                .collect();
            assert_eq!(
                found,
                [("SL605", Some(pointer), Some("date-time"))],
                "{schema}"
            );
            // The finding agrees with the call's client map: the TS clients reject it.
            let rejecting: Vec<&str> = call
                .clients
                .iter()
                .filter(|(_, accepts)| !accepts)
                .map(|(c, _)| c.name())
                .collect();
            assert_eq!(
                rejecting,
                ["ts-sdk-v1", "ts-sdk-v2", "gemini-cli"],
                "{schema}"
            );
            // With an offset, every client accepts it and nothing is found.
            let aware = capture.replace("11:00:00\"", "11:00:00Z\"");
            let audit = super::super::audit(&aware, &options);
            assert!(audit.calls[0].findings.is_empty(), "{schema}");
        }
    }
}
