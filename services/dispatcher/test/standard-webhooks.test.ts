import request from 'supertest';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { eventually, silentLogger } from '@markwright/test-support';
import { bearer, startStack, type Stack } from '../../gateway/test/stack';
import { startDispatcher, type DispatcherService } from '../src/dispatcher-service';
import { makeCertificate, startReceiver, type Received } from './receiver';

const DELAYS = [500, 500];
const SECRET = 'a-standard-webhooks-secret-of-32-chars';
const cert = makeCertificate();
let stack: Stack;
let dispatcher: DispatcherService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let token: string;

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  stack = await startStack({
    env: {
      WEBHOOK_RETRY_DELAYS_MS: DELAYS.join(','),
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    },
  });
  dispatcher = await startDispatcher(stack.env.config, silentLogger);
  receiver = await startReceiver(cert);
  ({ token } = await stack.workspace('business', 100));
}, 60_000);
afterAll(async () => {
  await dispatcher?.stop();
  await receiver.close();
  await stack.stop();
  cert.cleanup();
});

async function convertAsync(path: string, secret?: string): Promise<string> {
  let req = request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token))
    .field('webhook_url', receiver.url(path));
  if (secret) req = req.field('webhook_secret', secret);
  const res = await req.attach('file', Buffer.from('# Signed\n'), 'signed.md');
  expect(res.status).toBe(202);
  return res.body.id as string;
}

const hitsOf = (path: string, count: number) =>
  eventually(async () => (receiver.for(path).length >= count ? receiver.for(path) : undefined), 20_000);

/** A receiver's verification as the Standard Webhooks docs show it: the secret's bytes, base64. */
const verifier = () => new Webhook(Buffer.from(SECRET, 'utf8').toString('base64'));
const standardHeaders = (hit: Received) => ({
  'webhook-id': String(hit.headers['webhook-id']),
  'webhook-timestamp': String(hit.headers['webhook-timestamp']),
  'webhook-signature': String(hit.headers['webhook-signature']),
});

describe('Standard Webhooks signatures (E9)', () => {
  it('When a delivery is signed, then the standardwebhooks library verifies it and returns the payload', async () => {
    receiver.script('/std', [200]);
    const id = await convertAsync('/std', SECRET);
    const [hit] = await hitsOf('/std', 1);
    expect(hit!.headers['webhook-id']).toBe(id);
    expect(hit!.headers['webhook-timestamp']).toBe(hit!.headers['x-webhook-timestamp']);
    expect(String(hit!.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifier().verify(hit!.body, standardHeaders(hit!))).toMatchObject({ id, status: 'completed' });
  });

  it('When every attempt of one event is received, then they share one webhook-id and each verifies', async () => {
    receiver.script('/std-retry', [500, 500, 200]);
    const id = await convertAsync('/std-retry', SECRET);
    const hits = await hitsOf('/std-retry', 3);
    expect(hits.map((h) => h.headers['webhook-id'])).toEqual([id, id, id]);
    for (const hit of hits) expect(verifier().verify(hit.body, standardHeaders(hit))).toMatchObject({ id });
  });

  it('When a captured delivery is replayed after the tolerance window, then verification rejects its timestamp', async () => {
    receiver.script('/std-replay', [200]);
    await convertAsync('/std-replay', SECRET);
    const [hit] = await hitsOf('/std-replay', 1);
    const realNow = Date.now;
    Date.now = () => realNow() + 10 * 60 * 1000;
    try {
      expect(() => verifier().verify(hit!.body, standardHeaders(hit!))).toThrow(
        new WebhookVerificationError('Message timestamp too old'),
      );
    } finally {
      Date.now = realNow;
    }
  });

  it('When the body or the id is altered, then verification fails', async () => {
    receiver.script('/std-tamper', [200]);
    await convertAsync('/std-tamper', SECRET);
    const [hit] = await hitsOf('/std-tamper', 1);
    const headers = standardHeaders(hit!);
    expect(() => verifier().verify(hit!.body.replace('Signed', 'Forged'), headers)).toThrow(WebhookVerificationError);
    expect(() => verifier().verify(hit!.body, { ...headers, 'webhook-id': 'another-id' })).toThrow(
      WebhookVerificationError,
    );
  });

  it('When the conversion has no secret, then webhook-id and webhook-timestamp are sent without webhook-signature', async () => {
    receiver.script('/std-nosecret', [200]);
    const id = await convertAsync('/std-nosecret');
    const [hit] = await hitsOf('/std-nosecret', 1);
    expect(hit!.headers['webhook-id']).toBe(id);
    expect(Math.abs(Number(hit!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(hit!.headers).not.toHaveProperty('webhook-signature');
    expect(hit!.headers).not.toHaveProperty('x-webhook-signature');
  });
});
