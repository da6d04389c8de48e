//! URI checks shared by the identifier and reference rules, judged by fluent-uri (the parser the
//! `jsonschema` crate uses), plus the URN rules Ajv adds on top of RFC 3986.

use fluent_uri::{ParseErrorKind, Uri, UriRef};
use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;

/// Where and why a value is not an RFC 3986 URI-reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UriProblem {
    /// Byte range of the offending character within the value.
    pub range: Range<usize>,
    /// What is wrong, for the primary label.
    pub label: String,
    /// The parser's verdict in one sentence.
    pub reason: String,
}

const SCHEME_CHARS: &str = "+-.";

/// Checks `value` as an RFC 3986 URI-reference.
///
/// # Errors
/// The offending character and the reason, when fluent-uri rejects the value.
pub fn check_uri_reference(value: &str) -> Result<(), UriProblem> {
    let Err(error) = UriRef::parse(value) else {
        return Ok(());
    };
    let index = error.index().min(value.len());
    let ch = value[index..].chars().next();
    let end = index + ch.map_or(0, char::len_utf8);
    let (label, reason) = match (error.kind(), ch) {
        (ParseErrorKind::InvalidPctEncodedOctet, _) => (
            "`%` does not start a percent-encoded octet".to_owned(),
            "`%` must be followed by two hexadecimal digits (`%25` for a literal `%`)".to_owned(),
        ),
        (ParseErrorKind::InvalidIpv6Addr, _) => (
            "invalid IPv6 address".to_owned(),
            "the bracketed host is not a valid IPv6 address".to_owned(),
        ),
        (_, Some(':')) if index == value.find(':').unwrap_or(usize::MAX) => {
            let before = &value[..index];
            let bad = before
                .chars()
                .find(|c| !(c.is_ascii_alphanumeric() || SCHEME_CHARS.contains(*c)));
            let why_not_scheme = match bad {
                Some(c) => format!("`{c}` is not allowed in a URI scheme"),
                None if before.is_empty() => "a URI scheme cannot be empty".to_owned(),
                None => "a URI scheme must start with a letter".to_owned(),
            };
            (
                "`:` is not allowed here".to_owned(),
                format!(
                    "`{before}` is not a URI scheme ({why_not_scheme}), and a relative reference may not \
                     have `:` in its first segment"
                ),
            )
        }
        (_, Some(c)) if c.is_whitespace() => (
            "whitespace is not allowed in a URI".to_owned(),
            "whitespace must be percent-encoded (`%20` for a space)".to_owned(),
        ),
        (_, Some(c)) => (
            format!("`{}` is not allowed here", c.escape_debug()),
            format!(
                "`{}` may not appear at this position of a URI; percent-encode it or replace it",
                c.escape_debug()
            ),
        ),
        (_, None) => (
            "unexpected end".to_owned(),
            "the URI ends where more was expected".to_owned(),
        ),
    };
    Err(UriProblem {
        range: index..end,
        label,
        reason,
    })
}

/// Whether what stands before the first `:` of `value` (and before any `/`, `?` or `#`) is meant
/// as a scheme but cannot be one (`my_tool:output`): fast-uri, Ajv's URI library, refuses such a
/// value while parsing it (`URI scheme is malformed.`), where it takes other RFC 3986 violations.
#[must_use]
pub fn has_malformed_scheme(value: &str) -> bool {
    let head = &value[..value.find(['/', '?', '#']).unwrap_or(value.len())];
    let Some((scheme, _)) = head.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    !scheme.is_empty() && !valid
}

/// Why Ajv (fast-uri) cannot handle an absolute `urn:` URI that RFC 3986 accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrnProblem {
    /// Byte range within the value of the offending character or part of the URN.
    pub range: Range<usize>,
    /// What is wrong, for the primary label.
    pub label: String,
    /// The rule the URN breaks, in one sentence.
    pub reason: String,
}

