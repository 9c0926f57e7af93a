import { Client } from 'pg';
import PDFDocument from 'pdfkit';
import request from 'supertest';
import { eventually, silentLogger } from '@markwright/test-support';
import { bearer, startStack, type Stack } from './stack';
import { startDispatcher, type DispatcherService } from '../../dispatcher/src/dispatcher-service';
import { makeCertificate, startReceiver } from '../../dispatcher/test/receiver';
import { startFileHost } from './file-host';
import { sweepExpiredResults } from '../src/domain/delete-conversion';

/*
 * E1–E4 in the service (extensions.md): the four form fields, their 422s, and pages, chunks and
 * document in the sync 200, the completed detail and the webhook (after the contract's keys, only
 * when asked, never in the list), stored on the conversion and deleted with it (E8), and part of
 * an Idempotency-Key's request (E6). Real gateway, converter and dispatcher.
 */

const cert = makeCertificate();
let stack: Stack;
let dispatcher: DispatcherService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let host: Awaited<ReturnType<typeof startFileHost>>;

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ALLOW_PRIVATE_NETWORKS: 'true' } });
  dispatcher = await startDispatcher(stack.env.config, silentLogger);
  receiver = await startReceiver(cert);
  host = await startFileHost(cert);
}, 60_000);
afterAll(async () => {
  await host?.close();
  await dispatcher?.stop();
  await receiver?.close();
  await stack?.stop();
  cert.cleanup();
});

const api = () => request(stack.gateway.url);

const SYNC_KEYS = ['success', 'markdown', 'credits_used', 'credits_remaining'];
const DETAIL_KEYS = [
  'id',
  'status',
  'original_filename',
  'created_at',
  'markdown',
  'completed_at',
  'webhook_delivered',
  'can_retry_webhook',
];
const WEBHOOK_KEYS = ['id', 'status', 'created_at', 'markdown', 'completed_at'];
const STRUCTURE_KEYS = ['pages', 'chunks', 'document'];

/** A three-page PDF, one heading and one sentence per page. */
function threePagePdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4', margin: 72 });
    const parts: Buffer[] = [];
    doc.on('data', (c: Buffer) => parts.push(c));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    for (const n of [1, 2, 3]) {
      if (n > 1) doc.addPage();
      doc.fontSize(20).text(`Chapter ${n}`);
      doc.fontSize(11).text(`This is the text of page number ${n}, written for the page range test.`);
    }
    doc.end();
  });
}

const LONG_MD = Array.from(
  { length: 12 },
  (_, i) =>
    `## Section ${i + 1}\n\n` +
    `Paragraph ${i + 1} explains one more part of the structure feature in plain words. ` +
    'It has two sentences so that a chunk of sixty-four tokens cannot hold many of them.',
).join('\n\n');

type Fields = Record<string, string>;

function convert(token: string, fields: Fields, file: { bytes: Buffer; name: string } | null, key?: string) {
  const req = api()
    .post('/convert')
    .set(...bearer(token));
  if (key) req.set('Idempotency-Key', key);
  for (const [name, value] of Object.entries(fields)) req.field(name, value);
  if (file) req.attach('file', file.bytes, file.name);
  return req;
}

const md = (text = LONG_MD, name = 'notes.md') => ({ bytes: Buffer.from(text), name });

async function balance(workspaceId: string): Promise<number> {
  const ws = await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
  return ws.creditBalance;
}

/** Whitespace-insensitive text, for E1's and E3's join rules. */
const squeezed = (text: string): string => text.replace(/\s+/g, ' ').trim();

