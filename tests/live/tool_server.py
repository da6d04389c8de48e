"""A fake MCP server whose tools answer calls, for tests/it/audit_live.rs (`schema-lint audit
--server`). Standard library only.

python3 tool_server.py MODE [CALLS_LOG]
  modern   speaks 2026-07-28 (server/discover)
  legacy   answers server/discover with -32601, initialize with 2025-11-25
  2025-06-18  the same, initialize with 2025-06-18 (for clients that know no later revision)
  http PORTFILE  over Streamable HTTP on a loopback port (written to PORTFILE), both eras: a
              `server/discover` or a stateless request is 2026-07-28, `initialize` opens a
              2025-11-25 session. As `mcp` 2.3.0 does, a 2026-07-28 request whose routing headers
              do not match its body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, the
              `Mcp-Param-*` of `x-mcp-header` arguments, `=?base64?...?=` decoded) is refused with
              HTTP 400 and a JSON-RPC error -32020. At `/refuse`, every tools/call is refused so.
  odd      modern, and lists the odd tools below besides the others
CALLS_LOG, when given, gets a line per tools/call received (the tool's name), so a test can tell
which tools were called.

Tools:
  get_weather  {city}: a result whose `at` is a naive date-time (TS clients reject it)
  get_link     {}: a result whose `url` is an IRI (`format: uri`)
  fail         {}: an `isError: true` result that carries `structuredContent`
  no_data      {}: a result without `structuredContent`, though the tool declares an output schema
  list_data    {}: a result whose `structuredContent` is an array (no object on 2025-11-25)
  null_data    {}: a result whose `structuredContent` is `null`
  wrapped      {}: a `.meta({ id })` tool (its schema a root `$ref` into `$defs`, beside the
               `"type": "object"` that mcp 2.x wants of every output schema) whose result is
               the legacy `{"result": {...}}` wrapper of what the schema describes
  done         {}: a valid result whose text says `done` while the data sits in `structuredContent`
  by_region    {region, filter: {tier}}: `region` and `filter.tier` are `x-mcp-header` arguments
  météo        {}: a tool whose name is not ASCII (its `Mcp-Name` is base64)
  boom         {}: a JSON-RPC error
  slow         {}: answers after 10 s
  never_call   {}: must never be called (the test checks the log)
Odd tools (mode `odd` only):
  chatty       {}: first sends a `notifications/message` and a `ping` request (id "srv-1"), then
               a result whose numbers and key order a JSON library would rewrite
  odd_values   {}: a result holding `1e400` and a lone `\\ud800` escape (valid JSON)
  latin1       {}: a result with a raw 0xE9 byte (Latin-1, not UTF-8) in a string
"""

import base64
import http.server
import json
import os
import re
import sys
import threading
import time

