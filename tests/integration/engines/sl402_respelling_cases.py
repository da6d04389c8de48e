"""Writes the SL402 respelling case pair of the engine tier (testdata/engines/cases/
sl402-draft7-respellable.json, sl402-draft7-respelled.json): instances generated as the cross
product of what the tuple and the dependencies distinguish, labelled by Python's jsonschema
reading the draft-07 original as draft-07. Usage, with the tier's venv:
target/engines/py-plain/bin/python tests/integration/engines/sl402_respelling_cases.py testdata/engines/cases"""
import itertools, json, sys
from jsonschema import Draft7Validator

original = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "point": {
            "type": "array",
            "items": [{"type": "number"}, {"type": "number"}],
        },
        "card": {"$ref": "#/definitions/card"},
    },
    "dependencies": {"billing": ["card"]},
    "definitions": {
        "card": {"type": "object", "dependencies": {"cvv": {"required": ["number"]}}}
    },
}
fixed = json.loads(json.dumps(original))
del fixed["$schema"]
p = fixed["properties"]["point"]
fixed["properties"]["point"] = {"type": "array", "prefixItems": p["items"]}
fixed["dependentRequired"] = fixed.pop("dependencies")
card = fixed["definitions"]["card"]
card["dependentSchemas"] = card.pop("dependencies")
# keep key order as in the original
fixed = {k: fixed[k] for k in ["type", "properties", "dependentRequired", "definitions"]}

points = [None, [], [1], [1, 2], [1, "x"], ["x", 2], [1, 2, "s"], [1, 2, 3], [1.5, -2, "a", "b"]]
cards = [None, {}, {"cvv": 1}, {"cvv": 1, "number": 2}, {"number": 2}, "x"]
billing = [None, "b"]
instances = []
v = Draft7Validator(original)
for pt, cd, bl in itertools.product(points, cards, billing):
    data = {}
    if pt is not None: data["point"] = pt
    if cd is not None: data["card"] = cd
    if bl is not None: data["billing"] = bl
    instances.append({"data": data, "valid": v.is_valid(data)})

def write(path, case):
    with open(path, "w") as f:
        json.dump(case, f, indent=2)
        f.write("\n")

write(sys.argv[1] + "/sl402-draft7-respellable.json", {
    "class": "SL402/legacy",
    "about": "`$schema` draft-07 on a schema whose tuple (`items` array, no `additionalItems`) and `dependencies` (names at the root, a schema in a `definitions` entry reached by `$ref`) 2020-12 spells otherwise: what SL402's fix respells; the instances are the cross product of what the tuple and the dependencies distinguish, labelled by the draft-07 reading",
    "target": "mcp-2025-11-25",
    "schema": original,
    "instances": instances,
})
write(sys.argv[1] + "/sl402-draft7-respelled.json", {
    "about": "what SL402's fix leaves of `sl402-draft7-respellable`: `prefixItems`, `dependentRequired`, `dependentSchemas`, no `$schema` (2020-12, MCP's default), the same instances; also through the hosts' own Ajv (`hosts`), which read a schema without `$schema` as draft-07 (tests/it/engines.rs compares the two)",
    "target": "mcp-2025-11-25",
    "hosts": True,
    "schema": fixed,
    "instances": instances,
})
print(sum(i["valid"] for i in instances), "valid of", len(instances))
