"""Fake MCP servers for tests/it/live.rs: each mode is one way a server behaves, well or badly.
Standard library only, so the tests need nothing but python3.

stdio modes (python3 fake_server.py MODE [PIDFILE]):
  modern      speaks 2026-07-28 (server/discover), three pages of tools, one with a bad $id
  legacy      answers server/discover with -32601, initialize with 2025-06-18
  ts-v1       legacy, and lists a tool as the TS SDK v1 McpServer 1.32.2 does (draft-07, zod's
              closed objects)
  draft7      legacy, and lists a tool with a hand-written draft-07 output schema
  draft7-tuple  legacy, and lists two: a draft-07 output schema, and one with a tuple's `items`
              array and `additionalItems` (which 2020-12 reads otherwise, and SL402 does not respell)
  unknown     answers server/discover with -32022 and only a future revision
  exit        writes to stderr and exits with status 3 before answering
  hang        reads requests and never answers
  log-stdout  prints a log line on stdout first
  init-error  legacy, and answers initialize with a JSON-RPC error
  list-error  modern, and answers tools/list with a JSON-RPC error
  same-cursor modern, and tools/list always answers the same nextCursor
  endless     modern, and tools/list always answers a new nextCursor
  huge        modern, and tools/list answers with a 100 MB line
  stubborn    modern, ignores SIGTERM and the end of its input after answering (must be killed)
  notify      modern, sends a log notification and a ping request before each answer
  no-read     answers nothing and never reads its input: sends 5000 ping requests (whose
              answers fill the pipe to it) and sleeps 30 s
  fork        modern, forks a child that sleeps 30 s (its pid in PIDFILE.child)
  fork-hang   hang, and forks a child that sleeps 30 s (its pid in PIDFILE.child)
  stderr-flood  hang, after 300 MB of stderr without a newline
  big-pages   modern, and tools/list answers 40 pages of 8 MB each, then nothing
  many-tools  modern, and tools/list answers 8 pages of 20,000 tools each
  deep-N      modern, and tools/list answers one tool with arrays nested N deep in its schema
  bare        modern, and its tools/list result has no `resultType`, `ttlMs` or `cacheScope`
              (every other modern mode sends them, as 2026-07-28 requires)
  env-leak    writes the value of its environment's SECRET_TOKEN to stderr and exits with status 3
              before answering (a server that prints its secrets as it fails)
  barrier=DIR:N  writes a file named by its pid in DIR and waits until DIR holds N files (N
              servers running at once) before it reads its input, then behaves as legacy; after
              10 s without them, says so on stderr and exits with status 3
  listing=PATH  answers initialize with 2025-11-25, and tools/list with the tools of the listing
              file PATH (a `tools/list` result, or the JSON-RPC answer holding it); a tools/call
              of one of them answers `called NAME`, of another name an error

http mode (python3 fake_server.py http PORTFILE): a Streamable HTTP server on a free loopback
port, written to PORTFILE; the URL path picks the behaviour: /mcp (JSON answers, a session id,
DELETE recorded), /sse (answers as event streams), /auth (401), /missing (404), /fail (500),
/html (a web page), /redirect (302 elsewhere), /legacy (400 to anything but initialize),
/stall (headers and half the body, then 30 s of silence), /deep-N (the deep-N mode's answers),
/endless-event (an event stream whose one event never ends: `data:` lines of 64 KiB without the
blank line, until the client goes), /listing (the answers of the stdio mode `listing=` for the
file the environment variable FAKE_LISTING names; a query is ignored).
"""

import http.server
import json
import os
import signal
import sys
import threading
import time

BAD_SCHEMA = {"$id": "my_tool:output", "type": "object", "properties": {"n": {"type": "number"}}}
GOOD_SCHEMA = {"type": "object", "properties": {"n": {"type": "number"}}}
NON_OBJECT = {"type": "array", "items": {"type": "number"}}


