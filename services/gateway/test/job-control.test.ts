import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { eventually, silentLogger } from '@markwright/test-support';
import { bearer, startStack, type Stack } from './stack';
import { startDispatcher, type DispatcherService } from '../../dispatcher/src/dispatcher-service';
import { makeCertificate, startReceiver } from '../../dispatcher/test/receiver';

/**
 * The outside world of enhanced mode: a model endpoint that holds every request open until told
 * to answer, so a conversion stays in its worker as long as a test needs. When the worker is
 * terminated, its connection closes: the time of that close is when the work stopped.
 */
async function startHoldingModel() {
  const closedAt = new Map<number, number>();
  const arrived: number[] = [];
  let next = 0;
  const server = http.createServer((req) => {
    const n = next++;
    arrived.push(n);
    req.resume();
    req.socket.on('close', () => closedAt.set(n, Date.now()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    arrived: () => arrived.length,
    closedAt: (n: number) => closedAt.get(n),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const cert = makeCertificate();
let stack: Stack;
let dispatcher: DispatcherService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let model: Awaited<ReturnType<typeof startHoldingModel>>;

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  model = await startHoldingModel();
  stack = await startStack({
    env: {
      WEBHOOK_RETRY_DELAYS_MS: '1000,1500',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      ENHANCED_AI_BASE_URL: model.baseUrl,
      ENHANCED_AI_MODEL: 'holding-model',
      ENHANCED_AI_TIMEOUT_MS: '60000',
      CONVERTER_CONCURRENCY: '4',
    },
  });
  dispatcher = await startDispatcher(stack.env.config, silentLogger);
  receiver = await startReceiver(cert);
}, 60_000);
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await stack?.stop();
  await model?.close();
  cert.cleanup();
});

const api = () => request(stack.gateway.url);

function convert(token: string, opts: { webhookPath?: string; enhanced?: boolean; content?: string; name?: string }) {
  const req = api()
    .post('/convert')
    .set(...bearer(token));
  if (opts.webhookPath) req.field('webhook_url', receiver.url(opts.webhookPath));
  if (opts.enhanced) req.field('use_enhanced_ai', 'true');
  return req.attach('file', Buffer.from(opts.content ?? '# Hello\n'), opts.name ?? 'hello.md');
}

const cancel = (token: string, id: string) =>
  api()
    .post(`/conversions/${id}/cancel`)
    .set(...bearer(token));
const remove = (token: string, id: string) =>
  api()
    .delete(`/conversions/${id}`)
    .set(...bearer(token));
const balance = async (workspaceId: string) =>
  (await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } })).creditBalance;
const statusOf = async (id: string) =>
  (await stack.gateway.db.conversion.findUnique({ where: { id }, select: { status: true } }))?.status;
const finished = async (id: string) => ['completed', 'failed'].includes((await statusOf(id)) ?? '');

/** Sum of the workspace's ledger rows, and its refunds per conversion. */
async function ledgerOf(workspaceId: string) {
  const rows = await stack.gateway.db.creditTransaction.findMany({ where: { workspaceId } });
  const refunds = new Map<string, number>();
  for (const r of rows.filter((r) => r.type === 'refund'))
    refunds.set(r.conversionId!, (refunds.get(r.conversionId!) ?? 0) + 1);
  return { sum: rows.reduce((s, r) => s + r.amount, 0), refunds };
}

/** An enhanced async conversion whose worker is waiting on the model endpoint (index `n` of its requests). */
async function heldConversion(token: string, webhookPath: string) {
  const before = model.arrived();
  const res = await convert(token, { webhookPath, enhanced: true });
  expect(res.status).toBe(202);
  await eventually(async () => (model.arrived() > before ? true : undefined));
  return { id: res.body.id as string, request: before };
}

