import crypto from 'node:crypto';
import { formatTimestamp } from '@markwright/contracts';

export interface FinishedConversion {
  id: string;
  status: string;
  createdAt: Date;
  completedAt: Date | null;
  markdown: string | null;
  metadata: unknown;
  includeMetadata: boolean;
  error: string | null;
  /** E1, E3, E4: what was asked for, and what the conversion stored. */
  includePages?: boolean;
  chunkMaxTokens?: number | null;
  includeDocument?: boolean;
  pages?: unknown;
  chunks?: unknown;
  document?: unknown;
}

/**
 * The webhook body, serialised once: keys in the contract's order (id, status, created_at,
 * markdown | error, completed_at, metadata), then pages, chunks and document when asked for
 * (E1–E4), compact, so JSON.stringify(JSON.parse(body)) === body.
 */
export function buildPayload(c: FinishedConversion): string {
  const body: Record<string, unknown> = { id: c.id, status: c.status, created_at: formatTimestamp(c.createdAt) };
  if (c.status === 'completed') {
    body.markdown = c.markdown ?? '';
    body.completed_at = formatTimestamp(c.completedAt);
    if (c.includeMetadata) body.metadata = c.metadata;
    if (c.includePages && Array.isArray(c.pages)) body.pages = c.pages;
    if (c.chunkMaxTokens != null && Array.isArray(c.chunks)) body.chunks = c.chunks;
    if (c.includeDocument && c.document) body.document = c.document;
  } else {
    body.error = c.error ?? 'The conversion failed.';
    body.completed_at = formatTimestamp(c.completedAt);
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