# `McpServer.registerTool("forecast", {inputSchema: {city: z.string()}, outputSchema:
# {temperature: z.number()}})` as @modelcontextprotocol/sdk 1.32.2 (zod 4.6.7) lists it.
DRAFT_07 = "http://json-schema.org/draft-07/schema#"
TS_V1_TOOLS = [
    {"name": "forecast",
     "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
                     "required": ["city"], "$schema": DRAFT_07},
     "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}},
                      "required": ["temperature"], "$schema": DRAFT_07,
                      "additionalProperties": False},
     "execution": {"taskSupport": "forbidden"}},
]
PLAIN_DRAFT_07 = {"$schema": DRAFT_07, "type": "object", "properties": {"n": {"type": "number"}}}
TUPLE_DRAFT_07 = {"$schema": DRAFT_07, "type": "object", "properties": {
    "pair": {"type": "array", "items": [{"type": "string"}, {"type": "number"}],
             "additionalItems": False}}}


def tool(name, output):
    return {"name": name, "inputSchema": {"type": "object"}, "outputSchema": output}


PAGES = [
    [tool("a", GOOD_SCHEMA), tool("b", BAD_SCHEMA)],
    [tool("c", GOOD_SCHEMA)],
    [tool("d", NON_OBJECT)],
]


def answer(msg, result):
    return {"jsonrpc": "2.0", "id": msg["id"], "result": result}


def error(msg, code, message, data=None):
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": msg["id"], "error": err}


def discover_result():
    return {
        "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {}},
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fake", "version": "0.1"}},
    }


def page(msg):
    cursor = (msg.get("params") or {}).get("cursor")
    index = int(cursor) if cursor else 0
    result = {"tools": PAGES[index]}
    if index + 1 < len(PAGES):
        result["nextCursor"] = str(index + 1)
    return result


def nested(depth):
    """Arrays nested `depth` deep, around a 0."""
    return json.loads("[" * depth + "0" + "]" * depth)


def fork_sleeper(pidfile):
    """A child that outlives the server unless it is stopped with the group: sleeps 30 s."""
    pid = os.fork()
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    with open(pidfile + ".child.tmp", "w") as f:
        f.write(str(pid))
    os.rename(pidfile + ".child.tmp", pidfile + ".child")


# What 2026-07-28 requires of a `tools/list` result beside the tools.
ENVELOPE = {"resultType": "complete", "ttlMs": 0, "cacheScope": "private"}


def respond(mode, msg, state):
    """The answer to one request in a stdio mode, or None for no answer."""
    reply = respond_bare(mode, msg, state)
    modern = not (mode in ("legacy", "init-error", "ts-v1", "draft7", "draft7-tuple", "bare")
                  or mode.startswith("listing="))
    if modern and msg.get("method") == "tools/list" and reply and "result" in reply:
        reply["result"] = {**ENVELOPE, **reply["result"]}
    return reply


