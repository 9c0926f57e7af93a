import {
  claimJob as claimJobRow,
  type ClaimedJob,
  completeConversion,
  type CompletedResult,
  type Db,
  failConversion,
  retryOnConnectionLoss,
} from '@markwright/db';
import { FINISHED_EVENT_INLINE_MAX_CHARS, type ConversionFinished } from '@markwright/contracts';

/** pending/processing → processing, returning the job's inputs in one statement; null when already finished. Idempotent, so retried over a fresh connection. */
export async function claimJob(
  db: Db,
  conversionId: string,
): Promise<(Omit<ClaimedJob, 'bytes'> & { bytes: Buffer | null }) | null> {
  const job = await retryOnConnectionLoss(() => claimJobRow(db, conversionId));
  // The bytes are wrapped, not copied.
  return (
    job && {
      ...job,
      bytes: job.bytes ? Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength) : null,
    }
  );
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

/** Stores the result (made storable by the lifecycle) and retries it over a fresh connection if one drops. */
export async function storeResult(db: Db, conversionId: string, result: CompletedResult): Promise<boolean> {
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

interface FinishedRow {
  status: string;
  mode: string;
  markdown: string | null;
  metadata: unknown;
  tokenOptimization: unknown;
  error: string | null;
  inline: boolean;
}

/**
 * What a "finished" announcement carries; null while the conversion is not finished. A sync
 * conversion's result rides along when its markdown is small, so the waiting request need not read the row.
 */
export async function finishedState(
  db: Db,
  conversionId: string,
): Promise<Omit<ConversionFinished, 'conversionId'> | null> {
  const [row] = await retryOnConnectionLoss(
    () => db.$queryRaw<FinishedRow[]>`
      SELECT status, mode, error, metadata, token_optimization AS "tokenOptimization",
             length(markdown) <= ${FINISHED_EVENT_INLINE_MAX_CHARS} OR markdown IS NULL AS inline,
             CASE WHEN mode = 'sync' AND length(markdown) <= ${FINISHED_EVENT_INLINE_MAX_CHARS} THEN markdown END AS markdown
      FROM conversions WHERE id = ${conversionId}::uuid`,
  );
  if (!row || (row.status !== 'completed' && row.status !== 'failed')) return null;
  const mode = row.mode === 'async' ? 'async' : 'sync';
  const result =
    mode === 'sync' && row.inline
      ? { markdown: row.markdown, metadata: row.metadata, tokenOptimization: row.tokenOptimization, error: row.error }
      : undefined;
  return { status: row.status, mode, result };
}
