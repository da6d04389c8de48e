//! ajv-formats 3.0.1's checks of the formats that are plain regular expressions in its "full"
//! mode (`addFormats(ajv)`, as the TS SDK clients call it), reproduced for the audit
//! ([`super::formats::ts_clients`]): `uri`, `uri-reference`, `email`, `hostname`, `ipv4`,
//! `ipv6`, `uuid` and `duration`.
//!
//! The expressions are ajv-formats' own (`dist/formats.js`, MIT), each compiled without Unicode
//! (`(?-u)`), as JavaScript compiles them without the `u` flag: `\d` is an ASCII digit and `i`
//! folds ASCII letters only. Two look-arounds, which the `regex` crate has not, are written out:
//! the length of a `hostname` ([`hostname`]) and the shape of a `duration` ([`duration`]). The
//! engine tier measures where the reproduction and Ajv agree (the `sl508-<format>` cases, checked
//! by the tests of `formats.rs`). `regex` is a JavaScript `RegExp` compiled: regress parses it
//! ([`regex`]).

use regex::Regex;
use std::sync::LazyLock;

/// ajv-formats' `URI` (the `uri` check, after `NOT_URI_FRAGMENT`: a `/` or `:`).
const URI: &str = r"(?i-u)^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$";

/// ajv-formats' `uri-reference`.
const URI_REFERENCE: &str = r#"(?i-u)^(?:[a-z][a-z0-9+\-.]*:)?(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'"()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\?(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?$"#;

/// ajv-formats' `email`.
const EMAIL: &str = r"(?i-u)^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$";

/// ajv-formats' `ipv4`.
const IPV4: &str =
    r"(?-u)^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$";

/// ajv-formats' `ipv6`.
const IPV6: &str = r"(?i-u)^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$";

/// ajv-formats' `uuid`.
const UUID: &str = r"(?i-u)^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$";

/// ajv-formats' `hostname` without its look-ahead `(?=.{1,253}\.?$)`, checked apart ([`hostname`]).
const HOSTNAME: &str =
    r"(?i-u)^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$";

/// `duration`: ajv-formats' `/^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/`
/// with its look-aheads written out: something after `P`, and a `T` followed by an hour, minute
/// or second.
const DURATION: &str = r"(?-u)^P(?:(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?:\d+H(?:\d+M)?(?:\d+S)?|\d+M(?:\d+S)?|\d+S))?|(?:\d+W)?)$";

fn compiled(source: &'static str) -> Regex {
    // The expressions are constants, compiled by the tests below.
    Regex::new(source).unwrap_or_else(|e| unreachable!("{e}"))
}

static COMPILED: LazyLock<[Regex; 8]> = LazyLock::new(|| {
    [
        URI,
        URI_REFERENCE,
        EMAIL,
        IPV4,
        IPV6,
        UUID,
        HOSTNAME,
        DURATION,
    ]
    .map(compiled)
});

/// ajv-formats' `uri`: a `/` or `:` somewhere, and `URI`.
#[must_use]
pub fn uri(s: &str) -> bool {
    s.contains(['/', ':']) && COMPILED[0].is_match(s)
}

/// ajv-formats' `uri-reference`.
#[must_use]
pub fn uri_reference(s: &str) -> bool {
    COMPILED[1].is_match(s)
}

/// ajv-formats' `email`.
#[must_use]
pub fn email(s: &str) -> bool {
    COMPILED[2].is_match(s)
}

/// ajv-formats' `ipv4`.
#[must_use]
pub fn ipv4(s: &str) -> bool {
    COMPILED[3].is_match(s)
}

/// ajv-formats' `ipv6`.
#[must_use]
pub fn ipv6(s: &str) -> bool {
    COMPILED[4].is_match(s)
}

/// ajv-formats' `uuid`.
#[must_use]
pub fn uuid(s: &str) -> bool {
    COMPILED[5].is_match(s)
}

/// ajv-formats' `hostname`: its look-ahead `(?=.{1,253}\.?$)` (1 to 253 characters, then an
/// optional dot; `.` matches no line terminator, which the rest refuses anyway) and the rest.
#[must_use]
pub fn hostname(s: &str) -> bool {
    let name = if s.len() == 254 {
        s.strip_suffix('.').unwrap_or(s)
    } else {
        s
    };
    (1..=253).contains(&name.chars().count()) && COMPILED[6].is_match(s)
}

/// ajv-formats' `duration` ([`DURATION`]).
#[must_use]
pub fn duration(s: &str) -> bool {
    s != "P" && COMPILED[7].is_match(s)
}

/// ajv-formats' `regex`: no `\Z` after another character than `\` (`/[^\\]\\Z/`), and
/// `new RegExp(s)` compiles (without flags: JavaScript's lenient Annex B syntax), which regress
/// checks with the same grammar.
#[must_use]
pub fn regex(s: &str) -> bool {
    let z_anchor = s
        .as_bytes()
        .windows(3)
        .any(|w| w[0] != b'\\' && w[1] == b'\\' && w[2] == b'Z');
    !z_anchor && regress::Regex::with_flags(s, "").is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_expression_compiles() {
        assert_eq!(COMPILED.len(), 8);
    }

    #[test]
    fn reproduces_ajv_formats() {
        assert!(uri("https://example.com/K%C3%B6ln") && !uri("https://example.com/a|b"));
        assert!(!uri("https://de.wikipedia.org/wiki/Köln") && !uri("urn"));
        assert!(uri_reference("") && uri_reference("../x?y=1") && !uri_reference("#x|y"));
        assert!(email("o'brien@example.com") && !email("jürgen@example.com") && !email("a@b-.com"));
        assert!(hostname("example.com.") && !hostname("münchen.de") && !hostname(""));
        // 253 characters, with a trailing dot or not; 254 without one; a label of 64.
        let long = format!("{0}.{0}.{0}.{1}", "a".repeat(63), "a".repeat(61));
        assert!(hostname(&long) && hostname(&format!("{long}.")) && !hostname(&format!("{long}a")));
        assert!(!hostname(&format!("{}.com", "a".repeat(64))));
        assert!(ipv4("192.0.2.1") && !ipv4("010.1.1.1"));
        assert!(ipv6("::ffff:192.0.2.1") && ipv6("2001:DB8::1") && !ipv6("fe80::1%eth0"));
        assert!(
            uuid("URN:UUID:550E8400-E29B-41D4-A716-446655440000")
                && !uuid("550e8400e29b41d4a716446655440000")
        );
        assert!(duration("P1W") && duration("PT0S") && !duration("P") && !duration("PT"));
        assert!(!duration("PT1.5S") && !duration("P2W3D") && !duration("P1DT"));
        // `i` folds ASCII letters only, as JavaScript without the `u` flag: the Kelvin sign is
        // no `k`.
        assert!(!hostname("\u{212a}.example"));
    }
}
