//! SL401 schema-invalid: the schema fails its dialect's meta-schema, reported at the keyword
//! whose value is wrong.

use super::sl401_root_required as root_required;
use crate::diagnostic::breaks::{classes, Class};
use crate::diagnostic::meta::SL401 as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};
use crate::schema::dialect::Draft;
use crate::schema::json_view::{address, meta_validator, Scope, View};
use crate::syntax::document::is_within;
use crate::syntax::document::{unescape_pointer_token, Node, NodeKind};
use crate::syntax::source::Span;
use crate::syntax::uri::check_uri_reference;
use jsonschema::error::ValidationErrorKind;
use jsonschema::ValidationError;
use std::collections::HashSet;

pub struct SchemaInvalid;

/// Keywords whose value is a map from names to schemas (or, for `dependencies`, to schemas or
/// property lists): a path step below one of them names an entry, not a keyword.
const MAP_KEYWORDS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// Keywords whose value Ajv checks the JSON type of while compiling, in every class (`minLength
/// value must be ["number"]`), measured on Ajv 8; it does not check annotations (`title`,
/// `description`, `examples` ...).
const AJV_TYPED: [&str; 38] = [
    "type",
    "enum",
    "required",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "dependencies",
    "items",
    "additionalItems",
    "contains",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "pattern",
    "format",
    "uniqueItems",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "prefixItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "dependentSchemas",
    "dependentRequired",
];

/// The names `type` takes.
const JSON_TYPES: [&str; 7] = [
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// The class of a meta-schema failure in the engine tier's model: a keyword value of a JSON
/// type Ajv refuses (or a `type` naming no type), or anything else, which Ajv compiles.
fn class_of(tokens: &[String], error: &ValidationError<'_>) -> Class {
    let at = |back: usize| {
        tokens
            .len()
            .checked_sub(back)
            .map_or("", |i| tokens[i].as_str())
    };
    // A token right below `properties` (and the like) names an entry, not a keyword.
    let is_keyword = |back: usize| !MAP_KEYWORDS.contains(&at(back + 1));
    // Ajv types the length, count and `multipleOf` keywords as numbers: a fraction where the
    // meta-schema wants an integer (`"minLength": 1.5`) compiles there.
    let fraction = error.instance().as_f64().is_some_and(|f| f.fract() != 0.0);
    match error.kind() {
        ValidationErrorKind::Type { .. }
            if AJV_TYPED.contains(&at(1))
                && is_keyword(1)
                && !fraction
                && !draft06_exclusive_bound(at(1), error) =>
        {
            classes::SL401_KEYWORD_TYPE
        }
        // A `pattern` the draft-04/06/07 meta-schemas' `format: regex` refuses (the crate
        // checks it as ECMA-262): Ajv refuses it too; Python's `re` may compile it.
        ValidationErrorKind::Format { format } if format == "regex" => {
            let python = error
                .instance()
                .as_str()
                .is_some_and(|p| crate::syntax::regex_python::check(p).is_ok());
            if python {
                classes::SL401_PATTERN_REGEX
            } else {
                classes::SL401_PATTERN_INVALID
            }
        }
        // A value twice in a draft-04 `enum`: Python's meta-schema refuses it; the crate's
        // and Ajv (TS v1 knows no draft-04 meta-schema) do not.
        ValidationErrorKind::UniqueItems if at(1) == "enum" && is_keyword(1) => {
            classes::SL401_ENUM_NOT_UNIQUE
        }
        // Ajv refuses a `multipleOf` that is not above 0 (`multipleOf must be > 0`).
        ValidationErrorKind::ExclusiveMinimum { .. } if at(1) == "multipleOf" && is_keyword(1) => {
            classes::SL401_MULTIPLE_OF_NOT_POSITIVE
        }
        // A `dependentRequired` entry that is not an array of names: Ajv's 2019-09 and
        // 2020-12 classes check it, the draft-07 class (TS v1) does not know the keyword.
        ValidationErrorKind::Type { .. } if at(2) == "dependentRequired" && is_keyword(2) => {
            classes::SL401_DEPENDENT_REQUIRED
        }
        // `type`, or an entry of it, naming no JSON type; a list of JSON types that names one
        // twice is no error for Ajv.
        _ if (at(1) == "type" && is_keyword(1)) || (at(2) == "type" && is_keyword(2)) => {
            let names_types = error.instance().as_array().is_some_and(|names| {
                names
                    .iter()
                    .all(|n| n.as_str().is_some_and(|n| JSON_TYPES.contains(&n)))
            });
            if names_types {
                classes::SL401_OTHER
            } else {
                classes::SL401_KEYWORD_TYPE
            }
        }
        _ => classes::SL401_OTHER,
    }
}

/// A number in `exclusiveMinimum` or `exclusiveMaximum` where draft-04 wants a boolean: the
/// draft-06 form, which Ajv (its keyword takes a number) compiles.
fn draft06_exclusive_bound(keyword: &str, error: &ValidationError<'_>) -> bool {
    matches!(keyword, "exclusiveMinimum" | "exclusiveMaximum") && error.instance().is_number()
}

/// Values longer than this are not quoted in a message.
const MAX_QUOTED: usize = 40;

impl Rule for SchemaInvalid {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        let roots = dialect_roots(cx.subschemas);
        for (n, &i) in roots.iter().enumerate() {
            let sub = &cx.subschemas[i];
            // Embedded resources of another dialect are checked against their own meta-schema,
            // as the `jsonschema` crate does before it compiles (2020-12 Core, section 9.3.3).
            let nested: Vec<&str> = roots[n + 1..]
                .iter()
                .map(|&j| cx.subschemas[j].pointer.as_str())
                .filter(|p| is_within(p, &sub.pointer))
                .collect();
            check_resource(cx, sub.node, &sub.pointer, sub.draft, &nested, out);
        }
    }
}

