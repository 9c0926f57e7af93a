import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startStack, type Stack } from '../../../services/gateway/test/stack';
import { makeCertificate } from '../../../services/dispatcher/test/receiver';

/*
 * `markwright mcp` as an MCP client runs it: the built CLI spawned over stdio, driven by the SDK's
 * Client, converting through the real gateway and converter of this process.
 */

const ROOT_DIR = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT_DIR, 'packages/conversion/bin/markwright.js');
const BUILD_DEADLINE_MS = 300_000;
const run = promisify(execFile);

type ToolContent = Array<{ type: string; text?: string }>;
interface ToolAnswer {
  content: ToolContent;
  isError?: boolean;
}

const cert = makeCertificate();
let stack: Stack;
let token: string;
let workspaceId: string;
let base: string;
let root: string;
let client: Client;
let host: https.Server;
let hostUrl: string;

beforeAll(async () => {
  await run(process.execPath, [path.join(ROOT_DIR, 'scripts/build.js'), '--if-stale'], { timeout: BUILD_DEADLINE_MS });
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  stack = await startStack({ env: { ALLOW_PRIVATE_NETWORKS: 'true' } });
  ({ token, workspaceId } = await stack.workspace('business', 100));
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mw-mcp-stdio-')));
  root = path.join(base, 'docs');
  fs.mkdirSync(path.join(root, 'folder'), { recursive: true });
  fs.mkdirSync(path.join(base, 'private'));
  fs.writeFileSync(path.join(root, 'hello.md'), '# Hello\n\nSome *text*.\n');
  fs.writeFileSync(path.join(root, 'long.md'), longMarkdown());
  fs.writeFileSync(path.join(root, 'setup.exe'), 'MZ');
  fs.writeFileSync(path.join(base, 'private', 'secret.md'), '# Secret\n');
  fs.symlinkSync(path.join(base, 'private', 'secret.md'), path.join(root, 'innocent.md'));
  host = https.createServer(cert, (req, res) => {
    const found = req.url === '/remote.md';
    res.writeHead(found ? 200 : 404, { 'Content-Type': 'text/markdown' });
    res.end(found ? '# Remote\n\nFetched by the service.\n' : 'not here');
  });
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
  hostUrl = `https://localhost:${(host.address() as AddressInfo).port}`;
  client = await connect({ MARKWRIGHT_BASE_URL: stack.gateway.url, MARKWRIGHT_TOKEN: token });
}, BUILD_DEADLINE_MS + 60_000);
afterAll(async () => {
  await client?.close();
  await new Promise((r) => host?.close(r));
  await stack?.stop();
  if (base) fs.rmSync(base, { recursive: true, force: true });
  cert.cleanup();
});

function longMarkdown(): string {
  const parts = Array.from(
    { length: 12 },
    (_, n) => `## Part ${n}\n\n${'A sentence of several words here. '.repeat(12)}\n`,
  );
  return `# Long\n\n${parts.join('\n')}`;
}

/** The server as an MCP client starts it: `markwright mcp` in the documents' folder, configured by env. */
async function connect(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'pipe',
  });
  const mcp = new Client({ name: 'markwright-test', version: '1.0.0' });
  await mcp.connect(transport);
  return mcp;
}

async function call(name: string, args: Record<string, unknown>, via = client): Promise<ToolAnswer> {
  return (await via.callTool({ name, arguments: args })) as ToolAnswer;
}

const texts = (answer: ToolAnswer) => answer.content.map((item) => item.text);

describe('tools/list', () => {
  it('When a client lists the tools, then convert_file and convert_url are offered with their arguments', async () => {
    const { tools } = await client.listTools();
    const shape = Object.fromEntries(
      tools.map((tool) => [
        tool.name,
        { properties: Object.keys(tool.inputSchema.properties ?? {}), required: tool.inputSchema.required },
      ]),
    );
    const options = ['include_pages', 'page_range', 'chunk_max_tokens', 'include_metadata', 'optimize_tokens'];
    expect(shape).toEqual({
      convert_file: { properties: ['path', ...options], required: ['path'] },
      convert_url: { properties: ['url', ...options], required: ['url'] },
    });
  });
});

