#!/usr/bin/env bash
# `schema-lint audit` on real MCP traffic. Two servers, one on the Python SDK (`mcp` from PyPI,
# tests/integration/audit/python/server.py) and one on the TypeScript SDK v2
# (`@modelcontextprotocol/server` from npm, tests/integration/audit/ts/server.mjs), each with one
# tool whose result violates its output schema on the wire (sent through the SDK's low-level path,
# as both SDKs validate their own high-level tool output). Each SDK's client talks to each server
# over stdio through a logging relay (tests/integration/audit/relay.py), once per protocol
# revision, 2025-11-25 (initialize handshake) and 2026-07-28 (stateless, the protocol in every
# request's _meta): 8 captures in target/audit-captures/. The audit of each must report exactly
# the violating call, and on the Python server the call whose naive `datetime` the TypeScript
# clients reject and the Python client accepts, as SL605 (tests/integration/audit/check.py says
# what else is asserted).
#
# Also `schema-lint audit --url` against a real `mcp` Streamable HTTP server (python/http_server.py)
# on both revisions, with the routing headers 2026-07-28 wants.
#
# Also gemini-cli's verdicts on the same calls (gemini_cli_verdicts.mjs, @google/gemini-cli-core
# 0.61.0, installed as the engine tier installs it into target/engines/providers-js).
#
# Installs the pinned `mcp` into target/ci-venv (shared with tests/integration/python_sdk.sh,
# reused when it is there) and the pinned npm packages with `npm ci` (package-lock.json).
#
# Usage: tests/integration/audit.sh [path/to/schema-lint]   (default: target/debug/schema-lint)
set -euo pipefail
cd "$(dirname "$0")/../.."

LINTER="${1:-target/debug/schema-lint}"
source tests/integration/sdks.sh
HERE="tests/integration/audit"
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

ensure_mcp "audit integration"
ensure_mcp_v1 "audit integration"
ensure_ts_sdk "audit integration"

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

# judge CODE CAPTURE REPORT REVISION SERVER WHAT: a run passes when WHAT exited with 1 and
# check.py accepts its capture and report.
judge() {
    if [ "$1" -ne 1 ]; then
        echo "  $6 exited with $1, expected 1"
        failed=$((failed + 1))
    elif "$PYTHON" "$HERE/check.py" "$2" "$3" "$4" "$5"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
}

# `schema-lint record` as the relay: each SDK's client drives its own SDK's server through the
# proxy, and the capture it writes must pass the same checks.
LINTER_PATH="$(cd "$(dirname "$LINTER")" && pwd)/$(basename "$LINTER")"
for sdk in "${SDKS[@]}"; do
    for revision in "${REVISIONS[@]}"; do
        name="schema-lint-record.$sdk.$revision"
        capture="$OUT/$name.jsonl"
        report="$OUT/$name.audit.json"
        rm -f "$capture" "$report"
        echo "== $name"
        client_command "$sdk"
        client_cmd=("${cmd[@]}")
        server_command "$sdk"
        if ! SCHEMA_LINT_RECORD="$LINTER_PATH" timeout 120 "${client_cmd[@]}" "$revision" "$capture" -- "${cmd[@]}"; then
            echo "  the $sdk client failed through schema-lint record on $revision"
            failed=$((failed + 1))
            continue
        fi
        set +e
        "$LINTER" audit "$capture" --output-format json >"$report"
        code=$?
        set -e
        judge "$code" "$capture" "$report" "$revision" "$sdk" "schema-lint audit"
    done
done

# `schema-lint audit --server`: schema-lint itself is the client. It starts each server, calls
# each of its tools once on each revision, and saves the exchange; the capture and the report
# must pass the same checks as those of the SDK clients.
for server in "${SDKS[@]}"; do
    for revision in "${REVISIONS[@]}"; do
        name="schema-lint-audit-server.$server-server.$revision"
        capture="$OUT/$name.jsonl"
        report="$OUT/$name.audit.json"
        rm -f "$capture" "$report"
        echo "== $name"
        server_command "$server"
        calls=(--call 'get_weather={"city": "Paris"}' --call 'get_humidity={"city": "Paris"}'
            --call 'echo={"text": "hello"}' --call 'get_link={"city": "Köln"}'
            --call 'get_alert={"city": "Paris"}')
        case "$server" in
            python) calls+=(--call 'get_temperature={"city": "Paris"}' --call 'get_forecast={"city": "Paris"}') ;;
            typescript) calls+=(--call 'get_report={"city": "Paris"}') ;;
        esac
        set +e
        "$LINTER" audit --server "$(printf '%q ' "${cmd[@]}")" --protocol "$revision" \
            "${calls[@]}" --save "$capture" --output-format json >"$report"
        code=$?
        set -e
        judge "$code" "$capture" "$report" "$revision" "$server" "schema-lint audit --server"
    done
