//! A client's words on an engine-tier case, as a note quotes them under another finding: the
//! case's own values (its tool `report`, its `$id`, its pattern, the instance it validated, the
//! property its path names) are not the finding's, so they are said generically (`…`), and the
//! tool the client names is the finding's own. What stays is what the client says of every
//! such schema: its message, the keyword, the format or type it expected, the meta-schema's
//! pattern.
//!
//! Only measured details go through here: a documented one quotes a public report, with its
//! source, as that report wrote it.

/// How a case's value is written in place of its value.
const ELIDED: &str = "…";

/// `detail`, a client's words on the class's case, in words that hold for the finding in tool
/// `tool` (`None` for a schema file): `None` where nothing but the case's values would be left
/// (an instance the client accepted or rejected, which the effect already says).
#[must_use]
pub fn own_words(detail: &str, tool: Option<&str>) -> Option<String> {
    let (prefix, rest) = split_tool(detail, tool);
    let first = rest.chars().next();
    if matches!(first, Some('{' | '['))
        && (rest.ends_with(" is rejected") || rest.ends_with(" is accepted"))
    {
        return None;
    }
    let rest = cut_after(rest, " within {");
    let rest = cut_index(&rest);
    let rest = mask_unquoted(&rest);
    let rest = mask_path(&rest);
    let rest = mask_quoted(&rest);
    Some(format!("{prefix}{rest}"))
}

/// The tool part of a client's words (`Tool 'report' has an invalid outputSchema: `, `Invalid
/// schema for tool report: `) with the finding's tool in it, and the words after it.
fn split_tool<'a>(detail: &'a str, tool: Option<&str>) -> (String, &'a str) {
    let name = tool.unwrap_or(ELIDED);
    if let Some(after) = detail.strip_prefix("Tool '") {
        if let Some((_, rest)) = after.split_once("' has an invalid ") {
            if let Some((schema, rest)) = rest.split_once(": ") {
                return (format!("Tool '{name}' has an invalid {schema}: "), rest);
            }
        }
    }
    if let Some(at) = detail.find("Invalid schema for tool ") {
        let after = &detail[at + "Invalid schema for tool ".len()..];
        if let Some((_, rest)) = after.split_once(": ") {
            return (
                format!("{}Invalid schema for tool {name}: ", &detail[..at]),
                rest,
            );
        }
    }
    (String::new(), detail)
}

/// `text` up to `marker` (the case's schema Python prints after `within`).
fn cut_after(text: &str, marker: &str) -> String {
    text.find(marker).map_or(text, |at| &text[..at]).to_owned()
}

/// Without ` at index N`, the place of the bad character in the case's value.
fn cut_index(text: &str) -> String {
    match text.find(" at index ") {
        Some(at) => {
            let rest = &text[at + " at index ".len()..];
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            format!("{}{}", &text[..at], &rest[digits..])
        }
        None => text.to_owned(),
    }
}

/// The values clients write without quotes: `reference X from id`, `Unresolvable: X`, a
/// regular expression `/X/u:`, a leading literal (`5 is not of type`), `the name X sent as Y`.
fn mask_unquoted(text: &str) -> String {
    let mut out = text.to_owned();
    for (open, close) in [
        ("can't resolve reference ", " from id"),
        ("Invalid regular expression: /", "/u:"),
    ] {
        if let Some(at) = out.find(open) {
            let start = at + open.len();
            if let Some(len) = out[start..].find(close) {
                out.replace_range(start..start + len, ELIDED);
            }
        }
    }
    // The base Ajv resolved against: the case's `$id`, unless it is the root's `#`.
    if let Some(at) = out.find(" from id ") {
        let start = at + " from id ".len();
        if &out[start..] != "#" {
            out.replace_range(start.., ELIDED);
        }
    }
    if let Some(at) = out.find("Unresolvable: ") {
        let start = at + "Unresolvable: ".len();
        out.replace_range(start.., ELIDED);
    }
    // A Python or JSON literal before `is not of type`: the case's value.
    for marker in [" is not of type", " is not of types"] {
        if let Some(at) = out.find(marker) {
            if !out[..at].ends_with('\'') && !out[..at].ends_with('"') {
                out.replace_range(..at, ELIDED);
            }
            break;
        }
    }
    out
}

/// A path into the case's schema (`parameters.properties.level.enum.0: ...`,
/// `tools.*.outputSchema.properties.raw: ...`): its properties are the case's.
fn mask_path(text: &str) -> String {
    let Some((path, message)) = text.split_once(": ") else {
        return text.to_owned();
    };
    if path.contains(' ') {
        return text.to_owned();
    }
    if path.starts_with("parameters.") {
        return format!("parameters.{ELIDED}: {message}");
    }
    match path.find(".properties.") {
        Some(at) => format!("{}.properties.{ELIDED}: {message}", &path[..at]),
        None => text.to_owned(),
    }
}

