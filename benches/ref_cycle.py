#!/usr/bin/env python3
"""Generates N schema files whose `$ref`s form one cycle, each with a fixable finding (#24 item 21).

File i has the invalid `$id` `tool_i:output` (SL201, fixed by renaming it to `tool_i_output`) and
a `$ref` to file i+1's `$id` (the last one to the first's), so every rename also rewrites the
`$ref` in the file before it, and every file is tied to every other through references.

Usage: benches/ref_cycle.py OUT_DIR N
"""
import json
import os
import sys


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"tool_{i}:output",
            "type": "object",
            "properties": {"next": {"$ref": f"tool_{(i + 1) % n}:output"}},
        }
        with open(os.path.join(out, f"s{i:05}.json"), "w", encoding="utf-8") as f:
            json.dump(schema, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
