"""Runs every listing case of the engine tier through the Python MCP client of the 1.x line (`mcp`
1.30.0, the last 1.x: `mcp.ClientSession`, the client many hosts still run), as python_client.py
runs them through 2.3.0.

The session's streams are a pair of in-memory streams to a fake peer in the same event loop: the
peer answers `initialize` with protocol 2025-11-25 and the tools capability, `tools/list` with the
case's listing verbatim, and `tools/call` of a case's call with its `structuredContent` (and the
same value as text). The client runs `initialize()`, `list_tools()`, then `call_tool()` for each
call of the case whose tool the listing kept (1.x validates `structuredContent` there, with
`jsonschema.validate(..., registry=Registry())`).

A case with `raw` (the listing as text, such as one with a key twice) is served as the bytes of a
JSON-RPC line, parsed as 1.x's stdio transport parses each line
(`types.JSONRPCMessage.model_validate_json`); its result then also records the output schema of
each tool as the client read it (`read`).

Usage: python python_client_v1.py CLIENT LISTINGS.json > RESULTS.json
(the formats of python_client.py).
"""

import json
import logging
import sys
import warnings
from contextlib import asynccontextmanager
from importlib.metadata import version

import anyio
from mcp import ClientSession, types
from mcp.shared.message import SessionMessage

PROTOCOL = "2025-11-25"
VERSION = "1.30.0"


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


def reply(request_id, result=None, error=None):
    if error is not None:
        inner = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(**error))
    else:
        inner = types.JSONRPCResponse(jsonrpc="2.0", id=request_id, result=result)
    return SessionMessage(types.JSONRPCMessage(inner))


def answer(case, request):
    """The peer's reply to one JSON-RPC request: a SessionMessage, or the exception the transport
    hands the session when it cannot parse the line."""
    method, params = request.method, request.params or {}
    if method == "initialize":
        return reply(request.id, {
            "protocolVersion": PROTOCOL,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "listing-peer", "version": "1.0.0"},
        })
    if method == "tools/list" and "raw" in case:
        text = case["raw"].replace("\r\n", " ").replace("\n", " ")
        line = f'{{"jsonrpc":"2.0","id":{json.dumps(request.id)},"result":{text}}}'
        try:
            return SessionMessage(types.JSONRPCMessage.model_validate_json(line))
        except Exception as e:  # noqa: BLE001 - what the stdio transport sends the session
            return e
    if method == "tools/list":
        return reply(request.id, case["listing"])
    if method == "tools/call":
        call = next((k for k in case.get("calls", []) if k["tool"] == params.get("name")), None)
        if call is None:
            return reply(request.id, error={"code": -32602, "message": "unknown tool"})
        data = call["structuredContent"]
        return reply(request.id, {"content": [{"type": "text", "text": json.dumps(data)}], "structuredContent": data})
    return reply(request.id, error={"code": -32601, "message": "method not found"})


@asynccontextmanager
async def fake_peer(case):
    """The session's streams, whose other end is the case's peer."""
    to_client, client_reads = anyio.create_memory_object_stream(16)
    client_writes, to_peer = anyio.create_memory_object_stream(16)

    async def serve():
        async for item in to_peer:
            request = item.message.root
            if getattr(request, "method", None) is None or getattr(request, "id", None) is None:
                continue  # notifications
            await to_client.send(answer(case, request))

    async with anyio.create_task_group() as tg:
        tg.start_soon(serve)
        async with to_client, client_reads, client_writes:
            yield client_reads, client_writes
        tg.cancel_scope.cancel()


async def run(case):
    async with fake_peer(case) as (reads, writes), ClientSession(reads, writes) as session:
        await session.initialize()
        try:
            with anyio.fail_after(10):
                listed = await session.list_tools()
        except Exception as e:  # noqa: BLE001 - any failure is what the user would see
            return {"listing": "error", "error": message(e)}
        result = {"listing": "ok", "tools": [t.name for t in listed.tools]}
        if "raw" in case:
            result["read"] = {t.name: t.outputSchema for t in listed.tools}
        calls = [k for k in case.get("calls", []) if k["tool"] in result["tools"]]
        if calls:
            result["calls"] = {}
            for k in calls:
                try:
                    with anyio.fail_after(10):
                        await session.call_tool(k["tool"], {})
                    result["calls"][k["tool"]] = "ok"
                except Exception as e:  # noqa: BLE001
                    result["calls"][k["tool"]] = f"error: {message(e)}"
        return result


async def main():
    name, path = sys.argv[1], sys.argv[2]
    if version("mcp") != VERSION:
        sys.exit(f"python_client_v1.py: mcp {version('mcp')} installed, {VERSION} expected")
    with open(path, encoding="utf-8") as f:
        cases = json.load(f)
    out = {}
    for case in cases:
        out[case["name"]] = await run(case)
    json.dump({name: out}, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    anyio.run(main)