done

# `schema-lint audit --url`: schema-lint is the client of a real `mcp` Streamable HTTP server
# (python/http_server.py), on each revision. On 2026-07-28 the SDK refuses with HTTP 400 any
# request whose routing headers differ from its body (`Mcp-Name`, base64 for `météo`;
# `Mcp-Param-Region` for the `x-mcp-header` argument of `by_region`), so every call answered
# shows them right. The SDK's own `{"result": ...}` of a `str` and of a `list[str]` (a text block
# per item) must give no SL607, and the naive datetime in its `Optional[datetime]` (`anyOf`)
# exactly one SL605.
for revision in "${REVISIONS[@]}"; do
    name="schema-lint-audit-url.python-http-server.$revision"
    capture="$OUT/$name.jsonl"
    report="$OUT/$name.audit.json"
    rm -f "$capture" "$report"
    echo "== $name"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    "$PYTHON" "$HERE/python/http_server.py" "$port" >"$OUT/$name.server.log" 2>&1 &
    http_pid=$!
    for _ in $(seq 100); do
        python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$port" 2>/dev/null && break
        sleep 0.2
    done
    set +e
    "$LINTER" audit --url "http://127.0.0.1:$port/mcp" --protocol "$revision" \
        --call 'by_region={"region": "Köln"}' --call 'météo={}' --call 'next_slot={}' \
        --save "$capture" --output-format json >"$report" 2>"$OUT/$name.stderr"
    code=$?
    "$LINTER" audit "$capture"
    set -e
    kill "$http_pid" 2>/dev/null || true
    wait "$http_pid" 2>/dev/null || true
    if [ "$code" -ne 1 ]; then
        echo "  schema-lint audit --url exited with $code, expected 1: $(cat "$OUT/$name.stderr")"
        failed=$((failed + 1))
    elif "$PYTHON" - "$report" "$revision" <<'PY'
import json, sys
report, revision = json.load(open(sys.argv[1])), sys.argv[2]
problems = []
for key in ("rpc_errors", "input_errors", "unanswered"):
    if report[key]:
        problems.append(f"{key}: {report[key]}")
calls = {c["tool"]: c for c in report["calls"]}
if list(calls) != ["by_region", "météo", "next_slot"]:
    problems.append(f"calls audited: {list(calls)}")
for tool, call in calls.items():
    found = [(f["code"], f.get("pointer"), f.get("format")) for f in call["findings"]]
    expected = [("SL605", "/at", "date-time")] if tool == "next_slot" else []
    if found != expected or call["valid"] is not True or call["protocol"] != revision:
        problems.append(f"{tool}: valid {call['valid']}, protocol {call['protocol']}, findings {found}; expected {expected}")
    rejecting = sorted(c for c, v in call["clients"].items() if v == "rejects")
    ts = ["ts-sdk-v1", "ts-sdk-v2"] + (["gemini-cli"] if revision.startswith("2025-") else [])
    if rejecting != (sorted(ts) if tool == "next_slot" else []):
        problems.append(f"{tool}: rejected by {rejecting}")
for p in problems:
    print(f"  {p}")
sys.exit(1 if problems else 0)
PY
    then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
done

