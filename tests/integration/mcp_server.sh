#!/usr/bin/env bash
# `schema-lint mcp` under the real Python MCP client: installs the pinned `mcp` from PyPI into
# target/ci-venv (shared with python_sdk.sh, audit.sh and live.sh), then connects `mcp.Client`
# over stdio in its default mode (a `server/discover` probe, then 2026-07-28) and in 'legacy'
# mode (the 2025-11-25 handshake): the tools are listed, `lint_schema` reports SL201 on
# `{"$id": "my_tool:output", "type": "object"}`, `fix_schema` returns the repaired schema, and
# every structured result passes the client's own check against the tool's output schema
# (tests/integration/mcp_server/client.py). No server process may be left running.
#
# Usage: tests/integration/mcp_server.sh [path/to/schema-lint]   (default: target/debug/schema-lint)
set -euo pipefail
cd "$(dirname "$0")/../.."

LINTER="${1:-target/debug/schema-lint}"
source tests/integration/sdks.sh

fail() {
    echo "mcp-server: FAILED: $*" >&2
    exit 1
}

[ -x "$LINTER" ] || fail "no schema-lint binary at $LINTER (build it first: cargo build)"
command -v python3 >/dev/null || fail "python3 is required"
ensure_mcp mcp-server
LINTER="$(cd "$(dirname "$LINTER")" && pwd)/$(basename "$LINTER")"

for run in "auto 2026-07-28" "legacy 2025-11-25"; do
    read -r mode protocol <<<"$run"
    timeout 120 "$VENV/bin/python" tests/integration/mcp_server/client.py "$LINTER" "$mode" "$protocol" \
        || fail "the Python client ($mode) did not get what it expects from schema-lint mcp"
done

if pgrep -f "$LINTER mcp" >/dev/null; then
    pgrep -af "$LINTER mcp" >&2
    fail "a schema-lint mcp process was left running"
fi
echo "mcp-server: ok: mcp==$MCP_VERSION lists, lints and fixes through schema-lint mcp"