/// Checks the URN rules fast-uri applies: a namespace id of 1 to 32 letters, digits and `-`
/// starting with a letter or digit, a non-empty namespace-specific string, no `~` or `&` in it.
/// Returns `None` for values that are not `urn:` URIs.
#[must_use]
pub fn urn_problem(value: &str) -> Option<UrnProblem> {
    let scheme_end = value.find(':')?;
    if !value[..scheme_end].eq_ignore_ascii_case("urn") {
        return None;
    }
    let body_start = scheme_end + 1;
    let body_end = value[body_start..]
        .find(['?', '#'])
        .map_or(value.len(), |i| body_start + i);
    let body = &value[body_start..body_end];
    let (nid, nss_start) = match body.find(':') {
        Some(i) => (&body[..i], Some(body_start + i + 1)),
        None => (body, None),
    };
    let nid_range = body_start..body_start + nid.len();
    let nid_ok = nid.len() <= 32
        && nid
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && nid.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if !nid_ok {
        let (range, label) = match nid
            .char_indices()
            .find(|(i, c)| !(c.is_ascii_alphanumeric() || (*i > 0 && *c == '-')))
        {
            Some((i, c)) => (
                nid_range.start + i..nid_range.start + i + c.len_utf8(),
                format!("`{}` is not allowed in a URN namespace", c.escape_debug()),
            ),
            None if nid.is_empty() => (nid_range.clone(), "empty URN namespace".to_owned()),
            None => (
                nid_range.clone(),
                "URN namespace longer than 32 characters".to_owned(),
            ),
        };
        return Some(UrnProblem {
            range,
            label,
            reason: format!(
                "the URN namespace `{nid}` must be 1 to 32 letters, digits or `-`, starting with a letter or digit"
            ),
        });
    }
    let Some(nss_start) = nss_start.filter(|&s| s < body_end) else {
        return Some(UrnProblem {
            range: body_start..body_end,
            label: "no namespace-specific string".to_owned(),
            reason: format!("`urn:{nid}` has no namespace-specific string after `urn:{nid}:`"),
        });
    };
    let nss = &value[nss_start..body_end];
    if let Some(i) = nss.find(['~', '&']) {
        let c = &nss[i..=i];
        return Some(UrnProblem {
            range: nss_start + i..nss_start + i + 1,
            label: format!("`{c}` is not portable in a URN"),
            reason: format!("fast-uri does not keep `{c}` in a URN's namespace-specific string"),
        });
    }
    None
}

/// The `_` repair: replace each character that makes `value` invalid with `_` (in a URN
/// namespace, with `-`), until the value passes both checks. `None` when the value needs a human
/// (a broken IPv6 literal, a URN with no namespace-specific string).
#[must_use]
pub fn underscore_repair(value: &str) -> Option<String> {
    let mut current = value.to_owned();
    for _ in 0..=value.len() {
        if let Err(problem) = check_uri_reference(&current) {
            if problem.range.is_empty() || problem.label.contains("IPv6") {
                return None;
            }
            current.replace_range(problem.range, "_");
            continue;
        }
        match urn_problem(&current) {
            None => return (current != value).then_some(current),
            Some(p) if p.label.starts_with('`') && !p.range.is_empty() => {
                let replacement = if p.label.contains("namespace") {
                    "-"
                } else {
                    "_"
                };
                // A namespace cannot start with `-`: prefix instead of replacing the first character.
                if replacement == "-" && p.range.start == current.find(':')? + 1 {
                    current.replace_range(p.range, "x");
                } else {
                    current.replace_range(p.range, replacement);
                }
            }
            Some(_) => return None,
        }
    }
    None
}

