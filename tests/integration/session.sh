#!/usr/bin/env bash
# `schema-lint session` over real MCP servers: `mcp-server-time` from PyPI (the Python SDK 2.x)
# and `@modelcontextprotocol/server-everything` from npm (the TypeScript SDK 1.x), both pinned,
# both started offline on stdio. A configuration in each host's format and place (Claude Code's
# `~/.claude.json`, Claude Desktop's, VS Code's user `mcp.json`, Cursor's, gemini-cli's with an
# `excludeTools`, Codex's TOML, Windsurf's) names the two under the keys `time` and `everything`;
# the session must say one verdict line per host, first, agreeing with its JSON; send each tool
# under the name that host gives it; start each server once and leave none running. Where the
# system allows it (`unshare -rn`), the session runs with no network at all: it reaches nothing
# but its own children. Then `--fix` wraps the server that breaks Claude Code and Claude Desktop
# in `schema-lint proxy`, the session judged again says they work, and `--unfix` gives every
# configuration its bytes back.
#
# Installs into target/session-venv (pip) and target/session-npm (npm), reused while they hold
# the pinned versions.
#
# Usage: tests/integration/session.sh [path/to/schema-lint]   (default: target/debug/schema-lint)
set -euo pipefail
cd "$(dirname "$0")/../.."

LINTER="$(realpath "${1:-target/debug/schema-lint}")"
TIME_VERSION="2026.10.19"
MCP_VERSION="2.3.0"
EVERYTHING_VERSION="2026.8.31"
VENV="$PWD/target/session-venv"
NPM="$PWD/target/session-npm"
OUT="$PWD/target/session-it"

fail() {
    echo "session integration: FAILED: $*" >&2
    exit 1
}

[ -x "$LINTER" ] || fail "no schema-lint binary at $LINTER (build it first: cargo build)"
for tool in python3 node npm; do
    command -v "$tool" >/dev/null || fail "$tool is required"
done

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV" || fail "could not create a venv (is python3-venv installed?)"
fi
installed="$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp-server-time"))' 2>/dev/null || true)"
if [ "$installed" != "$TIME_VERSION" ]; then
    echo "session integration: installing mcp-server-time==$TIME_VERSION"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        "mcp==$MCP_VERSION" "mcp-server-time==$TIME_VERSION" || fail "pip could not install mcp-server-time"
fi
EVERYTHING="$NPM/node_modules/@modelcontextprotocol/server-everything"
installed="$(node -p "require('$EVERYTHING/package.json').version" 2>/dev/null || true)"
if [ "$installed" != "$EVERYTHING_VERSION" ]; then
    echo "session integration: installing @modelcontextprotocol/server-everything@$EVERYTHING_VERSION"
    mkdir -p "$NPM"
    [ -f "$NPM/package.json" ] || echo '{"private": true}' >"$NPM/package.json"
    (cd "$NPM" && npm install --no-audit --no-fund --loglevel=error \
        "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION") || fail "npm could not install server-everything"
fi

