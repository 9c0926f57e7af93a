import request from 'supertest';
import { eventually } from '@markwright/test-support';
import { uuidv7 } from '@markwright/db';
import { bearer } from '../../gateway/test/stack';
import { useWebhookStack } from './webhook-stack';

const w = useWebhookStack({ delaysMs: [1000, 1500], timeoutMs: 1000, republishAfterMs: 500, dispatcher: false });

describe('an attempt whose outcome was lost', () => {
  it('When the third attempt was sent but its outcome never recorded, then the sweeper sends it again and webhook_delivered becomes true', async () => {
    const { token } = await w.stack.workspace('business', 10);
    const res = await request(w.stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', w.receiver.url('/lost'))
      .attach('file', Buffer.from('# Lost\n'), 'lost.md');
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    const db = w.stack.gateway.db;
    await eventually(async () =>
      (await db.conversion.findUniqueOrThrow({ where: { id } })).status === 'completed' ? true : undefined,
    );
    // What a dispatcher leaves when PostgreSQL drops its connection after the receiver answered
    // attempt 3: two recorded failures and a third attempt still "in progress", long stale.
    const failed = { statusCode: 500, error: 'receiver answered 500', durationMs: 5, succeeded: false };
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await db.webhookAttempt.createMany({
      data: [
        { id: uuidv7(), conversionId: id, number: 1, attemptedAt: longAgo, ...failed },
        { id: uuidv7(), conversionId: id, number: 2, attemptedAt: longAgo, ...failed },
        {
          id: uuidv7(),
          conversionId: id,
          number: 3,
          attemptedAt: longAgo,
          statusCode: null,
          error: 'in progress',
          durationMs: 0,
          succeeded: false,
        },
      ],
    });
    await w.startDispatcher();
    const hits = await eventually(async () => (w.receiver.for('/lost').length ? w.receiver.for('/lost') : undefined));
    expect(hits.map((h) => h.headers['x-webhook-attempt'])).toEqual(['3']);
    const detail = await eventually(async () => {
      const body = (
        await request(w.stack.gateway.url)
          .get(`/conversions/${id}`)
          .set(...bearer(token))
      ).body;
      return body.webhook_delivered ? body : undefined;
    });
    expect({ webhook_delivered: detail.webhook_delivered, can_retry_webhook: detail.can_retry_webhook }).toEqual({
      webhook_delivered: true,
      can_retry_webhook: false,
    });
  });
});
