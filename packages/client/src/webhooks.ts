import crypto from 'node:crypto';

/**
 * For webhook receivers: true when `signatureHeader` (the X-Webhook-Signature header) is the
 * lowercase hex HMAC-SHA256 of the raw request body with your webhook secret. Compare with
 * the raw bytes as received, before any JSON parsing; the comparison is constant-time.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | undefined | null,
  secret: string,
): boolean {
  if (!signatureHeader || !/^[0-9a-f]{64}$/.test(signatureHeader)) return false;
  const expected = crypto.createHmac('sha256', secret).update(rawBody).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(signatureHeader, 'hex'));
}
