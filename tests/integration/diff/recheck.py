"""Checks every counterexample `schema-lint diff` reports with Python's jsonschema.

For each case folder of testdata/diff (old.json, new.json, optional args), runs `schema-lint diff
old.json new.json --output-format json` (the diagnostics document `check` prints, each contract
change a diagnostic with a `change` field), then validates each change's counterexample on both
versions of the schema it is about (the whole file, or the tool's inputSchema/outputSchema; a
schema a tool lacks is `true`) with the validator class the schema's `$schema` names, formats
asserted with the class's FORMAT_CHECKER: it must be valid under the version `valid_under` names
and invalid under the other. Prints one line per case; exits 1 on the first disagreement.

Usage: recheck.py SCHEMA_LINT TESTDATA_DIFF
"""

import importlib.metadata
import json
import pathlib
import subprocess
import sys

import jsonschema


def schema_of(document, finding):
    tool = finding.get("tool")
    if tool is None:
        return document
    tools = document.get("tools") or document.get("result", {}).get("tools", [])
    for t in tools:
        if t.get("name") == tool:
            return t.get(finding["schema"], True)
    return True


def valid(schema, instance):
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER).is_valid(instance)


def main():
    linter, root = sys.argv[1], pathlib.Path(sys.argv[2])
    checked = 0
    for case in sorted(p for p in root.iterdir() if p.is_dir()):
        args = [linter, "diff", "old.json", "new.json", "--output-format", "json"]
        extra = case / "args"
        if extra.exists():
            args += extra.read_text(encoding="utf-8").split()
        run = subprocess.run(args, cwd=case, capture_output=True, text=True, check=False)
        if run.returncode not in (0, 1):
            sys.exit(f"{case.name}: schema-lint exited with {run.returncode}: {run.stderr}")
        # One diagnostics document, as `check` prints it: each contract change is a diagnostic
        # with a `change` field (kind, verdict, tool, schema, places, counterexample).
        document = json.loads(run.stdout)
        if document.get("version") != 1 or "summary" not in document:
            sys.exit(f"{case.name}: not the diagnostics document every command prints")
        findings = [d["change"] for d in document["diagnostics"] if d.get("change")]
        old = json.loads((case / "old.json").read_text(encoding="utf-8"))
        new = json.loads((case / "new.json").read_text(encoding="utf-8"))
        proofs = 0
        for f in findings:
            proof = f.get("counterexample")
            if proof is None:
                continue
            a, b = schema_of(old, f), schema_of(new, f)
            keep, other = (a, b) if proof["valid_under"] == "old" else (b, a)
            instance = proof["instance"]
            if not valid(keep, instance) or valid(other, instance):
                sys.exit(
                    f"{case.name}: {f['kind']}: {json.dumps(instance)} is not valid under "
                    f"{proof['valid_under'].upper()} and invalid under the other for Python's jsonschema"
                )
            proofs += 1
        checked += proofs
        print(f"{case.name}: {proofs} counterexample(s) agree")
    version = importlib.metadata.version("jsonschema")
    print(f"diff: {checked} counterexamples checked with jsonschema {version}")
    if checked == 0:
        sys.exit("diff: no counterexample checked")


if __name__ == "__main__":
    main()
