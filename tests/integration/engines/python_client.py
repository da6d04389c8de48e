"""Runs every case of the engine tier through Python's `jsonschema` as the `mcp` client (2.3.0,
`ClientSession._output_schema_validator` and `validate_tool_result`) uses it, and as the 1.x
client (1.30.0, `ClientSession._validate_tool_result`: `jsonschema.validate(instance, schema,
registry=Registry())`, the same steps) does in its own venv (`python-sdk-v1`):

    cls = validator_for(schema)          # 2020-12 when `$schema` is absent or unknown
    cls.check_schema(schema)             # SchemaError: "Invalid schema for tool ..."
    validator = cls(schema, registry=Registry())
    best_match(validator.iter_errors(instance))   # Unresolvable: "Invalid schema for tool ..."

No format checker is passed, so `format` is not asserted on instances; `check_schema` checks the
schema with the meta-schema's format checker, which tests URI formats only when the format extras
(rfc3986-validator and co.) are installed: the same script runs in a venv without them
(`python-sdk`) and in one with them (`python-sdk+format`). An explicit `Registry()` holds nothing
but the bundled meta-schemas: `$ref`s to other documents are never fetched.

Usage: python python_client.py ENGINE CASES.json > RESULTS.json
"""

import json
import sys
import warnings

from jsonschema import SchemaError
from jsonschema.exceptions import best_match
from jsonschema.validators import validator_for
from referencing import Registry
from referencing.exceptions import Unresolvable


def message(e):
    """The first line of an error, without the schema dump a referencing error appends, at most
    300 characters."""
    if isinstance(e, SchemaError):
        text = e.message
    else:
        text = str(e)
        name = type(e).__name__
        if not text.startswith(name):
            text = f"{name}: {text}"
        text = text.split(" within {")[0]
    text = text.split("\n")[0]
    return text if len(text) <= 300 else text[:297] + "..."


def unresolvable(e):
    """The referencing error behind `e`, if it is one (jsonschema wraps them)."""
    while e is not None:
        wrapped = getattr(e, "_wrapped", None)
        if wrapped is not None:
            return wrapped
        if isinstance(e, Unresolvable):
            return e
        e = e.__cause__
    return None


def first_schema_error(cls, schema):
    """Of the meta-schema errors `check_schema` chooses from, the first in a fixed order (by
    path, then message): which one `check_schema` raises depends on hash order."""
    meta = validator_for(cls.META_SCHEMA, default=cls)
    validator = meta(cls.META_SCHEMA, format_checker=meta.FORMAT_CHECKER)
    errors = sorted(
        validator.iter_errors(schema),
        key=lambda e: (json.dumps(list(e.absolute_path)), e.message),
    )
    return errors[0].message if errors else None


def run(case):
    schema = case["schema"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            cls = validator_for(schema)
            cls.check_schema(schema)
        except SchemaError as e:
            first = first_schema_error(cls, schema)
            text = message(e) if first is None else first.split("\n")[0]
            return {"compile": "error", "kind": "schema", "error": text if len(text) <= 300 else text[:297] + "..."}
        except Exception as e:  # noqa: BLE001 - any failure is what a client would see
            return {"compile": "error", "kind": "schema", "error": message(e)}
        validator = cls(schema, registry=Registry())
        result = {"compile": "ok"}
        if case.get("instances"):
            verdicts = []
            for instance in case["instances"]:
                try:
                    error = best_match(validator.iter_errors(instance["data"]))
                    verdicts.append("valid" if error is None else "invalid")
                except Exception as e:  # noqa: BLE001
                    ref = unresolvable(e)
                    verdicts.append(f"error: {message(ref if ref is not None else e)}")
            result["instances"] = verdicts
        return result


def main():
    engine, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        cases = json.load(f)
    out = {engine: {case["name"]: run(case) for case in cases}}
    json.dump(out, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