def respond_bare(mode, msg, state):
    """The answer to one request in a stdio mode, without the 2026-07-28 envelope."""
    method = msg.get("method")
    listing = mode.startswith("listing=")
    legacy = mode in ("legacy", "init-error", "ts-v1", "draft7", "draft7-tuple") or listing
    if method == "server/discover":
        if legacy:
            return error(msg, -32601, "Method not found")
        if mode == "unknown":
            return error(msg, -32022, "Unsupported protocol version",
                         {"supported": ["2099-01-01"], "requested": "2026-07-28"})
        return answer(msg, discover_result())
    if method == "initialize":
        if mode == "init-error":
            return error(msg, -32603, "the server is not configured: set API_KEY")
        revision = "2025-11-25" if listing else "2025-06-18"
        return answer(msg, {"protocolVersion": revision, "capabilities": {"tools": {}},
                            "serverInfo": {"name": "fake-legacy", "version": "0.1"}})
    if method == "tools/list":
        if mode == "list-error":
            return error(msg, -32000, "listing failed")
        if mode == "same-cursor":
            return answer(msg, {"tools": [], "nextCursor": "again"})
        if mode == "endless":
            state["n"] = state.get("n", 0) + 1
            return answer(msg, {"tools": [], "nextCursor": "c%d" % state["n"]})
        if mode == "big-pages":
            state["n"] = state.get("n", 0) + 1
            if state["n"] > 40:
                return None
            return answer(msg, {"tools": [tool("big%d" % state["n"], {"description": "x" * (8 << 20)})],
                                "nextCursor": "c%d" % state["n"]})
        if mode == "many-tools":
            n = state["n"] = state.get("n", 0) + 1
            result = {"tools": [{"name": "t%d_%d" % (n, i), "inputSchema": {"type": "object"}}
                                for i in range(20000)]}
            if n < 8:
                result["nextCursor"] = "c%d" % n
            return answer(msg, result)
        if mode.startswith("deep-"):
            deep = {"type": "object", "default": nested(int(mode[5:]))}
            return answer(msg, {"tools": [{"name": "deep", "inputSchema": deep}]})
        if mode == "huge":
            return answer(msg, {"tools": [tool("big", {"description": "x" * (100 << 20)})]})
        if mode == "ts-v1":
            return answer(msg, {"tools": TS_V1_TOOLS})
        if mode == "draft7":
            return answer(msg, {"tools": [tool("plain", PLAIN_DRAFT_07)]})
        if listing:
            with open(mode[len("listing="):], encoding="utf-8") as f:
                listed = json.load(f)
            listed = listed.get("result", listed)
            return answer(msg, {"tools": listed["tools"]})
        if mode == "draft7-tuple":
            return answer(msg, {"tools": [tool("plain", PLAIN_DRAFT_07),
                                          tool("tuple", TUPLE_DRAFT_07)]})
        if legacy:
            return answer(msg, {"tools": [tool("legacy", NON_OBJECT)]})
        return answer(msg, page(msg))
    if method == "tools/call" and listing:
        with open(mode[len("listing="):], encoding="utf-8") as f:
            listed = json.load(f)
        names = [t["name"] for t in listed.get("result", listed)["tools"]]
        name = msg.get("params", {}).get("name")
        if name not in names:
            return error(msg, -32602, "Unknown tool: %s" % name)
        return answer(msg, {"content": [{"type": "text", "text": "called %s" % name}]})
    return error(msg, -32601, "Method not found")


