"""Dumps the `tools/list` result of a real Python MCP SDK server as JSON.

The tools cover the return types the SDK turns into output schemas: models (BaseModel,
TypedDict, dataclass), `dict[str, T]`, and the `{"result": ...}` wrapper it puts around
scalars, lists, tuples, unions and `dict[int, T]`. The schemas come from the SDK itself: an
in-memory client lists the tools of an in-process server, over the handshake of a 2025-era
session, and the result is written as it goes over the wire (camelCase aliases, no nulls).

Usage: python dump_tools.py OUT.json
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Optional, TypedDict

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import NotRequired

from mcp import Client
from mcp.server import MCPServer

mcp = MCPServer("schema-lint-ci")


class WeatherData(BaseModel):
    temperature: float = Field(description="Degrees Celsius.")
    humidity: float = Field(description="Relative humidity, 0 to 1.")
    conditions: str


class Location(BaseModel):
    name: str
    coordinates: tuple[float, float]


class Report(BaseModel):
    """A weather report that nests a shared model."""

    location: Location
    readings: list[WeatherData]
    note: Optional[str] = None


class WeatherDict(TypedDict):
    temperature: float
    humidity: float
    conditions: str
    station: NotRequired[str]


class Node(BaseModel):
    """A recursive model: older SDKs emitted a typeless root `$ref` for it."""

    name: str
    children: list[Node] = []


class Status(BaseModel):
    """A closed model (`extra="forbid"`), an alias, a Literal and a datetime."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    state: Literal["ok", "degraded", "down"]
    since: datetime
    check_count: int = Field(alias="checkCount", ge=0)


@dataclass
class WeatherRecord:
    temperature: float
    humidity: float
    conditions: str


@mcp.tool()
def get_weather(city: str) -> WeatherData:
    """BaseModel: the model is the schema."""
    return WeatherData(temperature=16.2, humidity=0.83, conditions="Overcast")


@mcp.tool()
def get_report(city: str) -> Report:
    """BaseModel with nested models in `$defs`."""
    return Report(
        location=Location(name=city, coordinates=(51.5, -0.1)),
        readings=[WeatherData(temperature=16.2, humidity=0.83, conditions="Overcast")],
    )


@mcp.tool()
def get_weather_dict(city: str) -> WeatherDict:
    """TypedDict."""
    return WeatherDict(temperature=16.2, humidity=0.83, conditions="Overcast")


@mcp.tool()
def get_weather_record(city: str) -> WeatherRecord:
    """dataclass."""
    return WeatherRecord(temperature=16.2, humidity=0.83, conditions="Overcast")


@mcp.tool()
def get_temperatures(cities: list[str]) -> dict[str, float]:
    """dict[str, float]: an object, not wrapped."""
    return {city: 16.2 for city in cities}


@mcp.tool()
def get_temperature(city: str) -> int:
    """Scalar int: wrapped in `result`."""
    return 17


@mcp.tool()
def get_summary(city: str) -> str:
    """Scalar str: wrapped in `result`."""
    return f"{city}: overcast"


@mcp.tool()
def get_forecast(city: str, days: int) -> list[WeatherData]:
    """list[Model]: wrapped, the item model in `$defs`."""
    return [WeatherData(temperature=16.2, humidity=0.83, conditions="Overcast")] * days


@mcp.tool()
def get_pair(city: str) -> tuple[int, str]:
    """tuple: wrapped, `prefixItems`."""
    return (17, city)


@mcp.tool()
def get_maybe(city: str) -> Optional[int]:
    """Optional: wrapped union with null."""
    return None


@mcp.tool()
def get_either(city: str) -> int | str:
    """Union: wrapped."""
    return 17


@mcp.tool()
def get_tree(root: str) -> Node:
    """Recursive model: `$defs` and `#/$defs/Node` refs, inlined root."""
    return Node(name=root)


@mcp.tool()
def get_status(service: str) -> Status:
    """Closed model with an alias."""
    return Status(state="ok", since=datetime(2025, 1, 1), checkCount=3)


@mcp.tool()
def find_weather(city: str) -> Optional[WeatherData]:
    """Optional model: wrapped union of a `$ref` and null."""
    return None


@mcp.tool()
def is_raining(city: str) -> bool:
    """Scalar bool: wrapped."""
    return False


@mcp.tool()
def get_by_id(ids: list[int]) -> dict[int, str]:
    """dict[int, str]: not a JSON object, wrapped."""
    return {i: str(i) for i in ids}


async def main(out: str) -> None:
    async with Client(mcp, mode="legacy") as client:
        listed = await client.list_tools()
    document = listed.model_dump(mode="json", by_alias=True, exclude_none=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=2, ensure_ascii=False)
        f.write("\n")
    with_schema = sum(1 for t in document["tools"] if "outputSchema" in t)
    print(f"{len(document['tools'])} tools, {with_schema} with an outputSchema -> {out}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: dump_tools.py OUT.json")
    asyncio.run(main(sys.argv[1]))
