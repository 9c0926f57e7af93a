import {
  completeConversion,
  type CompletedResult,
  type Db,
  failConversion,
  markProcessing,
  retryOnConnectionLoss,
} from '@markwright/db';

/** What a job needs to convert; null when the conversion is already finished (or unknown). */
export interface ClaimedJob {
  extension: string;
  originalFilename: string;
  useEnhancedAi: boolean;
  optimizeTokens: boolean;
  bytes: Buffer | null;
}

/** pending/processing → processing, then the job's inputs. Survives a dropped connection (both steps are idempotent). */
export async function claimJob(db: Db, conversionId: string): Promise<ClaimedJob | null> {
  return retryOnConnectionLoss(async () => {
    if (!(await markProcessing(db, conversionId))) return null;
    const row = await db.conversion.findUniqueOrThrow({
      where: { id: conversionId },
      select: { extension: true, originalFilename: true, useEnhancedAi: true, optimizeTokens: true, upload: true },
    });
    const { upload, ...job } = row;
    return { ...job, bytes: upload ? Buffer.from(upload.bytes) : null };
  });
}

export async function conversionExists(db: Db, conversionId: string): Promise<boolean> {
  const row = await retryOnConnectionLoss(() =>
    db.conversion.findUnique({ where: { id: conversionId }, select: { id: true } }),
  );
  return row !== null;
}

/** Stores the result (made storable by the lifecycle) and retries it over a fresh connection if one drops. */
export async function storeResult(db: Db, conversionId: string, result: CompletedResult): Promise<void> {
  await retryOnConnectionLoss(() => completeConversion(db, conversionId, result));
}

/** Fails the conversion and refunds once; retried over a fresh connection if one drops. */
export async function failAndRefund(db: Db, conversionId: string, message: string): Promise<void> {
  await retryOnConnectionLoss(() => failConversion(db, conversionId, message));
}

/** The status and mode an announcement carries; null while the conversion is not finished. */
export async function finishedState(
  db: Db,
  conversionId: string,
): Promise<{ status: 'completed' | 'failed'; mode: 'sync' | 'async' } | null> {
  const row = await retryOnConnectionLoss(() =>
    db.conversion.findUnique({ where: { id: conversionId }, select: { status: true, mode: true } }),
  );
  if (row?.status !== 'completed' && row?.status !== 'failed') return null;
  return { status: row.status === 'completed' ? 'completed' : 'failed', mode: row.mode === 'async' ? 'async' : 'sync' };
}
