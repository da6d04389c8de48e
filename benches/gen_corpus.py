#!/usr/bin/env python3
"""Generates the benchmark corpora, deterministically (seeded), so anyone can rerun them.

  small/  10,000 MCP output schemas of 1-3 KB: objects with typed properties, some with $defs and
          $ref, 10 % with an invalid `$id` (`tool_N:output`, what strict clients reject).
  large/  200 schemas of 100 KB - 2 MB: deep nesting and thousands of `$ref`s into `$defs`.

Usage: benches/gen_corpus.py OUT_DIR [--small N] [--large N]
"""
import argparse
import json
import os
import random

TYPES = ["string", "integer", "number", "boolean"]
WORDS = ("region count temperature humidity conditions city station online name id total "
         "items price currency updated created owner status score label kind value unit").split()


def word(rng):
    return rng.choice(WORDS) + str(rng.randrange(100))


def leaf(rng):
    t = rng.choice(TYPES)
    s = {"type": t, "description": "The " + word(rng) + " of the result, as the tool computed it."}
    if t == "string" and rng.random() < 0.3:
        s["enum"] = [word(rng) for _ in range(rng.randrange(2, 5))]
    if t in ("integer", "number") and rng.random() < 0.3:
        s["minimum"] = 0
    return s


def small_schema(rng, i):
    schema = {"type": "object", "title": f"tool_{i}Output"}
    props = {}
    defs = {}
    if rng.random() < 0.4:
        for d in range(rng.randrange(1, 4)):
            defs[f"Def{d}"] = {"type": "object", "properties": {word(rng): leaf(rng) for _ in range(rng.randrange(2, 5))}}
    for _ in range(rng.randrange(6, 16)):
        if defs and rng.random() < 0.3:
            props[word(rng)] = {"$ref": "#/$defs/" + rng.choice(list(defs))}
        elif rng.random() < 0.2:
            props[word(rng)] = {"type": "array", "items": leaf(rng)}
        else:
            props[word(rng)] = leaf(rng)
    schema["properties"] = props
    schema["required"] = sorted(props)[: rng.randrange(1, len(props) + 1)]
    if defs:
        schema["$defs"] = defs
    if i % 10 == 0:
        schema = {"$id": f"tool_{i}:output", **schema}
    elif rng.random() < 0.5:
        schema = {"$id": f"urn:mcp:tool_{i}:output", **schema}
    return schema


def nested(rng, depth, defs_names, width=3):
    """A subschema `depth` objects deep, `width` properties at most per level."""
    if depth == 0:
        if defs_names and rng.random() < 0.6:
            return {"$ref": "#/$defs/" + rng.choice(defs_names)}
        return leaf(rng)
    props = {word(rng) + str(k): nested(rng, depth - 1, defs_names, width) for k in range(rng.randrange(1, width + 1))}
    return {"type": "object", "properties": props}


def large_schema(rng, i, target_bytes):
    """Adds `$defs` entries (each a few levels deep, `$ref`-ing earlier ones) and properties
    (every fourth one a 40-level-deep single chain) until the text reaches `target_bytes`."""
    defs = {}
    names = []
    props = {}
    size = 0
    k = 0
    while size < target_bytes:
        name = f"D{k}"
        entry = nested(rng, rng.randrange(2, 5), names[-50:])
        defs[name] = entry
        names.append(name)
        prop = nested(rng, 40, names[-20:], width=1) if k % 4 == 0 else {"$ref": "#/$defs/" + name}
        props[f"p{k}"] = prop
        size += len(json.dumps(entry, indent=2)) + len(json.dumps(prop, indent=2)) + 40
        k += 1
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"https://example.com/large/{i}.json",
            "type": "object", "properties": props, "$defs": defs}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--small", type=int, default=10_000)
    ap.add_argument("--large", type=int, default=200)
    args = ap.parse_args()
    rng = random.Random(20261130)
    small = os.path.join(args.out, "small")
    large = os.path.join(args.out, "large")
    os.makedirs(small, exist_ok=True)
    os.makedirs(large, exist_ok=True)
    for i in range(args.small):
        with open(os.path.join(small, f"tool_{i:05}.json"), "w") as f:
            json.dump(small_schema(rng, i), f, indent=2)
            f.write("\n")
    for i in range(args.large):
        target = int(100_000 * (20 ** (i / max(args.large - 1, 1))))  # 100 KB .. 2 MB, log-spaced
        with open(os.path.join(large, f"large_{i:03}.json"), "w") as f:
            json.dump(large_schema(rng, i, target), f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
