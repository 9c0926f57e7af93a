import {
  claimJob as claimJobRow,
  type ClaimedJob,
  completeConversion,
  type CompletedResult,
  type Db,
  failConversion,
  readUpload as readUploadRow,
  retryOnConnectionLoss,
  storableText,
  isFinishedStatus,
} from '@markwright/db';
import { FINISHED_EVENT_INLINE_MAX_CHARS, type ConversionFinished } from '@markwright/contracts';

/**
 * pending/processing → processing, returning the job's inputs in one statement, with the upload
 * when it is at most `inlineBytes`; null when already finished. Idempotent, so retried over a fresh connection.
 */
export async function claimJob(
  db: Db,
  conversionId: string,
  inlineBytes: number,
): Promise<(Omit<ClaimedJob, 'bytes'> & { bytes: Buffer | null }) | null> {
  const job = await retryOnConnectionLoss(() => claimJobRow(db, conversionId, inlineBytes));
  return job && { ...job, bytes: job.bytes && wrap(job.bytes) };
}

/** A claimed job's upload that did not come with the claim; null when it is gone. */
export async function readUpload(db: Db, conversionId: string): Promise<Buffer | null> {
  const bytes = await retryOnConnectionLoss(() => readUploadRow(db, conversionId));
  return bytes && wrap(bytes);
}

/** The bytes are wrapped, not copied. */
function wrap(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export async function conversionExtension(db: Db, conversionId: string): Promise<string | undefined> {
  const row = await retryOnConnectionLoss(() =>
    db.conversion.findUnique({ where: { id: conversionId }, select: { extension: true } }),
  );
  return row?.extension;
}

export async function conversionExists(db: Db, conversionId: string): Promise<boolean> {
  const row = await retryOnConnectionLoss(() =>
    db.conversion.findUnique({ where: { id: conversionId }, select: { id: true } }),
  );
  return row !== null;
}

/**
 * Stores the result (made storable by the lifecycle) and retries it over a fresh connection if
 * one drops. Returns the result as stored; null when the conversion had already finished.
 */
export async function storeResult(
  db: Db,
  conversionId: string,
  result: CompletedResult,
): Promise<CompletedResult | null> {
  return retryOnConnectionLoss(() => completeConversion(db, conversionId, result));
}

/** Fails the conversion and refunds once; retried over a fresh connection if one drops. */
export async function failAndRefund(
  db: Db,
  conversionId: string,
  message: string,
): Promise<{ refunded: number } | false> {
  return retryOnConnectionLoss(() => failConversion(db, conversionId, message));
}

/** What a "finished" announcement carries besides the conversion id. */
export type FinishedState = Omit<ConversionFinished, 'conversionId'>;

/**
 * The announcement of a conversion this converter has just finished, built from what it stored
 * (the same values `finishedState` would read back), so the happy path reads nothing.
 */
export function finishedFromStored(
  mode: ConversionFinished['mode'],
  outcome: { status: 'completed'; stored: CompletedResult } | { status: 'failed'; error: string },
): FinishedState {
  if (mode === 'async') return { status: outcome.status, mode };
  if (outcome.status === 'failed') {
    const result = { markdown: null, metadata: null, tokenOptimization: null, error: storableText(outcome.error) };
    return { status: 'failed', mode, result };
  }
  const { markdown, metadata, tokenOptimization, pages, chunks, document } = outcome.stored;
  // pages, chunks and document (E1–E4) are read from the row by the waiting request.
  if (pages || chunks || document) return { status: 'completed', mode };
  // Counted in code points, as PostgreSQL's length() counts them when a finished row is read back.
  if (!codePointsAtMost(markdown, FINISHED_EVENT_INLINE_MAX_CHARS)) return { status: 'completed', mode };
  return { status: 'completed', mode, result: { markdown, metadata, tokenOptimization, error: null } };
}

function codePointsAtMost(text: string, max: number): boolean {
  if (text.length <= max) return true;
  if (text.length > 2 * max) return false;
  let count = 0;
  for (const _ of text) if (++count > max) return false;
  return true;
}

interface FinishedRow {
  status: string;
  mode: string;
  /** A sync conversion's markdown cut to one code point past the inline limit (so a long one is never read whole); null otherwise. */
  markdownHead: string | null;
  metadata: CompletedResult['metadata'];
  tokenOptimization: CompletedResult['tokenOptimization'];
  error: string | null;
  /** pages, chunks or document (E1–E4) were stored: the waiting request reads them from the row. */
  structured: boolean;
}

/**
 * What a "finished" announcement carries; null while the conversion is not finished. Read back
 * from the row (a redelivered or dead job) and decided by `finishedFromStored`, as for a job just
 * stored: the SQL only reads, so finished and "small enough to ride along" are computed in one place.
 */
export async function finishedState(db: Db, conversionId: string): Promise<FinishedState | null> {
  const [row] = await retryOnConnectionLoss(
    () => db.$queryRaw<FinishedRow[]>`
      SELECT status, mode, error, metadata, token_optimization AS "tokenOptimization",
             CASE WHEN mode = 'sync' THEN left(markdown, ${FINISHED_EVENT_INLINE_MAX_CHARS + 1}) END AS "markdownHead",
             (pages IS NOT NULL OR chunks IS NOT NULL OR document IS NOT NULL) AS structured
      FROM conversions WHERE id = ${conversionId}::uuid`,
  );
  if (!row || !isFinishedStatus(row.status)) return null;
  const mode = row.mode === 'async' ? 'async' : 'sync';
  if (row.status === 'failed') return finishedFromStored(mode, { status: 'failed', error: row.error ?? '' });
  const stored: CompletedResult = {
    markdown: row.markdownHead ?? '',
    metadata: row.metadata,
    tokenOptimization: row.tokenOptimization,
    // Only their presence counts here (finishedFromStored leaves a structured result in the row).
    ...(row.structured ? { pages: [] } : {}),
  };
  return finishedFromStored(mode, { status: 'completed', stored });
}