OBJECT_IN = {"type": "object", "properties": {}}
TOOLS = [
    {"name": "get_weather",
     "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
     "outputSchema": {"type": "object",
                      "properties": {"at": {"type": "string", "format": "date-time"},
                                     "temperature": {"type": "number"}},
                      "required": ["at", "temperature"]}},
    {"name": "get_link", "inputSchema": OBJECT_IN,
     "outputSchema": {"type": "object", "properties": {"url": {"type": "string", "format": "uri"}},
                      "required": ["url"]}},
    {"name": "fail", "inputSchema": OBJECT_IN,
     "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}},
    {"name": "no_data", "inputSchema": OBJECT_IN,
     "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}},
    {"name": "list_data", "inputSchema": OBJECT_IN,
     "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}},
    {"name": "null_data", "inputSchema": OBJECT_IN,
     "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}},
    {"name": "wrapped", "inputSchema": OBJECT_IN,
     "outputSchema": {"type": "object", "$ref": "#/$defs/Weather",
                      "$defs": {"Weather": {"type": "object", "properties": {"temperature": {"type": "number"}},
                                            "required": ["temperature"]}}}},
    {"name": "done", "inputSchema": OBJECT_IN,
     "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}},
    {"name": "by_region",
     "inputSchema": {"type": "object",
                     "properties": {"region": {"type": "string", "x-mcp-header": "Region"},
                                    "filter": {"type": "object", "properties": {
                                        "tier": {"type": "integer", "x-mcp-header": "Tier"}}}}},
     "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}},
    {"name": "météo", "inputSchema": OBJECT_IN,
     "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}},
    {"name": "boom", "inputSchema": OBJECT_IN},
    {"name": "slow", "inputSchema": OBJECT_IN},
    {"name": "never_call", "inputSchema": OBJECT_IN},
]
ODD_TOOLS = [
    {"name": "chatty", "inputSchema": OBJECT_IN,
     "outputSchema": {"type": "object"}},
    {"name": "odd_values", "inputSchema": OBJECT_IN,
     "outputSchema": {"type": "object", "properties": {"s": {"type": "string"}}, "required": ["n", "s"]}},
    {"name": "latin1", "inputSchema": OBJECT_IN,
     "outputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
]

# Answers written as these bytes, not through json.dumps.
RAW = {
    "chatty": '{"jsonrpc": "2.0", "id": %s, "result": {"content": [], "structuredContent": '
              '{"big": 123456789012345678901234567890, "z": 1, "a": 2.50}}}',
    "odd_values": '{"jsonrpc": "2.0", "id": %s, "result": {"content": [], "structuredContent": '
                  '{"n": 1e400, "s": "\\ud800"}}}',
    "latin1": '{"jsonrpc": "2.0", "id": %s, "result": {"content": [], "structuredContent": '
              '{"city": "Caf\xe9"}}}',
}


def answer(msg, result):
    return {"jsonrpc": "2.0", "id": msg["id"], "result": result}


def error(msg, code, message):
    return {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": code, "message": message}}


def structured(data, is_error=False):
    result = {"content": [{"type": "text", "text": json.dumps(data)}], "structuredContent": data}
    if is_error:
        result["isError"] = True
    return result


def call(msg):
    params = msg.get("params") or {}
    name = params.get("name")
    args = params.get("arguments") or {}
    if name == "get_weather":
        return answer(msg, structured({"at": "2026-12-01T11:00:00", "temperature": 21.5,
                                       "city": args.get("city")}))
    if name == "get_link":
        return answer(msg, structured({"url": "https://de.wikipedia.org/wiki/Köln"}))
    if name == "fail":
        return answer(msg, structured({"error": "the upstream API is down"}, is_error=True))
    if name == "no_data":
        return answer(msg, {"content": [{"type": "text", "text": "done"}]})
    if name == "list_data":
        return answer(msg, structured([1, 2]))
    if name == "null_data":
        return answer(msg, {"content": [{"type": "text", "text": "null"}], "structuredContent": None})
    if name == "wrapped":
        return answer(msg, structured({"result": {"temperature": 21.5}}))
    if name == "done":
        return answer(msg, {"content": [{"type": "text", "text": "done"}], "structuredContent": {"ok": True}})
    if name in ("by_region", "météo"):
        return answer(msg, structured({"ok": True}))
    if name == "boom":
        return error(msg, -32603, "internal error: the database is gone")
    if name == "slow":
        time.sleep(10)
        return answer(msg, {"content": [{"type": "text", "text": "late"}]})
    return answer(msg, {"content": [{"type": "text", "text": "called"}]})


def respond(mode, msg):
    method = msg.get("method")
    if method == "server/discover":
        if mode not in ("modern", "odd"):
            return error(msg, -32601, "Method not found")
        return answer(msg, {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "tools", "version": "1"}}})
    if method == "initialize":
        version = "2025-06-18" if mode == "2025-06-18" else "2025-11-25"
        return answer(msg, {"protocolVersion": version, "capabilities": {"tools": {}},
                            "serverInfo": {"name": "tools-legacy", "version": "1"}})
    if method == "tools/list":
        return answer(msg, {"tools": TOOLS + (ODD_TOOLS if mode == "odd" else [])})
    if method == "tools/call":
        return call(msg)
    return error(msg, -32601, "Method not found")


def decode_header(value):
    """`mcp` 2.3.0's `decode_header_value`."""
    if value is None:
        return None
    m = re.fullmatch(r"=\?base64\?(.*)\?=", value)
    if not m:
        return value
    try:
        raw = base64.b64decode(m.group(1), validate=True)
        if base64.b64encode(raw).decode() != m.group(1):
            return None
        return raw.decode("utf-8")
    except Exception:
        return None


def routing_mismatch(msg, headers):
    """Why a 2026-07-28 request's headers disagree with its body, as `mcp` 2.3.0 words it, or None."""
    meta = (msg.get("params") or {}).get("_meta") or {}
    if headers.get("mcp-protocol-version") != meta.get("io.modelcontextprotocol/protocolVersion"):
        return "mcp-protocol-version header does not match the request envelope's protocol version"
    if headers.get("mcp-method") != msg.get("method"):
        return "mcp-method header does not match the request body's method"
    key = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}.get(msg.get("method"))
    params = msg.get("params") or {}
    if key and params.get(key) is not None and decode_header(headers.get("mcp-name")) != params.get(key):
        return "mcp-name header does not match the request body's %r parameter" % key
    if msg.get("method") == "tools/call":
        tool = next((t for t in TOOLS if t["name"] == params.get("name")), None)
        args = params.get("arguments") or {}
        stack = [((), (tool or {}).get("inputSchema") or {})]
        while stack:
            path, schema = stack.pop()
            token = schema.get("x-mcp-header")
            if path and token:
                value = args
                for k in path:
                    value = value.get(k) if isinstance(value, dict) else None
                header = headers.get("mcp-param-" + token.lower())
                rendered = None if value is None else (
                    ("true" if value else "false") if isinstance(value, bool) else str(value))
                if rendered is None and header is not None:
                    return "Mcp-Param-%s header is present but the request body's %r argument is absent" % (token, ".".join(path))
                if rendered is not None and header is None:
                    return "Mcp-Param-%s header is missing but the request body's %r argument is present" % (token, ".".join(path))
                if rendered is not None and decode_header(header) != rendered:
                    return "Mcp-Param-%s header does not match the request body's %r argument" % (token, ".".join(path))
            for k, sub in (schema.get("properties") or {}).items():
                stack.append((path + (k,), sub))
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, reply=None):
        body = json.dumps(reply).encode() if reply is not None else b""
        self.send_response(status)
        if reply is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_DELETE(self):
        self.send(200)

    def do_POST(self):
        msg = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        if "id" not in msg:
            return self.send(202)
        headers = {k.lower(): v for k, v in self.headers.items()}
        modern = "io.modelcontextprotocol/protocolVersion" in ((msg.get("params") or {}).get("_meta") or {})
        if modern:
            why = routing_mismatch(msg, headers)
            if why is None and self.path == "/refuse" and msg.get("method") == "tools/call":
                why = "mcp-name header does not match the request body's 'name' parameter"
            if why is not None:
                return self.send(400, error(msg, -32020, why))
        if self.server.log and msg.get("method") == "tools/call":
            with open(self.server.log, "a") as f:
                f.write(msg["params"]["name"] + "\n")
        self.send(200, respond("modern", msg))


def serve_http(portfile, log):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.log = log
    with open(portfile + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(portfile + ".tmp", portfile)
    # The test stops it; it also stops by itself after a minute.
    threading.Timer(60, server.shutdown).start()
    server.serve_forever()


def main():
    mode = sys.argv[1]
    if mode == "http":
        serve_http(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
        return
    log = sys.argv[2] if len(sys.argv) > 2 else None
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        if "id" not in msg or "method" not in msg:
            continue
        if log and msg["method"] == "tools/call":
            with open(log, "a") as f:
                f.write(msg["params"]["name"] + "\n")
        name = (msg.get("params") or {}).get("name") if msg["method"] == "tools/call" else None
        if name == "chatty":
            out = sys.stdout.buffer
            out.write(b'{"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "calling"}}\n')
            out.write(b'{"jsonrpc": "2.0", "id": "srv-1", "method": "ping"}\n')
            out.flush()
        if mode == "odd" and name in RAW:
            line = RAW[name] % json.dumps(msg["id"])
            sys.stdout.buffer.write(line.encode("latin-1") + b"\n")
        else:
            sys.stdout.buffer.write((json.dumps(respond(mode, msg)) + "\n").encode())
        sys.stdout.flush()


main()
