import crypto from 'node:crypto';
import { verifyWebhook } from '../src/webhooks';

const secret = 'a-webhook-secret-of-32-characters!';
const body =
  '{"id":"0192","status":"completed","created_at":"2026-11-22T14:43:44.123+00:00","markdown":"# Hi\\n","completed_at":"2026-11-22T14:43:45.000+00:00"}';
const good = crypto.createHmac('sha256', secret).update(body).digest('hex');

describe('verifyWebhook', () => {
  it('When the signature matches the raw body, then it verifies (string or Buffer)', () => {
    expect(verifyWebhook(body, good, secret)).toBe(true);
    expect(verifyWebhook(Buffer.from(body), good, secret)).toBe(true);
  });

  it('When one byte of the body changed, then it does not verify', () => {
    expect(verifyWebhook(body.replace('Hi', 'Ho'), good, secret)).toBe(false);
  });

  it('When the secret is wrong, the header missing, or not 64 hex digits, then it does not verify', () => {
    expect(verifyWebhook(body, good, `${secret}x`)).toBe(false);
    expect(verifyWebhook(body, undefined, secret)).toBe(false);
    expect(verifyWebhook(body, good.toUpperCase(), secret)).toBe(false);
    expect(verifyWebhook(body, good.slice(0, 63), secret)).toBe(false);
  });

  it('When a receiver re-serialises the parsed body, then the signature still verifies (compact JSON, contract key order)', () => {
    expect(verifyWebhook(JSON.stringify(JSON.parse(body)), good, secret)).toBe(true);
  });
});
