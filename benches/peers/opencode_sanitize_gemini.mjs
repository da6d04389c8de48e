// What opencode does to a tool's JSON Schema before a Gemini model gets it: `sanitizeGemini`,
// the arrow function inside `ProviderTransform.schema` (applied when the provider is `google` or
// the model id contains `gemini`), in anomalyco/opencode's packages/opencode/src/provider/
// transform.ts, as read at commit 000f6280d904296fe8628344b98bef096ae26fb4 (opencode is MIT
// licensed). The wider rewrite proposed in anomalyco/opencode#14234 was closed unmerged.
//
// This is a restatement of its behaviour written for this benchmark, not a copy of its source:
// opencode publishes no importable package with it, and code read from a fetched repository is
// not committed here. benches/port_peers.py records the commit it was read at.
//
// Its behaviour, rule by rule:
// 1. Every object and array is walked, whatever its key (data under `const`, `default` or
//    `examples` included); scalars are kept.
// 2. An `enum` array becomes the array of its values' `String(...)`; when a `type` key already
//    copied before `enum` (in key order) is `integer` or `number`, it becomes `string`.
// 3. An object whose `type` is `object`, with `properties` and an array `required`, keeps in
//    `required` only the names that are keys of `properties`.
// 4. An object whose `type` is `array` and whose `items` is missing or null gets `items: {}`.
export function sanitizeGemini(node) {
    if (Array.isArray(node)) return node.map(sanitizeGemini);
    if (node === null || typeof node !== "object") return node;
    const out = {};
    for (const key of Object.keys(node)) {
        const value = node[key];
        if (key === "enum" && Array.isArray(value)) {
            out.enum = value.map(String);
            if (out.type === "integer" || out.type === "number") out.type = "string";
        } else {
            out[key] = sanitizeGemini(value);
        }
    }
    if (out.type === "object" && out.properties && Array.isArray(out.required)) {
        out.required = out.required.filter((name) => name in out.properties);
    }
    if (out.type === "array" && out.items == null) out.items = {};
    return out;
}
