import { createHash } from 'node:crypto';
import type { Db } from '@markwright/db';
import { IDEMPOTENT_REPLAYED_HEADER } from '@markwright/contracts';
import { AppError } from './app-error';
import { queuedAnswer, syncAnswer, type Answer } from './conversion-answers';
import type { UploadedFile } from './convert-request';
import { findIdempotencyRecord, type IdempotencyRecord } from '../data-access/idempotency-repository';

/** How long a key answers for its first request (E6). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Retry-After of a 409 while the first request (a sync conversion) is still running. */
export const IDEMPOTENCY_RETRY_AFTER_SECONDS = 1;
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;

/** An Idempotency-Key and the fingerprint of the request that carries it. */
export interface IdempotencyKey {
  key: string;
  /** SHA-256 over the file's bytes, its name and every form field. */
  fingerprint: string;
}

/** The key of a POST /convert, or null without the header; a malformed key is a 422 on Idempotency-Key. */
export function readIdempotencyKey(
  header: string | undefined,
  file: UploadedFile | undefined,
  fields: Record<string, unknown>,
): IdempotencyKey | null {
  if (header === undefined) return null;
  if (!KEY_FORMAT.test(header)) {
    throw AppError.validation({
      'Idempotency-Key': ['The Idempotency-Key header must be 1 to 255 printable ASCII characters.'],
    });
  }
  return { key: header, fingerprint: fingerprintRequest(file, fields) };
}

function fingerprintRequest(file: UploadedFile | undefined, fields: Record<string, unknown>): string {
  const fileHash = file ? createHash('sha256').update(file.buffer).digest('hex') : null;
  const sortedFields = Object.keys(fields)
    .sort()
    .map((name) => [name, fields[name]]);
  return createHash('sha256')
    .update(JSON.stringify([file?.originalname ?? null, fileHash, sortedFields]))
    .digest('hex');
}

/** Records created at or before this are past the window. */
export function idempotencyExpiredBefore(now = Date.now()): Date {
  return new Date(now - IDEMPOTENCY_WINDOW_MS);
}

/**
 * The first answer again when the workspace already used this key within 24 h: the same status
 * and body, rendered from the conversion, with Idempotent-Replayed: true. Null when the key is
 * new. The same key with another request is a 422; a sync first request still running, a 409.
 */
export async function replayIdempotent(db: Db, workspaceId: string, key: IdempotencyKey): Promise<Answer | null> {
  const record = await findIdempotencyRecord(db, workspaceId, key.key, idempotencyExpiredBefore());
  if (!record) return null;
  if (record.fingerprint !== key.fingerprint) throw AppError.idempotencyKeyReused();
  return { ...firstAnswer(record), replayed: true };
}

function firstAnswer(record: IdempotencyRecord): Answer {
  const { conversion } = record;
  const charge = { creditsUsed: record.creditsUsed, creditsRemaining: record.creditsRemaining };
  if (conversion.mode === 'async') return queuedAnswer(conversion.id, charge);
  if (conversion.status === 'completed') return syncAnswer(conversion, conversion, charge);
  if (conversion.status === 'failed') {
    const failed = AppError.conversionFailed(conversion.error ?? 'The conversion failed.');
    throw new AppError(failed.kind, failed.body, { [IDEMPOTENT_REPLAYED_HEADER]: 'true' });
  }
  throw AppError.idempotencyConflict(IDEMPOTENCY_RETRY_AFTER_SECONDS);
}