# Each SDK client's verdict on real results, measured: the four clients call the tools of
# tests/live/tool_server.py (a naive date-time, an IRI as `uri`, an error result whose
# structuredContent fails the schema, a result without structuredContent), and the audit of the
# same calls (`audit --server ... --call ...`, its JSON `clients`) must give the same verdicts.
# The `fail` lines are SL606's claims as well.
echo "== each client's verdict on real results (audit's \`clients\`, SL606)"
server_script="$PWD/tests/live/tool_server.py"
# gemini-cli's own MCP code, from the hosts' and providers' install the engine tier shares
# (tests/integration/providers/package-lock.json, into target/engines/providers-js; reused there).
PROV_JS="target/engines/providers-js"
if ! cmp -s tests/integration/providers/package-lock.json "$PROV_JS/node_modules/.installed-package-lock.json"; then
    echo "audit integration: npm ci in $PROV_JS"
    mkdir -p "$PROV_JS"
    cp tests/integration/providers/package.json tests/integration/providers/package-lock.json "$PROV_JS/"
    (cd "$PROV_JS" && npm ci --no-audit --no-fund --loglevel=error --ignore-scripts) || fail "npm ci in $PROV_JS"
    cp tests/integration/providers/package-lock.json "$PROV_JS/node_modules/.installed-package-lock.json"
fi
cp "$HERE/gemini_cli_verdicts.mjs" "$PROV_JS/"
observed_verdicts="$(
    (cd "$TS" && node verdicts.mjs python3 "$server_script")
    "$PYTHON" "$HERE/python/verdicts.py" "$server_script"
    "$VENV_V1/bin/python" "$HERE/python/verdicts_v1.py" python3 "$server_script"
    (cd "$PROV_JS" && node gemini_cli_verdicts.mjs python3 "$server_script")
)"
echo "$observed_verdicts"
set +e
mapfile -t call_args < <(python3 -c 'import json, sys
for name, args in json.load(open(sys.argv[1])):
    print("--call"); print(name + "=" + json.dumps(args))' tests/live/calls.json)
"$LINTER" audit --server "python3 $server_script legacy" "${call_args[@]}" --output-format json \
    >target/ci-audit-verdicts.json
code=$?
set -e
audited_verdicts="$(python3 - target/ci-audit-verdicts.json <<'PY'
import json, sys
calls = json.load(open(sys.argv[1]))["calls"]
order = ["ts-sdk-v1", "ts-sdk-v2", "python-sdk", "python-sdk-v1", "gemini-cli"]
for client in order:
    for call in calls:
        print(f"{client} {call['tool']}: {call['clients'].get(client, 'no verdict')}")
PY
)"
if [ "$code" -eq 1 ] && [ "$(echo "$observed_verdicts" | sed 's/: \(accepts\|rejects\).*/: \1/')" = "$audited_verdicts" ]; then
    passed=$((passed + 1))
else
    echo "  the audit's verdicts (exit $code) differ from the clients':"
    echo "$audited_verdicts"
    failed=$((failed + 1))
fi
expected_errors="ts-sdk-v1 fail: rejects MCP error -32602: Structured content does not match the tool's output schema: data must have required property 'ok'
ts-sdk-v2 fail: accepts
python-sdk fail: accepts
python-sdk-v1 fail: accepts
gemini-cli fail: rejects MCP error -32602: Structured content does not match the tool's output schema: data must have required property 'ok'"
if [ "$(echo "$observed_verdicts" | grep ' fail: ')" = "$expected_errors" ]; then
    passed=$((passed + 1))
else
    echo "  the clients' verdicts on an error result differ from SL606's claims (rules/SL606.md); expected:"
    echo "$expected_errors"
    failed=$((failed + 1))
fi

# SL607: gemini-cli hands the model the text content only, never `structuredContent`.
done_line="$(echo "$observed_verdicts" | grep '^gemini-cli done: ' || true)"
if [[ "$done_line" == *'the model gets [{"text":'*done* && "$done_line" != *'"ok"'* ]]; then
    passed=$((passed + 1))
else
    echo "  gemini-cli no longer gives the model only the text of a result (SL607): $done_line"
    failed=$((failed + 1))
fi

# #40: `schema-lint mcp` under the real TypeScript client, whose Ajv checks every result against
# the tool's declared output schema (the Python client does the same in mcp_server.sh).
for revision in 2025-11-25 2026-07-28; do
    if timeout 300 node "$HERE/ts/mcp_mode.mjs" "$LINTER_PATH" "$revision"; then
        passed=$((passed + 1))
    else
        echo "audit integration: FAILED: schema-lint mcp under the TypeScript client ($revision)" >&2
        failed=$((failed + 1))
    fi
done

echo "audit integration: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
