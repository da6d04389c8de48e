// An MCP server on the TypeScript SDK v2 (@modelcontextprotocol/server), over stdio, for
// tests/integration/live.sh: `schema-lint check --server` lists its tools as the SDK advertises
// them. With `--legacy` it is a bare `connect(new StdioServerTransport())`, which serves the 2025
// revisions only (it answers server/discover with -32601); without, `serveStdio` serves both eras.
//
// Tools: get_weather (a z.object output), get_forecast (a z.array output: wrapped in
// {"result": ...} on 2025 sessions, bare on 2026-07-28), get_report (`.meta({ id: 'Report' })`:
// a root $ref into $defs), and get_station, whose output carries `$id: 'weather_station:output'`
// through zod's meta, the schema that breaks Ajv's URI parser.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

function createServer() {
    const mcp = new McpServer({ name: 'live-typescript', version: '1.0.0' });
    const city = z.object({ city: z.string() });
    const reply = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });
    mcp.registerTool(
        'get_weather',
        { description: 'Current weather.', inputSchema: city, outputSchema: z.object({ temperature: z.number(), conditions: z.string() }) },
        async () => reply({ temperature: 16.2, conditions: 'Overcast' })
    );
    mcp.registerTool(
        'get_forecast',
        { description: 'Temperatures of the next days.', inputSchema: city, outputSchema: z.array(z.number()) },
        async () => reply([16, 17, 15])
    );
    mcp.registerTool(
        'get_report',
        { description: 'A regional report.', inputSchema: city, outputSchema: z.object({ region: z.string() }).meta({ id: 'Report' }) },
        async () => reply({ region: 'apac' })
    );
    mcp.registerTool(
        'get_station',
        {
            description: 'The nearest weather station.',
            inputSchema: city,
            outputSchema: z.object({ station: z.string() }).meta({ $id: 'weather_station:output' })
        },
        async () => reply({ station: 'EGLL' })
    );
    return mcp;
}

if (process.argv.includes('--legacy')) {
    await createServer().connect(new StdioServerTransport());
} else {
    serveStdio(createServer, { onerror: (error) => console.error(`live-typescript: ${error.message}`) });
}
