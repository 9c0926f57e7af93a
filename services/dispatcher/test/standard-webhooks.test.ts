import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { eventually } from '@markwright/test-support';
import type { Received } from './receiver';
import { useWebhookStack } from './webhook-stack';

const DELAYS = [500, 500];
const SECRET = 'a-standard-webhooks-secret-of-32-chars';
const w = useWebhookStack({ delaysMs: DELAYS, timeoutMs: 2000, credits: 100 });

const convertAsync = (path: string, secret?: string) =>
  w.convertAsync(path, { secret, content: '# Signed\n', name: 'signed.md' });

const hitsOf = (path: string, count: number) =>
  eventually(async () => (w.receiver.for(path).length >= count ? w.receiver.for(path) : undefined), 20_000);

/** A receiver's verification as the Standard Webhooks docs show it: the secret's bytes, base64. */
const verifier = () => new Webhook(Buffer.from(SECRET, 'utf8').toString('base64'));
const standardHeaders = (hit: Received) => ({
  'webhook-id': String(hit.headers['webhook-id']),
  'webhook-timestamp': String(hit.headers['webhook-timestamp']),
  'webhook-signature': String(hit.headers['webhook-signature']),
});

describe('Standard Webhooks signatures (E9)', () => {
  it('When a delivery is signed, then the standardwebhooks library verifies it and returns the payload', async () => {
    w.receiver.script('/std', [200]);
    const id = await convertAsync('/std', SECRET);
    const [hit] = await hitsOf('/std', 1);
    expect(hit!.headers['webhook-id']).toBe(id);
    expect(hit!.headers['webhook-timestamp']).toBe(hit!.headers['x-webhook-timestamp']);
    expect(String(hit!.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifier().verify(hit!.body, standardHeaders(hit!))).toMatchObject({ id, status: 'completed' });
  });

  it('When every attempt of one event is received, then they share one webhook-id and each verifies', async () => {
    w.receiver.script('/std-retry', [500, 500, 200]);
    const id = await convertAsync('/std-retry', SECRET);
    const hits = await hitsOf('/std-retry', 3);
    expect(hits.map((h) => h.headers['webhook-id'])).toEqual([id, id, id]);
    for (const hit of hits) expect(verifier().verify(hit.body, standardHeaders(hit))).toMatchObject({ id });
  });

  it('When a captured delivery is replayed after the tolerance window, then verification rejects its timestamp', async () => {
    w.receiver.script('/std-replay', [200]);
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
    w.receiver.script('/std-tamper', [200]);
    await convertAsync('/std-tamper', SECRET);
    const [hit] = await hitsOf('/std-tamper', 1);
    const headers = standardHeaders(hit!);
    expect(() => verifier().verify(hit!.body.replace('Signed', 'Forged'), headers)).toThrow(WebhookVerificationError);
    expect(() => verifier().verify(hit!.body, { ...headers, 'webhook-id': 'another-id' })).toThrow(
      WebhookVerificationError,
    );
  });

  it('When the conversion has no secret, then webhook-id and webhook-timestamp are sent without webhook-signature', async () => {
    w.receiver.script('/std-nosecret', [200]);
    const id = await convertAsync('/std-nosecret');
    const [hit] = await hitsOf('/std-nosecret', 1);
    expect(hit!.headers['webhook-id']).toBe(id);
    expect(Math.abs(Number(hit!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(hit!.headers).not.toHaveProperty('webhook-signature');
    expect(hit!.headers).not.toHaveProperty('x-webhook-signature');
  });
});