describe('POST /conversions/{id}/cancel (E7)', () => {
  it('When a processing conversion is cancelled, then it answers 200 failed "Cancelled by request.", the worker stops within 2 s, the credits come back once and the webhook reports the failure', async () => {
    const { token, workspaceId } = await stack.workspace('business', 10);
    const { id, request: modelRequest } = await heldConversion(token, '/cancel-processing');
    expect(await statusOf(id)).toBe('processing');
    const res = await cancel(token, id);
    const answeredAt = Date.now();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      status: 'failed',
      original_filename: 'hello.md',
      created_at: expect.any(String),
      error: 'Cancelled by request.',
      completed_at: expect.any(String),
      webhook_delivered: false,
      can_retry_webhook: true,
    });
    await eventually(async () => (model.closedAt(modelRequest) ? true : undefined));
    expect(model.closedAt(modelRequest)! - answeredAt).toBeLessThan(2000);
    expect(await balance(workspaceId)).toBe(10);
    expect((await ledgerOf(workspaceId)).refunds.get(id)).toBe(1);
    await eventually(async () => receiver.for('/cancel-processing')[0] ?? undefined);
    const delivery = receiver.for('/cancel-processing')[0]!;
    expect(JSON.parse(delivery.body)).toMatchObject({ id, status: 'failed', error: 'Cancelled by request.' });
    // The terminated worker was replaced: the next conversion runs.
    const after = await convert(token, { content: '# Next\n', name: 'next.md' });
    expect(after.status).toBe(200);
    expect(after.body.markdown).toBe('# Next\n');
  });

  it('When a sync conversion is cancelled while its request waits, then that request answers 422 conversion_failed "Cancelled by request." and is refunded once', async () => {
    const { token, workspaceId } = await stack.workspace('business', 10);
    const before = model.arrived();
    const waiting = convert(token, { enhanced: true }).then((r) => r);
    await eventually(async () => (model.arrived() > before ? true : undefined));
    const row = await stack.gateway.db.conversion.findFirstOrThrow({ where: { workspaceId } });
    expect((await cancel(token, row.id)).status).toBe(200);
    const res = await waiting;
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'conversion_failed', message: 'Cancelled by request.' });
    expect(await balance(workspaceId)).toBe(10);
    expect((await ledgerOf(workspaceId)).refunds.get(row.id)).toBe(1);
  });

  it('When a pending conversion is cancelled, then it never runs and a converter that later gets its job refunds nothing more', async () => {
    const { token, workspaceId } = await stack.workspace('business', 10);
    await stack.stopConverter();
    try {
      const res = await convert(token, { webhookPath: '/cancel-pending' });
      const id = res.body.id as string;
      const cancelled = await cancel(token, id);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toBe('failed');
      expect(cancelled.body.error).toBe('Cancelled by request.');
      await stack.startConverter();
      await eventually(async () => receiver.for('/cancel-pending')[0] ?? undefined);
      await new Promise((r) => setTimeout(r, 500));
      const row = await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } });
      expect(row.status).toBe('failed');
      expect(row.startedAt).toBeNull();
      expect(await balance(workspaceId)).toBe(10);
      expect((await ledgerOf(workspaceId)).refunds.get(id)).toBe(1);
    } finally {
      if (!stack.converter) await stack.startConverter();
    }
  });

  it('When the conversion is completed or failed, then cancel answers 409 not_cancellable and refunds nothing', async () => {
    const { token, workspaceId } = await stack.workspace('business', 10);
    const done = await convert(token, { webhookPath: '/done' });
    const bad = await convert(token, { webhookPath: '/bad', content: '{', name: 'bad.json' });
    await eventually(async () => ((await finished(done.body.id)) && (await finished(bad.body.id)) ? true : undefined));
    const completed = await cancel(token, done.body.id);
    expect(completed.status).toBe(409);
    expect(completed.body).toEqual({
      error: 'not_cancellable',
      message: 'The conversion is already completed and cannot be cancelled.',
    });
    const failed = await cancel(token, bad.body.id);
    expect(failed.status).toBe(409);
    expect(failed.body).toEqual({
      error: 'not_cancellable',
      message: 'The conversion is already failed and cannot be cancelled.',
    });
    expect(await balance(workspaceId)).toBe(9);
  });

  it.each([
    ['unknown', () => '01900000-0000-7000-8000-000000000000'],
    ['malformed', () => 'not-a-uuid'],
  ])('When the id is %s, then cancel answers 404 not_found', async (_, id) => {
    const { token } = await stack.workspace('business', 10);
    const res = await cancel(token, id());
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'Conversion not found.' });
  });

  it("When another workspace's conversion is cancelled, then it answers 404 and the conversion runs on", async () => {
    const owner = await stack.workspace('business', 10);
    const other = await stack.workspace('business', 10);
    await stack.stopConverter();
    try {
      const { body } = await convert(owner.token, { webhookPath: '/not-yours' });
      expect((await cancel(other.token, body.id)).status).toBe(404);
      expect(await statusOf(body.id)).toBe('pending');
    } finally {
      await stack.startConverter();
    }
  });

  it('When cancel races the conversion’s own completion 60 times, then each ends exactly one way and the ledger reconciles: no double refund, sum of rows = balance', async () => {
    const { token, workspaceId } = await stack.workspace('business', 500);
    const runs = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const res = await convert(token, { webhookPath: `/race-${i}`, content: `# Race ${i}\n`, name: `race-${i}.md` });
        expect({ status: res.status, body: res.status === 202 ? 'accepted' : res.body }).toEqual({
          status: 202,
          body: 'accepted',
        });
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 40)));
        const answer = await cancel(token, res.body.id);
        return { id: res.body.id as string, cancel: answer.status };
      }),
    );
    await eventually(async () =>
      (await Promise.all(runs.map((r) => finished(r.id)))).every(Boolean) ? true : undefined,
    );
    const { sum, refunds } = await ledgerOf(workspaceId);
    let won = 0;
    for (const run of runs) {
      const row = await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id: run.id } });
      if (run.cancel === 200) {
        won++;
        expect(row.status).toBe('failed');
        expect(row.error).toBe('Cancelled by request.');
        expect(refunds.get(run.id)).toBe(1);
      } else {
        expect(run.cancel).toBe(409);
        expect(row.status).toBe('completed');
        expect(refunds.get(run.id)).toBeUndefined();
      }
    }
    const final = await balance(workspaceId);
    if (process.env.MW_REPORT_RACE)
      console.log(
        JSON.stringify({
          runs: runs.length,
          cancelWon: won,
          ledgerSum: sum,
          balance: final,
          refundRows: [...refunds.values()].reduce((a, b) => a + b, 0),
        }),
      );
    expect(sum).toBe(final);
    expect(final).toBe(500 - (60 - won));
  }, 120_000);
});

