//! [`super::check`] against what Python and V8 did with the same patterns.

use super::{check, PyError};
use crate::syntax::regex_ecma;

/// Patterns with what the engines did with them: `new RegExp(p, "u")` in Node 20 (V8 11.3)
/// and `re.compile(p)` in Python 3.11.7. Pattern modifiers (`(?i:...)`), which Node 20
/// refuses and later versions accept, are left out on purpose (see `regex_ecma`).
const MEASURED: &[(&str, bool, bool)] = &[
    (r"(?<name>a)", true, false),
    (r"(?<name>a)\k<name>", true, false),
    (r"\p{L}", true, false),
    (r"\P{Lu}", true, false),
    (r"\p{Script=Greek}", true, false),
    (r"\k<x>", false, false),
    (r"\cJ", true, false),
    (r"\u{41}", true, false),
    (r"\u{1F600}", true, false),
    (r"(?<=a+)b", true, false),
    (r"(?<=a|bc)b", true, false),
    (r"(?<=ab|cd)e", true, true),
    (r"(?<!a{1,2})b", true, false),
    (r"[]", true, false),
    (r"[^]", true, false),
    (r"a[]b", true, false),
    (r"[^]*", true, false),
    (r"\:", false, true),
    (r"\-", false, true),
    (r"[\-]", true, true),
    (r#"\""#, false, true),
    (r"\_", false, true),
    (r"\@", false, true),
    (r"a{", false, true),
    (r"a{1", false, true),
    (r"a{,3}", false, true),
    (r"{", false, true),
    (r"}", false, true),
    (r"]", false, true),
    (r"a]", false, true),
    (r"a}", false, true),
    (r"(?P<n>a)", false, true),
    (r"(?i)abc", false, true),
    (r"\A", false, true),
    (r"\Z", false, true),
    (r"\z", false, false),
    (r"(?#c)a", false, true),
    (r"\N{EM DASH}", false, true),
    (r"a*+", false, true),
    (r"a++", false, true),
    (r"(?>a)", false, true),
    (r"(", false, false),
    (r")", false, false),
    (r"[a", false, false),
    (r"a**", false, false),
    (r"*a", false, false),
    (r"a{2,1}", false, false),
    (r"\", false, false),
    (r"\1(a)", true, false),
    (r"(a\1)", true, false),
    (r"(a)\1", true, true),
    (r"(a)\2", false, false),
    (r"\0", true, true),
    (r"\01", false, true),
    (r"[\1]", false, true),
    (r"[\d-z]", false, false),
    (r"[a-\d]", false, false),
    (r"[\w-]", true, true),
    (r"[z-a]", false, false),
    (r"\x4", false, false),
    (r"\x41", true, true),
    (r"\u004", false, false),
    (r"\u0041", true, true),
    (r"\uD83D\uDE00", true, true),
    (r"[\uD83D\uDE00-\uD83D\uDE4F]", true, false),
    (r"^(?!\s*$).+", true, true),
    (r"^[a-zA-Z0-9_.-]+$", true, true),
    (r"^\d{3}-\d{4}$", true, true),
    (r"(?=a)*", false, true),
    (r"(?=a)b", true, true),
    (r"\b+", false, false),
    (r"^*", false, false),
    (r"$", true, true),
    (r"^$", true, true),
    (r"a|", true, true),
    (r"|", true, true),
    (r"()", true, true),
    (r"(?:)", true, true),
    (r"(?:)*", true, true),
    (r"x{}", false, true),
    (r"x{a}", false, true),
    (r"[\b]", true, true),
    (r"\B", true, true),
    (r"[\B]", false, false),
    (r"\/", true, true),
    (r"\.", true, true),
    (r"[.]", true, true),
    (r"\s\S\w\W\d\D", true, true),
    (r"\t\n\r\f\v", true, true),
    (r"\a", false, true),
    (r"[\a]", false, true),
    (r"\e", false, false),
    (r"\h", false, false),
    (r"[\p{L}]", true, false),
    (r"[^\P{L}]", true, false),
    (r"(?<a>x)|(?<a>y)", false, false),
    (r"(?<a>x)(?<a>y)", false, false),
    (r"(?<$x>a)", true, false),
    (r"(?<é>a)", true, false),
    (r"^\w+@\w+\.\w+$", true, true),
    (r"\u{110000}", false, false),
    (r"\c1", false, false),
    (r"\c", false, false),
    (r"\k", false, false),
    (r"(?<x>a)\k", false, false),
    (r"\p{L", false, false),
    (r"\p{}", false, false),
    (r"\p", false, false),
    (r"[a-z--b]", true, true),
    (r"[\w--z]", false, false),
    (r"a{1}{2}", false, false),
    (r"a{1}?", true, true),
    (r"a??", true, true),
    (r"a??b", true, true),
    (r"a*??", false, false),
    (r"[", false, false),
    (r"a\", false, false),
    (r"\8", false, false),
    (r"(?=", false, false),
    (r"(?!)", true, true),
    (r"(?<=)", true, true),
    (r"(?<=\b)a", true, true),
    (r"(?<=^)a", true, true),
    (r"(?<=a\d)b", true, true),
    (r"(?<=(a))b", true, true),
    (r"(?<=(ab|c))d", true, false),
    (r"(?<=a(?=b))c", true, true),
    (r"(?<=[ab])c", true, true),
    (r"(?<=a?)b", true, false),
    (r"(?<=a{2})b", true, true),
    (r"(?<=a{2,3})b", true, false),
    (r"(?<=\1)(a)", true, false),
    (r"(a)(?<=\1)b", true, true),
    (r"[\u0041-\u005A]", true, true),
    (r"[\x41-\x5a]", true, true),
    (r"[\0]", true, true),
    (r"[\09]", false, true),
    (r"\09", false, true),
    (r"[\c]", false, false),
    (r"[\cA]", true, false),
    (r"[\_]", false, true),
    (r"[\:]", false, true),
    (r#"[\"]"#, false, true),
    (r"\ ", false, true),
    (r"(?P=n)", false, false),
    (r"(?P<n>a)(?P=n)", false, true),
    (r"(?(1)a|b)", false, false),
    (r"(a)(?(1)a|b)", false, true),
    (r"^[^\x00-\x1F\x7F]+$", true, true),
    (r"^[\p{L}\p{N}]+$", true, false),
    (r"^(?:[a-z]+)$", true, true),
    (r"\u2028", true, true),
];

#[test]
fn agrees_with_v8_and_cpython() {
    for &(pattern, ecma, python) in MEASURED {
        assert_eq!(
            regex_ecma::check(pattern).is_ok(),
            ecma,
            "ECMA-262 verdict on {pattern:?}"
        );
        assert_eq!(
            check(pattern).is_ok(),
            python,
            "Python verdict on {pattern:?}"
        );
    }
}

#[test]
fn places_and_words_the_error_as_python_does() {
    let r = check(r"^(?<year>\d+)$").unwrap_err();
    assert_eq!(
        (r.range.start, r.message.as_str()),
        (1, "unknown extension ?<y")
    );
    let r = check(r"ab\p{L}").unwrap_err();
    assert_eq!((r.range, r.message.as_str()), (2..4, r"bad escape \p"));
    let r = check(r"x(?<=a|bc)").unwrap_err();
    assert_eq!(r.kind, PyError::LookBehindWidth);
    assert_eq!(r.range.start, 1);
}

/// `n` groups opened by `open`, each around the next, around `inner`.
fn nested(open: &str, n: usize, inner: &str) -> String {
    open.repeat(n) + inner + &")".repeat(n)
}

/// Runs `f` on a thread with 8 MiB of stack: the parser recurses as `re` does, down to
/// `MAX_NESTED`, which takes a debug build about 4 MiB (more than a test thread's 2 MiB; the
/// engine's threads have 64).
fn on_a_deep_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn stops_where_python_runs_out_of_recursion() {
    on_a_deep_stack(stops_where_python_runs_out_of_recursion_);
}

fn stops_where_python_runs_out_of_recursion_() {
    // Measured with Python 3.11.7's `re.compile`: 495 nested groups of any kind compile, 496
    // raise `RecursionError`; a conditional costs half as much.
    for open in ["(", "(?:", "(?=", "(?<=", "(?i:", "(?>"] {
        assert_eq!(check(&nested(open, 495, "a")), Ok(()), "{open}");
        let r = check(&nested(open, 496, "a")).unwrap_err();
        assert_eq!(r.kind, PyError::TooDeep, "{open}");
        assert_eq!(r.message, "maximum recursion depth exceeded");
        assert_eq!(r.range, 495 * open.len()..495 * open.len() + 1, "{open}");
    }
    assert_eq!(check(&format!("(a){}", nested("(?(1)", 990, "a"))), Ok(()));
    let r = check(&format!("(a){}", nested("(?(1)", 991, "a"))).unwrap_err();
    assert_eq!(r.kind, PyError::TooDeep);
    // An error met before the depth is Python's error.
    let r = check(&format!("*{}", nested("(", 1000, "a"))).unwrap_err();
    assert_eq!(r.message, "nothing to repeat");
}

#[test]
fn a_pattern_130_000_groups_deep_is_checked_without_recursing_that_deep() {
    on_a_deep_stack(a_pattern_130_000_groups_deep_is_checked_without_recursing_that_deep_);
}

fn a_pattern_130_000_groups_deep_is_checked_without_recursing_that_deep_() {
    let n = 130_000;
    // V8 parses any depth (measured, Node 20: a million `(?:` compile) and refuses the
    // 32,768th capture group.
    assert!(regex_ecma::check(&nested("(?:", n, "a")).is_ok());
    assert!(regex_ecma::check(&nested("(", 32_767, "a")).is_ok());
    let r = regex_ecma::check(&nested("(", n, "a")).unwrap_err();
    assert_eq!((r.range, r.message), (32_767..32_768, "Too many captures"));
    let r = regex_ecma::check(&format!("{}(?<n>a)", nested("(", 32_767, ""))).unwrap_err();
    assert_eq!(r.message, "Too many captures");
    let r = regex_ecma::check(&"(?:".repeat(n)).unwrap_err();
    let last = 3 * (n - 1);
    assert_eq!((r.range, r.message), (last..last + 1, "Unterminated group"));
    let r = regex_ecma::check(&nested("(?:", n, "\\:")).unwrap_err();
    assert_eq!(r.kind, regex_ecma::EcmaError::IdentityEscape);
    assert_eq!(
        check(&nested("(?:", n, "a")).unwrap_err().kind,
        PyError::TooDeep
    );
}
