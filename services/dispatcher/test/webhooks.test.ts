import crypto from 'node:crypto';
import request from 'supertest';
import { eventually, silentLogger } from '@markwright/test-support';
import { bearer, startStack, type Stack } from '../../gateway/test/stack';
import { startDispatcher, type DispatcherService, USER_AGENT } from '../src/dispatcher-service';
import { makeCertificate, startReceiver } from './receiver';

const DELAYS = [1000, 1500];
const cert = makeCertificate();
let stack: Stack;
let dispatcher: DispatcherService | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let token: string;

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  stack = await startStack({
    env: {
      WEBHOOK_RETRY_DELAYS_MS: DELAYS.join(','),
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      PENDING_REPUBLISH_AFTER_MS: '500',
    },
  });
  dispatcher = await startDispatcher(stack.env.config, silentLogger);
  receiver = await startReceiver(cert);
  ({ token } = await stack.workspace('business', 1000));
}, 60_000);
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await stack?.stop();
  cert.cleanup();
});

const SECRET = 'a-webhook-secret-of-32-characters!';

async function convertAsync(
  path: string,
  opts: { secret?: string; name?: string; content?: string; metadata?: boolean } = {},
) {
  let req = request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token))
    .field('webhook_url', receiver.url(path));
  if (opts.secret) req = req.field('webhook_secret', opts.secret);
  if (opts.metadata) req = req.field('include_metadata', 'true');
  const res = await req.attach('file', Buffer.from(opts.content ?? '# Hi\n'), opts.name ?? 'hi.md');
  expect(res.status).toBe(202);
  return res.body.id as string;
}

const detail = async (id: string) =>
  (
    await request(stack.gateway.url)
      .get(`/conversions/${id}`)
      .set(...bearer(token))
  ).body;
const attemptsOf = (id: string) =>
  stack.gateway.db.webhookAttempt.findMany({ where: { conversionId: id }, orderBy: { number: 'asc' } });