rm -rf "$OUT"
mkdir -p "$OUT/home" "$OUT/proj"
TIME_BIN="$VENV/bin/mcp-server-time"
EVERYTHING_JS="$EVERYTHING/dist/index.js"
python3 - "$OUT/home" "$TIME_BIN" "$EVERYTHING_JS" <<'PY'
import json, os, sys
home, time_bin, everything = sys.argv[1:]
time = {"command": time_bin, "args": ["--local-timezone", "UTC"]}
ev = {"command": "node", "args": [everything, "stdio"]}
def put(rel, text):
    path = os.path.join(home, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
both = json.dumps({"mcpServers": {"time": time, "everything": ev}})
put(".claude.json", both)
put(".config/Claude/claude_desktop_config.json", both)
put(".config/Code/User/mcp.json", json.dumps(
    {"servers": {"time": dict(time, type="stdio"), "everything": dict(ev, type="stdio")}}))
put(".cursor/mcp.json", both)
put(".gemini/settings.json", json.dumps(
    {"mcpServers": {"time": time, "everything": dict(ev, excludeTools=["get-env"])}}))
put(".codeium/windsurf/mcp_config.json", both)
put(".codex/config.toml",
    "[mcp_servers.time]\ncommand = %s\nargs = [\"--local-timezone\", \"UTC\"]\n\n"
    "[mcp_servers.everything]\ncommand = \"node\"\nargs = [%s, \"stdio\"]\n"
    % (json.dumps(time_bin), json.dumps(everything)))
PY

# No network where the system can take it away: the servers start offline, and the session
# reaches nothing but them.
offline=()
if unshare -rn true 2>/dev/null; then
    offline=(unshare -rn)
else
    echo "session integration: unshare -rn is not allowed here; the session runs with the network"
fi
session() {
    (cd "$OUT/proj" && env -u XDG_CONFIG_HOME -u CODEX_HOME -u APPDATA HOME="$OUT/home" \
        "${offline[@]}" "$LINTER" session "$@")
}
set +e
session --output-format json >"$OUT/session.json" 2>"$OUT/session.stderr"
code=$?
session >"$OUT/session.txt" 2>>"$OUT/session.stderr"
human_code=$?
set -e
[ "$code" = "$human_code" ] || fail "exit $code with JSON, $human_code without"
[ "$code" != 2 ] || { cat "$OUT/session.stderr" >&2; fail "exit 2"; }

python3 - "$OUT/session.json" "$OUT/session.txt" "$code" <<'PY' || fail "see above"
import json, sys
report, text, code = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), int(sys.argv[3])
hosts = {h["host"]: h for h in report["hosts"]}
order = ["claude-code", "claude-desktop", "vscode", "cursor", "gemini-cli", "codex", "windsurf"]
if list(hosts) != order:
    sys.exit(f"hosts {list(hosts)}, expected {order}")
# The verdict lines first, one per host, as the JSON says them.
lines = text.splitlines()[: len(order)]
expected = [f"{h}: {hosts[h]['summary']}" for h in order]
if lines != expected:
    sys.exit(f"the first lines {lines}\nare not the verdicts {expected}")
# Each server listed, every tool of the pinned versions.
TIME = ["get_current_time", "convert_time"]
for name, h in hosts.items():
    states = {s["key"]: (s["state"], s["tools_listed"]) for s in h["servers"]}
    if states.get("time", (None,))[0] != "listed" or states.get("everything", (None,))[0] != "listed":
        sys.exit(f"{name}: servers {states}: {h['servers']}")
    if states["time"][1] != 2:
        sys.exit(f"{name}: time lists {states['time'][1]} tools, expected 2 ({TIME})")
everything_tools = hosts["claude-code"]["servers"][1]["tools_listed"]
if everything_tools < 10:
    sys.exit(f"everything lists only {everything_tools} tools")

def sent(host):
    return {(n["server"], n["tool"]): n["name"] for n in hosts[host]["request"]["names"]}

# The names each host sends (docs/session.md): its prefix, the user's key, its sanitising.
want = {
    "claude-code": {("time", "get_current_time"): "mcp__time__get_current_time",
                    ("everything", "get-env"): "mcp__everything__get-env"},
    "codex": {("time", "get_current_time"): "mcp__time__get_current_time",
              ("everything", "get-env"): "mcp__everything__get-env"},
    "vscode": {("time", "get_current_time"): "mcp_time_get_current_time",
               ("everything", "get-env"): "mcp_everything_get-env"},
    "gemini-cli": {("time", "convert_time"): "mcp_time_convert_time"},
    "claude-desktop": {("time", "get_current_time"): "get_current_time"},
    "cursor": {("everything", "echo"): "echo"},
    "windsurf": {("everything", "echo"): "echo"},
}
for host, names in want.items():
    got = sent(host)
    for key, name in names.items():
        if got.get(key) != name:
            sys.exit(f"{host} sends {key} as {got.get(key)!r}, expected {name!r}")
# gemini-cli's `excludeTools` leaves `get-env` out of its request, and only there.
if ("everything", "get-env") in sent("gemini-cli"):
    sys.exit("gemini-cli sends get-env, which excludeTools names")
for host in order:
    n = hosts[host]["request"]["tools"]
    expect = 2 + everything_tools - (host == "gemini-cli")
    if n != expect:
        sys.exit(f"{host}: {n} tools in its request, expected {expect}")
# Windsurf has no client in the model: not judged.
if hosts["windsurf"]["verdict"] is not None or not hosts["windsurf"]["summary"].startswith("not judged"):
    sys.exit(f"windsurf: {hosts['windsurf']['summary']}")
