import crypto from 'node:crypto';
import { openWebhookSecret, parseSecretKey, sealWebhookSecret } from '../src/webhooks';

const key = crypto.randomBytes(32);
const SECRET = 'a-webhook-secret-of-32-characters!';

describe('webhook secrets at rest (AES-256-GCM)', () => {
  it('When a secret is sealed, then the stored text does not contain it and opens back to it', () => {
    const sealed = sealWebhookSecret(SECRET, key);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain(SECRET);
    expect(openWebhookSecret(sealed, key)).toBe(SECRET);
  });

  it('When the same secret is sealed twice, then the stored texts differ (fresh IV)', () => {
    expect(sealWebhookSecret(SECRET, key)).not.toBe(sealWebhookSecret(SECRET, key));
  });

  it('When the stored text was altered or the key is another, then opening it throws', () => {
    const sealed = sealWebhookSecret(SECRET, key);
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => openWebhookSecret(`v1:${raw.toString('base64')}`, key)).toThrow();
    expect(() => openWebhookSecret(sealed, crypto.randomBytes(32))).toThrow();
  });

  it('When WEBHOOK_SECRET_KEY is 64 hex characters or base64 of 32 bytes, then it parses; otherwise it throws', () => {
    expect(parseSecretKey('ab'.repeat(32))).toEqual(Buffer.alloc(32, 0xab));
    expect(parseSecretKey(key.toString('base64'))).toEqual(key);
    expect(() => parseSecretKey('short')).toThrow(/32 bytes/);
  });
});