describe('webhook delivery', () => {
  it('When a conversion completes, then the receiver gets the exact signed bytes once, with every header', async () => {
    receiver.script('/ok', [200]);
    const id = await convertAsync('/ok', { secret: SECRET, metadata: true });
    const [hit] = await eventually(async () => (receiver.for('/ok').length ? receiver.for('/ok') : undefined));
    const row = await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } });
    const expected = JSON.stringify({
      id,
      status: 'completed',
      created_at: row.createdAt.toISOString().replace('Z', '+00:00'),
      markdown: '# Hi\n',
      completed_at: row.completedAt!.toISOString().replace('Z', '+00:00'),
      metadata: { title: 'Hi', author: '', page_count: 1 },
    });
    expect(hit!.body).toBe(expected);
    expect(JSON.stringify(JSON.parse(hit!.body))).toBe(hit!.body);
    expect(hit!.headers['x-webhook-signature']).toBe(
      crypto.createHmac('sha256', SECRET).update(expected).digest('hex'),
    );
    expect(hit!.headers['content-type']).toBe('application/json');
    expect(hit!.headers['x-webhook-conversion-id']).toBe(id);
    expect(hit!.headers['user-agent']).toBe(USER_AGENT);
    expect(hit!.headers['x-webhook-attempt']).toBe('1');
    expect(Math.abs(Number(hit!.headers['x-webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    await eventually(async () => ((await detail(id)).webhook_delivered ? true : undefined));
    expect(await detail(id)).toMatchObject({ webhook_delivered: true, can_retry_webhook: false });
    await new Promise((r) => setTimeout(r, DELAYS[0]! + 500));
    expect(receiver.for('/ok')).toHaveLength(1);
    expect((await attemptsOf(id)).map((a) => [a.number, a.statusCode, a.succeeded])).toEqual([[1, 200, true]]);
  });

  it('When no secret was given, then there is no signature header', async () => {
    receiver.script('/nosig', [200]);
    await convertAsync('/nosig');
    const [hit] = await eventually(async () => (receiver.for('/nosig').length ? receiver.for('/nosig') : undefined));
    expect(hit!.headers).not.toHaveProperty('x-webhook-signature');
  });

  it('When the receiver always answers 500, then exactly 3 attempts are made with the configured spacing, then it is permanently failed', async () => {
    receiver.script('/fail', [500]);
    const id = await convertAsync('/fail');
    await eventually(
      async () => ((await attemptsOf(id)).filter((a) => a.error !== 'in progress').length === 3 ? true : undefined),
      20_000,
    );
    const hits = receiver.for('/fail');
    expect(hits.map((h) => h.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(DELAYS[0]! - 50);
    expect(hits[2]!.at - hits[1]!.at).toBeGreaterThanOrEqual(DELAYS[1]! - 50);
    await new Promise((r) => setTimeout(r, 2000));
    expect(receiver.for('/fail')).toHaveLength(3);
    expect(await detail(id)).toMatchObject({ webhook_delivered: false, can_retry_webhook: false });
    expect((await attemptsOf(id)).map((a) => [a.number, a.statusCode, a.error])).toEqual([
      [1, 500, 'receiver answered 500'],
      [2, 500, 'receiver answered 500'],
      [3, 500, 'receiver answered 500'],
    ]);
  });

  it('When the receiver answers 500, 500, then 200, then the third attempt delivers', async () => {
    receiver.script('/flaky', [500, 500, 200]);
    const id = await convertAsync('/flaky');
    await eventually(async () => ((await detail(id)).webhook_delivered ? true : undefined), 20_000);
    expect(receiver.for('/flaky')).toHaveLength(3);
    expect((await attemptsOf(id)).map((a) => a.succeeded)).toEqual([false, false, true]);
  });

  it('When the receiver hangs past the deadline, then the attempt fails as a timeout and is retried', async () => {
    receiver.script('/hang', ['hang', 200]);
    const id = await convertAsync('/hang');
    await eventually(async () => ((await detail(id)).webhook_delivered ? true : undefined), 20_000);
    const [first] = await attemptsOf(id);
    expect(first!.error).toBe('timed out after 1000 ms');
    expect(first!.statusCode).toBeNull();
  });

  it('When the receiver redirects (301), then it is a failure and the redirect is not followed', async () => {
    receiver.script('/moved', ['redirect', 200]);
    const id = await convertAsync('/moved');
    await eventually(async () => ((await detail(id)).webhook_delivered ? true : undefined), 20_000);
    expect(receiver.for('/elsewhere')).toHaveLength(0);
    const [first] = await attemptsOf(id);
    expect([first!.statusCode, first!.error, first!.succeeded]).toEqual([301, 'redirect (301) not followed', false]);
  });

  it('When the conversion fails, then the payload carries error instead of markdown', async () => {
    receiver.script('/failed', [200]);
    const id = await convertAsync('/failed', { name: 'bad.json', content: '{' });
    const [hit] = await eventually(async () => (receiver.for('/failed').length ? receiver.for('/failed') : undefined));
    const body = JSON.parse(hit!.body);
    expect(Object.keys(body)).toEqual(['id', 'status', 'created_at', 'error', 'completed_at']);
    expect(body).toMatchObject({ id, status: 'failed' });
    expect(body.error).toMatch(/not valid JSON/);
  });

  it('When a scheduled retry message is lost, then the sweeper finds the overdue attempt in the database and makes it', async () => {
    receiver.script('/lost', [500, 200]);
    const id = await convertAsync('/lost');
    await eventually(async () => ((await attemptsOf(id)).some((a) => a.statusCode === 500) ? true : undefined), 20_000);
    const amqplib = await import('amqplib');
    const conn = await amqplib.connect(stack.env.config.AMQP_URL);
    const ch = await conn.createChannel();
    await ch.purgeQueue(`${stack.env.prefix}.webhook.retry.${DELAYS[0]}ms`);
    await conn.close();
    await eventually(async () => ((await detail(id)).webhook_delivered ? true : undefined), 20_000);
    expect(receiver.for('/lost').map((h) => h.headers['x-webhook-attempt'])).toEqual(['1', '2']);
  });

  it('When the dispatcher is stopped while a retry is pending and started again, then the retry is still delivered', async () => {
    receiver.script('/restart', [500, 200]);
    const id = await convertAsync('/restart');
    await eventually(async () => ((await attemptsOf(id)).some((a) => a.statusCode === 500) ? true : undefined), 20_000);
    await dispatcher!.stop();
    dispatcher = undefined;
    await new Promise((r) => setTimeout(r, DELAYS[0]! + 300));
    dispatcher = await startDispatcher(stack.env.config, silentLogger);
    await eventually(async () => ((await detail(id)).webhook_delivered ? true : undefined), 20_000);
    expect(receiver.for('/restart').map((h) => h.headers['x-webhook-attempt'])).toEqual(['1', '2']);
  });
});