/** Every row of every table, as text, that holds the conversion's id or the document's marker (bytea as hex). */
async function traces(id: string, marker: string): Promise<string[]> {
  const client = new Client({ connectionString: stack.env.config.DATABASE_URL });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    const found: string[] = [];
    const hexMarker = Buffer.from(marker).toString('hex');
    for (const { table_name: table } of tables) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${table}" t WHERE t::text LIKE $1 OR t::text LIKE $2 OR t::text LIKE $3`,
        [`%${id}%`, `%${marker}%`, `%${hexMarker}%`],
      );
      if (rows[0]!.n > 0) found.push(`${table}: ${rows[0]!.n}`);
    }
    return found;
  } finally {
    await client.end();
  }
}

describe('DELETE /conversions/{id} (E8)', () => {
  it('When a completed async conversion with webhook attempts is deleted, then it answers 204 and nothing of it stays in any table but its ledger rows', async () => {
    const { token, workspaceId } = await stack.workspace('business', 10);
    const marker = `marker-${Date.now()}-delete`;
    const res = await convert(token, { webhookPath: '/to-delete', content: `# ${marker}\n` });
    const id = res.body.id as string;
    await eventually(async () => receiver.for('/to-delete')[0] ?? undefined);
    await eventually(async () =>
      (await stack.gateway.db.webhookAttempt.count({ where: { conversionId: id, succeeded: true } }))
        ? true
        : undefined,
    );
    const ledgerBefore = await stack.ledger(workspaceId);
    const deleted = await remove(token, id);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(await traces(id, marker)).toEqual(['credit_transactions: 1']);
    expect(await stack.ledger(workspaceId)).toEqual(ledgerBefore);
    expect(await balance(workspaceId)).toBe(9);
  });

  it('When a deleted conversion is read, listed or deleted again, then it is gone: 404, left out, 404', async () => {
    const { token } = await stack.workspace('business', 10);
    const first = await convert(token, { content: '# Keep\n', name: 'keep.md' });
    expect(first.status).toBe(200);
    const kept = await stack.gateway.db.conversion.findFirstOrThrow({
      where: { originalFilename: 'keep.md' },
      orderBy: { createdAt: 'desc' },
    });
    const gone = await convert(token, { webhookPath: '/gone' });
    await eventually(async () => ((await finished(gone.body.id)) ? true : undefined));
    expect((await remove(token, gone.body.id)).status).toBe(204);
    const read = await api()
      .get(`/conversions/${gone.body.id}`)
      .set(...bearer(token));
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ error: 'not_found', message: 'Conversion not found.' });
    const list = await api()
      .get('/conversions')
      .set(...bearer(token));
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([kept.id]);
    expect(list.body.total).toBe(1);
    const again = await remove(token, gone.body.id);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'not_found', message: 'Conversion not found.' });
  });

  it('When a failed sync conversion with an Idempotency-Key is deleted, then its key goes with it', async () => {
    const { token, workspaceId } = await stack.workspace('business', 10);
    const res = await api()
      .post('/convert')
      .set(...bearer(token))
      .set('Idempotency-Key', 'delete-me')
      .attach('file', Buffer.from('{'), 'broken.json');
    expect(res.status).toBe(422);
    const row = await stack.gateway.db.conversion.findFirstOrThrow({ where: { workspaceId } });
    expect((await remove(token, row.id)).status).toBe(204);
    expect(await stack.gateway.db.idempotencyKey.count({ where: { workspaceId } })).toBe(0);
    expect(await stack.ledger(workspaceId)).toEqual([
      { type: 'grant', amount: 10 },
      { type: 'charge', amount: -1 },
      { type: 'refund', amount: 1 },
    ]);
  });

  it('When the conversion is pending or processing, then DELETE answers 409 not_finished and keeps it', async () => {
    const { token } = await stack.workspace('business', 10);
    const { id } = await heldConversion(token, '/held-delete');
    const processing = await remove(token, id);
    expect(processing.status).toBe(409);
    expect(processing.body).toEqual({
      error: 'not_finished',
      message: 'The conversion is still pending or processing. Cancel it first.',
    });
    expect(await statusOf(id)).toBe('processing');
    expect((await cancel(token, id)).status).toBe(200);
    expect((await remove(token, id)).status).toBe(204);
  });

  it("When another workspace's conversion is deleted, then it answers 404 and the conversion stays", async () => {
    const owner = await stack.workspace('business', 10);
    const other = await stack.workspace('business', 10);
    const { body } = await convert(owner.token, { webhookPath: '/others' });
    await eventually(async () => ((await finished(body.id)) ? true : undefined));
    expect((await remove(other.token, body.id)).status).toBe(404);
    expect(await statusOf(body.id)).toBe('completed');
  });

  it('When cancels and deletes happen, then the metrics count them', async () => {
    const res = await request(`http://127.0.0.1:${stack.gateway.port}`).get('/metrics');
    expect(res.text).toMatch(/^markwright_conversions_cancelled_total\{service="gateway"\} [1-9]\d*$/m);
    expect(res.text).toMatch(/^markwright_conversions_deleted_total\{[^}]*reason="request"[^}]*\} [1-9]\d*$/m);
  });
});
