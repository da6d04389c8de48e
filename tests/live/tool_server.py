"""A fake MCP server whose tools answer calls, for tests/audit_live.rs (`schema-lint audit
--server`). Standard library only.

python3 tool_server.py MODE [CALLS_LOG]
  modern   speaks 2026-07-28 (server/discover)
  legacy   answers server/discover with -32601, initialize with 2025-11-25
  2025-06-18  the same, initialize with 2025-06-18 (for clients that know no later revision)
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
  boom         {}: a JSON-RPC error
  slow         {}: answers after 10 s
  never_call   {}: must never be called (the test checks the log)
Odd tools (mode `odd` only):
  chatty       {}: first sends a `notifications/message` and a `ping` request (id "srv-1"), then
               a result whose numbers and key order a JSON library would rewrite
  odd_values   {}: a result holding `1e400` and a lone `\\ud800` escape (valid JSON)
  latin1       {}: a result with a raw 0xE9 byte (Latin-1, not UTF-8) in a string
"""

import json
import sys
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


def main():
    mode = sys.argv[1]
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
