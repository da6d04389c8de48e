"""An MCP server on the Python SDK (`mcp` from PyPI) for tests/integration/live.sh: over stdio by
default, or over Streamable HTTP on a loopback port (`--http PORT`, answers as event streams;
`--json` for JSON answers). Its output schemas are the ones the SDK generates from the return
annotations, and `get_station`'s model injects `"$id": "weather_station:output"` through
`json_schema_extra`, the way authors give their schemas ids, which breaks Ajv's URI parser.
"""

from __future__ import annotations

import sys

from pydantic import BaseModel, ConfigDict

from mcp.server import MCPServer

server = MCPServer("live-python")


class WeatherData(BaseModel):
    temperature: float
    conditions: str


class Station(BaseModel):
    model_config = ConfigDict(json_schema_extra={"$id": "weather_station:output"})
    station: str


@server.tool()
def get_weather(city: str) -> WeatherData:
    """Current weather for a city."""
    return WeatherData(temperature=16.2, conditions="Overcast")


@server.tool()
def get_forecast(city: str) -> list[float]:
    """Temperatures of the next days."""
    return [16.0, 17.0, 15.0]


@server.tool()
def get_station(city: str) -> Station:
    """The nearest weather station."""
    return Station(station="EGLL")


if __name__ == "__main__":
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        server.run(
            "streamable-http",
            host="127.0.0.1",
            port=port,
            json_response="--json" in sys.argv,
        )
    else:
        server.run()
