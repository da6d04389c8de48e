#!/usr/bin/env bash
# The proof of `schema-lint port` (issue 44): every tools/list and tool schema of testdata/ is
# ported for Gemini and for OpenAI strict mode, each ported tool is offered to the client's own
# code (google-genai's FunctionDeclaration and MCP path, the OpenAI Agents SDK's strict
# conversion), and every `kept` claim is checked with Python's jsonschema on generated instances
# (tests/integration/port/prove.py). Uses the providers' venv that tests/integration/engines.sh
# installs (target/engines/providers-py); the refusals not solved yet are listed, with their
# reasons, in tests/integration/port/known.txt, and the list may only shrink.
#
# Usage: tests/integration/port.sh [path/to/schema-lint]   (default: target/debug/schema-lint)
set -euo pipefail
cd "$(dirname "$0")/../.."

LINTER="${1:-target/debug/schema-lint}"
PY=target/engines/providers-py/bin/python
[ -x "$LINTER" ] || { echo "port: FAILED: no schema-lint binary at $LINTER" >&2; exit 1; }
[ -x "$PY" ] || { echo "port: FAILED: run tests/integration/engines.sh first (it installs $PY)" >&2; exit 1; }
OUT=target/port-proof
rm -rf "$OUT"
mapfile -t files < <(find testdata/rules testdata/diff testdata/cli testdata/examples testdata/port \
    -name '*.json' -not -name 'expected*' | LC_ALL=C sort)
"$PY" -W ignore tests/integration/port/prove.py "$LINTER" "$OUT" \
    --known tests/integration/port/known.txt "${files[@]}"
