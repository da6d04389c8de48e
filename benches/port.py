#!/usr/bin/env python3
"""How fast `schema-lint port` and `schema-lint proxy` are on a 100-tool listing:
`python3 benches/port.py [--bin PATH] [--runs N]`.

Issue 44 bounds both: porting a 100-tool listing within 50 ms, and the proxy adding under 5 ms
to a 100-tool `tools/list`. The listing is made of the real tools in testdata/ (the filesystem,
memory and time servers, the Python SDK's example tools, the port fixtures), repeated under new
names up to 100 tools.

Measured, each the median of --runs:

  port          `schema-lint port --for CLIENT listing.json` from start to exit (a process:
                what a host that calls the CLI pays), for gemini and openai-strict
  tools/list    a client (this script) sends `tools/list` to a server (this script in `serve`
                mode, standard library only) and reads the answer: directly, and through
                `schema-lint proxy --for CLIENT -- python3 benches/port.py serve`; each round trip
                timed after `initialize`: the first of a connection (the proxy ports it), and the
                same listing asked again --runs times (sent as it was ported); the proxy's cost is
                the difference of the medians

Use a release build (`cargo build --release`; --bin defaults to target/release/schema-lint).
Prints a Markdown table (paste it into BENCHMARKS.md) and exits 1 when a bound is not met.
"""
import argparse
import copy
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = 100
SOURCES = [
    "testdata/diff/real-server-filesystem-2025.11.25-to-2026.8.31/new.json",
    "testdata/diff/real-server-memory-2025.11.25-to-2026.8.31/new.json",
    "testdata/diff/real-server-time-2025.9.25-to-2026.10.19/new.json",
    "testdata/cli/mcp-python-sdk-tools-all/files/tools.json",
    *sorted(glob.glob(os.path.join(ROOT, "testdata/port/*/input.json"))),
]


def listing():
    """A tools/list result of TOOLS real tools, names made unique."""
    tools = []
    for path in SOURCES:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            doc = json.load(f)
        tools.extend(doc.get("result", doc)["tools"])
    out = []
    i = 0
    while len(out) < TOOLS:
        tool = copy.deepcopy(tools[i % len(tools)])
        if i >= len(tools):
            tool["name"] = "%s_%d" % (tool["name"], i // len(tools))
        out.append(tool)
        i += 1
    return {"tools": out}


def serve(path):
    """A stdio MCP server that answers `tools/list` with the listing in `path`."""
    with open(path, encoding="utf-8") as f:
        result = json.load(f)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        if "id" not in msg or "method" not in msg:
            continue
        if msg["method"] == "initialize":
            answer = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                      "serverInfo": {"name": "bench", "version": "1.0.0"}}
        elif msg["method"] == "tools/list":
            answer = result
        else:
            answer = {}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": answer}) + "\n")
        sys.stdout.flush()


def round_trips(command, runs):
    """The times of `runs` tools/list round trips over one connection to `command`."""
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(n, method):
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": n, "method": method,
                                     "params": {}}) + "\n")
        proc.stdin.flush()
        while True:
            answer = json.loads(proc.stdout.readline())
            if answer.get("id") == n:
                return answer

    ask(0, "initialize")
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    times = []
    for n in range(1, runs + 1):
        start = time.perf_counter()
        answer = ask(n, "tools/list")
        times.append(time.perf_counter() - start)
        assert len(answer["result"]["tools"]) == TOOLS, answer
    proc.stdin.close()
    proc.wait(timeout=10)
    return times


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "serve":
        serve(sys.argv[2])
        return 0
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, "target/release/schema-lint"))
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="schema-lint-port-bench-")
    path = os.path.join(work, "tools.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(listing(), f, indent=2)
    size = os.path.getsize(path)
    ok = True
    rows = []
    for client in ("gemini", "openai-strict"):
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            run = subprocess.run([args.bin, "port", "--for", client, path],
                                 capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            assert run.returncode in (0, 2), run.stderr
        changes = subprocess.run([args.bin, "port", "--for", client, path, "--report",
                                  os.path.join(work, "report.json")], capture_output=True)
        with open(os.path.join(work, "report.json"), encoding="utf-8") as f:
            report = json.load(f)
        median = statistics.median(times) * 1000
        ok &= median <= 50
        rows.append("| port --for %s | %d changes, %d left | %.1f ms (fastest %.1f) | 50 ms |" % (
            client, len(report["changes"]), len(report["left"]), median, min(times) * 1000))
    server = [sys.executable, os.path.abspath(__file__), "serve", path]
    direct = round_trips(server, args.runs)
    d = statistics.median(direct) * 1000
    for client in ("gemini", "openai-strict"):
        proxy = [args.bin, "proxy", "--for", client, "--"] + server
        # The first listing of a connection is ported; the same listing again is sent as ported.
        first = [round_trips(proxy, 1)[0] for _ in range(min(args.runs, 7))]
        again = round_trips(proxy, args.runs + 1)[1:]
        f, a = statistics.median(first) * 1000, statistics.median(again) * 1000
        ok &= a - d < 5
        rows.append("| first tools/list through proxy --for %s | direct %.2f ms, proxied %.2f ms | +%.2f ms | |"
                    % (client, d, f, f - d))
        rows.append("| the same tools/list again through proxy --for %s | direct %.2f ms, proxied %.2f ms | +%.2f ms | 5 ms |"
                    % (client, d, a, a - d))
    print("%d tools, %d bytes; %s; medians of %d runs\n" % (TOOLS, size, args.bin, args.runs))
    print("| what | | time | bound |\n|---|---|---|---|")
    print("\n".join(rows))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