describe('convert_file', () => {
  it('When a file inside the root is converted, then the Markdown is the one text item', async () => {
    const answer = await call('convert_file', { path: 'hello.md' });
    expect(answer).toEqual({ content: [{ type: 'text', text: '# Hello\n\nSome *text*.\n' }] });
  });

  it('When metadata and token figures are asked for, then they come as a second, JSON, item', async () => {
    const answer = await call('convert_file', {
      path: path.join(root, 'hello.md'),
      include_metadata: true,
      optimize_tokens: true,
    });
    expect(answer.isError).toBeUndefined();
    expect(answer.content).toHaveLength(2);
    expect(JSON.parse(answer.content[1]!.text!)).toEqual({
      metadata: { title: 'Hello', author: '', page_count: 1 },
      token_optimization: {
        original_tokens: expect.any(Number),
        optimized_tokens: expect.any(Number),
        reduction_percent: expect.any(Number),
      },
    });
  });

  it('When chunk_max_tokens is given, then the chunks come as a JSON item, each within the limit', async () => {
    const answer = await call('convert_file', { path: 'long.md', chunk_max_tokens: 64 });
    const { chunks } = JSON.parse(answer.content[1]!.text!) as { chunks: Array<{ index: number; tokens: number }> };
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
    expect(chunks.every((c) => c.tokens <= 64)).toBe(true);
  });

  it('When include_pages is true, then the pages come as a JSON item', async () => {
    const answer = await call('convert_file', { path: 'hello.md', include_pages: true });
    expect(JSON.parse(answer.content[1]!.text!)).toEqual({
      pages: [{ number: 1, markdown: expect.stringContaining('# Hello') }],
    });
  });

  it('When chunk_max_tokens is below 64, then the call is refused before any conversion', async () => {
    const charges = (await stack.ledger(workspaceId)).length;
    const answer = await call('convert_file', { path: 'hello.md', chunk_max_tokens: 10 }).catch((e: Error) => ({
      content: [{ type: 'text', text: e.message }],
      isError: true,
    }));
    expect(answer.isError).toBe(true);
    expect(texts(answer).join(' ')).toMatch(/chunk_max_tokens/);
    expect(await stack.ledger(workspaceId)).toHaveLength(charges);
  });

  it('When a symbolic link in the root points outside it, then the tool refuses and reads nothing', async () => {
    const answer = await call('convert_file', { path: 'innocent.md' });
    expect(answer).toEqual({
      content: [
        { type: 'text', text: 'innocent.md is outside the folders this server may read (MARKWRIGHT_MCP_ROOTS).' },
      ],
      isError: true,
    });
  });

  it('When .. leads out of the root, then the tool refuses', async () => {
    const answer = await call('convert_file', { path: '../private/secret.md' });
    expect(answer.isError).toBe(true);
    expect(texts(answer)).toEqual([
      '../private/secret.md is outside the folders this server may read (MARKWRIGHT_MCP_ROOTS).',
    ]);
  });

  it('When the path is a folder, then the tool refuses it as not a regular file', async () => {
    expect(await call('convert_file', { path: 'folder' })).toEqual({
      content: [{ type: 'text', text: 'Not a regular file: folder' }],
      isError: true,
    });
  });

  it('When the API refuses the file, then the tool error carries the API’s field message', async () => {
    const answer = await call('convert_file', { path: 'setup.exe' });
    expect(answer.isError).toBe(true);
    expect(texts(answer)[0]).toMatch(/^Invalid request\. file: /);
  });

  it('When the token is wrong, then the tool error says 401 with the API’s message and not the token', async () => {
    const wrong = `mwk_${'z'.repeat(40)}`;
    const other = await connect({ MARKWRIGHT_BASE_URL: stack.gateway.url, MARKWRIGHT_TOKEN: wrong });
    try {
      const answer = await call('convert_file', { path: 'hello.md' }, other);
      expect(answer).toEqual({
        content: [{ type: 'text', text: 'Markwright answered 401: Unauthenticated.' }],
        isError: true,
      });
    } finally {
      await other.close();
    }
  });
});

describe('convert_url', () => {
  it('When the URL serves a document, then the service fetches it and the Markdown comes back', async () => {
    const answer = await call('convert_url', { url: `${hostUrl}/remote.md`, include_metadata: true });
    expect(answer.isError).toBeUndefined();
    expect(answer.content[0]!.text).toContain('# Remote');
    expect(JSON.parse(answer.content[1]!.text!)).toEqual({
      metadata: { title: 'Remote', author: '', page_count: 1 },
    });
  });

  it('When the URL cannot be fetched, then the tool error names file_url', async () => {
    const answer = await call('convert_url', { url: `${hostUrl}/missing.md` });
    expect(answer.isError).toBe(true);
    expect(texts(answer)[0]).toMatch(/^Invalid request\. file_url: /);
  });
});

describe('start-up', () => {
  it('When MARKWRIGHT_TOKEN is missing, then markwright mcp exits 2 with a message naming it', async () => {
    const failure = await run(process.execPath, [BIN, 'mcp'], {
      env: { PATH: process.env.PATH ?? '', MARKWRIGHT_BASE_URL: stack.gateway.url },
      timeout: 60_000,
    }).catch((err: { code: number; stderr: string }) => err);
    expect(failure).toMatchObject({
      code: 2,
      stderr: 'markwright mcp: MARKWRIGHT_TOKEN is required: a workspace token (mwk_…)\n',
    });
  });
});