# Every finding that breaks a host names its server and tool, with the user's fix.
for name, h in hosts.items():
    for f in h["findings"]:
        if f["verdict"] == "breaks" and not (f["server"] and f["tool"] and f["user_fix"]):
            sys.exit(f"{name}: a breaking finding without server, tool or fix: {f}")
# Exit 1 exactly when a host fails.
if code != int(any(h["fails"] for h in hosts.values())):
    sys.exit(f"exit {code}, while the hosts that fail are {[n for n, h in hosts.items() if h['fails']]}")
# What the model says of these servers today: the TS SDK v1 stamps draft-07 on the output schema
# of `get-structured-content`, which Claude Code refuses (SL402); the Python server is fine.
broken = sorted({(f["server"], f["tool"], f["code"]) for f in hosts["claude-code"]["findings"]
                 if f["verdict"] == "breaks"})
if ("everything", "get-structured-content", "SL402") not in broken or any(s == "time" for s, _, _ in broken):
    sys.exit(f"claude-code: breaking findings {broken}")
print("session integration: %s" % "; ".join(f"{h}: {hosts[h]['summary']}" for h in order))
PY

# `--fix`: the servers that break a host are wrapped in `schema-lint proxy` in that host's
# configuration (here `everything`, in Claude Code's and Claude Desktop's), the other files left as
# they were; judged again, through the proxy, those hosts work; `--unfix` gives every file its
# bytes back.
cp -r "$OUT/home" "$OUT/home.before"
set +e
session --fix --output-format json >"$OUT/fix.json" 2>"$OUT/fix.stderr"
fix_code=$?
session --output-format json >"$OUT/after.json" 2>"$OUT/after.stderr"
after_code=$?
set -e
python3 - "$OUT/fix.json" "$OUT/after.json" "$fix_code" "$after_code" <<'PY' || fail "see above"
import json, sys
fix, after = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
fix_code, after_code = int(sys.argv[3]), int(sys.argv[4])
edits = sorted((e["host"], e["server"], e["action"], e["client"]) for e in fix["edits"])
want = [("claude-code", "everything", "wrapped", "claude-code"),
        ("claude-desktop", "everything", "wrapped", "claude-desktop")]
if edits != want:
    sys.exit(f"--fix edits {edits}, expected {want}")
if fix_code != 0:
    sys.exit(f"--fix exit {fix_code}: everything that broke is wrapped")
hosts = {h["host"]: h for h in after["hosts"]}
for name in ("claude-code", "claude-desktop"):
    h = hosts[name]
    if h["summary"] != "works":
        sys.exit(f"{name} through the proxy: {h['summary']}")
    ev = [s for s in h["servers"] if s["key"] == "everything"][0]
    if ev["state"] != "listed" or not any("schema-lint proxy" in n for n in ev["notes"]):
        sys.exit(f"{name}: everything {ev}")
if after_code != 0:
    sys.exit(f"after --fix: exit {after_code}")
print("session integration: --fix wrapped %s; then %s" % (
    ", ".join(f"{h}/{s}" for h, s, _, _ in edits),
    "; ".join(f"{n}: {hosts[n]['summary']}" for n in ("claude-code", "claude-desktop"))))
PY
for f in .claude.json .config/Claude/claude_desktop_config.json; do
    cmp -s "$OUT/home/$f" "$OUT/home.before/$f" && fail "$f not wrapped"
    cmp -s "$OUT/home/$f.schema-lint-backup" "$OUT/home.before/$f" || fail "$f: its backup is not its original"
done
session --unfix >"$OUT/unfix.txt" 2>"$OUT/unfix.stderr" || { cat "$OUT/unfix.stderr" >&2; fail "--unfix exit $?"; }
[ "$(grep -c '^unwrapped: ' "$OUT/unfix.txt")" = 2 ] || { cat "$OUT/unfix.txt" >&2; fail "--unfix did not unwrap two entries"; }
diff -r "$OUT/home" "$OUT/home.before" >&2 || fail "--unfix did not give every configuration its bytes back"

if pgrep -f "$EVERYTHING_JS|$TIME_BIN" >/dev/null; then
    pgrep -af "$EVERYTHING_JS|$TIME_BIN" >&2
    fail "a server process was left running"
fi
echo "session integration: passed (exit $code)"
