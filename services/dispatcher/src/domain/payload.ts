import crypto from 'node:crypto';
import {
  type Chunk,
  type DocumentData,
  type DocumentMetadata,
  formatTimestamp,
  type Page,
  type WebhookPayload,
} from '@markwright/contracts';
import type { FinishedConversion } from '../data-access/attempt-repository';

/**
 * The webhook body, serialised once: keys in the contract's order (id, status, created_at,
 * markdown | error, completed_at, metadata), then pages, chunks and document when asked for
 * (E1–E4), compact, so JSON.stringify(JSON.parse(body)) === body.
 */
export function buildPayload(c: FinishedConversion): string {
  // A finished row always has both times (set by the statements that finish it).
  const head = { id: c.id, created_at: formatTimestamp(c.createdAt) };
  const completedAt = formatTimestamp(c.completedAt) as string;
  let body: WebhookPayload;
  if (c.status === 'completed') {
    // The row's JSON columns hold what the converter stored from these very types.
    body = {
      id: head.id,
      status: 'completed',
      created_at: head.created_at,
      markdown: c.markdown ?? '',
      completed_at: completedAt,
      ...(c.includeMetadata ? { metadata: c.metadata as DocumentMetadata } : {}),
      ...(c.includePages && Array.isArray(c.pages) ? { pages: c.pages as Page[] } : {}),
      ...(c.chunkMaxTokens != null && Array.isArray(c.chunks) ? { chunks: c.chunks as Chunk[] } : {}),
      ...(c.includeDocument && c.document ? { document: c.document as DocumentData } : {}),
    };
  } else {
    body = {
      id: head.id,
      status: 'failed',
      created_at: head.created_at,
      error: c.error ?? 'The conversion failed.',
      completed_at: completedAt,
    };
  }
  return JSON.stringify(body);
}

/** Lowercase hex HMAC-SHA256 of exactly the bytes sent. */
export function sign(body: string, secret: string): string {
  return crypto.createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Standard Webhooks' `webhook-signature` (E9): `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`,
 * keyed with the secret's UTF-8 bytes, so a receiver's library verifies it with those bytes in base64.
 */
export function signStandard(webhookId: string, timestamp: number, body: string, secret: string): string {
  const mac = crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${webhookId}.${timestamp}.${body}`);
  return `v1,${mac.digest('base64')}`;
}
