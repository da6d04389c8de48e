#!/usr/bin/env bash
# `schema-lint check --server/--url` and `schema-lint dump` against real MCP servers: one on the
# Python SDK (`mcp` from PyPI, tests/integration/live/server.py) over stdio and over Streamable
# HTTP on a loopback port (event-stream answers, then JSON answers), and one on the TypeScript SDK
# v2 (`@modelcontextprotocol/server` from npm, tests/integration/audit/ts/live-server.mjs) over
# stdio, both eras and 2025 only (`--legacy`); the HTTP server also through `schema-lint record
# --listen`, driven by the real Python and TypeScript SDK clients on both revisions, whose every
# call `audit` must then find in the capture. For each: the live check finds the
# `weather_station:output` id the server advertises (SL201, exit 1), the dump lints with the same
# findings (codes, pointers, messages), the protocol is the expected one, and no server process
# is left behind. Then `schema-lint proxy` between the real Python SDK client and server, over
# stdio and over Streamable HTTP (`--url`).
#
# Installs the pinned `mcp` into target/ci-venv and the pinned npm packages with `npm ci`, as
# tests/integration/audit.sh does (and shares both with it).
#
# Usage: tests/integration/live.sh [path/to/schema-lint]   (default: target/debug/schema-lint)
set -euo pipefail
cd "$(dirname "$0")/../.."

LINTER="${1:-target/debug/schema-lint}"
source tests/integration/sdks.sh
OUT="target/live"

fail() {
    echo "live integration: FAILED: $*" >&2
    exit 1
}

[ -x "$LINTER" ] || fail "no schema-lint binary at $LINTER (build it first: cargo build)"
for tool in python3 node npm; do
    command -v "$tool" >/dev/null || fail "$tool is required"
done
ensure_mcp "live integration"
ensure_ts_sdk "live integration"
mkdir -p "$OUT"
PY="$VENV/bin/python"

# A free loopback port, from the kernel.
free_port() {
    "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# check NAME PROTOCOL -- schema-lint source arguments: lints live and from the dump, compares.
check() {
    local name="$1" protocol="$2"
    shift 3
    local live="$OUT/$name.live.json" dump="$OUT/$name.dump.json" offline="$OUT/$name.offline.json"
    set +e
    "$LINTER" check "$@" --output-format json >"$live"
    local code=$?
    "$LINTER" dump "$@" >"$dump" 2>"$OUT/$name.dump.stderr"
    local dump_code=$?
    "$LINTER" check "$dump" --output-format json >"$offline"
    local offline_code=$?
    set -e
    [ "$code" = 1 ] || { cat "$live" >&2; fail "$name: check exited with $code, expected 1"; }
    [ "$dump_code" = 0 ] || { cat "$OUT/$name.dump.stderr" >&2; fail "$name: dump exited with $dump_code"; }
    [ "$offline_code" = 1 ] || fail "$name: the dump's check exited with $offline_code"
    "$PY" - "$live" "$offline" "$dump" "$protocol" "$name" <<'PY' || fail "$name: see above"
import json, sys
live, offline, dump, protocol, name = sys.argv[1:]
def findings(path):
    return sorted((d["code"], d["pointer"], d["message"]) for d in json.load(open(path))["diagnostics"])
a, b = findings(live), findings(offline)
if a != b:
    sys.exit(f"{name}: live findings {a} differ from the dump's {b}")
if not any(c == "SL201" and "weather_station:output" in m for c, _, m in a):
    sys.exit(f"{name}: no SL201 on weather_station:output in {a}")
noted = json.load(open(dump))["result"]["_meta"]["schema-lint/dump"]["protocol"]
if noted != protocol:
    sys.exit(f"{name}: protocol {noted}, expected {protocol}")
print(f"live integration: {name}: {len(a)} findings, protocol {noted}, the dump agrees")
PY
}

leftovers() {
    if pgrep -f "$1" >/dev/null; then
        pgrep -af "$1" >&2
        fail "a server process was left running ($1)"
    fi
}

check python-stdio 2026-07-28 -- --server "$PY tests/integration/live/server.py"
check python-stdio-2025 2025-11-25 -- --server "$PY tests/integration/live/server.py" --protocol 2025-11-25
leftovers "tests/integration/live/server.py$"
check typescript-stdio 2026-07-28 -- --server "node $TS/live-server.mjs"
check typescript-stdio-legacy 2025-11-25 -- --server "node $TS/live-server.mjs --legacy"
leftovers "live-server.mjs"

for answers in sse json; do
    port="$(free_port)"
    flags=(--http "$port")
    [ "$answers" = json ] && flags+=(--json)
    "$PY" tests/integration/live/server.py "${flags[@]}" >"$OUT/python-http-$answers.server.log" 2>&1 &
    server=$!
    for _ in $(seq 100); do
        "$PY" -c "import socket,sys; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
        sleep 0.1
    done
    check "python-http-$answers" 2026-07-28 -- --url "http://127.0.0.1:$port/mcp"
    check "python-http-$answers-2025" 2025-11-25 -- --url "http://127.0.0.1:$port/mcp" --protocol 2025-11-25
    # The same server through `schema-lint record --listen`: the same findings, and the capture
    # holds the exchange.
    capture="$OUT/python-http-$answers.capture.jsonl"
    rm -f "$capture"
    "$LINTER" record --listen 127.0.0.1:0 --upstream "http://127.0.0.1:$port/mcp" -o "$capture" \
        2>"$OUT/python-http-$answers.record.log" &
    proxy=$!
    for _ in $(seq 100); do
        grep -q "listening on" "$OUT/python-http-$answers.record.log" && break
        sleep 0.1
    done
    address="$(grep -oE '127\.0\.0\.1:[0-9]+' "$OUT/python-http-$answers.record.log" | head -n 1)"
    [ -n "$address" ] || fail "python-http-$answers: schema-lint record --listen did not start"
    check "python-http-$answers-recorded" 2026-07-28 -- --url "http://$address/mcp"
    # The real SDK clients through the proxy, on both revisions: they work as without it, and
    # `audit` then finds every call they made.
    made=0
    for revision in 2025-11-25 2026-07-28; do
        for client in python ts; do
            log="$OUT/python-http-$answers.$client-client.$revision.log"
            case "$client" in
                python) timeout 120 "$PY" tests/integration/audit/python/http_client.py "http://$address/mcp" "$revision" >"$log" 2>&1 ;;
                ts) timeout 120 node "$TS/http_client.mjs" "http://$address/mcp" "$revision" >"$log" 2>&1 ;;
            esac || { cat "$log"; fail "python-http-$answers: the $client client failed through schema-lint record on $revision"; }
            calls="$(sed -n 's/.*: calls \([0-9]*\)$/\1/p' "$log")"
            [ "${calls:-0}" -gt 0 ] || { cat "$log"; fail "python-http-$answers: the $client client listed no tools through the proxy"; }
            made=$((made + calls))
            echo "live integration: python-http-$answers: the $client client on $revision made $calls calls through schema-lint record"
        done
    done
    kill "$proxy" 2>/dev/null || true
    wait "$proxy" 2>/dev/null || true
    set +e
    "$LINTER" audit "$capture" --output-format json >"$OUT/python-http-$answers.audit.json"
    code=$?
    set -e
    [ "$code" -le 1 ] || fail "python-http-$answers: audit of the proxy's capture exited $code"
    "$PY" - "$OUT/python-http-$answers.audit.json" "$made" <<'PY' || fail "python-http-$answers: audit did not find every call the clients made"
