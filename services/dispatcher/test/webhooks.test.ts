import crypto from 'node:crypto';
import { eventually } from '@markwright/test-support';
import { USER_AGENT } from '../src/dispatcher-service';
import { useWebhookStack } from './webhook-stack';

const DELAYS = [1000, 1500];
const w = useWebhookStack({ delaysMs: DELAYS, timeoutMs: 1000, republishAfterMs: 500 });

const SECRET = 'a-webhook-secret-of-32-characters!';

const convertAsync = w.convertAsync.bind(w);
const detail = w.detail.bind(w);
const attemptsOf = (id: string) =>
  w.stack.gateway.db.webhookAttempt.findMany({ where: { conversionId: id }, orderBy: { number: 'asc' } });

describe('webhook delivery', () => {
  it('When a conversion completes, then the receiver gets the exact signed bytes once, with every header', async () => {
    w.receiver.script('/ok', [200]);
    const id = await convertAsync('/ok', { secret: SECRET, metadata: true });
    const [hit] = await eventually(async () => (w.receiver.for('/ok').length ? w.receiver.for('/ok') : undefined));
    const row = await w.stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } });
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
    expect(w.receiver.for('/ok')).toHaveLength(1);
    expect((await attemptsOf(id)).map((a) => [a.number, a.statusCode, a.succeeded])).toEqual([[1, 200, true]]);
  });

  it('When no secret was given, then there is no signature header', async () => {
    w.receiver.script('/nosig', [200]);
    await convertAsync('/nosig');
    const [hit] = await eventually(async () =>
      w.receiver.for('/nosig').length ? w.receiver.for('/nosig') : undefined,
    );
    expect(hit!.headers).not.toHaveProperty('x-webhook-signature');
  });

  it('When the receiver always answers 500, then exactly 3 attempts are made with the configured spacing, then it is permanently failed', async () => {
    w.receiver.script('/fail', [500]);
    const id = await convertAsync('/fail');
    await eventually(
      async () => ((await attemptsOf(id)).filter((a) => a.error !== 'in progress').length === 3 ? true : undefined),
      20_000,
    );
    const hits = w.receiver.for('/fail');
    expect(hits.map((h) => h.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(DELAYS[0]! - 50);
    expect(hits[2]!.at - hits[1]!.at).toBeGreaterThanOrEqual(DELAYS[1]! - 50);
    await new Promise((r) => setTimeout(r, 2000));
    expect(w.receiver.for('/fail')).toHaveLength(3);
    expect(await detail(id)).toMatchObject({ webhook_delivered: false, can_retry_webhook: false });
    expect((await attemptsOf(id)).map((a) => [a.number, a.statusCode, a.error])).toEqual([
      [1, 500, 'receiver answered 500'],
      [2, 500, 'receiver answered 500'],
      [3, 500, 'receiver answered 500'],
    ]);
  });

  it('When the receiver answers 500, 500, then 200, then the third attempt delivers', async () => {
    w.receiver.script('/flaky', [500, 500, 200]);
    const id = await convertAsync('/flaky');
    await eventually(async () => ((await detail(id)).webhook_delivered ? true : undefined), 20_000);
    expect(w.receiver.for('/flaky')).toHaveLength(3);
    expect((await attemptsOf(id)).map((a) => a.succeeded)).toEqual([false, false, true]);
  });

  it('When the receiver hangs past the deadline, then the attempt fails as a timeout and is retried', async () => {
    w.receiver.script('/hang', ['hang', 200]);
    const id = await convertAsync('/hang');
    await eventually(async () => ((await detail(id)).webhook_delivered ? true : undefined), 20_000);
    const [first] = await attemptsOf(id);
    expect(first!.error).toBe('timed out after 1000 ms');
    expect(first!.statusCode).toBeNull();
  });

  it('When the receiver redirects (301), then it is a failure and the redirect is not followed', async () => {
    w.receiver.script('/moved', ['redirect', 200]);
    const id = await convertAsync('/moved');
    await eventually(async () => ((await detail(id)).webhook_delivered ? true : undefined), 20_000);
    expect(w.receiver.for('/elsewhere')).toHaveLength(0);
    const [first] = await attemptsOf(id);
    expect([first!.statusCode, first!.error, first!.succeeded]).toEqual([301, 'redirect (301) not followed', false]);
  });

  it('When the conversion fails, then the payload carries error instead of markdown', async () => {
    w.receiver.script('/failed', [200]);
    const id = await convertAsync('/failed', { name: 'bad.json', content: '{' });
    const [hit] = await eventually(async () =>
      w.receiver.for('/failed').length ? w.receiver.for('/failed') : undefined,
    );
    const body = JSON.parse(hit!.body);
    expect(Object.keys(body)).toEqual(['id', 'status', 'created_at', 'error', 'completed_at']);
    expect(body).toMatchObject({ id, status: 'failed' });
    expect(body.error).toMatch(/not valid JSON/);
  });

  it('When a scheduled retry message is lost, then the sweeper finds the overdue attempt in the database and makes it', async () => {
    w.receiver.script('/lost', [500, 200]);
    const id = await convertAsync('/lost');
    await eventually(async () => ((await attemptsOf(id)).some((a) => a.statusCode === 500) ? true : undefined), 20_000);
    const amqplib = await import('amqplib');
    const conn = await amqplib.connect(w.stack.env.config.AMQP_URL);
    const ch = await conn.createChannel();
    await ch.purgeQueue(`${w.stack.env.prefix}.webhook.retry.${DELAYS[0]}ms`);
    await conn.close();
    await eventually(async () => ((await detail(id)).webhook_delivered ? true : undefined), 20_000);
    expect(w.receiver.for('/lost').map((h) => h.headers['x-webhook-attempt'])).toEqual(['1', '2']);
  });

  it('When the dispatcher is stopped while a retry is pending and started again, then the retry is still delivered', async () => {
    w.receiver.script('/restart', [500, 200]);
    const id = await convertAsync('/restart');
    await eventually(async () => ((await attemptsOf(id)).some((a) => a.statusCode === 500) ? true : undefined), 20_000);
    await w.stopDispatcher();
    await new Promise((r) => setTimeout(r, DELAYS[0]! + 300));
    await w.startDispatcher();
    await eventually(async () => ((await detail(id)).webhook_delivered ? true : undefined), 20_000);
    expect(w.receiver.for('/restart').map((h) => h.headers['x-webhook-attempt'])).toEqual(['1', '2']);
  });
});
