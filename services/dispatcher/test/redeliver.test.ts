import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { eventually, scrapeMetrics } from '@markwright/test-support';
import { bearer } from '../../gateway/test/stack';
import { useWebhookStack } from './webhook-stack';

const DELAYS = [400, 600];
const SECRET = 'a-redelivery-secret-of-32-characters';
const w = useWebhookStack({ delaysMs: DELAYS, timeoutMs: 2000, republishAfterMs: 500 });

const api = () => request(w.stack.gateway.url);
const redeliver = (id: string, as = w.token) =>
  api()
    .post(`/conversions/${id}/webhook/redeliver`)
    .set(...bearer(as));
const detail = w.detail.bind(w);
const seriesOf = async (id: string) =>
  (
    await w.stack.gateway.db.webhookAttempt.findMany({
      where: { conversionId: id },
      orderBy: [{ series: 'asc' }, { number: 'asc' }],
    })
  )
    .filter((a) => a.error !== 'in progress')
    .map((a) => [a.series, a.number, a.statusCode]);

const convertAsync = (path: string) => w.convertAsync(path, { secret: SECRET, content: '# Again\n', name: 'again.md' });

/** Waits until the first series has given up after 3 failed attempts. */
async function firstSeriesGivenUp(id: string): Promise<void> {
  await eventually(async () => ((await seriesOf(id)).length === 3 ? true : undefined), 20_000);
  expect(await detail(id)).toMatchObject({ webhook_delivered: false, can_retry_webhook: false });
}

const delivered = (id: string) =>
  eventually(async () => ((await detail(id)).webhook_delivered === true ? true : undefined), 20_000);

