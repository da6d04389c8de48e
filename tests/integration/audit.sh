#!/usr/bin/env bash
# `schema-lint audit` on real MCP traffic. Two servers, one on the Python SDK (`mcp` from PyPI,
# tests/integration/audit/python/server.py) and one on the TypeScript SDK v2
# (`@modelcontextprotocol/server` from npm, tests/integration/audit/ts/server.mjs), each with one
# tool whose result violates its output schema on the wire (sent through the SDK's low-level path,
# as both SDKs validate their own high-level tool output). Each SDK's client talks to each server
# over stdio through a logging relay (tests/integration/audit/relay.py), once per protocol
# revision, 2025-11-25 (initialize handshake) and 2026-07-28 (stateless, the protocol in every
# request's _meta): 8 captures in target/audit-captures/. The audit of each must report exactly
# the violating call (tests/integration/audit/check.py says what else is asserted).
#
# Installs the pinned `mcp` into target/ci-venv (shared with tests/integration/python_sdk.sh,
# reused when it is there) and the pinned npm packages with `npm ci` (package-lock.json).
#
# Usage: tests/integration/audit.sh [path/to/schema-lint]   (default: target/debug/schema-lint)
set -euo pipefail
cd "$(dirname "$0")/../.."

MCP_VERSION="2.3.0"
LINTER="${1:-target/debug/schema-lint}"
VENV="target/ci-venv"
HERE="tests/integration/audit"
TS="$HERE/ts"
OUT="target/audit-captures"
REVISIONS=(2025-11-25 2026-07-28)
SDKS=(python typescript)

fail() {
    echo "audit integration: FAILED: $*" >&2
    exit 1
}

[ -x "$LINTER" ] || fail "no schema-lint binary at $LINTER (build it first: cargo build)"
for tool in python3 node npm; do
    command -v "$tool" >/dev/null || fail "$tool is required"
done

if [ ! -x "$VENV/bin/python" ]; then
    echo "audit integration: creating $VENV"
    python3 -m venv "$VENV" || fail "could not create a venv (is python3-venv installed?)"
fi
installed="$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))' 2>/dev/null || true)"
if [ "$installed" != "$MCP_VERSION" ]; then
    echo "audit integration: installing mcp==$MCP_VERSION"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION" \
        || fail "pip could not install mcp==$MCP_VERSION"
fi
# npm ci wipes node_modules and installs the lockfile exactly; skipped while the lockfile is
# the one the last install used.
if ! cmp -s "$TS/package-lock.json" "$TS/node_modules/.installed-package-lock.json"; then
    echo "audit integration: npm ci in $TS"
    (cd "$TS" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci failed in $TS"
    cp "$TS/package-lock.json" "$TS/node_modules/.installed-package-lock.json"
fi

PYTHON="$(cd "$VENV/bin" && pwd)/python"
export PYTHON # the TypeScript client starts the relay with it
# The command that starts an SDK's server, or its client, as words in the named array.
server_command() {
    case "$1" in
        python) cmd=("$PYTHON" "$HERE/python/server.py") ;;
        typescript) cmd=(node "$TS/server.mjs") ;;
    esac
}
client_command() {
    case "$1" in
        python) cmd=("$PYTHON" "$HERE/python/client.py") ;;
        typescript) cmd=(node "$TS/client.mjs") ;;
    esac
}

mkdir -p "$OUT"
passed=0
failed=0
for server in "${SDKS[@]}"; do
    for client in "${SDKS[@]}"; do
        for revision in "${REVISIONS[@]}"; do
            name="$client-client.$server-server.$revision"
            capture="$OUT/$name.jsonl"
            report="$OUT/$name.audit.json"
            rm -f "$capture" "$report"
            echo "== $name"
            client_command "$client"
            client_cmd=("${cmd[@]}")
            server_command "$server"
            if ! timeout 120 "${client_cmd[@]}" "$revision" "$capture" -- "${cmd[@]}"; then
                echo "  the $client client failed against the $server server on $revision"
                failed=$((failed + 1))
                continue
            fi
            set +e
            "$LINTER" audit "$capture"
            "$LINTER" audit "$capture" --output-format json >"$report"
            code=$?
            set -e
            # 1: the audit found the broken call, as it must.
            if [ "$code" -ne 1 ]; then
                echo "  schema-lint audit exited with $code, expected 1"
                failed=$((failed + 1))
            elif "$PYTHON" "$HERE/check.py" "$capture" "$report" "$revision" "$server"; then
                passed=$((passed + 1))
                # The captures are byte-for-byte reproducible; the CLI suite replays one per SDK
                # and revision without Python or Node.
                fixture="testdata/cli/audit-real-$server-$revision/files/capture.jsonl"
                if [ "$client" = "$server" ] && ! cmp -s "$capture" "$fixture"; then
                    echo "  note: $capture differs from $fixture (copy it there and bless the CLI tests to follow the SDK)"
                fi
            else
                failed=$((failed + 1))
            fi
        done
    done
done

echo "audit integration: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
