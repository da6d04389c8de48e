//! What SL508 knows of the values of each format ajv-formats asserts in the TS SDK clients:
//! the values Ajv rejects there and the Python client accepts (measured by the engine tier, the
//! `sl508-<format>` cases), and which of them each generator lets through to the wire (measured
//! on Pydantic 2.14.4 and zod 4.6.7, the versions the SDKs depend on; the rule doc says how).

use crate::diagnostic::breaks::{classes, Class};
use crate::rules::analysis::generator::Generator;

/// A format ajv-formats asserts, with what its check refuses.
pub(super) struct Asserted {
    pub format: &'static str,
    /// The class in a 2019-09 or 2020-12 schema, and in a draft-04 to 07 one (where the Rust
    /// crate asserts formats too).
    pub class: Class,
    pub class_draft7: Class,
    /// Values the TypeScript clients reject and the Python client accepts, in the engine tier's
    /// `sl508-<format>` case (each marked valid there), most common first.
    pub rejected: &'static [&'static str],
    /// What ajv-formats' check allows, in words (after "checks every `uri` in the output: ").
    pub allows: &'static str,
}

/// The formats SL508 reports by their values. `ipv4` is measured too (`sl508-ipv4`), but no
/// value a generator or Python's `ipaddress` lets through is rejected, so it is not reported.
pub(super) const ASSERTED: [Asserted; 9] = [
    Asserted {
        format: "uri",
        class: classes::SL508_URI,
        class_draft7: classes::SL508_URI_DRAFT7,
        rejected: &[
            "https://example.com/a|b",
            "https://de.wikipedia.org/wiki/Köln",
            "https://example.com/search?q=a b",
        ],
        allows: "only ASCII, without spaces, `|`, `{`, `}` or `^`",
    },
    Asserted {
        format: "uri-reference",
        class: classes::SL508_URI_REFERENCE,
        class_draft7: classes::SL508_URI_REFERENCE_DRAFT7,
        rejected: &["/wiki/Köln", "docs/a b.html", "#x|y"],
        allows: "only ASCII, without spaces, `|`, `{`, `}` or `^`",
    },
    Asserted {
        format: "email",
        class: classes::SL508_EMAIL,
        class_draft7: classes::SL508_EMAIL_DRAFT7,
        rejected: &["jürgen@example.com", "user@münchen.de", "a@b-.com"],
        allows: "only ASCII addresses, with a dot in the domain and no label ending in `-`",
    },
    Asserted {
        format: "hostname",
        class: classes::SL508_HOSTNAME,
        class_draft7: classes::SL508_HOSTNAME_DRAFT7,
        rejected: &["münchen.de", "my_host.example.com"],
        allows: "only ASCII letters, digits and `-`: an internationalised name must be \
                  in its `xn--` form, and `_` is refused",
    },
    Asserted {
        format: "ipv6",
        class: classes::SL508_IPV6,
        class_draft7: classes::SL508_IPV6_DRAFT7,
        rejected: &["fe80::1%eth0"],
        allows: "no zone (`%eth0`)",
    },
    Asserted {
        format: "uuid",
        class: classes::SL508_UUID,
        class_draft7: classes::SL508_UUID_DRAFT7,
        rejected: &[
            "550e8400e29b41d4a716446655440000",
            "{550e8400-e29b-41d4-a716-446655440000}",
        ],
        allows: "only the hyphenated form (after an optional `urn:uuid:`), in either \
                  case, not the 32 digits alone or in braces that Python's `uuid.UUID` parses",
    },
    Asserted {
        format: "date",
        class: classes::SL508_DATE,
        class_draft7: classes::SL508_DATE_DRAFT7,
        rejected: &["20261201", "2026-W49-2"],
        allows: "only `YYYY-MM-DD`, not the basic and week forms Python 3.11's \
                  `date.fromisoformat` parses",
    },
    Asserted {
        format: "duration",
        class: classes::SL508_DURATION,
        class_draft7: classes::SL508_DURATION_DRAFT7,
        rejected: &["PT1.5S", "-PT1H", "P2W3D"],
        allows: "whole numbers only, no sign, and weeks only alone (`P1W`)",
    },
    Asserted {
        format: "regex",
        class: classes::SL508_REGEX,
        class_draft7: classes::SL508_REGEX_DRAFT7,
        rejected: &["(?P<word>\\w+)", "(?i)abc"],
        allows: "a pattern that `new RegExp(value)` compiles, without flags (and no `\\Z` \
                 after another character): JavaScript has no `(?P<name>...)` groups and no global \
                 inline flags (`(?i)`)",
    },
];