describe('The fields of E1–E4 are validated like the contract’s own (422, nothing charged)', () => {
  const cases: Array<[string, Fields, string, string]> = [
    ['include_pages', { include_pages: 'maybe' }, 'notes.md', 'The include pages field must be true or false.'],
    ['include_document', { include_document: 'sí' }, 'notes.md', 'The include document field must be true or false.'],
    ['chunk_max_tokens', { chunk_max_tokens: 'many' }, 'notes.md', 'The chunk max tokens field must be an integer.'],
    ['chunk_max_tokens', { chunk_max_tokens: '12.5' }, 'notes.md', 'The chunk max tokens field must be an integer.'],
    [
      'chunk_max_tokens',
      { chunk_max_tokens: '63' },
      'notes.md',
      'The chunk max tokens field must be between 64 and 8192.',
    ],
    [
      'chunk_max_tokens',
      { chunk_max_tokens: '8193' },
      'notes.md',
      'The chunk max tokens field must be between 64 and 8192.',
    ],
    ...['0', '3-1', '1,1', '2,1', '1-3,2-4', '100001', '1-', 'a', '1;2', ' '].map(
      (range): [string, Fields, string, string] => [
        'page_range',
        { page_range: range },
        'paper.pdf',
        'The page range field must be pages like 1-3,7: ascending, not overlapping, from 1 to 100000.',
      ],
    ),
  ];

  it.each(cases)('When %s is %j, then it answers 422 naming that field', async (field, fields, name, message) => {
    const { token, workspaceId } = await stack.workspace('business', 5);
    const res = await convert(token, fields, { bytes: Buffer.from('%PDF-1.4\n'), name });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message, errors: { [field]: [message] } });
    expect(await balance(workspaceId)).toBe(5);
  });

  it.each(['md', 'docx', 'doc', 'odt', 'rtf', 'html', 'csv', 'epub', 'png', 'txt'])(
    'When page_range is sent with a .%s file, then it answers 422 on page_range',
    async (extension) => {
      const { token, workspaceId } = await stack.workspace('business', 5);
      const res = await convert(token, { page_range: '1-2' }, { bytes: Buffer.from('x'), name: `a.${extension}` });
      const message = 'The page range field applies only to files of type: pdf, pptx, ppt, odp, xlsx, xls, ods.';
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message, errors: { page_range: [message] } });
      expect(await balance(workspaceId)).toBe(5);
    },
  );

  it('When several fields are wrong, then the 422 lists each, in form order', async () => {
    const { token } = await stack.workspace('business', 5);
    const res = await convert(
      token,
      { include_document: 'x', chunk_max_tokens: '1', page_range: '1-2', include_pages: 'x' },
      md(),
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([
      'include_pages',
      'page_range',
      'chunk_max_tokens',
      'include_document',
    ]);
  });

  it('When a field is sent twice, then it answers 422: it must be a string', async () => {
    const { token } = await stack.workspace('business', 5);
    const res = await api()
      .post('/convert')
      .set(...bearer(token))
      .field('chunk_max_tokens', '100')
      .field('chunk_max_tokens', '200')
      .attach('file', Buffer.from('# A\n'), 'a.md');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ chunk_max_tokens: ['The chunk max tokens field must be a string.'] });
  });

  it('When the bounds and the boolean words are used, then the request is accepted and the options are kept on the row', async () => {
    const { token, workspaceId } = await stack.workspace('business', 5);
    const pdf = await threePagePdf();
    const res = await convert(
      token,
      { include_pages: 'YES', page_range: ' 1 - 2 , 3 ', chunk_max_tokens: '64', include_document: 'off' },
      { bytes: pdf, name: 'paper.pdf' },
    );
    expect(res.status).toBe(200);
    const row = await stack.gateway.db.conversion.findFirstOrThrow({
      where: { originalFilename: 'paper.pdf', workspaceId },
      orderBy: { createdAt: 'desc' },
    });
    expect({
      includePages: row.includePages,
      pageRange: row.pageRange,
      chunkMaxTokens: row.chunkMaxTokens,
      includeDocument: row.includeDocument,
    }).toEqual({ includePages: true, pageRange: '1-2,3', chunkMaxTokens: 64, includeDocument: false });
    const upper = await convert(token, { chunk_max_tokens: '8192' }, md('# Hi\n'));
    expect(upper.status).toBe(200);
  });
});

