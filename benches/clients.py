#!/usr/bin/env python3
"""What selecting clients costs a check: `python3 benches/clients.py [--old BIN] [--runs N]`.

Builds schema-lint and the parse-only example in release mode, then times, interleaved on the
same machine, over SchemaStore's schemas (../shared/corpus/schemastore, read as draft-07 where they
name no dialect) and over a listing of real tools (the CLI fixtures' dumps, repeated):

  parse-only        read + strict parse of every file (examples/parse_only.rs)
  old check         the binary --old names (a build of an earlier commit), default settings
  check             schema-lint with the default clients (the SDK clients and the hosts)
  check, every      schema-lint --clients <every client>: every SL7xx rule runs

Prints the median and the fastest of --runs for each, and each against parse-only.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINT = os.path.join(ROOT, "target", "release", "schema-lint")
PARSE = os.path.join(ROOT, "target", "release", "examples", "parse_only")
STORE = os.path.join(ROOT, "..", "shared", "corpus", "schemastore")
DUMPS = [
    "testdata/cli/live-dump-python-stdio/files/tools.json",
    "testdata/cli/live-dump-typescript-stdio-legacy/files/tools.json",
    "testdata/cli/mcp-python-sdk-tools/files/tools.json",
]


def every_client():
    out = subprocess.run([LINT, "clients"], capture_output=True, text=True, check=True).stdout
    return ",".join(l.split()[0] for l in out.splitlines() if len(l.split()) > 2 and not l.startswith("`"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", help="an earlier build to compare with")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--locked", "--bin", "schema-lint",
                    "--example", "parse_only"], cwd=ROOT, check=True)
    work = tempfile.mkdtemp(prefix="schema-lint-clients-")
    store = os.path.join(work, "schemastore")
    shutil.copytree(STORE, store)
    listings = os.path.join(work, "listings")
    os.makedirs(listings)
    for i in range(100):
        for j, dump in enumerate(DUMPS):
            shutil.copy(os.path.join(ROOT, dump), os.path.join(listings, f"tools-{i}-{j}.json"))
    every = every_client()
    for name, folder, extra in [("SchemaStore", store, ["--default-dialect", "draft7"]),
                                ("300 real listings", listings, [])]:
        cmds = {"parse-only": [PARSE, folder]}
        if args.old:
            cmds["old check"] = [args.old, *extra, "--output-format", "json", folder]
        cmds["check"] = [LINT, *extra, "--output-format", "json", folder]
        cmds["check, every client"] = [LINT, *extra, "--output-format", "json", "--clients", every, folder]
        times = {k: [] for k in cmds}
        for _ in range(args.runs):
            for k, c in cmds.items():
                start = time.perf_counter()
                subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
                times[k].append(time.perf_counter() - start)
        base = statistics.median(times["parse-only"])
        print(f"\n{name}\n| case | median s | fastest s | vs parse-only |\n|---|---|---|---|")
        for k, v in times.items():
            m = statistics.median(v)
            print(f"| {k} | {m:.3f} | {min(v):.3f} | {m / base:.2f}x |")
    shutil.rmtree(work)


if __name__ == "__main__":
    sys.exit(main())