/// The subschemas (by index) whose dialect differs from the one around them: the unit root, and
/// embedded resources that declare another dialect. Document order.
fn dialect_roots(subs: &[crate::schema::walk::Subschema<'_>]) -> Vec<usize> {
    let mut roots = vec![0];
    // Stack of the dialect roots enclosing the current subschema.
    let mut stack: Vec<usize> = vec![0];
    for (i, sub) in subs.iter().enumerate().skip(1) {
        while stack.len() > 1
            && stack
                .last()
                .is_some_and(|&r| !is_within(&sub.pointer, &subs[r].pointer))
        {
            stack.pop();
        }
        let enclosing = stack.last().copied().unwrap_or(0);
        if sub.draft != subs[enclosing].draft {
            roots.push(i);
            stack.push(i);
        }
    }
    roots
}

/// Checks the resource at `base` (file pointer `base_pointer`) against `draft`'s meta-schema,
/// leaving out what lies in the `nested` resources of other dialects.
fn check_resource(
    cx: &UnitContext<'_>,
    base: &Node,
    base_pointer: &str,
    draft: Draft,
    nested: &[&str],
    out: &mut Vec<Diagnostic>,
) {
    // Validated in place: the span tree is the `jsonschema` crate's input, with the nested
    // resources read as `{}`, which every meta-schema accepts.
    let hidden: Vec<usize> = nested
        .iter()
        .filter_map(|p| base.pointer(&p[base_pointer.len()..]))
        .map(address)
        .collect();
    let scope = Scope::new(base, hidden);
    let view = View::new(base, &scope);
    // Each draft's meta-schema is compiled once per process, for span trees.
    let validator = meta_validator(draft);
    if validator.is_valid(view) {
        return;
    }
    let errors: Vec<ValidationError<'_>> = validator.iter_errors(view).collect();
    let mut leaves = Vec::new();
    for error in &errors {
        innermost(error, &mut leaves);
    }
    let mut seen = HashSet::new();
    for error in leaves {
        let path = error.instance_path().as_str().to_owned();
        let keyword = error.kind().keyword().to_owned();
        // 2019-09 and 2020-12 reach most keywords through several vocabulary meta-schemas, and
        // report the same failure once per route.
        if !seen.insert((path.clone(), keyword.clone(), error.to_string())) {
            continue;
        }
        if covered_elsewhere(cx, base, base_pointer, &path, &keyword) {
            continue;
        }
        // draft-04's `exclusiveMinimum` without `minimum`, when it is a number: the draft-06
        // form, reported once, as a value of the wrong type.
        if let ValidationErrorKind::Required { property } = error.kind() {
            let dependent = match property.as_str() {
                Some("minimum") => "exclusiveMinimum",
                Some("maximum") => "exclusiveMaximum",
                _ => "",
            };
            let node = base.pointer(&path);
            if node
                .and_then(|n| n.get(dependent))
                .is_some_and(|v| matches!(v.kind, crate::syntax::document::NodeKind::Number(_)))
            {
                continue;
            }
        }
        let mut finding = diagnostic(cx, base, base_pointer, draft, &path, error);
        // A repeated `enum` value (draft-04) goes without changing what the schema accepts.
        if matches!(error.kind(), ValidationErrorKind::UniqueItems) && path.ends_with("/enum") {
            if let Some((repeated, fix)) = base.pointer(&path).and_then(|array| {
                crate::rules::edits::dedupe::repeated_items_fix(cx.file.id, cx.text(), array)
            }) {
                finding = finding
                    .help(format!(
                        "Remove the repeated {} (`{}`): the `enum` accepts the same values",
                        if repeated.len() == 1 {
                            "value"
                        } else {
                            "values"
                        },
                        repeated.join("`, `")
                    ))
                    .fix(fix);
            }
        }
        out.push(finding);
    }
}

/// The errors to report for `error`. An `anyOf` (or `oneOf`) of the meta-schema fails as a whole
/// when a nested schema is wrong (`items` is "a schema or an array of schemas"): when exactly one
/// alternative failed only below the value, that alternative is the one the author meant, and its
/// own errors say where the problem is.
fn innermost<'a>(error: &'a ValidationError<'a>, out: &mut Vec<&'a ValidationError<'a>>) {
    let (ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context }) =
        error.kind()
    else {
        out.push(error);
        return;
    };
    let here = error.instance_path().as_str();
    let deeper = |e: &ValidationError<'_>| {
        let p = e.instance_path().as_str();
        p.len() > here.len() && p.starts_with(here) && p.as_bytes()[here.len()] == b'/'
    };
    let mut meant = context
        .iter()
        .filter(|branch| !branch.is_empty() && branch.iter().all(&deeper));
    match (meant.next(), meant.next()) {
        (Some(branch), None) => {
            for e in branch {
                innermost(e, out);
            }
        }
        _ => out.push(error),
    }
}

