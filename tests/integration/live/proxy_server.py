"""An MCP server on the Python SDK (`mcp` from PyPI) for the proxy part of
tests/integration/live.sh: a tool whose name OpenAI refuses (`station.history`) and one with an
optional argument (which OpenAI's strict mode wants required and nullable)."""

from __future__ import annotations

from mcp.server import MCPServer

server = MCPServer("proxy-python")


@server.tool(name="station.history")
def station_history(city: str) -> str:
    """The history of the nearest weather station."""
    return f"history of {city}"


@server.tool()
def get_weather(city: str, units: str | None = None) -> str:
    """Current weather for a city."""
    return f"weather in {city} ({units or 'metric'})"


if __name__ == "__main__":
    server.run()
