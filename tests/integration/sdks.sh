# The real MCP SDKs the integration tests run, installed once and shared (sourced by
# python_sdk.sh, audit.sh and live.sh, which run from the repository root):
#   ensure_mcp LABEL      the pinned `mcp` from PyPI in target/ci-venv (reused when there)
#   ensure_ts_sdk LABEL   the pinned TypeScript SDK packages of tests/integration/audit/ts, by
#                         `npm ci` (skipped while the lockfile is the one the last install used)
# Each prints what it does behind LABEL and calls the sourcing script's `fail` when it cannot.

MCP_VERSION="2.3.0"
VENV="target/ci-venv"
TS="tests/integration/audit/ts"

ensure_mcp() {
    if [ ! -x "$VENV/bin/python" ]; then
        echo "$1: creating $VENV"
        python3 -m venv "$VENV" || fail "could not create a venv (is python3-venv installed?)"
    fi
    local installed
    installed="$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))' 2>/dev/null || true)"
    if [ "$installed" != "$MCP_VERSION" ]; then
        echo "$1: installing mcp==$MCP_VERSION"
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION" \
            || fail "pip could not install mcp==$MCP_VERSION"
    fi
}

ensure_ts_sdk() {
    if ! cmp -s "$TS/package-lock.json" "$TS/node_modules/.installed-package-lock.json"; then
        echo "$1: npm ci in $TS"
        (cd "$TS" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci failed in $TS"
        cp "$TS/package-lock.json" "$TS/node_modules/.installed-package-lock.json"
    fi
}