/// The failure as a finding at the value the error names.
fn diagnostic(
    cx: &UnitContext<'_>,
    root: &Node,
    base_pointer: &str,
    draft: Draft,
    path: &str,
    error: &ValidationError<'_>,
) -> Diagnostic {
    let tokens: Vec<String> = path
        .split('/')
        .skip(1)
        .map(unescape_pointer_token)
        .collect();
    let location = location(&tokens);
    let keyword = error.kind().keyword();
    let (span, label, message, help) = match error.kind() {
        // draft-04's meta-schema makes `exclusiveMaximum` depend on `maximum` (and the same for
        // the minimum): the error sits on the subschema, the culprit is the dependent keyword.
        ValidationErrorKind::Required { property } => {
            let needed = property.as_str().unwrap_or_default();
            let dependent = match needed {
                "maximum" => Some("exclusiveMaximum"),
                "minimum" => Some("exclusiveMinimum"),
                _ => None,
            };
            let node = root.pointer(path);
            let member = dependent.and_then(|d| node.and_then(|n| n.member(d)));
            match (member, dependent) {
                (Some(m), Some(d)) => (
                    m.key_span,
                    format!("`{d}` without `{needed}`"),
                    format!("`{d}` needs `{needed}` beside it in {draft}"),
                    format!("Add `{needed}`, or remove `{d}`"),
                ),
                _ => (
                    value_span(cx, root, &tokens),
                    format!("`{needed}` is missing"),
                    format!(
                        "{} lacks `{needed}`, which {draft} requires here",
                        subject(&location)
                    ),
                    format!("Add `{needed}`"),
                ),
            }
        }
        ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
            let expected = expected_forms(&tokens);
            let help = if tokens.last().is_some_and(|t| t == "type") {
                "Use one of `array`, `boolean`, `integer`, `null`, `number`, `object` and `string`, or an \
                 array of them"
                    .to_owned()
            } else {
                format!(
                    "Write {expected} here, as {draft} defines `{}`",
                    last_keyword(&tokens)
                )
            };
            (
                value_span(cx, root, &tokens),
                format!("not {expected}"),
                format!("{} is not {expected}", quoted(&location, error)),
                help,
            )
        }
        _ => {
            let masked = error.masked().to_string();
            let text = match masked.strip_prefix("value ") {
                Some(rest) => format!("{} {rest}", quoted(&location, error)),
                None => format!("{}: {}", subject(&location), error),
            };
            let label = masked.strip_prefix("value ").unwrap_or(&masked).to_owned();
            let owner = last_keyword(&tokens);
            let bound = match owner {
                "exclusiveMinimum" => "minimum",
                "exclusiveMaximum" => "maximum",
                _ => "",
            };
            let help = match defined_as(error.schema_path().as_str()) {
                _ if !bound.is_empty() && draft06_exclusive_bound(owner, error) => format!(
                    "In {draft}, `{owner}` is a boolean that makes `{bound}` exclusive: write \
                     `\"{bound}\": {value}, \"{owner}\": true`, or declare draft-06 or later, where \
                     `{owner}` is the number",
                    value = error.instance()
                ),
                Some(words) => format!("Write a {words} here, as {draft} requires for `{}`", last_keyword(&tokens)),
                None => format!(
                    "Change it to what {draft} allows for `{}` (the meta-schema's `{keyword}` at `{}`)",
                    last_keyword(&tokens),
                    error.schema_path().as_str()
                ),
            };
            (value_span(cx, root, &tokens), label, text, help)
        }
    };
    let note = format!(
        "The {draft} meta-schema rejects it, and MCP 2025-11-25 requires schemas to be valid in \
         their dialect"
    );
    let found = cx
        .report(span, message)
        .label(label)
        .help(help)
        .pointer(format!("{base_pointer}{path}"));
    match root_required::value(cx, base_pointer, &tokens, root) {
        Some(value) => root_required::finding(cx, found, &note, value),
        None => found.note(note).class(class_of(&tokens, error)),
    }
}

