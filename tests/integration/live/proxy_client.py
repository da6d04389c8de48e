"""The Python SDK client (`mcp` from PyPI) through `schema-lint proxy --for openai-strict` to
tests/integration/live/proxy_server.py, on one protocol revision: the listing it gets is the one
OpenAI's strict mode takes (names of `[A-Za-z0-9_-]`, closed objects, every property required),
and a call of the renamed tool reaches the server's own.

Usage: proxy_client.py SCHEMA_LINT REVISION LOGFILE -- SERVER_COMMAND [ARGS...]
"""

from __future__ import annotations

import re
import sys

import anyio

from mcp import Client
from mcp.client.stdio import StdioServerParameters


def closed(schema: dict) -> bool:
    if schema.get("type") == "object":
        props = schema.get("properties", {})
        if schema.get("additionalProperties") is not False or sorted(schema.get("required", [])) != sorted(props):
            return False
        return all(closed(p) for p in props.values())
    return True


async def run(linter: str, revision: str, log: str, server: list[str]) -> None:
    mode = "legacy" if revision == "2025-11-25" else "auto"
    args = ["proxy", "--for", "openai-strict", "--log", log, "--", *server]
    async with Client(StdioServerParameters(command=linter, args=args), mode=mode) as client:
        if client.protocol_version != revision:
            raise SystemExit(f"proxy client: asked for {revision}, negotiated {client.protocol_version}")
        tools = {t.name: t for t in (await client.list_tools()).tools}
        bad = [n for n in tools if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", n)]
        if bad or set(tools) != {"station_history", "get_weather", "forecast"}:
            raise SystemExit(f"proxy client: the listing's names are {sorted(tools)}")
        open_ones = [n for n, t in tools.items() if not closed(t.input_schema)]
        if open_ones:
            raise SystemExit(f"proxy client: not ported for strict mode: {open_ones}")
        result = await client.call_tool("station_history", {"city": "London"})
        text = result.content[0].text
        if text != "history of London":
            raise SystemExit(f"proxy client: the renamed tool answered {text!r}")
        result = await client.call_tool("get_weather", {"city": "Oslo", "units": None})
        print(f"proxy client {revision}: {sorted(tools)} listed, station_history -> {text!r}, "
              f"get_weather -> {result.content[0].text!r}")


def main(argv: list[str]) -> int:
    if len(argv) < 6 or argv[4] != "--":
        print("usage: proxy_client.py SCHEMA_LINT REVISION LOGFILE -- SERVER [ARGS...]", file=sys.stderr)
        return 2
    anyio.run(run, argv[1], argv[2], argv[3], argv[5:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
