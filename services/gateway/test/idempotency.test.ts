import request from 'supertest';
import { eventually } from '@markwright/test-support';
import { bearer, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const WEBHOOK = 'https://receiver.invalid/hook';

function convert(token: string, key: string | undefined, content = '# Same\n', name = 'same.md', webhook?: string) {
  const req = request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token));
  if (key !== undefined) req.set('Idempotency-Key', key);
  if (webhook) req.field('webhook_url', webhook);
  return req.attach('file', Buffer.from(content), name);
}

async function balance(workspaceId: string): Promise<number> {
  return (await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } })).creditBalance;
}

describe('Idempotency-Key (E6)', () => {
  it('When 20 identical async requests with one key race, then one conversion is created and charged once, and all 20 answer its 202', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 50);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => convert(token, 'race-async', '# Race\n', 'race.md', WEBHOOK)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    for (const a of answers) {
      expect(a.body).toEqual({
        id,
        status: 'pending',
        message: 'The conversion is queued. The result will be sent to the webhook URL when it is ready.',
        status_url: `/api/v1/conversions/${id}`,
        credits_used: 1,
        credits_remaining: 49,
      });
    }
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await balance(workspaceId)).toBe(49);
    expect(await stack.ledger(workspaceId)).toEqual([
      { type: 'grant', amount: 50 },
      { type: 'charge', amount: -1 },
    ]);
    expect(await stack.gateway.db.conversion.count({ where: { workspaceId } })).toBe(1);
  });

  it('When 20 identical sync requests with one key race, then the workspace is charged once and every 2xx holds the same markdown', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 50);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => convert(token, 'race-sync', '# Sync\n', 's.md')),
    );
    for (const a of answers) {
      if (a.status === 409) {
        expect(a.body).toEqual({
          error: 'idempotency_conflict',
          message: 'A request with this Idempotency-Key is still being processed. Retry later.',
        });
        expect(a.headers['retry-after']).toBe('1');
      } else {
        expect(a.status).toBe(200);
        expect(a.body).toEqual({ success: true, markdown: '# Sync\n', credits_used: 1, credits_remaining: 49 });
      }
    }
    expect(await balance(workspaceId)).toBe(49);
    expect(await stack.ledger(workspaceId)).toEqual([
      { type: 'grant', amount: 50 },
      { type: 'charge', amount: -1 },
    ]);
  });

  it('When a finished sync request is repeated with its key, then the same 200 body comes back with Idempotent-Replayed: true and nothing is charged', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 10);
    const first = await convert(token, 'sync-1', '# One\n', 'one.md');
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await convert(token, 'sync-1', '# One\n', 'one.md');
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await balance(workspaceId)).toBe(9);
  });

  it('When a failed sync request is repeated with its key, then the same 422 conversion_failed comes back and the refund stays single', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 10);
    const first = await convert(token, 'bad-json', '{', 'bad.json');
    expect(first.status).toBe(422);
    expect(first.body.error).toBe('conversion_failed');
    const again = await convert(token, 'bad-json', '{', 'bad.json');
    expect(again.status).toBe(422);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await balance(workspaceId)).toBe(10);
    expect(await stack.ledger(workspaceId)).toEqual([
      { type: 'grant', amount: 10 },
      { type: 'charge', amount: -1 },
      { type: 'refund', amount: 1 },
    ]);
  });

  it.each([
    ['other file bytes', '# Two\n', 'two.md', undefined],
    ['another file name', '# One\n', 'renamed.md', undefined],
    ['another form field', '# One\n', 'two.md', WEBHOOK],
  ])(
    'When the key is reused with %s, then it answers 422 on Idempotency-Key and charges nothing',
    async (_, content, name, webhook) => {
      const { token, workspaceId } = await stack.workspace('starter', 10);
      expect((await convert(token, 'reused', '# One\n', 'two.md')).status).toBe(200);
      const res = await convert(token, 'reused', content, name, webhook);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'This Idempotency-Key was already used with a different request.',
        errors: { 'Idempotency-Key': ['This Idempotency-Key was already used with a different request.'] },
      });
      expect(await balance(workspaceId)).toBe(9);
    },
  );

  it('When the first request of a key is still running, then a repeat answers 409 idempotency_conflict with Retry-After', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 10);
    await stack.stopConverter();
    try {
      const first = convert(token, 'slow', '# Slow\n', 'slow.md').then((r) => r);
      await eventually(async () =>
        (await stack.gateway.db.conversion.count({ where: { workspaceId } })) ? true : undefined,
      );
      const res = await convert(token, 'slow', '# Slow\n', 'slow.md');
      expect(res.status).toBe(409);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body.error).toBe('idempotency_conflict');
      await stack.startConverter();
      expect((await first).status).toBe(200);
      const replay = await convert(token, 'slow', '# Slow\n', 'slow.md');
      expect(replay.status).toBe(200);
      expect(replay.body.markdown).toBe('# Slow\n');
    } finally {
      if (!stack.converter) await stack.startConverter();
    }
    expect(await balance(workspaceId)).toBe(9);
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['not printable ASCII', 'clé'],
  ])('When the key is %s, then it answers 422 on Idempotency-Key', async (_, key) => {
    const { token, workspaceId } = await stack.workspace('starter', 10);
    const res = await convert(token, key);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'Idempotency-Key': ['The Idempotency-Key header must be 1 to 255 printable ASCII characters.'],
    });
    expect(await balance(workspaceId)).toBe(10);
  });

  it('When the first request was refused for credits, then the key is not used up: after a grant the same key converts', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 0);
    expect((await convert(token, 'broke')).status).toBe(402);
    await stack.gateway.db.workspace.update({ where: { id: workspaceId }, data: { creditBalance: 1 } });
    const res = await convert(token, 'broke');
    expect(res.status).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await balance(workspaceId)).toBe(0);
  });

  it('When the key is older than 24 hours, then the request is done and charged again', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 10);
    expect((await convert(token, 'old')).status).toBe(200);
    await stack.gateway.db.idempotencyKey.updateMany({
      where: { workspaceId },
      data: { createdAt: new Date(Date.now() - 24 * 3600_000 - 1000) },
    });
    const res = await convert(token, 'old');
    expect(res.status).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await balance(workspaceId)).toBe(8);
    expect(await stack.gateway.db.idempotencyKey.count({ where: { workspaceId } })).toBe(1);
  });

  it('When another workspace uses the same key, then its request is its own', async () => {
    const a = await stack.workspace('starter', 10);
    const b = await stack.workspace('starter', 10);
    const first = await convert(a.token, 'shared', '# A\n', 'a.md', WEBHOOK);
    const second = await convert(b.token, 'shared', '# A\n', 'a.md', WEBHOOK);
    expect(second.status).toBe(202);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.id).not.toBe(first.body.id);
    expect(await balance(b.workspaceId)).toBe(9);
  });

  it('When a large upload (stored before the charge) loses the race for its key, then its stored bytes are removed', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 10);
    const big = 'x'.repeat(300 * 1024);
    // Four copies: a workspace receives at most UPLOADS_PER_WORKSPACE (4) large uploads at once.
    const answers = await Promise.all(Array.from({ length: 4 }, () => convert(token, 'big', big, 'big.txt', WEBHOOK)));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await balance(workspaceId)).toBe(9);
    const uploads = await stack.gateway.db.upload.findMany({ select: { conversionId: true } });
    const conversionIds = new Set(
      (await stack.gateway.db.conversion.findMany({ select: { id: true } })).map((c) => c.id),
    );
    expect(uploads.filter((u) => !conversionIds.has(u.conversionId))).toEqual([]);
  });
});
