"""Checks what schema-lint says of the schemas schemars wrote (tests/integration/generators.sh).

The harness (generators/schemars) prints one tool per Rust type: `bad_X` has the shape a
finding's help starts from, `fixed_X` the change that help names. For each pair this checks that
`bad_X` gets the finding with a help that names the schemars change, that `fixed_X` does not get
it, and that the fixtures under testdata/rules/ holding schemars' output are what schemars writes.

Usage: check.py TOOLS_LIST REPORT_JSON REPO_ROOT
"""

import json
import sys
from pathlib import Path

# pair -> (rule, a piece of the message, a piece of the help): what `bad_<pair>` must get, and
# `fixed_<pair>` must not.
EXPECTED = {
    "nested": ("SL707", "`$ref` is not a field", "`#[schemars(inline)]`"),
    "strict": ("SL707", "`additionalProperties` is not a field", "`#[serde(deny_unknown_fields)]`"),
    "option": ("SL707", "`type` is the array", "`#[schemars(with = \"T\")]`"),
    "value": ("SL707", "Schema is the boolean `true`", "`serde_json::Value`"),
    "url": ("SL707", "`format` `uri`", "`#[schemars(url)]`"),
    "bounds": ("SL708", "`pattern` is not among", "`#[schemars(regex(pattern = ...)"),
    # Not a change of shape: the same field with `#[schemars(extend("x-schema-lint-ignore" =
    # ["SL708"]))]`, as docs/configuration.md shows, which must silence it.
    "ignored": ("SL708", "`pattern` is not among", "`#[schemars(regex(pattern = ...)"),
    "cycle": ("SL708", "a cycle Gemini cannot unroll", "`Option<Box<Node>>`"),
    "tuple": ("SL711", "Array schema has no `items`", "`[u32; 2]`"),
}

# Fixtures whose tools hold schemars' output: each tool's `inputSchema` must equal the harness's
# for the tool of the same name.
FIXTURES = [
    "testdata/rules/SL707/bad-schemars-tool.json",
    "testdata/rules/SL708/bad-schemars-cycle.json",
    "testdata/rules/SL711/bad-schemars-tuple.json",
]


def main() -> int:
    tools_path, report_path, root = sys.argv[1:4]
    tools = {t["name"]: t["inputSchema"] for t in json.loads(Path(tools_path).read_text())["tools"]}
    report = json.loads(Path(report_path).read_text())
    by_tool: dict[str, list[dict]] = {}
    for d in report["diagnostics"]:
        index = int(d["pointer"].split("/")[2])
        by_tool.setdefault(list(tools)[index], []).append(d)

    failures = []
    for pair, (rule, message, help_piece) in EXPECTED.items():
        bad = [d for d in by_tool.get(f"bad_{pair}", []) if d["code"] == rule and message in d["message"]]
        if not bad:
            failures.append(f"bad_{pair}: no {rule} finding with {message!r}")
        elif not any(help_piece in (d.get("help") or "") for d in bad):
            failures.append(f"bad_{pair}: {rule}'s help does not name {help_piece!r}: {bad[0].get('help')!r}")
        fixed = [d for d in by_tool.get(f"fixed_{pair}", []) if d["code"] == rule and message in d["message"]]
        if fixed:
            failures.append(f"fixed_{pair}: the change the help names still gets {rule}: {fixed[0]['message']}")
        else:
            print(f"generators: {pair}: bad_{pair} gets {rule} with the schemars help; fixed_{pair} does not")

    for fixture in FIXTURES:
        differ = [
            tool["name"]
            for tool in json.loads((Path(root) / fixture).read_text())["tools"]
            if tools.get(tool["name"]) != tool["inputSchema"]
        ]
        if differ:
            failures.append(f"{fixture}: the inputSchema of {differ} is not what schemars writes")
        else:
            print(f"generators: {fixture} holds what schemars writes")

    for failure in failures:
        print(f"generators: FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