/// Percent-encodes each character that makes `value` an invalid URI reference (a stray `%`
/// becomes `%25`). `None` when that is not enough (a broken IPv6 literal) or nothing changes.
#[must_use]
pub fn percent_encode_repair(value: &str) -> Option<String> {
    let mut current = value.to_owned();
    for _ in 0..=value.len() {
        let Err(problem) = check_uri_reference(&current) else {
            return (current != value).then_some(current);
        };
        if problem.range.is_empty() || problem.label.contains("IPv6") {
            return None;
        }
        let encoded = current[problem.range.clone()]
            .bytes()
            .fold(String::new(), |mut out, b| {
                let _ = write!(out, "%{b:02X}");
                out
            });
        current.replace_range(problem.range, &encoded);
    }
    None
}

/// The RFC 3986 normal form of a URI reference, the fragment kept as written: fluent-uri's
/// `normalize()` (case of scheme and host, percent-encoding, default port, dot segments of
/// absolute paths), plus the removal of dot segments from relative references, which
/// fluent-uri leaves alone. A relative reference keeps its leading `../` (which cannot be
/// resolved away without a base) and a `./` where dropping it would change the meaning
/// (`./a:b`, `.//x`). `None` when `value` is not a URI reference.
#[must_use]
pub fn normalize_reference(value: &str) -> Option<String> {
    let (uri_part, fragment) = match value.split_once('#') {
        Some((u, f)) => (u, Some(f)),
        None => (value, None),
    };
    let normal = UriRef::parse(uri_part).ok()?.normalize();
    let mut out = if normal.has_scheme() {
        normal.as_str().to_owned()
    } else {
        let text = normal.as_str();
        let prefix = normal.authority().map_or(0, |a| a.as_str().len() + 2);
        let path = normal.path().as_str();
        let rest = &text[prefix + path.len()..];
        let mut new_path = if path.starts_with('/') {
            remove_dot_segments(path)
        } else {
            normalize_relative_path(path)
        };
        // Without an authority, a path may not start with `//`.
        if prefix == 0 && new_path.starts_with("//") {
            new_path.insert_str(0, "/.");
        }
        format!("{}{new_path}{rest}", &text[..prefix])
    };
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    Some(out)
}

/// RFC 3986 section 5.2.4 on an absolute path (one that starts with `/`).
fn remove_dot_segments(path: &str) -> String {
    let segments: Vec<&str> = path[1..].split('/').collect();
    let mut out: Vec<&str> = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *segment {
            "." => {}
            ".." => {
                out.pop();
            }
            s => {
                out.push(s);
                continue;
            }
        }
        if last {
            out.push("");
        }
    }
    format!("/{}", out.join("/"))
}

