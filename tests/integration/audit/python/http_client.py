"""A client on the Python SDK (`mcp` 2.x) over Streamable HTTP, for tests/integration/live.sh:
connects to URL (there, `schema-lint record --listen` in front of a real server), negotiates
REVISION, lists the tools and calls each once with {city}. Prints a line per call; exits 0 when
the session worked (a result the client itself rejects is printed, not a failure).

Usage: http_client.py URL REVISION
"""

from __future__ import annotations

import sys

import anyio

from mcp import Client


async def run(url: str, revision: str) -> None:
    mode = "legacy" if revision == "2025-11-25" else "auto"
    async with Client(url, mode=mode) as client:
        if client.protocol_version != revision:
            raise SystemExit(f"python http client: asked for {revision}, negotiated {client.protocol_version}")
        listed = await client.list_tools()
        for tool in listed.tools:
            try:
                await client.call_tool(tool.name, {"city": "Oslo"})
                print(f"python http client {revision}: {tool.name}: ok")
            except Exception as exc:  # the client's own validation
                print(f"python http client {revision}: {tool.name}: rejected by the client: {exc!r}")
        print(f"python http client {revision}: calls {len(listed.tools)}")


if __name__ == "__main__":
    anyio.run(run, sys.argv[1], sys.argv[2])