/// A format whose values a generator lets through to the wire although the TS clients reject
/// them: the finding is a warning.
pub(super) struct LetsThrough {
    pub generator: Generator,
    pub format: &'static str,
    /// The values, each measured: the generator sends it, the TS clients reject it.
    pub values: &'static [&'static str],
    /// Which of the generator's types do it, and how (a sentence without its final period).
    pub how: &'static str,
    /// What to change in the server's code.
    pub help: &'static str,
}

pub(super) const LETS_THROUGH: [LetsThrough; 8] = [
    LetsThrough {
        generator: Generator::Pydantic,
        format: "uri",
        values: &["https://example.com/a|b", "https://example.com/p?a={b}&c=^"],
        how: "Pydantic writes `\"format\": \"uri\"` for an `AnyUrl` or `HttpUrl` field and \
              serialises it as the `url` crate does (pydantic-core), which percent-encodes \
              non-ASCII letters and spaces and writes the host in its `xn--` form, but keeps \
              `|`, `{`, `}`, `^`, `[` and `]` as they are",
        help: "Pydantic's `AnyUrl` and `HttpUrl` keep `|`, `{`, `}`, `^`, `[` and `]`: percent-encode \
               them before the server returns the URL (`urllib.parse.quote(url, safe=\":/?#@!$&'()*+,;=%\")`), \
               and silence this finding on the field with `x-schema-lint-ignore` once it does",
    },
    LetsThrough {
        generator: Generator::Zod,
        format: "uri",
        values: &[
            "https://de.wikipedia.org/wiki/Köln",
            "https://example.com/search?q=a b",
            "https://example.com/a|b",
        ],
        how: "zod writes `\"format\": \"uri\"` for `z.url()`, which accepts any string `new URL()` \
              parses and sends it unchanged",
        help: "`z.url({ normalize: true })` makes zod send `new URL(value).href`, which percent-encodes \
               non-ASCII letters and spaces and writes the host in its `xn--` form; `|`, `{`, `}` and \
               `^` pass even then, so refuse them with `.regex(...)` or encode them in the server",
    },
    LetsThrough {
        generator: Generator::Schemars,
        format: "uri",
        values: &["https://example.com/a|b", "https://example.com/p?a={b}&c=^"],
        how: "schemars writes `\"format\": \"uri\"` for a `url::Url`, which serialises as the `url` \
              crate writes it: the crate percent-encodes non-ASCII letters and spaces and writes \
              the host in its `xn--` form, but keeps `|`, `{`, `}`, `^`, `[` and `]` as they are",
        help: "`url::Url` keeps `|`, `{`, `}`, `^`, `[` and `]`: percent-encode them before the server \
               returns the URL (`percent_encoding::utf8_percent_encode`), and silence this finding on \
               the field with `x-schema-lint-ignore` once it does",
    },
    LetsThrough {
        generator: Generator::Pydantic,
        format: "email",
        values: &["jürgen@example.com", "user@münchen.de"],
        how: "Pydantic writes `\"format\": \"email\"` for an `EmailStr` field, whose check \
              (email-validator) accepts internationalised addresses and keeps them in Unicode",
        help: "Refuse non-ASCII addresses in the server (an `AfterValidator` on the `EmailStr` that \
               calls `value.encode(\"ascii\")`), or declare the field as a `str` if the TypeScript \
               clients need not check it",
    },
    LetsThrough {
        generator: Generator::Pydantic,
        format: "ipv6",
        values: &["fe80::1%eth0"],
        how: "Pydantic writes `\"format\": \"ipv6\"` for an `IPv6Address` field, and Python's \
              `ipaddress` keeps a zone (`%eth0`) in the address it serialises",
        help: "Return the address without its zone (`IPv6Address(str(ip).split(\"%\")[0])`)",
    },
    LetsThrough {
        generator: Generator::Pydantic,
        format: "duration",
        values: &["PT1.5S", "-PT1H"],
        how: "Pydantic writes `\"format\": \"duration\"` for a `timedelta` field and serialises \
              fractional seconds (`timedelta(seconds=1.5)` as `PT1.5S`) and a negative duration \
              with a leading `-` (`-PT1H`)",
        help: "Send only whole, positive durations in this field (round to seconds), or send the \
               number of seconds in a `float` field",
    },
    LetsThrough {
        generator: Generator::Zod,
        format: "duration",
        values: &["PT1.5S", "-PT1H", "P2W3D"],
        how: "zod writes `\"format\": \"duration\"` for `z.iso.duration()`, whose check accepts \
              fractional seconds (`PT1.5S`); zod 3's `.duration()` also accepts a sign and weeks \
              with days",
        help: "Refuse fractional seconds in the server (`.regex(/^[^.,]*$/)`), or send whole seconds",
    },
    LetsThrough {
        generator: Generator::Pydantic,
        format: "regex",
        values: &["(?P<word>\\w+)", "(?i)abc"],
        how: "Pydantic writes `\"format\": \"regex\"` for a `Pattern` field and sends the Python \
              pattern as it is",
        help: "Send patterns the TypeScript clients can compile: leave out Python's named groups \
               (`(?P<word>...)`) and global inline flags (`(?i)`), which JavaScript does not \
               compile, or declare the field as a `str`",
    },
];