def stdio(mode, pidfile):
    if pidfile:
        with open(pidfile, "w") as f:
            f.write(str(os.getpid()))
    if mode == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if mode in ("fork", "fork-hang"):
        fork_sleeper(pidfile)
    if mode == "no-read":
        ping = "".join(json.dumps({"jsonrpc": "2.0", "id": "srv-%d" % i, "method": "ping"}) + "\n"
                       for i in range(5000))
        sys.stdout.write(ping)
        sys.stdout.flush()
        time.sleep(30)
        return
    if mode == "stderr-flood":
        chunk = "x" * (1 << 20)
        for _ in range(300):
            sys.stderr.write(chunk)
        sys.stderr.flush()
    if mode == "env-leak":
        sys.stderr.write("auth failed with token %s\n" % os.environ.get("SECRET_TOKEN", "<unset>"))
        sys.stderr.flush()
        sys.exit(3)
    if mode == "exit":
        sys.stderr.write("starting fake server\nboom: API_KEY is not set\n")
        sys.stderr.flush()
        sys.exit(3)
    if mode.startswith("barrier="):
        folder, count = mode[len("barrier="):].rsplit(":", 1)
        with open(os.path.join(folder, str(os.getpid())), "w") as f:
            f.write("started")
        deadline = time.time() + 10
        while len(os.listdir(folder)) < int(count):
            if time.time() > deadline:
                sys.stderr.write("only %d of %s servers running at once\n"
                                 % (len(os.listdir(folder)), count))
                sys.stderr.flush()
                sys.exit(3)
            time.sleep(0.02)
        mode = "legacy"
    if mode == "log-stdout":
        sys.stdout.write("Starting MCP server on stdio...\n")
        sys.stdout.flush()
    state = {}
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        if "id" not in msg or "method" not in msg:
            continue
        if mode in ("hang", "fork-hang", "stderr-flood"):
            continue
        if mode == "notify":
            out.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                                  "params": {"level": "info", "data": "hello"}}) + "\n")
            out.write(json.dumps({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"}) + "\n")
            out.flush()
        reply = respond("modern" if mode in ("notify", "stubborn", "fork") else mode, msg, state)
        if reply is not None:
            out.write(json.dumps(reply) + "\n")
            out.flush()
    if mode == "stubborn":
        while True:
            time.sleep(1)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    deletes = []

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", content_type=None, headers=()):
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_DELETE(self):
        Handler.deletes.append(self.headers.get("Mcp-Session-Id"))
        with open(self.server.record, "a") as f:
            f.write("DELETE %s %s\n" % (self.path, self.headers.get("Mcp-Session-Id")))
        self.send(200)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        msg = json.loads(self.rfile.read(length) or b"{}")
        with open(self.server.record, "a") as f:
            f.write("POST %s %s %s %s\n" % (self.path, msg.get("method"),
                                            self.headers.get("Mcp-Session-Id"),
                                            self.headers.get("MCP-Protocol-Version")))
        path = self.path
        if path == "/auth":
            return self.send(401, b'{"error": "unauthorized"}', "application/json")
        if path == "/missing":
            return self.send(404, b"Not Found", "text/plain")
        if path == "/fail":
            return self.send(500, b"Internal Server Error: database is down", "text/plain")
        if path == "/html":
            return self.send(200, b"<html><body>Welcome</body></html>", "text/html")
        if path == "/redirect":
            return self.send(302, b"", None, [("Location", "http://example.invalid/mcp")])
        if "id" not in msg:
            return self.send(202)
        if path == "/legacy":
            if msg.get("method") != "initialize" and not self.headers.get("Mcp-Session-Id"):
                return self.send(400, json.dumps(error(msg, -32000, "Bad Request: no session")).encode(),
                                 "application/json")
            reply = respond("legacy", msg, {})
            headers = [("Mcp-Session-Id", "legacy-session")]
            return self.send(200, json.dumps(reply).encode(), "application/json", headers)
        if path == "/endless-event":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            line = b"data: " + b"x" * 65536 + b"\n"
            try:
                while True:
                    self.wfile.write(line)
            except OSError:
                return
        if path == "/stall":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"jsonrpc": "2.0", ')
            self.wfile.flush()
            time.sleep(30)
            return
        if path.split("?")[0] == "/listing":
            # The listing of the file FAKE_LISTING names, as the stdio mode `listing=` answers it.
            reply = respond("listing=" + os.environ["FAKE_LISTING"], msg, {})
            return self.send(200, json.dumps(reply).encode(), "application/json",
                             [("Mcp-Session-Id", "session-42")])
        reply = respond(path[1:] if path.startswith("/deep-") else "modern", msg, {})
        if path == "/sse":
            note = json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                               "params": {"level": "info", "data": "working"}})
            body = ": keep-alive\n\nevent: message\ndata: %s\n\nid: 2\ndata: %s\n\n" % (note, json.dumps(reply))
            return self.send(200, body.encode(), "text/event-stream")
        return self.send(200, json.dumps(reply).encode(), "application/json",
                         [("Mcp-Session-Id", "session-42")])


def serve_http(portfile):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.record = portfile + ".log"
    with open(portfile + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(portfile + ".tmp", portfile)
    # The test stops it; it also stops by itself after a minute.
    threading.Timer(60, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "http":
        serve_http(sys.argv[2])
    else:
        stdio(mode, sys.argv[2] if len(sys.argv) > 2 else None)
