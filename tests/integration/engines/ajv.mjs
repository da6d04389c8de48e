// Runs every case of the engine tier through Ajv configured as the TypeScript MCP SDK clients
// configure it (measured on @modelcontextprotocol/sdk 1.32.2 and @modelcontextprotocol/client
// 2.4.0, whose bundle holds ajv 8.18.0, ajv-formats 3.0.1 and fast-uri 3.1.8):
//
//   new <class>({ strict: false, validateFormats: true, validateSchema: false, allErrors: true })
//   + ajv-formats; a validator is `getSchema($id) ?? compile(schema)`.
//
// - ts-sdk-v1: the draft-07 `Ajv` class for every schema;
// - ts-sdk-v2: the class chosen by `$schema` (none or 2020-12: Ajv2020; 2019-09: Ajv2019;
//   draft-07 or draft-06: Ajv; anything else: "unsupported dialect"), the SDK's own rule
//   (core-internal/src/validators/dialects.ts), copied below.
//
// And the hosts that compile a tool's input schema with Ajv of their own, to validate the model's
// arguments before a call, each as it constructed Ajv in the versions before it learned the
// 2020-12 meta-schema (rules/clients/<name>.md says where each was read), on the same Ajv 8.18.0
// and ajv-formats 3.0.1 (their ranges, ^8.17.1 and ^3.0.0, resolve to these today):
//
// - qwen-code<0.12.0: `new Ajv({ strictSchema: false })` + ajv-formats, `compile(schema)` (the
//   bundle of @qwen-code/qwen-code 0.10.1, gemini-cli's SchemaValidator before #15060; gemini-cli
//   itself runs as 0.27.4, its own package: tests/integration/providers/hosts.mjs);
// - llxprt-code<0.10.0: `new Ajv({ strictSchema: false })` with four formats of its own and no
//   ajv-formats, `compile({ ...schema })` (schemaValidator.ts before #1903);
// - openclaude<0.20.0: `new Ajv({ strict: false })`, `compile(schema)` (MCPTool.ts before #1740);
// - openclaw<2026.4.22 and pi-mcp-adapter<2.11.0: pi's `validateToolArguments`, `new Ajv({
//   allErrors: true, strict: false, coerceTypes: true })` + ajv-formats, `compile(parameters)`
//   (@mariozechner/pi-ai 0.52.12 and 0.67.68; openclaw 2026.4.21 hands pi each MCP tool's
//   `inputSchema` as its parameters, pi-mcp-adapter before 2.11.0 too);
// - mastra<1.2.9: `JsonSchemaStandardSchema` of @mastra/schema-compat before #14530, which
//   validates an MCP tool's arguments: `new Ajv({ allErrors: true, strict: false })`,
//   `compile(schema)` (read in the package, 1.2.8).
//
// Each compiles with Ajv's defaults otherwise, `validateSchema: true` among them: the schema is
// first checked against the meta-schema its `$schema` names, which the draft-07 class has only
// for draft-07 (and draft-06 once added).
//
// Usage: node ajv.mjs CASES.json > RESULTS.json
// CASES.json: [{name, schema, before?, instances?}]; RESULTS.json: {engine: {case: result}},
// a result being {compile: "ok"} or {compile: "error", kind, error}, with `instances`: one of
// "valid", "invalid" or "error: ..." per instance when the schema compiled, and `warnings`: what
// Ajv logged while compiling the case's schema (`unknown format "uint32" ignored in schema at
// path ...`), when it logged anything.
//
// The SDKs pass Ajv no `logger`, so Ajv logs through `console` (`logger.warn(...)` looks
// `console.warn` up at each call): `recording` swaps `console.warn` for a recorder around the
// compile and puts it back after, so Ajv runs exactly as in the clients.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const AjvModule = require("ajv");
const Ajv = AjvModule.default ?? AjvModule;
const Ajv2019 = require("ajv/dist/2019").default;
const Ajv2020 = require("ajv/dist/2020").default;
const addFormatsModule = require("ajv-formats");
const addFormats = addFormatsModule.default ?? addFormatsModule;

const DRAFT_2020_12 = new Set(["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft/2020-12/schema"]);
const DRAFT_2019_09 = new Set(["https://json-schema.org/draft/2019-09/schema", "http://json-schema.org/draft/2019-09/schema"]);
const DRAFT_07 = new Set(["https://json-schema.org/draft-07/schema", "http://json-schema.org/draft-07/schema"]);
const DRAFT_06 = new Set(["https://json-schema.org/draft-06/schema", "http://json-schema.org/draft-06/schema"]);

