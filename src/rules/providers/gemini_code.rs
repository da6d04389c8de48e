//! What to change in the server's code for a finding of SL707 or SL708, where the schema shows
//! the generator that wrote it ([`crate::rules::analysis::generator`]): the JSON is regenerated
//! from that code, so an edit of the JSON alone does not last.
//!
//! Every sentence is what the generator was seen to write (zod 4.6.7 through `z.toJSONSchema`,
//! its `draft-7` target being the TS SDK v1 server's, and the TS SDK servers 1.32.2 and 2.4.0;
//! Pydantic 2.14.4's `model_json_schema()` and the `mcp` 2.3.0 server; schemars 1.2.3 with the
//! settings the Rust SDK rmcp 3.11.0 gives it for a tool's input); the fixtures
//! `testdata/rules/SL707/bad-{zod,pydantic,schemars}-*` and `SL708/bad-{zod,pydantic,schemars}-*`
//! hold that output. For schemars, `tests/integration/generators.sh` builds the Rust types each
//! sentence names, before and after the change it names, and checks what schema-lint says of
//! both.

use crate::diagnostic::Diagnostic;
use crate::rules::analysis::generator::Generator;

/// The finding a help is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Finding<'a> {
    /// SL707: a field Gemini's `parameters` does not know.
    UnknownField(&'a str),
    /// SL707: a list of types.
    TypeArray,
    /// SL707: a `format` Gemini does not take (its value).
    Format(&'a str),
    /// SL707: an `enum` of other values than strings.
    EnumNotString,
    /// SL707: a schema without a type.
    MissingType,
    /// SL707: a boolean schema.
    Boolean,
    /// SL708: a keyword outside `parametersJsonSchema`'s list.
    Keyword(&'a str),
    /// SL708: a cycle of references through required properties.
    RequiredCycle,
}

/// `d` with what to change in the server's code after its help, when the generator is known and
/// writes what the finding is about.
#[must_use]
pub fn tell(d: Diagnostic, made_by: Option<Generator>, finding: Finding<'_>) -> Diagnostic {
    let Some(there) = made_by.and_then(|g| in_code(g, finding)) else {
        return d;
    };
    let help = match &d.help {
        Some(help) => format!("{}. {there}", help.trim_end_matches('.')),
        None => there.to_owned(),
    };
    d.help(help)
}

fn in_code(made_by: Generator, finding: Finding<'_>) -> Option<&'static str> {
    match made_by {
        Generator::Zod => zod(finding),
        Generator::Pydantic => pydantic(finding),
        Generator::Schemars => schemars(finding),
    }
}

fn zod(finding: Finding<'_>) -> Option<&'static str> {
    Some(match finding {
        Finding::UnknownField("const") => {
            "zod writes `z.literal(\"x\")` as a `const`: `z.enum([\"x\"])` writes a one-value \
             `enum` and accepts the same value"
        }
        Finding::UnknownField("additionalProperties") => {
            "zod writes `z.strictObject` (and `.strict()`) as `\"additionalProperties\": false`; \
             the TS SDK servers list a `z.object` input without it"
        }
        Finding::TypeArray => {
            "zod's draft-07 target (the TS SDK v1 server's) writes `.nullable()` as a list of \
             types: `.optional()` instead leaves the field out of `required` with its one type"
        }
        Finding::Format(format) => match format {
            "uri" => "zod writes `z.url()` as `\"format\": \"uri\"`: declare `z.string()` and check the URL in the handler",
            "date" => "zod writes `z.iso.date()` as `\"format\": \"date\"` with a `pattern`: `z.string().regex(...)` keeps the check and writes only the `pattern`, which Gemini takes",
            "uuid" => "zod writes `z.uuid()` as `\"format\": \"uuid\"` with a `pattern`: `z.string().regex(...)` keeps the check and writes only the `pattern`, which Gemini takes",
            "email" => "zod writes `z.email()` as `\"format\": \"email\"` with a `pattern`: `z.string().regex(...)` keeps the check and writes only the `pattern`, which Gemini takes",
            _ => return None,
        },
        Finding::EnumNotString => {
            "zod writes `z.literal([1, 2])` as a number `enum`: `z.enum([\"1\", \"2\"])` writes a \
             string one (convert the value in the handler)"
        }
        Finding::MissingType => {
            "zod writes `z.any()` and `z.unknown()` as `{}`: declare the type the tool takes \
             (`z.string()`, `z.number()`, ...)"
        }
        Finding::Keyword("pattern" | "minLength" | "maxLength") => {
            "zod writes `.regex()`, `.min()` and `.max()` of a string (and the patterns of \
             `z.email()`, `z.uuid()`, `z.iso.date()`) as these keywords: keep them for the \
             server's own check, and say the rule in `.describe(...)` for the model"
        }
        Finding::Keyword("const") => {
            "zod writes `z.literal(\"x\")` as a `const`: `z.enum([\"x\"])` writes an `enum`, which \
             Gemini holds the model to"
        }
        Finding::RequiredCycle => {
            "zod writes a getter that returns the schema itself as a `$ref` into `$defs`: make \
             one step of the cycle `.optional()`"
        }
        _ => return None,
    })
}

fn pydantic(finding: Finding<'_>) -> Option<&'static str> {
    Some(match finding {
        Finding::UnknownField("additionalProperties") => {
            "Pydantic writes `model_config = ConfigDict(extra=\"forbid\")` as \
             `\"additionalProperties\": false`: a model without it lists none"
        }
        Finding::UnknownField("$ref" | "$defs") => {
            "Pydantic writes every nested model into `$defs` behind a `$ref`: take the nested \
             fields as parameters of the tool itself, or send `parametersJsonSchema` (SL708)"
        }
        Finding::Format(format) => match format {
            "date" => "Pydantic writes a `datetime.date` as `\"format\": \"date\"`: declare it `str` and parse the date in the tool",
            "uri" => "Pydantic writes `AnyUrl` as `\"format\": \"uri\"`: declare it `str` and parse the URL in the tool",
            "uuid" => "Pydantic writes a `UUID` as `\"format\": \"uuid\"`: declare it `str` and parse it in the tool",
            _ => return None,
        },
        Finding::EnumNotString => {
            "Pydantic writes `Literal[1, 2]` as an integer `enum`: `Literal[\"1\", \"2\"]` writes \
             a string one (convert the value in the tool)"
        }
        Finding::MissingType => {
            "Pydantic writes a parameter typed `Any` without a type: declare the type the tool \
             takes (`str`, `int`, a model)"
        }
        Finding::Keyword("pattern" | "minLength" | "maxLength") => {
            "Pydantic writes `Field(pattern=..., min_length=..., max_length=...)` (and `AnyUrl`'s \
             `minLength`) as these keywords: keep them for the server's own validation, and say \
             the rule in `Field(description=...)` for the model"
        }
        Finding::Keyword("const") => {
            "Pydantic writes a one-value `Literal[\"x\"]` as a `const` (two values or more as an \
             `enum`, which Gemini holds the model to)"
        }
        Finding::RequiredCycle => {
            "Pydantic writes a model that holds itself (`parent: Node`) as a required `$ref`: \
             `parent: Node | None = None` leaves it out of `required`"
        }
        _ => return None,
    })
}

fn schemars(finding: Finding<'_>) -> Option<&'static str> {
    Some(match finding {
        Finding::UnknownField("additionalProperties") => {
            "schemars writes `#[serde(deny_unknown_fields)]` as `\"additionalProperties\": \
             false`: a struct without it lists none"
        }
        Finding::UnknownField("$ref" | "$defs") => {
            "schemars writes a nested struct into `$defs` behind a `$ref`: `#[schemars(inline)]` \
             on that struct writes it in place (a struct that holds itself stays a `$ref`: send \
             `parametersJsonSchema`, SL708)"
        }
        Finding::UnknownField("prefixItems") => {
            "schemars writes a Rust tuple (`(u32, u32)`) as `prefixItems`: declare the field as \
             an array (`[u32; 2]`) when the items share a type, or as a struct with named fields"
        }
        Finding::TypeArray => {
            "schemars writes an `Option<T>` field as a list of types: `#[schemars(with = \"T\")]` \
             with `#[serde(default)]` on the field writes its one type and leaves it out of \
             `required`"
        }
        Finding::Format("uri") => {
            "schemars writes `#[schemars(url)]` as `\"format\": \"uri\"`: drop the attribute, \
             say it is a URL in the field's doc comment, and check the URL in the tool"
        }
        Finding::Boolean => {
            "schemars writes a `serde_json::Value` as `true`: declare the type the tool takes (a \
             struct, `String`, `i64`, ...)"
        }
        Finding::Keyword("pattern" | "minLength" | "maxLength") => {
            "schemars writes `#[schemars(regex(pattern = ...), length(min = ..., max = ...))]` as \
             these keywords: keep the check in the tool, and say the rule in the field's doc \
             comment (schemars writes it as the `description`) for the model"
        }
        Finding::RequiredCycle => {
            "schemars writes a struct that holds itself (`parent: Box<Node>`) as a required \
             `$ref`: `Option<Box<Node>>` leaves it out of `required`"
        }
        _ => return None,
    })
}
