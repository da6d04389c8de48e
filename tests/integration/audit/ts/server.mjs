// An MCP server on the TypeScript SDK v2 (@modelcontextprotocol/server), over stdio, for the audit
// integration test.
//
// Tools, declared with the SDK's McpServer so their output schemas are the ones the SDK generates:
// - get_weather: a z.object output; structuredContent is the object (valid);
// - get_report: a z.object().meta({ id: 'Report' }) output, so the advertised schema is a root
//   $ref into $defs (a "metaIdTool"); since 2.4.0 its structuredContent comes at the root on
//   2025-11-25 too (valid);
// - get_humidity: declares { value: number, unit: string }, but its result, built by the raw
//   handler below, sends value "high": the one call that violates its schema on the wire;
// - get_link: a z.url() output field; the result's URL holds "Köln", which zod accepts and
//   `format: uri` refuses in Ajv (SL605);
// - get_alert: answered by the raw handler with an isError result whose structuredContent is the
//   error's own shape (SL606);
// - echo: no output schema.
//
// McpServer validates what its tools return (validateToolOutput turns a broken result into an
// isError result), so the broken result cannot go through it. The escape hatch is the low-level
// Server under it: tools/call is replaced with a raw handler (setRequestHandler) that runs the
// registered tools' own callbacks and projects their results with projectCallToolResult, as
// low-level authors do, and answers get_humidity by hand. tools/list stays McpServer's.
//
// serveStdio owns the era: the client's opening message pins one instance from the factory, an
// initialize handshake (2025-11-25) or server/discover and stateless requests (2026-07-28). A bare
// `mcp.connect(new StdioServerTransport())` serves the 2025 era only: it answers server/discover
// with -32601.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

function json(value) {
    return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

function createServer() {
    const mcp = new McpServer({ name: 'audit-typescript', version: '1.0.0' });
    const city = z.object({ city: z.string() });
    const tools = {
        get_weather: mcp.registerTool(
            'get_weather',
            {
                description: 'Current weather for a city.',
                inputSchema: city,
                outputSchema: z.object({ temperature: z.number(), conditions: z.string() })
            },
            async () => json({ temperature: 16.2, conditions: 'Overcast' })
        ),
        get_report: mcp.registerTool(
            'get_report',
            {
                description: 'A regional report; its output schema has an id.',
                inputSchema: city,
                outputSchema: z.object({ region: z.string(), count: z.number().int() }).meta({ id: 'Report' })
            },
            async () => json({ region: 'apac', count: 42 })
        ),
        get_humidity: mcp.registerTool(
            'get_humidity',
            {
                description: 'Relative humidity in a city. Served by the raw handler, which breaks the schema.',
                inputSchema: city,
                outputSchema: z.object({ value: z.number(), unit: z.string() })
            },
            async () => json({ value: 0.83, unit: 'ratio' })
        ),
        get_link: mcp.registerTool(
            'get_link',
            {
                description: 'A link about a city. z.url() accepts Köln; format uri in Ajv does not.',
                inputSchema: city,
                outputSchema: z.object({ url: z.url() })
            },
            async () => json({ url: 'https://de.wikipedia.org/wiki/Köln' })
        ),
        get_alert: mcp.registerTool(
            'get_alert',
            {
                description: 'Weather alerts for a city. Served by the raw handler, which fails with structured data.',
                inputSchema: city,
                outputSchema: z.object({ level: z.string(), message: z.string() })
            },
            async () => json({ level: 'none', message: 'no alert' })
        ),
        echo: mcp.registerTool(
            'echo',
            { description: 'Echoes its text, unstructured.', inputSchema: z.object({ text: z.string() }) },
            async ({ text }) => ({ content: [{ type: 'text', text }] })
        )
    };

    mcp.server.setRequestHandler('tools/call', async (request, ctx) => {
        const { name, arguments: args } = request.params;
        const tool = tools[name];
        if (tool === undefined) {
            return { content: [{ type: 'text', text: `Unknown tool: ${name}` }], isError: true };
        }
        if (name === 'get_alert') {
            // An error result whose structuredContent is the error's own shape, not the tool's.
            return { ...json({ error: 'the alerts service is down', retry_after: 30 }), isError: true };
        }
        const result = name === 'get_humidity' ? json({ value: 'high', unit: 'ratio' }) : await tool.handler(args ?? {}, ctx);
        return mcp.server.projectCallToolResult(result, tool.outputSchemaJson);
    });
    return mcp;
}

serveStdio(createServer, { onerror: (error) => console.error(`audit-typescript: ${error.message}`) });