describe('Sync answers carry pages, chunks and document when asked, after the contract’s keys', () => {
  it('When nothing is asked, then the 200 has exactly the contract’s keys', async () => {
    const { token } = await stack.workspace('business', 5);
    const res = await convert(token, { include_pages: 'false', include_document: 'false' }, md());
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(SYNC_KEYS);
  });

  it('When include_pages is asked of a Markdown file, then pages is one page whose markdown is the markdown', async () => {
    const { token } = await stack.workspace('business', 5);
    const res = await convert(token, { include_pages: 'true', include_metadata: 'true' }, md());
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...SYNC_KEYS, 'metadata', 'pages']);
    expect(res.body.pages).toEqual([{ number: 1, markdown: res.body.markdown.trim() }]);
  });

  it('When pages of a three-page PDF are asked with page_range 2-9, then pages 2 and 3 come back, numbered as in the file, and page_count stays 3', async () => {
    const { token } = await stack.workspace('business', 5);
    const res = await convert(
      token,
      { include_pages: 'true', page_range: '2-9', include_metadata: 'true' },
      { bytes: await threePagePdf(), name: 'paper.pdf' },
    );
    expect(res.status).toBe(200);
    expect(res.body.metadata.page_count).toBe(3);
    expect(res.body.pages.map((p: { number: number }) => p.number)).toEqual([2, 3]);
    expect(res.body.pages[0].markdown).toContain('Chapter 2');
    expect(res.body.pages[1].markdown).toContain('Chapter 3');
    expect(res.body.markdown).not.toContain('Chapter 1');
    const joined = res.body.pages
      .map((p: { markdown: string }) => p.markdown.trim())
      .filter(Boolean)
      .join('\n\n');
    expect(joined).toBe(res.body.markdown.trim());
  });

  it('When page_range selects no page of the file, then the conversion fails with the page count and is refunded', async () => {
    const { token, workspaceId } = await stack.workspace('business', 5);
    const res = await convert(token, { page_range: '7-8' }, { bytes: await threePagePdf(), name: 'paper.pdf' });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('conversion_failed');
    expect(res.body.message).toMatch(/\b3\b/);
    expect(await balance(workspaceId)).toBe(5);
  });

  it('When chunk_max_tokens is 64, then chunks are at most 64 tokens, numbered, and join back to the markdown', async () => {
    const { token } = await stack.workspace('business', 5);
    const res = await convert(token, { chunk_max_tokens: '64' }, md());
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...SYNC_KEYS, 'chunks']);
    const chunks = res.body.chunks as Array<{
      index: number;
      markdown: string;
      tokens: number;
      pages: number[];
      headings: string[];
    }>;
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
    for (const chunk of chunks) {
      expect(chunk.tokens).toBeLessThanOrEqual(64);
      expect(chunk.pages).toEqual([1]);
    }
    expect(squeezed(chunks.map((c) => c.markdown).join('\n\n'))).toBe(squeezed(res.body.markdown));
  });

  it('When include_document is asked, then document is version 1 with the heading and paragraph blocks', async () => {
    const { token } = await stack.workspace('business', 5);
    const res = await convert(
      token,
      { include_document: 'true', optimize_tokens: 'true' },
      md('# Title\n\nSome *text*.\n'),
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...SYNC_KEYS, 'token_optimization', 'document']);
    expect(res.body.document.version).toBe(1);
    expect(res.body.document.blocks.map((b: { type: string }) => b.type)).toEqual(['heading', 'paragraph']);
    expect(res.body.document.blocks[0]).toMatchObject({ level: 1, content: [{ type: 'text', text: 'Title' }] });
  });

  it('When all three are asked, then they come in the order pages, chunks, document', async () => {
    const { token } = await stack.workspace('business', 5);
    const res = await convert(
      token,
      { include_document: 'true', chunk_max_tokens: '500', include_pages: 'true' },
      md('# One\n\nText.\n'),
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...SYNC_KEYS, ...STRUCTURE_KEYS]);
  });
});

describe('The detail and the webhook carry them too; the list never does', () => {
  async function finishedAsync(token: string, path: string, fields: Fields) {
    const res = await convert(token, { ...fields, webhook_url: receiver.url(path) }, md());
    expect(res.status).toBe(202);
    const delivery = await eventually(async () => receiver.for(path)[0] ?? undefined);
    return { id: res.body.id as string, webhook: JSON.parse(delivery.body) as Record<string, unknown> };
  }

  it('When an async conversion asked for pages, chunks and document, then the webhook and the detail have them after the contract’s keys, equal to each other', async () => {
    const { token } = await stack.workspace('business', 5);
    const { id, webhook } = await finishedAsync(token, '/structure-all', {
      include_pages: 'true',
      chunk_max_tokens: '128',
      include_document: 'true',
    });
    expect(webhook.status).toBe('completed');
    expect(Object.keys(webhook)).toEqual([...WEBHOOK_KEYS, ...STRUCTURE_KEYS]);
    const detail = await api()
      .get(`/conversions/${id}`)
      .set(...bearer(token));
    expect(detail.status).toBe(200);
    expect(Object.keys(detail.body)).toEqual([...DETAIL_KEYS, ...STRUCTURE_KEYS]);
    for (const key of STRUCTURE_KEYS) expect(detail.body[key]).toEqual(webhook[key]);
    expect(detail.body.pages).toEqual([{ number: 1, markdown: detail.body.markdown.trim() }]);

    const list = await api()
      .get('/conversions')
      .set(...bearer(token));
    expect(list.status).toBe(200);
    for (const item of list.body.data) for (const key of STRUCTURE_KEYS) expect(item).not.toHaveProperty(key);
  });

  it('When an async conversion asked for none, then the webhook and the detail have exactly the contract’s keys', async () => {
    const { token } = await stack.workspace('business', 5);
    const { id, webhook } = await finishedAsync(token, '/structure-none', {});
    expect(Object.keys(webhook)).toEqual(WEBHOOK_KEYS);
    const detail = await api()
      .get(`/conversions/${id}`)
      .set(...bearer(token));
    expect(Object.keys(detail.body)).toEqual(DETAIL_KEYS);
  });

  it('When a conversion with pages, chunks and document is deleted, then none of them stays in any table', async () => {
    const { token } = await stack.workspace('business', 5);
    const marker = `structmarker${Date.now()}`;
    const res = await convert(
      token,
      { include_pages: 'true', chunk_max_tokens: '64', include_document: 'true' },
      md(`# ${marker}\n\n${LONG_MD}\n`),
    );
    expect(res.status).toBe(200);
    const row = await stack.gateway.db.conversion.findFirstOrThrow({
      where: { markdown: { contains: marker } },
      select: { id: true, pages: true, chunks: true, document: true },
    });
    expect(JSON.stringify([row.pages, row.chunks, row.document])).toContain(marker);
    const deleted = await api()
      .delete(`/conversions/${row.id}`)
      .set(...bearer(token));
    expect(deleted.status).toBe(204);
    expect(await tablesHolding(marker)).toEqual([]);
  });
});