/// Dot-segment removal for a relative path (`a/b/../c` -> `a/c`, `./x` -> `x`) that resolves to
/// the same URI as `path` against any base: leading `..` segments stay, a path that would become
/// empty (which names the base document itself) becomes `./`, and `./` stays in front of a first
/// segment that is empty or holds a `:`.
fn normalize_relative_path(path: &str) -> String {
    if path.is_empty() {
        return String::new();
    }
    let segments: Vec<&str> = path.split('/').collect();
    let mut out: Vec<&str> = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *segment {
            "." => {
                if last {
                    out.push("");
                }
            }
            ".." if out.last().is_some_and(|s| *s != "..") => {
                out.pop();
                if last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    let mut result = out.join("/");
    let first = out.first().copied().unwrap_or("");
    if first.is_empty() || first.contains(':') {
        result.insert_str(0, "./");
    }
    result
}

/// A path with `/` separators as a URI path: percent-encoded where RFC 3986 needs it.
#[must_use]
pub fn percent_encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The `file://` URI of a path (made absolute against the working directory).
#[must_use]
pub fn file_uri(path: &Path) -> String {
    // The working directory is read once: `std::path::absolute` would ask for it per file.
    static CWD: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    let absolute = match CWD.get_or_init(|| std::env::current_dir().ok()) {
        Some(cwd) if path.is_relative() => std::path::absolute(cwd.join(path)),
        _ => std::path::absolute(path),
    }
    .unwrap_or_else(|_| path.to_path_buf());
    let text = absolute.to_string_lossy().replace('\\', "/");
    let slash = if text.starts_with('/') { "" } else { "/" };
    let uri = format!("file://{slash}{}", percent_encode_path(&text));
    // `std::path::absolute` keeps `..` (`../schemas/a.json` from `/work/main` is
    // `/work/main/../schemas/a.json`), and a reference resolved against it is normalised: the
    // two spellings of one file must be one URI.
    Uri::parse(uri.as_str()).map_or(uri.clone(), |u| u.normalize().into_string())
}

/// Resolves `reference` against the absolute `base`, normalised, fragment kept.
#[must_use]
pub fn resolve_uri(base: &str, reference: &str) -> Option<String> {
    let base = Uri::parse(base).ok()?;
    let r = UriRef::parse(reference).ok()?;
    Some(r.resolve_against(&base).ok()?.normalize().into_string())
}

/// The absolute URI, without fragment, that `raw` names against `base`; with no base, only an
/// absolute `raw` names one.
#[must_use]
pub fn absolute_uri(base: Option<&str>, raw: &str) -> Option<String> {
    match base {
        Some(b) => resolve_uri(b, raw).map(|u| strip_fragment(&u).to_owned()),
        None => UriRef::parse(raw)
            .ok()
            .filter(UriRef::has_scheme)
            .map(|u| strip_fragment(u.normalize().as_str()).to_owned()),
    }
}

/// Where `raw` resolves against `base` once its offending characters are percent-encoded.
#[must_use]
pub fn encoded_absolute(base: Option<&str>, raw: &str) -> Option<String> {
    let encoded = percent_encode_repair(raw);
    absolute_uri(base, encoded.as_deref().unwrap_or(raw))
}

/// `uri` without its fragment.
#[must_use]
pub fn strip_fragment(uri: &str) -> &str {
    uri.split_once('#').map_or(uri, |(u, _)| u)
}

/// Decodes `%XX` escapes; `None` when they do not form UTF-8.
#[must_use]
pub fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_have_no_dot_segments() {
        let uri = file_uri(Path::new("/work/main/../schemas/./a.json"));
        assert_eq!(uri, "file:///work/schemas/a.json");
        let against = resolve_uri(
            &file_uri(Path::new("/work/main/../schemas/b.json")),
            "a.json",
        );
        assert_eq!(against.as_deref(), Some(uri.as_str()));
    }

    #[test]
    fn file_uris_are_percent_encoded() {
        assert_eq!(file_uri(Path::new("/a b/c.json")), "file:///a%20b/c.json");
        assert_eq!(percent_decode("a%25b%7E").as_deref(), Some("a%b~"));
    }

    #[test]
    fn accepts_the_valid_spellings() {
        for ok in [
            "https://example.com/s.json",
            "https://example.com/s.json#",
            "urn:mcp:my_tool:output",
            "tag:example.com,2025:tool",
            "my-tool:output",
            "my_tool_output",
            "./tool.json",
            "../x/y.json",
            "/abs/path",
            "#foo",
            "",
        ] {
            assert_eq!(check_uri_reference(ok), Ok(()), "{ok}");
            assert_eq!(urn_problem(ok), None, "{ok}");
        }
    }

    #[test]
    fn explains_the_colon_in_a_relative_reference() {
        let p = check_uri_reference("my_tool:output").unwrap_err();
        assert_eq!(p.range, 7..8);
        assert!(
            p.reason.contains("`_` is not allowed in a URI scheme"),
            "{}",
            p.reason
        );
        let p = check_uri_reference("my tool").unwrap_err();
        assert_eq!(p.range, 2..3);
        assert!(p.label.contains("whitespace"));
        let p = check_uri_reference("a%zz").unwrap_err();
        assert_eq!(p.range, 1..2);
    }

    #[test]
    fn urn_rules() {
        let p = urn_problem("urn:my_tool:output").unwrap();
        assert_eq!(p.range, 6..7);
        assert!(urn_problem("urn:x")
            .unwrap()
            .label
            .contains("namespace-specific"));
        assert!(urn_problem("URN:a:b~c").unwrap().label.contains('~'));
        assert!(urn_problem("urn:a:b&c").is_some());
        assert!(urn_problem("urn:-a:b").is_some());
        assert_eq!(urn_problem("urn:ietf:rfc:3986"), None);
    }

    #[test]
    fn percent_encode_repair_examples() {
        assert_eq!(
            percent_encode_repair("#/$defs/a b").as_deref(),
            Some("#/$defs/a%20b")
        );
        assert_eq!(
            percent_encode_repair("#/$defs/é").as_deref(),
            Some("#/$defs/%C3%A9")
        );
        assert_eq!(percent_encode_repair("a%zz").as_deref(), Some("a%25zz"));
        assert_eq!(percent_encode_repair("fine"), None);
    }

    #[test]
    fn underscore_repair_examples() {
        assert_eq!(
            underscore_repair("my_tool:output").as_deref(),
            Some("my_tool_output")
        );
        assert_eq!(underscore_repair("my tool").as_deref(), Some("my_tool"));
        assert_eq!(
            underscore_repair("urn:my_tool:output").as_deref(),
            Some("urn:my-tool:output")
        );
        assert_eq!(underscore_repair("a b:c d").as_deref(), Some("a_b_c_d"));
        assert_eq!(underscore_repair("urn:x"), None);
        assert_eq!(underscore_repair("fine"), None);
    }

    #[test]
    fn normal_forms() {
        for (raw, normal) in [
            ("HTTPS://EXAMPLE.COM/x", "https://example.com/x"),
            (
                "https://example.com:443/a/./b/../c",
                "https://example.com/a/c",
            ),
            ("my_tool%3aoutput", "my_tool%3Aoutput"),
            ("%41bc.json", "Abc.json"),
            ("./tool.json", "tool.json"),
            ("a/b/../c", "a/c"),
            ("a/./b", "a/b"),
            ("a/..", "./"),
            ("a/b/..", "a/"),
            (".", "./"),
            ("./a:b", "./a:b"),
            ("a/../b:c", "./b:c"),
            (".//x", ".//x"),
            ("../x/y.json", "../x/y.json"),
            ("../../a/../b", "../../b"),
            ("a/../../b", "../b"),
            ("/a/./b/../c", "/a/c"),
            ("/..", "/"),
            ("//Host.COM/a/../b", "//host.com/b"),
            ("x.json#/a/./b", "x.json#/a/./b"),
            ("./x.json#Foo", "x.json#Foo"),
        ] {
            assert_eq!(normalize_reference(raw).as_deref(), Some(normal), "{raw}");
            // Idempotent.
            assert_eq!(
                normalize_reference(normal).as_deref(),
                Some(normal),
                "{normal}"
            );
        }
        for already in [
            "https://example.com/s.json",
            "urn:mcp:my_tool:output",
            "tag:example.com,2025:tool",
            "my-tool:output",
            "my_tool_output",
            "/abs/path",
            "./",
            "#foo",
            "",
            "https://example.com/s2.json#",
        ] {
            assert_eq!(normalize_reference(already).as_deref(), Some(already));
        }
        assert_eq!(normalize_reference("my_tool:output"), None);
    }

    #[test]
    fn normalised_relative_paths_resolve_alike() {
        let base = fluent_uri::Uri::parse("http://h/d/e/f").unwrap();
        for raw in [
            "a/..", "a/b/..", ".", "./a", "../..", "../a/..", "a//../b", "a/../..", "./", ".//x",
        ] {
            let normal = normalize_reference(raw).unwrap();
            let resolve = |r: &str| {
                UriRef::parse(r)
                    .unwrap()
                    .resolve_against(&base)
                    .unwrap()
                    .normalize()
                    .into_string()
            };
            assert_eq!(resolve(raw), resolve(&normal), "{raw} -> {normal}");
        }
    }
}
