"""Runs every listing case of the engine tier through the real Python MCP client (`mcp` 2.3.0,
`mcp.Client` in mode 'legacy': the initialize handshake of 2025-11-25, no response cache), and
again in mode 'auto' against a peer that offers 2026-07-28 (stateless), recorded as
`CLIENT@2026-07-28`.

The client's transport is a pair of in-memory streams to a fake peer in the same event loop: the
peer answers `initialize` with protocol 2025-11-25 and the tools capability, `tools/list` with
the case's listing verbatim, and `tools/call` of a case's call with its `structuredContent` (and
the same value as text). The client runs `list_tools()`, then `call_tool()` for each call of the
case whose tool the listing kept (the client validates `structuredContent` there).

A case with `raw` (the listing as text, such as one with a key twice) is served as the bytes of a
JSON-RPC line, parsed by the stdio transport's own `_parse_line` (pydantic's `validate_json`); its
result then also records the output schema of each tool as the client read it (`read`).

Usage: python python_client.py CLIENT LISTINGS.json > RESULTS.json
LISTINGS.json: [{name, listing: {tools: [...]}, calls?: [{tool, structuredContent}]}];
RESULTS.json: {CLIENT: {case: result}}, a result being {listing: "ok", tools: [names kept],
calls?: {tool: "ok" | "error: ..."}, read?: {tool: outputSchema}} or {listing: "error", error}.
"""

import json
import logging
import sys
import warnings
from contextlib import asynccontextmanager
from importlib.metadata import version

import anyio
from mcp import Client
from mcp.client.stdio import _parse_line
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCResponse

PROTOCOL = "2025-11-25"
# The stateless revision: mode 'auto' probes `server/discover`, which the peer answers with it;
# its results are recorded as `CLIENT@2026-07-28`.
STATELESS = "2026-07-28"


def message(e):
    """The first line of an error, at most 300 characters. A pydantic error (the client parses
    results with pydantic): its first line and its first error, where (the index of the tool in
    the listing written `*`) and what."""
    errors = getattr(e, "errors", None)
    if callable(errors) and hasattr(e, "title"):
        first = e.errors()[0]
        where = ".".join("*" if i == 1 and first["loc"][0] == "tools" else str(p) for i, p in enumerate(first["loc"]))
        text = f"{str(e).splitlines()[0]}: {where}: {first['msg']}"
    else:
        text = str(e).split("\n")[0]
        name = type(e).__name__
        if not text.startswith(name):
            text = f"{name}: {text}"
    return text if len(text) <= 300 else text[:297] + "..."


def answer(case, request, revision):
    """The peer's reply to one JSON-RPC request. On 2026-07-28 a result carries `resultType`, and
    a `tools/list` result its caching directives, which that revision's schema requires."""
    method, params = request.method, request.params or {}
    extra = {}
    if revision == STATELESS:
        extra = {"resultType": "complete"}
        if method == "tools/list":
            extra.update({"ttlMs": 0, "cacheScope": "private"})
    if method == "server/discover":
        result = {
            "supportedVersions": [STATELESS],
            "capabilities": {"tools": {}},
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "listing-peer", "version": "1.0.0"}},
        }
    elif method == "initialize":
        result = {
            "protocolVersion": PROTOCOL,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "listing-peer", "version": "1.0.0"},
        }
    elif method == "tools/list" and "raw" in case:
        text = case["raw"].replace("\r\n", " ").replace("\n", " ")
        if extra:
            fields = "".join(f",{json.dumps(k)}:{json.dumps(v)}" for k, v in extra.items())
            text = text.rstrip()[:-1] + fields + "}"
        return _parse_line(f'{{"jsonrpc":"2.0","id":{json.dumps(request.id)},"result":{text}}}')
    elif method == "tools/list":
        result = case["listing"]
    elif method == "tools/call":
        call = next((k for k in case.get("calls", []) if k["tool"] == params.get("name")), None)
        if call is None:
            return JSONRPCError(jsonrpc="2.0", id=request.id, error={"code": -32602, "message": "unknown tool"})
        data = call["structuredContent"]
        result = {"content": [{"type": "text", "text": json.dumps(data)}], "structuredContent": data}
    else:
        return JSONRPCError(jsonrpc="2.0", id=request.id, error={"code": -32601, "message": "method not found"})
    return JSONRPCResponse(jsonrpc="2.0", id=request.id, result={**result, **extra})


@asynccontextmanager
async def fake_peer(case, revision):
    """A transport whose other end is the case's peer."""
    to_client, client_reads = anyio.create_memory_object_stream(16)
    client_writes, to_peer = anyio.create_memory_object_stream(16)

    async def serve():
        async for item in to_peer:
            request = item.message
            if getattr(request, "method", None) is None or getattr(request, "id", None) is None:
                continue  # notifications
            reply = answer(case, request, revision)
            await to_client.send(reply if isinstance(reply, (SessionMessage, Exception)) else SessionMessage(reply))

    async with anyio.create_task_group() as tg:
        tg.start_soon(serve)
        async with to_client, client_reads, client_writes:
            yield client_reads, client_writes
        tg.cancel_scope.cancel()


async def run(case, revision=PROTOCOL):
    mode = "legacy" if revision == PROTOCOL else "auto"
    async with Client(fake_peer(case, revision), mode=mode, cache=None) as client:
        if client.protocol_version != revision:
            sys.exit(f"python_client.py: asked for {revision}, negotiated {client.protocol_version}")
        try:
            listed = await client.list_tools()
        except Exception as e:  # noqa: BLE001 - any failure is what the user would see
            return {"listing": "error", "error": message(e)}
        result = {"listing": "ok", "tools": [t.name for t in listed.tools]}
        if "raw" in case:
            result["read"] = {t.name: t.output_schema for t in listed.tools}
        calls = [k for k in case.get("calls", []) if k["tool"] in result["tools"]]
        if calls:
            result["calls"] = {}
            for k in calls:
                try:
                    await client.call_tool(k["tool"], {})
                    result["calls"][k["tool"]] = "ok"
                except Exception as e:  # noqa: BLE001
                    result["calls"][k["tool"]] = f"error: {message(e)}"
        return result


async def main():
    name, path = sys.argv[1], sys.argv[2]
    if version("mcp") != "2.3.0":
        sys.exit(f"python_client.py: mcp {version('mcp')} installed, 2.3.0 expected")
    with open(path, encoding="utf-8") as f:
        cases = json.load(f)
    out, stateless = {}, {}
    for case in cases:
        out[case["name"]] = await run(case)
        stateless[case["name"]] = await run(case, STATELESS)
    json.dump({name: out, f"{name}@{STATELESS}": stateless}, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    anyio.run(main)
