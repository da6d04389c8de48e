#!/usr/bin/env python3
"""Generates the scale inputs of issue #24 (items 16 and 20), deterministically.

  tools N OUT      a `tools/list` result with N tools, each with an input schema and an output
                   schema that declares its own `$id` (`https://example.com/tool-K/output.json`),
                   every tenth one the `$id` of an earlier tool with other content (SL204
                   across tools), so the rule has both work and findings.
  capture MB OUT   a JSON Lines capture of about MB megabytes: a handshake, a `tools/list`, then
                   `tools/call` requests and their responses (one in seven invalid against the
                   output schema, one in eleven answered with a JSON-RPC error), each result
                   carrying a few KB of text content.

Usage: benches/gen_scale.py tools 10000 /tmp/tools.json
       benches/gen_scale.py capture 200 /tmp/capture.jsonl
"""
import json
import sys

OUTPUT = {
    "type": "object",
    "properties": {"n": {"type": "integer"}, "city": {"type": "string"}},
    "required": ["n"],
}


def tools(n, out):
    listed = []
    for k in range(n):
        own = k - 5 if k % 10 == 9 else k
        output = dict(OUTPUT, **{"$id": f"https://example.com/tool-{own}/output.json"})
        if own != k:
            output["description"] = f"tool {k}"
        listed.append({
            "name": f"tool_{k}",
            "description": f"Tool number {k}",
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
            "outputSchema": output,
        })
    with open(out, "w") as f:
        json.dump({"tools": listed}, f, indent=1)
        f.write("\n")


def capture(mb, out):
    limit = mb << 20
    text = "x" * 3000
    with open(out, "w") as f:
        def line(message):
            s = json.dumps(message, separators=(",", ":"))
            f.write(s + "\n")
            return len(s) + 1

        size = line({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "c", "version": "1"}}})
        size += line({"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
            "serverInfo": {"name": "s", "version": "1"}}})
        size += line({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        size += line({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "t", "inputSchema": {"type": "object"}, "outputSchema": OUTPUT}]}})
        k = 2
        while size < limit:
            size += line({"jsonrpc": "2.0", "id": k, "method": "tools/call",
                          "params": {"name": "t", "arguments": {"q": str(k)}}})
            if k % 11 == 0:
                size += line({"jsonrpc": "2.0", "id": k,
                              "error": {"code": -32603, "message": "boom"}})
            else:
                n = "seven" if k % 7 == 0 else k
                size += line({"jsonrpc": "2.0", "id": k, "result": {
                    "content": [{"type": "text", "text": text}],
                    "structuredContent": {"n": n, "city": "Lyon"}}})
            k += 1


if __name__ == "__main__":
    what, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    {"tools": tools, "capture": capture}[what](size, out)