/// Quoted values (`'my_tool:output'`, `"1abc"`, `` `limit` ``) written as `…`, but for the
/// words a client uses of every schema: the format or type it expected (after `is not a`, `of
/// type`), the meta-schema's pattern (after `does not match`), and keyword names (`"$id"`).
fn mask_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut keep_list = false;
    while let Some(at) = rest.find(['\'', '"', '`']) {
        let quote = rest[at..].chars().next().unwrap_or('\'');
        let before = &rest[..at];
        let Some(len) = closing(&rest[at + 1..], quote) else {
            break;
        };
        let inner = &rest[at + 1..at + 1 + len];
        let context = format!("{out}{before}");
        let after_type = [
            "not a ",
            "of type ",
            "of types ",
            "does not match ",
            "expected ",
            "should be ",
            "must be [",
        ]
        .iter()
        .any(|w| context.ends_with(w));
        keep_list = after_type || (keep_list && (before == ", " || before == ","));
        let keyword = inner == "id"
            || (inner.starts_with('$') && inner[1..].chars().all(|c| c.is_ascii_alphabetic()))
            // A client's own term in backticks (`resolve-http`); a keyword in backticks is the
            // case's (`allOf`).
            || (quote == '`' && !inner.chars().all(|c| c.is_ascii_alphabetic()));
        out.push_str(before);
        if keep_list || keyword {
            out.push(quote);
            out.push_str(inner);
            out.push(quote);
        } else {
            out.push_str(ELIDED);
        }
        rest = &rest[at + 1 + len + quote.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// The length of a quoted value up to its closing `quote`, over backslash escapes.
fn closing(text: &str, quote: char) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            c if c == quote => return Some(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(detail: &str, tool: Option<&str>) -> String {
        own_words(detail, tool).unwrap_or_default()
    }

    #[test]
    fn the_base_ajv_resolved_against_goes_unless_it_is_the_root() {
        assert_eq!(
            words(
                "can't resolve reference y.json from id https://example.com/sub/a.json",
                None
            ),
            "can't resolve reference … from id …"
        );
    }

    #[test]
    fn the_case_values_go_and_the_clients_words_stay() {
        assert_eq!(
            words(
                "RuntimeError: Invalid schema for tool report: 'my_tool:output' is not a 'uri-reference'",
                Some("weather")
            ),
            "RuntimeError: Invalid schema for tool weather: … is not a 'uri-reference'"
        );
        assert_eq!(
            words(
                "Tool 'report' has an invalid outputSchema: URI scheme is malformed.",
                None
            ),
            "Tool '…' has an invalid outputSchema: URI scheme is malformed."
        );
        assert_eq!(
            words(
                "Invalid URI reference 'my tool.json': unexpected character at index 2",
                None
            ),
            "Invalid URI reference …: unexpected character"
        );
        assert_eq!(
            words(
                "\"1abc\" does not match \"^[A-Za-z_][-A-Za-z0-9._]*$\"",
                None
            ),
            "… does not match \"^[A-Za-z_][-A-Za-z0-9._]*$\""
        );
        assert_eq!(
            words("can't resolve reference #nowhere from id #", None),
            "can't resolve reference … from id #"
        );
        assert_eq!(
            words(
                "NoSuchAnchor: 'nowhere' does not exist within {'properties': {}}",
                None
            ),
            "NoSuchAnchor: … does not exist"
        );
        assert_eq!(
            words(
                "Invalid regular expression: /^(abc$/u: Unterminated group",
                None
            ),
            "Invalid regular expression: /…/u: Unterminated group"
        );
        assert_eq!(
            words(
                "[{'type': 'string'}] is not of type 'object', 'boolean'",
                None
            ),
            "… is not of type 'object', 'boolean'"
        );
        assert_eq!(
            words("5 is not of type 'string'", None),
            "… is not of type 'string'"
        );
        assert_eq!(
            words(
                "parameters.properties.mode.const: Extra inputs are not permitted",
                None
            ),
            "parameters.…: Extra inputs are not permitted"
        );
        assert_eq!(
            words("tools.*.outputSchema.properties.raw: Invalid input", None),
            "tools.*.outputSchema.properties.…: Invalid input"
        );
        assert_eq!(
            words(
                "tools.*.inputSchema.type: Invalid input: expected \"object\"",
                None
            ),
            "tools.*.inputSchema.type: Invalid input: expected \"object\""
        );
        assert_eq!(
            words(
                "NOT SUPPORTED: keyword \"id\", use \"$id\" for schema ID",
                None
            ),
            "NOT SUPPORTED: keyword \"id\", use \"$id\" for schema ID"
        );
        assert_eq!(
            words(
                "Cannot convert a JSON schema using unsupported keyword `allOf` to strict mode.",
                None
            ),
            "Cannot convert a JSON schema using unsupported keyword … to strict mode."
        );
        assert_eq!(
            own_words(
                "{\"at\": \"2026-12-01T11:00:00\", \"city\": \"London\"} is rejected",
                None
            ),
            None
        );
        assert_eq!(
            words("URI scheme is malformed.", None),
            "URI scheme is malformed."
        );
    }
}
