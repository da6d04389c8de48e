#!/usr/bin/env bash
# Lints the output schemas the real Python MCP SDK generates: installs the pinned `mcp` package
# from PyPI into target/ci-venv (reused when it is already there), dumps the `tools/list` of a
# server whose tools return the ordinary types (tests/integration/python_sdk/dump_tools.py), and
# runs schema-lint on it with every rule on, for each MCP revision. Fails when any finding has
# error severity; warnings and info (SL504 for the `{"result": ...}` wrapper) are allowed.
#
# Usage: tests/integration/python_sdk.sh [path/to/schema-lint]   (default: target/debug/schema-lint)
set -euo pipefail
cd "$(dirname "$0")/../.."

LINTER="${1:-target/debug/schema-lint}"
source tests/integration/sdks.sh
DUMP="target/ci-python-tools.json"
FIXTURE="testdata/cli/mcp-python-sdk-tools/files/tools.json"

fail() {
    echo "python-sdk: FAILED: $*" >&2
    exit 1
}

[ -x "$LINTER" ] || fail "no schema-lint binary at $LINTER (build it first: cargo build)"
command -v python3 >/dev/null || fail "python3 is required"

ensure_mcp python-sdk

"$VENV/bin/python" tests/integration/python_sdk/dump_tools.py "$DUMP" \
    || fail "dump_tools.py could not list the tools"

if ! cmp -s "$DUMP" "$FIXTURE"; then
    echo "python-sdk: note: the dump differs from $FIXTURE (copy it there and bless the CLI tests to follow the SDK)"
fi

status=0
for target in mcp-2025-06-18 mcp-2025-11-25 mcp-2026-07-28; do
    report="target/ci-python-tools.$target.report.json"
    set +e
    "$LINTER" --select ALL --target "$target" --output-format json "$DUMP" >"$report"
    code=$?
    set -e
    # 0: nothing found, 1: findings (judged below), anything else: the file did not load.
    if [ "$code" -gt 1 ]; then
        cat "$report" >&2
        fail "schema-lint exited with $code on $target"
    fi
    summary="$("$VENV/bin/python" - "$report" "$target" <<'PY'
import collections
import json
import sys

report, target = sys.argv[1], sys.argv[2]
with open(report, encoding="utf-8") as f:
    diagnostics = json.load(f)["diagnostics"]
counts = collections.Counter(d["severity"] for d in diagnostics)
codes = collections.Counter(f'{d["code"]} {d["severity"]}' for d in diagnostics)
detail = ", ".join(f"{n} {c}" for c, n in sorted(codes.items())) or "no findings"
print(f"{target}: {counts['error']} errors, {counts['warning']} warnings, {counts['info']} info ({detail})")
for d in diagnostics:
    if d["severity"] == "error":
        print(f'  {d["path"]}:{d["line"]}:{d["column"]}: {d["code"]} {d["message"]}')
sys.exit(1 if counts["error"] else 0)
PY
)" || status=1
    echo "python-sdk: $summary"
done

[ "$status" -eq 0 ] || fail "schema-lint reports errors on schemas the Python MCP SDK generates"
echo "python-sdk: ok: no error on the output schemas of mcp==$MCP_VERSION"
