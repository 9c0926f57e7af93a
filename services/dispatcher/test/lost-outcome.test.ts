import request from 'supertest';
import { eventually, silentLogger } from '@markwright/test-support';
import { uuidv7 } from '@markwright/db';
import { bearer, startStack, type Stack } from '../../gateway/test/stack';
import { startDispatcher, type DispatcherService } from '../src/dispatcher-service';
import { makeCertificate, startReceiver } from './receiver';

const cert = makeCertificate();
let stack: Stack;
let dispatcher: DispatcherService | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  stack = await startStack({
    env: {
      WEBHOOK_RETRY_DELAYS_MS: '1000,1500',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      PENDING_REPUBLISH_AFTER_MS: '500',
    },
  });
  receiver = await startReceiver(cert);
}, 60_000);
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await stack?.stop();
  cert.cleanup();
});

describe('an attempt whose outcome was lost', () => {
  it('When the third attempt was sent but its outcome never recorded, then the sweeper sends it again and webhook_delivered becomes true', async () => {
    const { token } = await stack.workspace('business', 10);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', receiver.url('/lost'))
      .attach('file', Buffer.from('# Lost\n'), 'lost.md');
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    const db = stack.gateway.db;
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
    dispatcher = await startDispatcher(stack.env.config, silentLogger);
    const hits = await eventually(async () => (receiver.for('/lost').length ? receiver.for('/lost') : undefined));
    expect(hits.map((h) => h.headers['x-webhook-attempt'])).toEqual(['3']);
    const detail = await eventually(async () => {
      const body = (
        await request(stack.gateway.url)
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
