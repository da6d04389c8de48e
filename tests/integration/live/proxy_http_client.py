"""The Python SDK (`mcp` from PyPI) as a host whose server is a remote one: it starts
`schema-lint proxy --for gemini --url URL` as its stdio server, and the proxy speaks Streamable
HTTP to tests/integration/live/proxy_server.py. On 2025-11-25 the host is `stdio_client` and
`ClientSession` (initialize, then the session the server gives); on 2026-07-28 it is `Client`
(stateless, the routing headers checked by the server). The listing it gets is ported for Gemini
(`forecast`'s `$ref` inlined, no `$defs` left), its calls return the server's results, and the
headers never reach the log.

Usage: proxy_http_client.py SCHEMA_LINT REVISION LOGFILE URL
"""

from __future__ import annotations

import json
import sys

import anyio

from mcp import Client, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

SECRET = "Bearer s3cret-token-for-the-log"


def check_listing(tools: dict) -> None:
    if set(tools) != {"station.history", "get_weather", "forecast"}:
        raise SystemExit(f"proxy http client: the listing's names are {sorted(tools)}")
    text = json.dumps({n: t.input_schema for n, t in tools.items()})
    if "$defs" in text or "$ref" in text:
        raise SystemExit(f"proxy http client: not ported for Gemini: {text}")
    place = tools["forecast"].input_schema["properties"]["place"]
    if place.get("type") != "object" or "city" not in place.get("properties", {}):
        raise SystemExit(f"proxy http client: `place` is not inlined: {place}")


async def legacy(params: StdioServerParameters) -> list[str]:
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            if init.protocol_version != "2025-11-25":
                raise SystemExit(f"proxy http client: negotiated {init.protocol_version}")
            tools = {t.name: t for t in (await session.list_tools()).tools}
            check_listing(tools)
            calls = [
                ("station.history", {"city": "London"}),
                ("forecast", {"place": {"city": "Oslo", "days": 3}}),
                ("get_weather", {"city": "Rome", "units": None}),
            ]
            return [(await session.call_tool(n, a)).content[0].text for n, a in calls]


async def modern(params: StdioServerParameters) -> list[str]:
    async with Client(params, mode="auto") as client:
        if client.protocol_version != "2026-07-28":
            raise SystemExit(f"proxy http client: negotiated {client.protocol_version}")
        tools = {t.name: t for t in (await client.list_tools()).tools}
        check_listing(tools)
        calls = [
            ("station.history", {"city": "London"}),
            ("forecast", {"place": {"city": "Oslo", "days": 3}}),
            ("get_weather", {"city": "Rome", "units": None}),
        ]
        return [(await client.call_tool(n, a)).content[0].text for n, a in calls]


async def run(linter: str, revision: str, log: str, url: str) -> None:
    args = ["proxy", "--for", "gemini", "--log", log, "--url", url,
            "--header", f"Authorization: {SECRET}"]
    params = StdioServerParameters(command=linter, args=args)
    texts = await (legacy(params) if revision == "2025-11-25" else modern(params))
    expected = ["history of London", "3-day forecast for Oslo", "weather in Rome (metric)"]
    if texts != expected:
        raise SystemExit(f"proxy http client: the calls answered {texts}, expected {expected}")
    with open(log) as f:
        said = f.read()
    if "s3cret" in said or "Inline every `$ref`" not in said:
        raise SystemExit(f"proxy http client: the log is not what it should be:\n{said}")
    print(f"proxy http client {revision}: listing ported for gemini, calls -> {texts}")


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print("usage: proxy_http_client.py SCHEMA_LINT REVISION LOGFILE URL", file=sys.stderr)
        return 2
    anyio.run(run, *argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
