#!/usr/bin/env bash
# Checks every counterexample of `schema-lint diff` on the fixture pairs (testdata/diff) with
# Python's jsonschema, formats asserted: installs the pinned jsonschema with its format extras
# (tests/integration/engines/requirements-format.txt, every package pinned, --no-deps) from PyPI
# into target/ci-diff-venv (reused when it is already there), then runs
# tests/integration/diff/recheck.py, which reads `diff --output-format json` (the diagnostics
# document `check` prints, each contract change a diagnostic whose `change` field holds its kind,
# verdict, tool, schema and counterexample) and fails on the first counterexample Python judges
# otherwise than the jsonschema crate did.
#
# Usage: tests/integration/diff.sh [path/to/schema-lint]   (default: target/debug/schema-lint)
set -euo pipefail
cd "$(dirname "$0")/../.."

LINTER="${1:-target/debug/schema-lint}"
VENV="target/ci-diff-venv"
REQ="tests/integration/engines/requirements-format.txt"

fail() {
    echo "diff: FAILED: $*" >&2
    exit 1
}

[ -x "$LINTER" ] || fail "no schema-lint binary at $LINTER (build it first: cargo build)"
command -v python3 >/dev/null || fail "python3 is required"

if ! "$VENV/bin/python" -c 'import jsonschema, rfc3339_validator' 2>/dev/null; then
    rm -rf "$VENV"
    python3 -m venv "$VENV" || fail "could not create a venv (is python3-venv installed?)"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$REQ" \
        || fail "could not install $REQ"
fi

"$VENV/bin/python" tests/integration/diff/recheck.py "$(realpath "$LINTER")" testdata/diff \
    || fail "a counterexample does not hold for Python's jsonschema"
echo "diff: OK"