import json, sys
audit = json.load(open(sys.argv[1]))
found = len(audit["calls"]) + len(audit["rpc_errors"]) + audit["without_output_schema"]
if found != int(sys.argv[2]) or audit["unanswered"]:
    sys.exit(f"the clients made {sys.argv[2]} calls; audit found {found}, {len(audit['unanswered'])} unanswered")
print(f"live integration: audit found the {found} calls in the proxy's capture")
PY
    "$PY" - "$capture" "$answers" <<'PY' || fail "python-http-$answers: the capture of schema-lint record is not the exchange"
import json, sys
entries = [json.loads(line) for line in open(sys.argv[1])]
sent = [e["message"].get("method") for e in entries if e["direction"] == "to-server"]
listed = [e for e in entries if e["direction"] == "to-client"
          and "tools" in (e.get("message") or {}).get("result", {})]
if "tools/list" not in sent or not listed:
    sys.exit(f"sent {sent}, {len(listed)} tools/list results")
print(f"live integration: python-http-{sys.argv[2]}-recorded: {len(entries)} messages captured")
PY
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    grep -q "DELETE /mcp" "$OUT/python-http-$answers.server.log" \
        || fail "python-http-$answers: the session was not closed with DELETE"
done

# `schema-lint proxy --for openai-strict` between the real Python SDK client and a real Python SDK
# server (tests/integration/live/proxy_server.py), on both revisions: the client lists what OpenAI's
# strict mode takes, and its call of the renamed tool reaches the server's `station.history`.
linter_abs="$(cd "$(dirname "$LINTER")" && pwd)/$(basename "$LINTER")"
for revision in 2025-11-25 2026-07-28; do
    log="$OUT/proxy-$revision.log"
    rm -f "$log"
    timeout 120 "$PY" tests/integration/live/proxy_client.py "$linter_abs" "$revision" "$log" -- \
        "$PY" tests/integration/live/proxy_server.py >"$OUT/proxy-$revision.out" 2>&1 \
        || { cat "$OUT/proxy-$revision.out"; fail "proxy: the Python SDK client failed through schema-lint proxy on $revision"; }
    grep -q 'Rename `station.history` to `station_history`' "$log" || fail "proxy: the log does not say the rename"
    tail -n 1 "$OUT/proxy-$revision.out"
done

# `schema-lint proxy --for gemini --url` between the real Python SDK client (`stdio_client` and
# `ClientSession` on 2025-11-25, `Client` on 2026-07-28) and the same server over Streamable HTTP
# (event-stream answers, then JSON answers): the client lists what Gemini takes (`forecast`'s
# `$ref` inlined), its calls return the server's results, the header and the URL's query never
# reach the log, and the session is closed with DELETE.
for answers in sse json; do
    port="$(free_port)"
    flags=(--http "$port")
    [ "$answers" = json ] && flags+=(--json)
    "$PY" tests/integration/live/proxy_server.py "${flags[@]}" >"$OUT/proxy-http-$answers.server.log" 2>&1 &
    server=$!
    for _ in $(seq 100); do
        "$PY" -c "import socket,sys; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
        sleep 0.1
    done
    for revision in 2025-11-25 2026-07-28; do
        log="$OUT/proxy-http-$answers-$revision.log"
        rm -f "$log"
        timeout 120 "$PY" tests/integration/live/proxy_http_client.py "$linter_abs" "$revision" "$log" \
            "http://127.0.0.1:$port/mcp?key=s3cret-query" >"$OUT/proxy-http-$answers-$revision.out" 2>&1 \
            || { cat "$OUT/proxy-http-$answers-$revision.out"; fail "proxy --url: the Python SDK client failed through schema-lint proxy on $revision ($answers)"; }
        tail -n 1 "$OUT/proxy-http-$answers-$revision.out"
    done
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    grep -q "DELETE /mcp" "$OUT/proxy-http-$answers.server.log" \
        || fail "proxy --url ($answers): the session was not closed with DELETE"
done
echo "live integration: passed"
