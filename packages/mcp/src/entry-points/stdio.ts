import { MarkwrightClient } from '@markwright/client';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, readConfig } from '../config';
import { createMcpServer } from './mcp-server';

/** `markwright mcp`: the MCP server on stdin/stdout; stderr is its log. */
async function main(): Promise<void> {
  const config = readConfig();
  const client = new MarkwrightClient({ baseUrl: config.baseUrl, token: config.token });
  const server = createMcpServer({ client, roots: config.roots });
  await server.connect(new StdioServerTransport());
  const stop = () => void server.close().finally(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
  process.exit(err instanceof ConfigError ? 2 : 1);
});