/// What a generator that lets no rejected value of `format` through does instead, when it is
/// known (measured like [`LETS_THROUGH`]).
pub(super) fn safe(generator: Generator, format: &str) -> Option<&'static str> {
    Some(match (generator, format) {
        (Generator::Pydantic, "uuid") => {
            "Pydantic serialises a `UUID` in the lowercase hyphenated form the TypeScript clients \
             accept, whatever form it was given"
        }
        (Generator::Pydantic, "date") => {
            "Pydantic serialises a `date` as `YYYY-MM-DD`, which the TypeScript clients accept"
        }
        (Generator::Zod, "uuid") => {
            "zod's `z.uuid()` and `z.guid()` (and zod 3's `.uuid()`) accept only the hyphenated \
             form, which the TypeScript clients accept"
        }
        (Generator::Zod, "date") => {
            "zod's `z.iso.date()` (and zod 3's `.date()`) accepts only `YYYY-MM-DD`, which the \
             TypeScript clients accept"
        }
        (Generator::Zod, "email") => {
            "zod's `z.email()` refuses non-ASCII addresses, but lets `a@b-.com` through, which the \
             TypeScript clients reject too"
        }
        _ => return None,
    })
}

/// The formats [`ASSERTED`] lists, with the class of the draft.
pub(super) fn asserted(format: &str) -> Option<&'static Asserted> {
    ASSERTED.iter().find(|a| a.format == format)
}

/// What `generator` lets through for `format`, when it lets a rejected value through.
pub(super) fn lets_through(
    generator: Option<Generator>,
    format: &str,
) -> Option<&'static LetsThrough> {
    let generator = generator?;
    LETS_THROUGH
        .iter()
        .find(|l| l.generator == generator && l.format == format)
}

/// The name of a generator in prose.
pub(super) fn name(generator: Generator) -> &'static str {
    match generator {
        Generator::Pydantic => "Pydantic",
        Generator::Zod => "zod",
        Generator::Schemars => "schemars",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn engine_tier(path: &str) -> Value {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("testdata/engines")
                .join(path),
        )
        .unwrap();
        serde_json::from_str(&text).unwrap()
    }

    /// Every value the rule names is in the engine tier's case of its format, in both drafts,
    /// meant valid there, and rejected by both TS clients and accepted by the Python client.
    #[test]
    fn every_value_named_is_measured() {
        let observed = engine_tier("observed.json");
        let named = ASSERTED
            .iter()
            .flat_map(|a| a.rejected.iter().map(move |v| (a.format, *v)))
            .chain(
                LETS_THROUGH
                    .iter()
                    .flat_map(|l| l.values.iter().map(move |v| (l.format, *v))),
            );
        let mut checked = 0;
        for (format, value) in named {
            for case in [format!("sl508-{format}"), format!("sl508-{format}-draft7")] {
                let instances = engine_tier(&format!("cases/{case}.json"))["instances"].clone();
                let n = instances
                    .as_array()
                    .unwrap()
                    .iter()
                    .position(|i| i["data"]["v"] == value)
                    .unwrap_or_else(|| panic!("{case}: no `{value}`"));
                assert_eq!(instances[n]["valid"], true, "{case}: `{value}`");
                let row = &observed[&case];
                for client in ["ts-sdk-v1", "ts-sdk-v2"] {
                    assert_eq!(
                        row[client]["instances"][n], "invalid",
                        "{case} {client} `{value}`"
                    );
                }
                assert_eq!(
                    row["python-sdk"]["instances"][n], "valid",
                    "{case} `{value}`"
                );
                checked += 1;
            }
        }
        assert!(checked >= 50, "only {checked}");
    }

    /// The class of each format is the one its case stands for.
    #[test]
    fn each_class_is_its_cases() {
        for a in &ASSERTED {
            for (class, case) in [
                (a.class, format!("sl508-{}", a.format)),
                (a.class_draft7, format!("sl508-{}-draft7", a.format)),
            ] {
                assert_eq!(
                    engine_tier(&format!("cases/{case}.json"))["class"],
                    class.name
                );
            }
        }
    }
}