describe('Redeliver: POST /conversions/{id}/webhook/redeliver (E10)', () => {
  it('When a conversion gave up after 3 attempts and the receiver is back, then redeliver answers 202 and a new series delivers the same event', async () => {
    w.receiver.script('/back', [500, 500, 500, 200]);
    const id = await convertAsync('/back');
    await firstSeriesGivenUp(id);

    const res = await redeliver(id);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id,
      message: 'The webhook is being sent again: up to 3 attempts; webhook_delivered shows the outcome.',
      status_url: `/api/v1/conversions/${id}`,
    });
    await delivered(id);
    expect(await detail(id)).toMatchObject({ webhook_delivered: true, can_retry_webhook: false });

    const hits = w.receiver.for('/back');
    expect(hits).toHaveLength(4);
    expect(hits.map((h) => h.headers['webhook-id'])).toEqual([id, id, id, id]);
    expect(hits[3]!.headers['x-webhook-attempt']).toBe('1');
    expect(hits[3]!.body).toBe(hits[0]!.body);
    const wh = new Webhook(Buffer.from(SECRET, 'utf8').toString('base64'));
    expect(wh.verify(hits[3]!.body, hits[3]!.headers as Record<string, string>)).toMatchObject({ id });
    expect(await seriesOf(id)).toEqual([
      [1, 1, 500],
      [1, 2, 500],
      [1, 3, 500],
      [2, 1, 200],
    ]);
  });

  it('When the redelivered series fails too, then it makes up to 3 attempts with the configured delays and webhook_delivered stays false', async () => {
    w.receiver.script('/down', [500]);
    const id = await convertAsync('/down');
    await firstSeriesGivenUp(id);

    expect((await redeliver(id)).status).toBe(202);
    expect(await detail(id)).toMatchObject({ webhook_delivered: false, can_retry_webhook: true });
    await eventually(async () => ((await seriesOf(id)).length === 6 ? true : undefined), 20_000);
    const hits = w.receiver.for('/down').slice(3);
    expect(hits.map((h) => h.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(DELAYS[0]! - 50);
    expect(hits[2]!.at - hits[1]!.at).toBeGreaterThanOrEqual(DELAYS[1]! - 50);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(w.receiver.for('/down')).toHaveLength(6);
    expect(await detail(id)).toMatchObject({ webhook_delivered: false, can_retry_webhook: false });
  });

  it('When a delivered webhook is redelivered, then the receiver gets it once more and webhook_delivered reflects the new series', async () => {
    w.receiver.script('/twice', [200]);
    const id = await convertAsync('/twice');
    await delivered(id);
    expect((await redeliver(id)).status).toBe(202);
    await eventually(async () => (w.receiver.for('/twice').length === 2 ? true : undefined), 20_000);
    await delivered(id);
    expect(await seriesOf(id)).toEqual([
      [1, 1, 200],
      [2, 1, 200],
    ]);
  });

  it('When the dispatcher is stopped after redeliver and a new one starts, then the redelivery still happens', async () => {
    w.receiver.script('/restart', [500, 500, 500, 200]);
    const id = await convertAsync('/restart');
    await firstSeriesGivenUp(id);
    await w.stopDispatcher();

    expect((await redeliver(id)).status).toBe(202);
    await new Promise((r) => setTimeout(r, 300));
    expect(w.receiver.for('/restart')).toHaveLength(3);
    await w.startDispatcher();
    await delivered(id);
    expect(w.receiver.for('/restart')).toHaveLength(4);
  });

  it('When the redelivery message is lost while no dispatcher runs, then the sweeper makes the attempt from the recorded series', async () => {
    w.receiver.script('/lost', [500, 500, 500, 200]);
    const id = await convertAsync('/lost');
    await firstSeriesGivenUp(id);
    await w.stopDispatcher();

    expect((await redeliver(id)).status).toBe(202);
    const amqplib = await import('amqplib');
    const conn = await amqplib.connect(w.stack.env.config.AMQP_URL);
    const ch = await conn.createChannel();
    const purged = await ch.purgeQueue(`${w.stack.env.prefix}.webhook.attempts`);
    await conn.close();
    expect(purged.messageCount).toBe(1);

    await w.startDispatcher();
    await delivered(id);
    expect(w.receiver.for('/lost').map((h) => h.headers['webhook-id'])).toEqual([id, id, id, id]);
  });

  it('When a redelivery is requested while the first series still has a retry pending, then the old series stops and the new one delivers', async () => {
    w.receiver.script('/superseded', [500, 200]);
    const id = await convertAsync('/superseded');
    await eventually(async () => ((await seriesOf(id)).length === 1 ? true : undefined), 20_000);
    expect((await redeliver(id)).status).toBe(202);
    await delivered(id);
    await new Promise((r) => setTimeout(r, DELAYS[0]! + 800));
    expect(await seriesOf(id)).toEqual([
      [1, 1, 500],
      [2, 1, 200],
    ]);
  });

  it('When the conversion has no webhook (sync), then it answers 409 no_webhook', async () => {
    const sync = await api()
      .post('/convert')
      .set(...bearer(w.token))
      .attach('file', Buffer.from('# Sync\n'), 'sync.md');
    expect(sync.status).toBe(200);
    const [row] = await w.stack.gateway.db.conversion.findMany({ where: { mode: 'sync' }, take: 1 });
    const res = await redeliver(row!.id);
    expect([res.status, res.body]).toEqual([
      409,
      {
        error: 'no_webhook',
        message: 'The conversion was not started with a webhook_url, so there is no webhook to send.',
      },
    ]);
  });

  it('When the conversion has not finished, then it answers 409 not_finished', async () => {
    await w.stack.stopConverter();
    try {
      const id = await convertAsync('/later');
      const res = await redeliver(id);
      expect([res.status, res.body]).toEqual([
        409,
        { error: 'not_finished', message: 'The conversion has not finished yet; its webhook is sent when it does.' },
      ]);
      expect((await w.stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } })).webhookSeries).toBe(1);
    } finally {
      await w.stack.startConverter();
    }
  });

  it('When the id is unknown, malformed or of another workspace, then it answers 404 not_found', async () => {
    w.receiver.script('/mine', [200]);
    const id = await convertAsync('/mine');
    await delivered(id);
    const other = await w.stack.workspace('business', 10);
    const notFound = { error: 'not_found', message: 'Conversion not found.' };
    for (const res of [
      await redeliver('0190a3e4-0000-7000-8000-000000000000'),
      await redeliver('not-a-uuid'),
      await redeliver(id, other.token),
    ]) {
      expect([res.status, res.body]).toEqual([404, notFound]);
    }
  });

  it('When redeliveries are accepted, then the gateway counts them', async () => {
    const scrape = await scrapeMetrics(`${w.stack.gateway.url.replace('/api/v1', '')}/metrics`);
    expect(scrape.value('markwright_webhook_redeliveries_total')).toBe(6);
  });
});
