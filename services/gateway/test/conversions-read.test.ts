import request from 'supertest';
import { eventually } from '@markwright/test-support';
import { bearer, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ converter: false });
});
afterAll(() => stack?.stop());

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
const HOOK = 'https://receiver.invalid/hook';

async function queue(token: string, name = 'a.txt', content = 'hello', extra: Record<string, string> = {}) {
  let req = request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token))
    .field('webhook_url', HOOK);
  for (const [k, v] of Object.entries(extra)) req = req.field(k, v);
  const res = await req.attach('file', Buffer.from(content), name);
  expect(res.status).toBe(202);
  return res.body as { id: string };
}

const get = (token: string, path: string) =>
  request(stack.gateway.url)
    .get(path)
    .set(...bearer(token));

/** Runs a converter until the conversion reaches `status`, and returns its detail body. */
async function convertUntil(token: string, id: string, status: 'completed' | 'failed') {
  await stack.startConverter();
  try {
    return await eventually(async () => {
      const res = await get(token, `/conversions/${id}`);
      return res.body.status === status ? res.body : undefined;
    });
  } finally {
    await stack.stopConverter();
  }
}

describe('async acceptance and GET /conversions/{id}', () => {
  it('When webhook_url is given, then it answers 202 with exactly the acknowledgement fields', async () => {
    const { token } = await stack.workspace('starter', 5);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', HOOK)
      .attach('file', Buffer.from('hi'), 'a.txt');
    expect(res.status).toBe(202);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'status',
      'message',
      'status_url',
      'credits_used',
      'credits_remaining',
    ]);
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.body).toMatchObject({
      status: 'pending',
      status_url: `/api/v1/conversions/${res.body.id}`,
      credits_used: 1,
      credits_remaining: 4,
    });
    expect(res.body.message).toMatch(/queued.*webhook/i);
  });

  it('When the conversion is pending, then the detail has only the always-present fields', async () => {
    const { token } = await stack.workspace();
    const { id } = await queue(token);
    const res = await get(token, `/conversions/${id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'status',
      'original_filename',
      'created_at',
      'webhook_delivered',
      'can_retry_webhook',
    ]);
    expect(res.body).toMatchObject({
      id,
      status: 'pending',
      original_filename: 'a.txt',
      webhook_delivered: false,
      can_retry_webhook: true,
    });
    expect(res.body.created_at).toMatch(TS);
  });

  it('When the conversion is processing, then started_at is added', async () => {
    const { token } = await stack.workspace();
    const { id } = await queue(token);
    await stack.gateway.db
      .$executeRaw`UPDATE conversions SET status = 'processing', started_at = now() WHERE id = ${id}::uuid`;
    const res = await get(token, `/conversions/${id}`);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'status',
      'original_filename',
      'created_at',
      'started_at',
      'webhook_delivered',
      'can_retry_webhook',
    ]);
    expect(res.body.started_at).toMatch(TS);
  });

  it('When the conversion completes with include_metadata, then markdown, metadata and completed_at are present', async () => {
    const { token } = await stack.workspace();
    const { id } = await queue(token, 'doc.md', '# Hello\n', { include_metadata: 'true' });
    const body = await convertUntil(token, id, 'completed');
    expect(Object.keys(body)).toEqual([
      'id',
      'status',
      'original_filename',
      'created_at',
      'markdown',
      'metadata',
      'completed_at',
      'webhook_delivered',
      'can_retry_webhook',
    ]);
    expect(body.markdown).toBe('# Hello\n');
    expect(body.metadata).toEqual({ title: 'Hello', author: '', page_count: 1 });
    expect(body.completed_at).toMatch(TS);
    expect(await stack.gateway.db.upload.count({ where: { conversionId: id } })).toBe(0);
  });

  it('When the conversion completes without include_metadata, then metadata is absent', async () => {
    const { token } = await stack.workspace();
    const { id } = await queue(token, 'doc.md', '# Hi\n');
    const body = await convertUntil(token, id, 'completed');
    expect(body).not.toHaveProperty('metadata');
  });

  it('When the conversion fails, then error and completed_at are present and the credit is refunded', async () => {
    const { token, workspaceId } = await stack.workspace('free', 3);
    const { id } = await queue(token, 'x.json', '{nope');
    const body = await convertUntil(token, id, 'failed');
    expect(Object.keys(body)).toEqual([
      'id',
      'status',
      'original_filename',
      'created_at',
      'error',
      'completed_at',
      'webhook_delivered',
      'can_retry_webhook',
    ]);
    expect(body.error).toMatch(/not valid JSON/);
    const ws = await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
    expect(ws.creditBalance).toBe(3);
  });

  it('When the id is unknown, malformed or another workspace’s, then it answers 404 not_found', async () => {
    const a = await stack.workspace();
    const b = await stack.workspace();
    const { id } = await queue(a.token);
    const expected = { error: 'not_found', message: 'Conversion not found.' };
    for (const path of [
      `/conversions/${id}`,
      '/conversions/not-a-uuid',
      '/conversions/01a20694-2dfb-769b-b414-0d99eaa5c2ae',
    ]) {
      const res = await get(b.token, path);
      expect([path, res.status, res.body]).toEqual([path, 404, expected]);
    }
    expect((await get(a.token, `/conversions/${id}`)).status).toBe(200);
  });

  it('When a sync conversion is read, then webhook_delivered and can_retry_webhook are both false', async () => {
    const { token } = await stack.workspace();
    const { id } = await queue(token);
    await stack.gateway.db.conversion.update({ where: { id }, data: { webhookUrl: null, mode: 'sync' } });
    const res = await get(token, `/conversions/${id}`);
    expect(res.body).toMatchObject({ webhook_delivered: false, can_retry_webhook: false });
  });
});

describe('GET /conversions', () => {
  it('When listing, then it is a Laravel paginator with every key, newest first, per_page 20 by default', async () => {
    const { token } = await stack.workspace();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await queue(token, `f${i}.txt`)).id);
    const res = await get(token, '/conversions');
    expect(res.status).toBe(200);
    const base = `${stack.gateway.url}/conversions`;
    expect(res.body).toEqual({
      current_page: 1,
      data: expect.any(Array),
      first_page_url: `${base}?page=1`,
      from: 1,
      last_page: 1,
      last_page_url: `${base}?page=1`,
      links: [
        { url: null, label: '&laquo; Previous', active: false },
        { url: `${base}?page=1`, label: '1', active: true },
        { url: null, label: 'Next &raquo;', active: false },
      ],
      next_page_url: null,
      path: base,
      per_page: 20,
      prev_page_url: null,
      to: 3,
      total: 3,
    });
    expect(res.body.data.map((d: { id: string }) => d.id)).toEqual([...ids].reverse());
    expect(Object.keys(res.body.data[0])).toEqual([
      'id',
      'status',
      'original_filename',
      'extension',
      'file_size_bytes',
      'use_enhanced_ai',
      'created_at',
      'started_at',
      'completed_at',
    ]);
    expect(res.body.data[0]).toMatchObject({
      extension: 'txt',
      file_size_bytes: 5,
      use_enhanced_ai: false,
      started_at: null,
      completed_at: null,
    });
  });

  it('When paging with per_page 2, then pages do not overlap even when created_at ties, ordered by id descending', async () => {
    const { token, workspaceId } = await stack.workspace();
    for (let i = 0; i < 5; i++) await queue(token, `t${i}.txt`);
    await stack.gateway.db
      .$executeRaw`UPDATE conversions SET created_at = '2026-01-01T00:00:00Z' WHERE workspace_id = ${workspaceId}::uuid`;
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await get(token, `/conversions?per_page=2&page=${page}`);
      expect(res.body).toMatchObject({ current_page: page, last_page: 3, per_page: 2, total: 5 });
      seen.push(...res.body.data.map((d: { id: string }) => d.id));
    }
    expect(seen).toHaveLength(5);
    expect([...seen].sort().reverse()).toEqual(seen);
    const page2 = await get(token, '/conversions?per_page=2&page=2');
    const base = `${stack.gateway.url}/conversions`;
    expect(page2.body).toMatchObject({
      from: 3,
      to: 4,
      prev_page_url: `${base}?per_page=2&page=1`,
      next_page_url: `${base}?per_page=2&page=3`,
    });
  });

  it('When the page is past the end, then data is empty and from/to are null', async () => {
    const { token } = await stack.workspace();
    await queue(token);
    const res = await get(token, '/conversions?page=9');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ current_page: 9, data: [], from: null, to: null, total: 1, last_page: 1 });
  });

  it('When filtering by status, then only matching conversions are counted and listed', async () => {
    const { token, workspaceId } = await stack.workspace();
    const { id } = await queue(token);
    await queue(token);
    await stack.gateway.db
      .$executeRaw`UPDATE conversions SET status = 'failed', error = 'x', completed_at = now() WHERE id = ${id}::uuid`;
    const res = await get(token, '/conversions?status=failed');
    expect(res.body.total).toBe(1);
    expect(res.body.data.map((d: { id: string }) => d.id)).toEqual([id]);
    expect(res.body.first_page_url).toBe(`${stack.gateway.url}/conversions?status=failed&page=1`);
    expect((await get(token, '/conversions?status=pending')).body.total).toBe(1);
    void workspaceId;
  });

  it.each([
    ['status=done', { status: ['The selected status is invalid.'] }],
    ['per_page=0', { per_page: ['The per page field must be between 1 and 100.'] }],
    ['per_page=101', { per_page: ['The per page field must be between 1 and 100.'] }],
    ['per_page=abc', { per_page: ['The per page field must be an integer.'] }],
    ['page=0', { page: ['The page field must be at least 1.'] }],
  ])('When the query is %s, then it answers 422 with that field', async (query, errors) => {
    const { token } = await stack.workspace();
    const res = await get(token, `/conversions?${query}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: Object.values(errors)[0]![0], errors });
  });

  it('When per_page is 100, then it is accepted (the upper bound)', async () => {
    const { token } = await stack.workspace();
    expect((await get(token, '/conversions?per_page=100')).body.per_page).toBe(100);
  });

  it('When two workspaces list, then each sees only its own conversions', async () => {
    const a = await stack.workspace();
    const b = await stack.workspace();
    const { id } = await queue(a.token);
    const listB = await get(b.token, '/conversions');
    expect(listB.body.total).toBe(0);
    const listA = await get(a.token, '/conversions');
    expect(listA.body.data.map((d: { id: string }) => d.id)).toEqual([id]);
  });
});
