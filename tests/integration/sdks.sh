# The real MCP SDKs the integration tests run, installed once and shared (sourced by
# python_sdk.sh, audit.sh and live.sh, which run from the repository root):
#   ensure_mcp LABEL      the pinned `mcp` from PyPI in target/ci-venv (reused when there)
#   ensure_mcp_v1 LABEL   `mcp` 1.30.0, the last 1.x, in target/ci-venv-v1 (its client)
#   ensure_ts_sdk LABEL   the pinned TypeScript SDK packages of tests/integration/audit/ts, by
#                         `npm ci` (skipped while the lockfile is the one the last install used)
# Each prints what it does behind LABEL and calls the sourcing script's `fail` when it cannot.

MCP_VERSION="2.3.0"
VENV="target/ci-venv"
TS="tests/integration/audit/ts"

# install_mcp LABEL VENV VERSION: `mcp==VERSION` in VENV (created when absent, reused when it
# holds that version already).
install_mcp() {
    if [ ! -x "$2/bin/python" ]; then
        echo "$1: creating $2"
        python3 -m venv "$2" || fail "could not create a venv (is python3-venv installed?)"
    fi
    local installed
    installed="$("$2/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))' 2>/dev/null || true)"
    if [ "$installed" != "$3" ]; then
        echo "$1: installing mcp==$3"
        "$2/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$3" \
            || fail "pip could not install mcp==$3"
    fi
}

ensure_mcp() {
    install_mcp "$1" "$VENV" "$MCP_VERSION"
}

# ensure_mcp_v1 LABEL: the last `mcp` of the 1.x line in target/ci-venv-v1, for its client
# (`ClientSession`), which many hosts still run.
MCP_V1_VERSION="1.30.0"
VENV_V1="target/ci-venv-v1"

ensure_mcp_v1() {
    install_mcp "$1" "$VENV_V1" "$MCP_V1_VERSION"
}

ensure_ts_sdk() {
    if ! cmp -s "$TS/package-lock.json" "$TS/node_modules/.installed-package-lock.json"; then
        echo "$1: npm ci in $TS"
        (cd "$TS" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci failed in $TS"
        cp "$TS/package-lock.json" "$TS/node_modules/.installed-package-lock.json"
    fi
}
