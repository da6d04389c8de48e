"""An MCP server on the Python SDK (`mcp` from PyPI) for the proxy part of
tests/integration/live.sh: a tool whose name OpenAI refuses (`station.history`) and one with an
optional argument (which OpenAI's strict mode wants required and nullable, and Gemini without its
`anyOf` of `null`). Over stdio by default, or over Streamable HTTP on a loopback port
(`--http PORT`, answers as event streams; `--json` for JSON answers)."""

from __future__ import annotations

import sys

from mcp.server import MCPServer
from pydantic import BaseModel

server = MCPServer("proxy-python")


@server.tool(name="station.history")
def station_history(city: str) -> str:
    """The history of the nearest weather station."""
    return f"history of {city}"


@server.tool()
def get_weather(city: str, units: str | None = None) -> str:
    """Current weather for a city."""
    return f"weather in {city} ({units or 'metric'})"


class Place(BaseModel):
    city: str
    days: int = 1


@server.tool()
def forecast(place: Place) -> str:
    """The forecast for a place (its schema in `$defs`, behind a `$ref`)."""
    return f"{place.days}-day forecast for {place.city}"


if __name__ == "__main__":
    if "--http" in sys.argv:
        server.run(
            "streamable-http",
            host="127.0.0.1",
            port=int(sys.argv[sys.argv.index("--http") + 1]),
            json_response="--json" in sys.argv,
        )
    else:
        server.run()