describe('Retention deletes them as DELETE does (E8)', () => {
  it('When a conversion with pages, chunks and document is past RESULT_RETENTION_HOURS, then the sweep leaves none of them in any table', async () => {
    const { token } = await stack.workspace('business', 5);
    const marker = `retainedmarker${Date.now()}`;
    const res = await convert(
      token,
      { include_pages: 'true', chunk_max_tokens: '64', include_document: 'true' },
      md(`# ${marker}\n\nBody.\n`),
    );
    expect(res.status).toBe(200);
    const { id } = await stack.gateway.db.conversion.findFirstOrThrow({
      where: { markdown: { contains: marker } },
      select: { id: true },
    });
    await stack.gateway.db.conversion.update({
      where: { id },
      data: { completedAt: new Date(Date.now() - 2 * 3_600_000) },
    });
    const deps = {
      db: stack.gateway.db,
      logger: silentLogger,
      cancellations: { announceCancelled: async () => undefined },
      jobControl: { cancelled: () => undefined, deleted: () => undefined },
      credits: { charged: () => undefined, refunded: () => undefined },
    };
    expect(await sweepExpiredResults(deps, 1)).toBeGreaterThanOrEqual(1);
    expect(await tablesHolding(marker)).toEqual([]);
  });
});

describe('The fields work with file_url (E5)', () => {
  it('When a downloaded Markdown file asks for pages, then they come back; with page_range, 422 on page_range and nothing charged', async () => {
    const { token, workspaceId } = await stack.workspace('business', 5);
    host.answer('/remote/notes.md', { body: '# Remote\n\nFetched text.\n' });
    const res = await convert(token, { file_url: host.url('/remote/notes.md'), include_pages: 'true' }, null);
    expect(res.status).toBe(200);
    expect(res.body.pages).toEqual([{ number: 1, markdown: res.body.markdown.trim() }]);
    const ranged = await convert(token, { file_url: host.url('/remote/notes.md'), page_range: '1' }, null);
    const message = 'The page range field applies only to files of type: pdf, pptx, ppt, odp, xlsx, xls, ods.';
    expect(ranged.status).toBe(422);
    expect(ranged.body).toEqual({ message, errors: { page_range: [message] } });
    const badChunks = await convert(token, { file_url: host.url('/remote/notes.md'), chunk_max_tokens: '9' }, null);
    expect(badChunks.status).toBe(422);
    expect(Object.keys(badChunks.body.errors)).toEqual(['chunk_max_tokens']);
    expect(await balance(workspaceId)).toBe(4);
  });
});

describe('An Idempotency-Key covers the new fields (E6)', () => {
  it('When the same key comes with the same fields, then the first answer comes back with its pages; with another page_range, 422 on Idempotency-Key', async () => {
    const { token, workspaceId } = await stack.workspace('business', 5);
    const pdf = { bytes: await threePagePdf(), name: 'paper.pdf' };
    const first = await convert(token, { include_pages: 'true', page_range: '1' }, pdf, 'struct-key');
    expect(first.status).toBe(200);
    const again = await convert(token, { include_pages: 'true', page_range: '1' }, pdf, 'struct-key');
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.body.pages.map((p: { number: number }) => p.number)).toEqual([1]);
    const other = await convert(token, { include_pages: 'true', page_range: '2' }, pdf, 'struct-key');
    expect(other.status).toBe(422);
    expect(Object.keys(other.body.errors)).toEqual(['Idempotency-Key']);
    const chunked = await convert(
      token,
      { include_pages: 'true', page_range: '1', chunk_max_tokens: '64' },
      pdf,
      'struct-key',
    );
    expect(chunked.status).toBe(422);
    expect(await balance(workspaceId)).toBe(4);
  });
});

/** The public tables whose rows' text contains `marker`. */
async function tablesHolding(marker: string): Promise<string[]> {
  const client = new Client({ connectionString: stack.env.config.DATABASE_URL });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    const found: string[] = [];
    for (const { table_name: table } of tables) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${table}" t WHERE t::text LIKE $1`,
        [`%${marker}%`],
      );
      if (rows[0]!.n > 0) found.push(`${table}: ${rows[0]!.n}`);
    }
    return found;
  } finally {
    await client.end();
  }
}
