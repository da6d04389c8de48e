// vscode-json-languageservice (the JSON language service of VS Code, which serves SchemaStore's
// schemas to the editor) on the plain-schema cases of the engine tier: those linted for the
// `json-schema` target (`"target": "json-schema"`). Each case's schema is associated with the
// instance documents (as `json.schemas` or a SchemaStore catalog entry associates a schema with
// files), and each instance is validated as the editor validates an open document.
//
// Nothing leaves the process: the service is given a schemaRequestService that records each URI
// it asks for and answers with the case's `remote` document for that URI (no fragment), or fails
// as a host that does not serve it would. VS Code hands the service such a request service when
// `json.schemaDownload.enable` is on (its default), and none when it is off.
//
// Usage: node vscode_json.mjs CASES.json > results.json
// Prints {"vscode-json": {name: result}}, a result being `compile` (`ok`, or `error` with `kind`
// `reference` and the service's first schema problem as `error`), the URIs it requested
// (`requested`, sorted) and the verdict on each instance (`valid` / `invalid`).
import { readFileSync } from "node:fs";
import languageService from "vscode-json-languageservice";

// A CommonJS module.
const { getLanguageService, ErrorCode, TextDocument } = languageService;

const SCHEMA_URI = "file:///case/schema.json";

function withoutFragment(uri) {
    const hash = uri.indexOf("#");
    return hash < 0 ? uri : uri.slice(0, hash);
}

/** The first line of a message, at most 300 characters. */
function line(text) {
    const first = String(text).split("\n")[0];
    return first.length > 300 ? `${first.slice(0, 297)}...` : first;
}

function isSchemaProblem(d) {
    return typeof d.code === "number" && d.code >= ErrorCode.SchemaResolveError;
}

async function run(c) {
    const requested = new Set();
    const remote = c.remote ?? {};
    const service = getLanguageService({
        schemaRequestService: (uri) => {
            requested.add(uri);
            const served = remote[withoutFragment(uri)];
            return served === undefined
                ? Promise.reject(new Error(`${uri} is not served`))
                : Promise.resolve(JSON.stringify(served));
        },
        workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).href },
    });
    service.configure({
        validate: true,
        allowComments: false,
        schemas: [{ uri: SCHEMA_URI, fileMatch: ["/case/instance-*.json"], schema: c.schema }],
    });
    const result = { compile: "ok" };
    const verdicts = [];
    const instances = c.instances?.length ? c.instances : [{ data: {} }];
    for (const [n, instance] of instances.entries()) {
        const doc = TextDocument.create(`file:///case/instance-${n}.json`, "json", 1, JSON.stringify(instance.data));
        const diagnostics = await service.doValidation(doc, service.parseJSONDocument(doc));
        const problem = diagnostics.find(isSchemaProblem);
        if (problem) {
            // The service reports the schema's problem on the document and validates nothing.
            result.compile = "error";
            result.kind = "reference";
            result.error = line(problem.message);
            break;
        }
        verdicts.push(diagnostics.length === 0 ? "valid" : "invalid");
    }
    if (result.compile === "ok" && c.instances?.length) result.instances = verdicts;
    result.requested = [...requested].sort();
    return result;
}

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = { "vscode-json": {} };
for (const c of cases) {
    if (c.target !== "json-schema") continue;
    out["vscode-json"][c.name] = await run(c);
}
process.stdout.write(`${JSON.stringify(out)}\n`);
