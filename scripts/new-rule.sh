#!/usr/bin/env bash
# Scaffolds a schema rule: what adding one touches, ready to build and test.
#
#   scripts/new-rule.sh CODE name family
#   scripts/new-rule.sh SL509 output-title-missing mcp
#
# CODE is `SL` and three digits whose hundred is the family's: identifiers (SL2xx), references
# (SL3xx), dialect (SL4xx), mcp (SL5xx), providers (SL7xx: hosts and model providers); name is
# kebab-case. Writes
#   src/rules/<family>/slNNN_<name>.rs   `impl Rule for <Name>`, whose placeholder check reports
#                                        the `x-slNNN-example` keyword (replace it with the rule's)
#   src/rules/<family>/mod.rs            its `mod` line, in code order
#   rules/SLNNN.md                       the doc: its header (the rule's only declaration of its
#                                        metadata: category, severity, fix) and its sections
#   testdata/rules/SLNNN/bad-example.json  the fixture folder, with one bad fixture
# `cargo build` then passes, and `cargo test` once the new snapshots are blessed (the rule's and
# its fixture's, the README's rule table and the CLI fixtures that list every rule):
# `SCHEMA_LINT_BLESS=1 cargo test`, then review the diff like code. The engine tier observes the
# new bad fixture on its next `tests/integration/engines.sh --write`.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    echo "usage: $0 CODE name family   (e.g. $0 SL509 output-title-missing mcp)" >&2
    exit 2
}
fail() {
    echo "new-rule: $*" >&2
    exit 1
}

[ $# -eq 3 ] || usage
code=$1 name=$2 family=$3
[[ $code =~ ^SL[2-57][0-9][0-9]$ ]] || fail "the code must be SL2xx to SL5xx or SL7xx, not \`$code\`"
[[ $name =~ ^[a-z][a-z0-9]*(-[a-z0-9]+)*$ ]] || fail "the name must be kebab-case, not \`$name\`"
case $family in
    identifiers) hundred=2 category=identifiers ;;
    references) hundred=3 category=references ;;
    dialect) hundred=4 category=dialect ;;
    mcp) hundred=5 category=mcp ;;
    providers) hundred=7 category=providers ;;
    *) fail "the family is identifiers, references, dialect, mcp or providers, not \`$family\`" ;;
esac
[ "${code:2:1}" = "$hundred" ] || fail "$family rules are SL${hundred}xx, not $code"

lower=$(echo "$code" | tr 'A-Z' 'a-z')
snake=${name//-/_}
module="${lower}_${snake}"
type=$(echo "$name" | awk -F- '{ for (i = 1; i <= NF; i++) printf "%s%s", toupper(substr($i, 1, 1)), substr($i, 2) }')
rule_file="src/rules/$family/$module.rs"
mod_file="src/rules/$family/mod.rs"
doc="rules/$code.md"
fixtures="testdata/rules/$code"
keyword="x-$lower-example"

[ -e "$doc" ] && fail "$doc exists: codes are never reused"
compgen -G "src/rules/*/${lower}_*.rs" >/dev/null && fail "a rule file for $code exists"
[ -e "$fixtures" ] && fail "$fixtures exists"
if grep -q "^# SL[0-9]* $name\$" rules/*.md; then
    fail "the name \`$name\` is taken: names are never reused"
fi

cat >"$rule_file" <<EOF
//! $code $name: TODO what the rule finds, in one line.

use crate::diagnostic::meta::$code as META;
use crate::diagnostic::Diagnostic;
use crate::rules::{Rule, RuleMeta, UnitContext};

pub struct $type;

impl Rule for $type {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    // Where it lints: a scope line after the doc's \`Category:\` line (\`Targets: mcp · Roles:
    // output\`, see \`diagnostic::meta::Scope\`); without one it lints every target and role.
    // TODO: the rule's check. This placeholder reports the \`$keyword\` keyword that the
    // doc's and the fixture's bad examples hold, so that the tests pass from the start.
    fn check_unit(&self, cx: &UnitContext<'_>, out: &mut Vec<Diagnostic>) {
        for sub in cx.subschemas {
            let Some(member) = sub.node.member("$keyword") else {
                continue;
            };
            out.push(
                cx.report(
                    member.value.span,
                    "TODO what is wrong, with the value in backticks",
                )
                .label("TODO the smallest meaningful span")
                .help("TODO how to fix it")
                .pointer(format!("{}/$keyword", sub.pointer)),
            );
        }
    }
}
EOF

# The \`mod\` line, before the first rule module that sorts after it (or after the last one).
line="pub(super) mod $module;"
awk -v line="$line" -v module="$module" '
    !done && /^pub\(super\) mod sl[0-9]/ { seen = 1; m = $3; sub(/;$/, "", m); if (m > module) { print line; done = 1 } }
    !done && seen && !/^pub\(super\) mod sl[0-9]/ { print line; done = 1 }
    { print }
    END { if (!done) print line }
' "$mod_file" >"$mod_file.new"
mv "$mod_file.new" "$mod_file"

cat >"$doc" <<EOF
# $code $name

Category: $category · Severity: warning · Fix: none

TODO the summary: what is wrong and what it costs, in one line

## What it does
TODO which values, where (real subschemas only), and the span the finding points at.

## Why is this bad
TODO which clients fail on it and how, as measured by the engine tier (\`testdata/engines/\`).

## Example
\`\`\`json bad
{
  "type": "object",
  "$keyword": true
}
\`\`\`

\`\`\`json good
{
  "type": "object"
}
\`\`\`

## Fix safety
No fix yet. TODO Safe, Unsafe or DisplayOnly, and why.
EOF

mkdir -p "$fixtures"
cat >"$fixtures/bad-example.json" <<EOF
{
  "type": "object",
  "properties": {
    "nested": {"type": "string", "$keyword": 1}
  }
}
EOF

cat <<EOF
new-rule: wrote $rule_file, its mod line in $mod_file, $doc and $fixtures/bad-example.json.
Next: replace the TODOs and the placeholder check, add fixtures to $fixtures/ (bad-*.json,
good-*.json; see README.md, Contributing), then bless and review the snapshots:
  cargo build && SCHEMA_LINT_BLESS=1 cargo test; cargo test
and record what the engines do with the new bad fixtures: tests/integration/engines.sh --write
EOF
