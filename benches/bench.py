#!/usr/bin/env python3
"""The schema-lint benchmark, rerunnable by anyone: `python3 benches/bench.py`.

Generates the corpora (benches/gen_corpus.py, seeded) in a work folder outside the repository
($SCHEMA_LINT_BENCH_DIR, else schema-lint-bench in the system's temporary folder), installs the
peer tools from npm under target/bench/peers, builds schema-lint in release mode, and measures, side by
side on the same machine in one run: wall time (median of --runs), files/s, MB/s and peak memory
(max RSS, from GNU time) for

  parse-only   read + strict parse of every file, nothing else (examples/parse_only.rs)
  check        schema-lint with the default rules
  check-all    schema-lint --select ALL
  fix          schema-lint --fix on the 1,000 broken files of corpus (a), every fix verified
  peers        `jsonschema lint` and `jsonschema metaschema` (npm @sourcemeta/jsonschema), and
               `ajv compile` (ajv-cli), on the files they accept (they stop at the first schema
               they cannot handle, so they get the valid ones)
  start-up     schema-lint on one small file

With --schemastore, the same on SchemaStore's 951 real schemas (../shared/corpus/schemastore, read
as draft-07 where they name no dialect): parse-only (ours, and serde_json's into a `Value`: the
plain parse issue 31 measures against), check, --fix and --diff on a copy, and the
peers `jsonschema lint` and `jsonschema metaschema` on a 200-file sample.

Prints a Markdown table (paste it into BENCHMARKS.md).

Why outside the repository: schema-lint reads the other files of the project a named folder sits
in as context (a `$ref` may lead out of it), and the project of a folder under target/ is this
repository. The peers read only the folder. Each measured folder is its own project here, so both
sides do the same work (benches/partial.py measures the context on purpose).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.environ.get("SCHEMA_LINT_BENCH_DIR") or os.path.join(tempfile.gettempdir(), "schema-lint-bench")
CORPUS = os.path.join(WORK, "corpus")
PEERS = os.path.join(ROOT, "target", "bench", "peers")
LINT = os.path.join(ROOT, "target", "release", "schema-lint")
PARSE = os.path.join(ROOT, "target", "release", "examples", "parse_only")
PEER_PACKAGES = ["@sourcemeta/jsonschema@16.11.0", "ajv-cli@5.0.0"]
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def measure(cmd, runs, setup=None):
    """Median wall seconds and max peak RSS (MB) of `cmd` over `runs` runs."""
    walls, peaks, code = [], [], None
    for _ in range(runs):
        if setup:
            setup()
        with tempfile.NamedTemporaryFile("r") as t:
            start = time.perf_counter()
            p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name] + cmd,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            walls.append(time.perf_counter() - start)
            code = p.returncode
            lines = [l for l in open(t.name).read().splitlines() if l.strip().isdigit()]
            peaks.append(int(lines[-1]) / 1024 if lines else float("nan"))
    return statistics.median(walls), max(peaks), code


def corpus_stats(files):
    return len(files), sum(os.path.getsize(f) for f in files) / 1e6


def listing(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".json"))


def row(name, files, mb, wall, peak, base=None, code=None):
    ratio = f"{wall / base:.2f}x" if base else ""
    print(f"| {name} | {files} | {mb:.1f} | {wall:.3f} | {files / wall:,.0f} | {mb / wall:.1f} | {peak:.0f} | {ratio} | {code} |")
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--schemastore", action="store_true",
                    help="measure SchemaStore's real schemas instead of the generated corpora")
    args = ap.parse_args()
    if args.schemastore:
        if not args.no_build:
            sh(["cargo", "build", "--release", "--bin", "schema-lint", "--example", "parse_only"], cwd=ROOT)
        schemastore(args)
        return
    os.makedirs(WORK, exist_ok=True)
    if not os.path.isdir(os.path.join(CORPUS, "small")):
        sh([sys.executable, os.path.join(ROOT, "benches", "gen_corpus.py"), CORPUS])
    if not args.no_build:
        sh(["cargo", "build", "--release", "--bin", "schema-lint", "--example", "parse_only"], cwd=ROOT)
    small, large = os.path.join(CORPUS, "small"), os.path.join(CORPUS, "large")
    small_files, large_files = listing(small), listing(large)
    broken = [f for f in small_files if json.load(open(f)).get("$id", "").startswith("tool_")]
    valid = [f for f in small_files if f not in set(broken)]
    valid_dir = os.path.join(WORK, "valid")
    if not os.path.isdir(valid_dir):
        os.makedirs(valid_dir)
        for f in valid:
            shutil.copy(f, valid_dir)

    print(f"machine: {os.cpu_count()} cores; {len(small_files)} small files, {len(broken)} broken; {len(large_files)} large files\n")
    print("| case | files | MB | seconds | files/s | MB/s | peak MB | vs parse-only | exit |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, folder, files in [("(a) small", small, small_files), ("(b) large", large, large_files)]:
        n, mb = corpus_stats(files)
        base, peak, code = measure([PARSE, folder], args.runs)
        row(f"{label}: parse-only", n, mb, base, peak, None, code)
        wall, peak, code = measure([LINT, "--isolated", "-q", "--output-format", "concise", folder], args.runs)
        row(f"{label}: check", n, mb, wall, peak, base, code)
        wall, peak, code = measure([LINT, "--isolated", "-q", "--output-format", "concise", "--select", "ALL", folder], args.runs)
        row(f"{label}: check --select ALL", n, mb, wall, peak, base, code)

    fix_dir = os.path.join(WORK, "fix")

    def fresh_broken():
        shutil.rmtree(fix_dir, ignore_errors=True)
        os.makedirs(fix_dir)
        for f in broken:
            shutil.copy(f, fix_dir)

    n, mb = corpus_stats(broken)
    wall, peak, code = measure([LINT, "--isolated", "-q", "--fix", fix_dir], args.runs, setup=fresh_broken)
    row("(a) broken 10 %: --fix", n, mb, wall, peak, None, code)

    # One file in a folder of its own: named alone, a file's project is its folder, whose other
    # files schema-lint would read as context (here, the 10,000 others).
    alone = os.path.join(WORK, "one")
    shutil.rmtree(alone, ignore_errors=True)
    os.makedirs(alone)
    one = shutil.copy(small_files[1], alone)
    walls = []
    for _ in range(30):
        start = time.perf_counter()
        subprocess.run([LINT, "--isolated", one], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
    print(f"\nstart-up, one small file: median {statistics.median(walls) * 1000:.1f} ms over 30 runs")

    if args.no_peers:
        return
    if not os.path.exists(os.path.join(PEERS, "node_modules", ".bin", "jsonschema")):
        os.makedirs(PEERS, exist_ok=True)
        sh(["npm", "install", "--silent", "--prefix", PEERS] + PEER_PACKAGES)
    bin_ = os.path.join(PEERS, "node_modules", ".bin")
    n, mb = corpus_stats(valid)
    print("\npeers, on the valid files of (a) (they stop at the first schema they cannot handle):\n")
    print("| case | files | MB | seconds | files/s | MB/s | peak MB | vs parse-only | exit |")
    print("|---|---|---|---|---|---|---|---|---|")
    base, peak, code = measure([PARSE, valid_dir], args.runs)
    row("parse-only", n, mb, base, peak, None, code)
    ours, peak, code = measure([LINT, "--isolated", "-q", "--output-format", "concise", valid_dir], args.runs)
    row("schema-lint check", n, mb, ours, peak, base, code)
    lint, peak, code = measure([os.path.join(bin_, "jsonschema"), "lint", "-d", DIALECT, valid_dir], args.runs)
    row("jsonschema lint", n, mb, lint, peak, base, code)
    meta, peak, code = measure([os.path.join(bin_, "jsonschema"), "metaschema", "-d", DIALECT, valid_dir], args.runs)
    row("jsonschema metaschema", n, mb, meta, peak, base, code)
    subset = valid[:300]
    sub_n, sub_mb = corpus_stats(subset)
    ajv, peak, code = measure([os.path.join(bin_, "ajv"), "compile", "--spec=draft2020", "--strict=false"]
                              + [a for f in subset for a in ("-s", f)], 1)
    row("ajv compile (first 300)", sub_n, sub_mb, ajv, peak, None, code)
    print(f"\nschema-lint check vs jsonschema lint: {lint / ours:.1f}x the throughput; "
          f"vs jsonschema metaschema: {meta / ours:.1f}x; vs ajv compile: {(sub_n / ajv) and (n / ours) / (sub_n / ajv):.1f}x")


def schemastore(args):
    """SchemaStore: check, --fix and --diff against parse-only, and the Sourcemeta peers."""
    # Beside the checkout (../shared), or beside the folder of worktrees it is in (../../shared).
    source = next(c for c in (os.path.join(os.path.dirname(up), "shared", "corpus", "schemastore",
                                           "schemas") for up in (ROOT, os.path.dirname(ROOT)))
                  if os.path.isdir(c))
    files = listing(source)
    n, mb = corpus_stats(files)
    lint = [LINT, "--isolated", "-q", "--default-dialect", "draft7", "--output-format", "concise"]
    copy = os.path.join(WORK, "schemastore-copy")

    def writable(folder):
        # The corpus is shared read-only: the copies must be writable, or every fix is refused.
        for name in os.listdir(folder):
            os.chmod(os.path.join(folder, name), 0o644)

    def fresh_copy():
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(source, copy)
        writable(copy)

    print(f"machine: {os.cpu_count()} cores; SchemaStore: {n} files, {mb:.1f} MB\n")
    print("| case | files | MB | seconds | files/s | MB/s | peak MB | vs parse-only | exit |")
    print("|---|---|---|---|---|---|---|---|---|")
    base, peak, code = measure([PARSE, source], args.runs)
    row("parse-only", n, mb, base, peak, None, code)
    serde, peak, code = measure([PARSE, "--serde", source], args.runs)
    row("parse-only, serde_json::Value", n, mb, serde, peak, None, code)
    check, peak, code = measure(lint + [source], args.runs)
    row("check", n, mb, check, peak, base, code)
    fix, peak, code = measure(lint + ["--fix", copy], args.runs, setup=fresh_copy)
    row("--fix (on a copy)", n, mb, fix, peak, base, code)
    diff, peak, code = measure(lint + ["--diff", copy], args.runs, setup=fresh_copy)
    row("--diff", n, mb, diff, peak, base, code)
    vector = [f for f in files if os.path.basename(f) == "vector.json"]
    if vector:
        vdir = os.path.join(WORK, "vector")

        def fresh_vector():
            shutil.rmtree(vdir, ignore_errors=True)
            os.makedirs(vdir)
            shutil.copy(vector[0], vdir)
            writable(vdir)

        vn, vmb = corpus_stats(vector)
        wall, peak, code = measure(lint + ["--fix", vdir], args.runs, setup=fresh_vector)
        row("vector.json --fix", vn, vmb, wall, peak, None, code)
    print(f"\ncheck / serde_json parse: {check / serde:.2f}x; "
          f"--fix / check: {fix / check:.1f}x; --diff / check: {diff / check:.1f}x")
    if args.no_peers:
        return
    if not os.path.exists(os.path.join(PEERS, "node_modules", ".bin", "jsonschema")):
        os.makedirs(PEERS, exist_ok=True)
        sh(["npm", "install", "--silent", "--prefix", PEERS] + PEER_PACKAGES)
    bin_ = os.path.join(PEERS, "node_modules", ".bin")
    sample = os.path.join(WORK, "schemastore-200")
    shutil.rmtree(sample, ignore_errors=True)
    os.makedirs(sample)
    for f in files[:200]:
        shutil.copy(f, sample)
    sn, smb = corpus_stats(listing(sample))
    print("\npeers, on the first 200 files (sorted by name):\n")
    print("| case | files | MB | seconds | files/s | MB/s | peak MB | vs parse-only | exit |")
    print("|---|---|---|---|---|---|---|---|---|")
    base, peak, code = measure([PARSE, sample], args.runs)
    row("parse-only", sn, smb, base, peak, None, code)
    serde, peak, code = measure([PARSE, "--serde", sample], args.runs)
    row("parse-only, serde_json::Value", sn, smb, serde, peak, None, code)
    ours, peak, code = measure(lint + [sample], args.runs)
    row("schema-lint check", sn, smb, ours, peak, base, code)
    slint, peak, code = measure([os.path.join(bin_, "jsonschema"), "lint", sample], 1)
    row("jsonschema lint", sn, smb, slint, peak, base, code)
    meta, peak, code = measure([os.path.join(bin_, "jsonschema"), "metaschema", sample], 1)
    row("jsonschema metaschema", sn, smb, meta, peak, base, code)
    print(f"\nschema-lint check vs jsonschema lint: {slint / ours:.1f}x; vs metaschema: {meta / ours:.1f}x")


if __name__ == "__main__":
    main()
