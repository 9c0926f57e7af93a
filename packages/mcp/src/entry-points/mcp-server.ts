import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { version } from '../../package.json';
import { convertFile, convertUrl, type ToolContext } from '../domain/convert-tools';

/** Limits of E3's chunk_max_tokens, so a bad value is refused before any request. */
export const CHUNK_MAX_TOKENS = { min: 64, max: 8192 } as const;

const conversionOptions = {
  include_pages: z.boolean().optional().describe('Add the Markdown of each page, slide or sheet (in the JSON item).'),
  page_range: z
    .string()
    .optional()
    .describe('Convert only these pages, e.g. "1-3,7" (PDF, presentations, spreadsheets).'),
  chunk_max_tokens: z
    .number()
    .int()
    .min(CHUNK_MAX_TOKENS.min)
    .max(CHUNK_MAX_TOKENS.max)
    .optional()
    .describe('Also return retrieval chunks of at most this many tokens (o200k), as a second JSON item.'),
  include_metadata: z.boolean().optional().describe('Add title, author and page_count (in the JSON item).'),
  optimize_tokens: z.boolean().optional().describe('Return token-optimised Markdown and the token figures.'),
};

/** The MCP server with its two tools, talking to the Markwright API through `context.client`. */
export function createMcpServer(context: ToolContext): McpServer {
  const server = new McpServer({ name: 'markwright', version });
  server.registerTool(
    'convert_file',
    {
      title: 'Convert a local file to Markdown',
      description:
        'Converts a document (PDF, Office, OpenDocument, HTML, EPUB, CSV, images, audio…) to Markdown with the ' +
        'Markwright service. `path` is a file inside the folders this server may read (MARKWRIGHT_MCP_ROOTS), ' +
        'absolute or relative to the first of them.',
      inputSchema: { path: z.string().min(1).describe('The file to convert.'), ...conversionOptions },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => convertFile(context, args),
  );
  server.registerTool(
    'convert_url',
    {
      title: 'Convert a document at an https URL to Markdown',
      description: 'The Markwright service downloads the document at `url` (https only) and converts it to Markdown.',
      inputSchema: { url: z.string().min(1).describe('An https URL of the document.'), ...conversionOptions },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) => convertUrl(context, args),
  );
  return server;
}
