#!/usr/bin/env python3
"""A partial run on a large project, rerunnable by anyone: `python3 benches/partial.py`.

Generates (seeded) a project of N schema files (default 1,000, ~2 KB each) under
target/bench/partial/project: a git checkout (a `.git` folder marks its root) whose files name
each other by `$id` (`urn:bench:file-N`) and by relative path. Then, with the release build of
schema-lint, it measures, median of --runs, side by side:

  alone      schema-lint on one file copied into an empty folder (the file linted on its own)
  partial    schema-lint on that file inside the project, as pre-commit runs it with one staged
             file: the project's other files are read as context (those that can tie to it are
             parsed and indexed)
  whole      schema-lint on the whole project

and prints a Markdown table with the ratio partial / alone (the target: within 2x).
"""
import argparse
import os
import random
import shutil
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "target", "bench", "partial")
LINT = os.path.join(ROOT, "target", "release", "schema-lint")


def generate(n, seed):
    project = os.path.join(WORK, "project")
    shutil.rmtree(project, ignore_errors=True)
    os.makedirs(os.path.join(project, ".git"))
    rng = random.Random(seed)
    for i in range(n):
        folder = os.path.join(project, "schemas", f"group{i % 20:02d}")
        os.makedirs(folder, exist_ok=True)
        props = {}
        for p in range(12):
            props[f"field{p}"] = {"type": rng.choice(["string", "number", "boolean"]),
                                  "description": "x" * rng.randint(20, 80)}
        for k in range(3):
            j = rng.randrange(n)
            if k == 0:
                props[f"link{k}"] = {"$ref": f"urn:bench:file-{j}"}
            else:
                props[f"link{k}"] = {"$ref": f"../group{j % 20:02d}/file{j:04d}.json"}
        text = (
            "{\n"
            f'  "$schema": "https://json-schema.org/draft/2020-12/schema",\n'
            f'  "$id": "urn:bench:file-{i}",\n'
            '  "type": "object",\n'
            f'  "properties": {__import__("json").dumps(props, indent=2)}\n'
            "}\n"
        )
        with open(os.path.join(folder, f"file{i:04d}.json"), "w") as f:
            f.write(text)
    return project


def median_seconds(cmd, cwd, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=31)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-build", action="store_true")
    args = parser.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=ROOT, check=True)
    project = generate(args.files, args.seed)
    middle = args.files // 2
    target = os.path.join("schemas", f"group{middle % 20:02d}", f"file{middle:04d}.json")
    alone = os.path.join(WORK, "alone")
    shutil.rmtree(alone, ignore_errors=True)
    os.makedirs(os.path.join(alone, ".git"))
    shutil.copy(os.path.join(project, target), os.path.join(alone, "file.json"))
    # Warm the page cache and check that every case runs.
    for cmd, cwd in (([LINT, "file.json"], alone), ([LINT, target], project), ([LINT], project)):
        subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = [
        ("alone: one file in an empty folder", median_seconds([LINT, "file.json"], alone, args.runs)),
        (f"partial: one named file of {args.files}", median_seconds([LINT, target], project, args.runs)),
        (f"whole: all {args.files} files", median_seconds([LINT], project, max(5, args.runs // 4))),
    ]
    print(f"| run ({args.files} files, median of {args.runs}) | seconds | vs alone |")
    print("|---|---|---|")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.4f} | {seconds / rows[0][1]:.2f}x |")


if __name__ == "__main__":
    main()
