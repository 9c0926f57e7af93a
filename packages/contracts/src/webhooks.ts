import crypto from 'node:crypto';

/** Attempts per webhook (decisions.md): the dispatcher stops after it, the gateway's can_retry_webhook reads it. */
export const WEBHOOK_MAX_ATTEMPTS = 3;

const SEALED_PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Parses WEBHOOK_SECRET_KEY: 32 bytes as 64 hex characters or base64. */
export function parseSecretKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('must be 32 bytes, as 64 hex characters or base64');
  return key;
}

/** Encrypts a webhook secret for storage: AES-256-GCM, a fresh IV each time, `v1:` + base64(iv | tag | ciphertext). */
export function sealWebhookSecret(secret: string, key: Buffer): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/**
 * Decrypts a stored webhook secret; throws when the key is wrong or the value was altered. A
 * value without the prefix was stored before secrets were sealed and is used as it is.
 */
export function openWebhookSecret(stored: string, key: Buffer): string {
  if (!stored.startsWith(SEALED_PREFIX)) return stored;
  const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