/// What the path names, for messages: `minLength`, `properties/a`, `allOf/0`; empty at the root.
fn location(tokens: &[String]) -> String {
    match tokens {
        [] => String::new(),
        [.., parent, last]
            if MAP_KEYWORDS.contains(&parent.as_str()) || last.parse::<usize>().is_ok() =>
        {
            format!("{parent}/{last}")
        }
        [.., last] => last.clone(),
    }
}

/// The keyword the failing value belongs to: the last step that is not an entry name or index.
fn last_keyword(tokens: &[String]) -> &str {
    match tokens {
        [.., parent, _] if MAP_KEYWORDS.contains(&parent.as_str()) => parent,
        [.., parent, last] if last.parse::<usize>().is_ok() => parent,
        [.., last] => last,
        [] => "the schema",
    }
}

fn subject(location: &str) -> String {
    if location.is_empty() {
        "The schema".to_owned()
    } else {
        format!("`{location}`")
    }
}

/// "`minLength` value `-1`", without the value when it is long.
fn quoted(location: &str, error: &ValidationError<'_>) -> String {
    let value = serde_json::to_string(error.instance().as_ref()).unwrap_or_default();
    let what = if location.is_empty() {
        "The schema".to_owned()
    } else {
        format!("`{location}` value")
    };
    if value.len() <= MAX_QUOTED && !value.contains('`') {
        format!("{what} `{value}`")
    } else {
        what
    }
}

/// The meta-schema definition a failing check belongs to, in words: `/$defs/nonNegativeInteger/
/// minimum` is a "non-negative integer".
fn defined_as(schema_path: &str) -> Option<String> {
    let mut steps = schema_path.split('/');
    steps.find(|s| *s == "$defs" || *s == "definitions")?;
    let name = steps.next()?;
    let name = name.strip_suffix("Default0").unwrap_or(name);
    let mut words = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            words.push(' ');
        }
        words.push(c.to_ascii_lowercase());
    }
    Some(words.replace("non negative", "non-negative"))
}

/// What the meta-schema's `anyOf` at this place accepts, in words.
fn expected_forms(tokens: &[String]) -> &'static str {
    match tokens {
        [.., parent, _] if parent == "dependencies" => "a schema or an array of property names",
        [.., parent, _] if MAP_KEYWORDS.contains(&parent.as_str()) => "a schema",
        [.., last] if last == "type" => "a type name or an array of type names",
        [.., last] if last == "items" => "a schema or an array of schemas",
        [.., last] if last == "additionalItems" || last == "additionalProperties" => {
            "a boolean or a schema"
        }
        _ => "in any of the forms the meta-schema allows",
    }
}