/** The TS v2 client's choice of engine class (dialects.ts of @modelcontextprotocol/core 2.4.0). */
function v2Class(schema) {
    if (schema === null || typeof schema !== "object" || !("$schema" in schema) || typeof schema.$schema !== "string") {
        return Ajv2020;
    }
    const declared = schema.$schema.replace(/#$/, "");
    if (DRAFT_2020_12.has(declared)) return Ajv2020;
    if (DRAFT_2019_09.has(declared)) return Ajv2019;
    if (DRAFT_07.has(declared) || DRAFT_06.has(declared)) return Ajv;
    throw new Error(`JSON Schema declares an unsupported dialect ("$schema": "${schema.$schema.slice(0, 200)}")`);
}

function engine(Class) {
    const ajv = new Class({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
    addFormats(ajv);
    return ajv;
}

/** Formats llxprt-code registered on its Ajv instead of ajv-formats (schemaValidator.ts). */
function llxprtFormats(ajv) {
    for (const name of ["google-duration", "google-fieldmask", "something-totally-custom"]) {
        ajv.addFormat(name, { type: "string", validate: () => true });
    }
    ajv.addFormat("date", /^\d{4}-\d{2}-\d{2}$/);
    return ajv;
}

/** The hosts' own Ajv, each a function from a schema to a validator, built per case. */
const HOSTS = {
    "qwen-code<0.12.0": () => {
        const ajv = new Ajv({ strictSchema: false });
        addFormats(ajv);
        return (schema) => ajv.compile(schema);
    },
    "llxprt-code<0.10.0": () => {
        const ajv = llxprtFormats(new Ajv({ strictSchema: false }));
        return (schema) => ajv.compile({ ...schema });
    },
    "openclaude<0.20.0": () => {
        const ajv = new Ajv({ strict: false });
        return (schema) => ajv.compile(schema);
    },
    "openclaw<2026.4.22": () => {
        const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: true });
        addFormats(ajv);
        return (schema) => ajv.compile(schema);
    },
    "pi-mcp-adapter<2.11.0": () => {
        const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: true });
        addFormats(ajv);
        return (schema) => ajv.compile(schema);
    },
    "mastra<1.2.9": () => {
        const ajv = new Ajv({ allErrors: true, strict: false });
        return (schema) => ajv.compile(schema);
    },
};

/** A client: one engine per class, built lazily, shared by every schema it validates. */
function client(pick) {
    const engines = new Map();
    return (schema) => {
        const Class = pick(schema);
        if (!engines.has(Class)) engines.set(Class, engine(Class));
        const ajv = engines.get(Class);
        const hasId = schema !== null && typeof schema === "object" && typeof schema.$id === "string";
        return hasId ? ajv.getSchema(schema.$id) ?? ajv.compile(schema) : ajv.compile(schema);
    };
}

/** The first line of an error message, without the run-specific parts, at most 300 characters. */
function message(e) {
    const text = String(e && e.message !== undefined ? e.message : e).split("\n")[0];
    return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

function kind(e) {
    if (e && (e.missingRef !== undefined || /can't resolve reference/.test(String(e.message)))) return "reference";
    return "schema";
}

/** `f()`, with what it passes to `console.warn` (and `console.log`) kept in `into`. */
function recording(into, f) {
    const saved = { warn: console.warn, log: console.log };
    const record = (...args) => into.push(args.map(String).join(" "));
    console.warn = record;
    console.log = record;
    try {
        return f();
    } finally {
        console.warn = saved.warn;
        console.log = saved.log;
    }
}

function run(validatorFor, c) {
    for (const earlier of c.before ?? []) {
        try {
            validatorFor(earlier);
        } catch {
            // An earlier tool that fails does not stop this one.
        }
    }
    let validate;
    const warnings = [];
    try {
        validate = recording(warnings, () => validatorFor(c.schema));
    } catch (e) {
        const failed = { compile: "error", kind: kind(e), error: message(e) };
        if (warnings.length > 0) failed.warnings = warnings;
        return failed;
    }
    const result = { compile: "ok" };
    if (warnings.length > 0) result.warnings = warnings;
    if (c.instances && c.instances.length > 0) {
        result.instances = c.instances.map((i) => {
            try {
                return validate(i.data) ? "valid" : "invalid";
            } catch (e) {
                return `error: ${message(e)}`;
            }
        });
    }
    return result;
}

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = { "ts-sdk-v1": {}, "ts-sdk-v2": {} };
for (const host of Object.keys(HOSTS)) out[host] = {};
for (const c of cases) {
    out["ts-sdk-v1"][c.name] = run(client(() => Ajv), c);
    out["ts-sdk-v2"][c.name] = run(client(v2Class), c);
    // The hosts compile a tool's input schema only (observe.py counts them on input-role cases,
    // and records them on a case that asks for them, `"hosts": true`).
    if (c.role === "input" || c.hosts === true) {
        for (const [host, make] of Object.entries(HOSTS)) out[host][c.name] = run(make(), c);
    }
}
process.stdout.write(`${JSON.stringify(out)}\n`);
