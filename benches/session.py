#!/usr/bin/env python3
"""How long `schema-lint session` takes to judge a configuration of 10 servers, against the
slowest server's own start: `python3 benches/session.py [--bin PATH] [--runs N]`.

Issue 43 bounds it: a configuration of 10 servers is judged within the slowest server's start
plus 1 s. The servers are this script itself in `serve` mode (standard library only): each
sleeps a set time before it reads its input (its start: an `npx` or `uvx` server downloading and
loading its code), then answers `initialize` and `tools/list` (20 tools) on stdio and exits at the
end of its input. Nine start in --fast seconds, one in --slow; the slow one is the last of the
configuration, where a run that starts servers in waves reaches it last.

Measured, each the median of --runs, interleaved:

  slowest start   this script, as a client, starting the slow server alone and reading its
                  `tools/list` answer (what no session can beat)
  session         `schema-lint session` on `~/.claude.json` naming the 10 servers (the user's own
                  configuration: no consent asked), from start to exit

Uses the binary --bin names (default: target/debug/schema-lint; build it first). Prints a Markdown
table (paste it into BENCHMARKS.md) and exits 1 when the session is over the bound.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVERS = 10
TOOLS = 20


def serve(delay, name):
    """A stdio MCP server that starts in `delay` seconds and lists TOOLS tools."""
    time.sleep(delay)
    tools = [
        {"name": "%s_tool_%d" % (name, i), "description": "Tool %d of %s" % (i, name),
         "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}},
                         "required": ["q"]}}
        for i in range(TOOLS)
    ]
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        if "id" not in msg or "method" not in msg:
            continue
        method = msg["method"]
        if method == "initialize":
            result = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                      "serverInfo": {"name": name, "version": "1.0.0"}}
            reply = {"jsonrpc": "2.0", "id": msg["id"], "result": result}
        elif method == "tools/list":
            reply = {"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": tools}}
        else:
            reply = {"jsonrpc": "2.0", "id": msg["id"],
                     "error": {"code": -32601, "message": "Method not found"}}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


def command(delay, name):
    return [sys.executable, os.path.abspath(__file__), "serve", str(delay), name]


def slowest_start(delay):
    """Seconds from starting the slow server to its `tools/list` answer, as a client."""
    start = time.monotonic()
    p = subprocess.Popen(command(delay, "slow"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    for i, method in enumerate(["initialize", "tools/list"], 1):
        params = {"protocolVersion": "2025-11-25", "capabilities": {},
                  "clientInfo": {"name": "bench", "version": "0"}} if i == 1 else {}
        p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method,
                                  "params": params}) + "\n")
        p.stdin.flush()
        json.loads(p.stdout.readline())
        if i == 1:
            p.stdin.write(json.dumps({"jsonrpc": "2.0",
                                      "method": "notifications/initialized"}) + "\n")
            p.stdin.flush()
    took = time.monotonic() - start
    p.stdin.close()
    p.wait()
    return took


def session(binary, work, jobs):
    cmd = [binary, "session", "--output-format", "json"]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    env = dict(os.environ, HOME=os.path.join(work, "home"))
    for k in ("XDG_CONFIG_HOME", "CODEX_HOME", "APPDATA"):
        env.pop(k, None)
    start = time.monotonic()
    out = subprocess.run(cmd, cwd=os.path.join(work, "proj"), env=env, capture_output=True,
                         text=True)
    took = time.monotonic() - start
    report = json.loads(out.stdout)
    host = next(h for h in report["hosts"] if h["host"] == "claude-code")
    listed = sum(1 for s in host["servers"] if s["state"] == "listed")
    if listed != SERVERS or host["request"]["tools"] != SERVERS * TOOLS:
        sys.exit("the session did not list every server:\n%s\n%s" % (out.stdout, out.stderr))
    return took


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        serve(float(sys.argv[2]), sys.argv[3])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "debug", "schema-lint"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--fast", type=float, default=1.0, help="start of the nine, seconds")
    ap.add_argument("--slow", type=float, default=3.0, help="start of the slow one, seconds")
    ap.add_argument("--jobs", type=int, default=0, help="--jobs for session (0: its default)")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="schema-lint-session-bench-")
    os.makedirs(os.path.join(work, "proj"))
    os.makedirs(os.path.join(work, "home"))
    servers = {}
    for i in range(SERVERS - 1):
        servers["fast-%d" % i] = {"command": sys.executable,
                                  "args": command(args.fast, "fast%d" % i)[1:]}
    servers["slow"] = {"command": sys.executable, "args": command(args.slow, "slow")[1:]}
    with open(os.path.join(work, "home", ".claude.json"), "w") as f:
        json.dump({"mcpServers": servers}, f)
    alone, judged = [], []
    for _ in range(args.runs):
        alone.append(slowest_start(args.slow))
        judged.append(session(args.bin, work, args.jobs))
    a, s = statistics.median(alone), statistics.median(judged)
    print("%d servers (%d starting in %.1f s, one in %.1f s, %d tools each), median of %d runs%s"
          % (SERVERS, SERVERS - 1, args.fast, args.slow, TOOLS, args.runs,
             ", --jobs %d" % args.jobs if args.jobs else ""))
    print()
    print("| case | median s | fastest s |")
    print("|---|---|---|")
    print("| slowest start (alone) | %.3f | %.3f |" % (a, min(alone)))
    print("| session, 10 servers | %.3f | %.3f |" % (s, min(judged)))
    print()
    over = s - a
    print("session - slowest start: %.3f s (bound: 1 s)" % over)
    return 0 if over <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