/// The span to label for the value at `tokens`: the value when it fits on a line, else the key
/// that holds it (or the opening bracket of an array element or of the root).
fn value_span(cx: &UnitContext<'_>, root: &Node, tokens: &[String]) -> Span {
    let Some((last, parents)) = tokens.split_last() else {
        return opening(root);
    };
    let parent_path = parents.iter().fold(String::new(), |mut path, t| {
        path.push('/');
        path.push_str(&escape(t));
        path
    });
    let Some(parent) = root.pointer(&parent_path) else {
        return opening(root);
    };
    let (key, node) = match &parent.kind {
        NodeKind::Object(_) => match parent.member(last) {
            Some(m) => (Some(m.key_span), &m.value),
            None => return opening(parent),
        },
        NodeKind::Array(items) => match last.parse::<usize>().ok().and_then(|i| items.get(i)) {
            Some(item) => (None, item),
            None => return opening(parent),
        },
        _ => return parent.span,
    };
    let text = &cx.text()[node.span.start..node.span.end];
    if text.contains('\n') {
        key.unwrap_or_else(|| opening(node))
    } else {
        node.span
    }
}

fn opening(node: &Node) -> Span {
    Span::new(node.span.start, node.span.start + 1)
}

fn escape(token: &str) -> String {
    crate::syntax::document::escape_pointer_token(token)
}

/// Whether another rule reports this failure already: an invalid `$id` (SL201, SL202), an
/// invalid anchor name (SL205), an invalid `$ref` (SL301), an unknown root `$schema` (SL402),
/// array-form `items` under 2020-12 (SL403).
fn covered_elsewhere(
    cx: &UnitContext<'_>,
    root: &Node,
    base_pointer: &str,
    path: &str,
    keyword: &str,
) -> bool {
    let node = root.pointer(path);
    let text = node.and_then(Node::as_str);
    let last = path.rsplit('/').next().unwrap_or_default();
    match last {
        "$id" | "id" => match keyword {
            // `^[^#]*#?$`: a fragment, which SL202 (or SL201 when the value is no URI) reports.
            "pattern" => true,
            "format" => text.is_some_and(|t| check_uri_reference(t).is_err()),
            _ => false,
        },
        "$ref" => keyword == "format" && text.is_some_and(|t| check_uri_reference(t).is_err()),
        // The anchor name pattern: SL205 reports it.
        "$anchor" | "$dynamicAnchor" => keyword == "pattern",
        "$schema" if path == "/$schema" && base_pointer == cx.unit.pointer => {
            text.is_some_and(|t| Draft::from_schema_uri(t).is_none())
        }
        "items" if node.is_some_and(|n| n.as_array().is_some()) => {
            let holder = format!("{base_pointer}{}", &path[..path.len() - "/items".len()]);
            cx.subschemas
                .iter()
                .any(|s| s.pointer == holder && s.draft == Draft::Draft202012)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(path: &str) -> Vec<String> {
        path.split('/').skip(1).map(str::to_owned).collect()
    }

    #[test]
    fn names_the_place() {
        assert_eq!(location(&tokens("/properties/a/minLength")), "minLength");
        assert_eq!(location(&tokens("/properties/a")), "properties/a");
        assert_eq!(location(&tokens("/allOf/0")), "allOf/0");
        assert_eq!(location(&tokens("")), "");
        assert_eq!(last_keyword(&tokens("/properties/type")), "properties");
        assert_eq!(
            expected_forms(&tokens("/type")),
            expected_forms(&tokens("/a/type"))
        );
        assert_eq!(
            expected_forms(&tokens("/dependencies/a")),
            "a schema or an array of property names"
        );
        assert_eq!(
            defined_as("/$defs/nonNegativeInteger/minimum").as_deref(),
            Some("non-negative integer")
        );
        assert_eq!(
            defined_as("/definitions/positiveIntegerDefault0/allOf/0/type").as_deref(),
            Some("positive integer")
        );
        assert_eq!(defined_as("/properties/type/anyOf"), None);
    }
}
