import { type Db, FINISHED_STATUSES, namedStatement } from '@markwright/db';

/** The status and mode of a workspace's conversion; null when it has none by that id. */
export async function findConversionState(
  db: Db,
  workspaceId: string,
  conversionId: string,
): Promise<{ status: string; mode: 'sync' | 'async' } | null> {
  const row = await db.conversion.findFirst({
    where: { id: conversionId, workspaceId },
    select: { status: true, mode: true },
  });
  return row && { status: row.status, mode: row.mode === 'async' ? 'async' : 'sync' };
}

const deleteOne = namedStatement<
  { conversionId: string; workspaceId: string; finished: readonly string[] },
  { status: string | null; deleted: number }
>(
  'mw_delete_finished_conversion',
  // Locks the row first, so a conversion finishing or cancelled meanwhile is judged on its final status.
  `WITH target AS (
     SELECT id, status FROM conversions WHERE id = :conversionId::uuid AND workspace_id = :workspaceId::uuid FOR UPDATE
   ), gone AS (
     DELETE FROM conversions c USING target t WHERE c.id = t.id AND t.status = ANY (:finished::text[]) RETURNING c.id
   ), upload_gone AS (
     DELETE FROM uploads WHERE conversion_id IN (SELECT id FROM gone)
   )
   SELECT (SELECT status FROM target) AS status, (SELECT count(*) FROM gone)::int AS deleted`,
  ['conversionId', 'workspaceId', 'finished'],
);

/**
 * Deletes a finished conversion of the workspace with everything of its document, in one
 * statement: the row (markdown, metadata and every result column), its upload, and by cascade
 * its webhook attempts and idempotency key. The ledger keeps its rows (they have no foreign key).
 */
export async function deleteFinishedConversion(
  db: Db,
  workspaceId: string,
  conversionId: string,
): Promise<'deleted' | 'not_found' | 'not_finished'> {
  const [row] = await deleteOne(db, { conversionId, workspaceId, finished: FINISHED_STATUSES });
  if (row!.status === null) return 'not_found';
  return row!.deleted === 1 ? 'deleted' : 'not_finished';
}

const deleteBatch = namedStatement<
  { finishedBefore: Date; limit: number; finished: readonly string[] },
  { deleted: number }
>(
  'mw_delete_expired_conversions',
  // SKIP LOCKED: several gateway replicas sweep side by side without waiting on each other.
  `WITH doomed AS (
     SELECT id FROM conversions
     WHERE completed_at < :finishedBefore::timestamptz AND status = ANY (:finished::text[])
     ORDER BY completed_at LIMIT :limit::int
     FOR UPDATE SKIP LOCKED
   ), gone AS (
     DELETE FROM conversions WHERE id IN (SELECT id FROM doomed) RETURNING id
   ), upload_gone AS (
     DELETE FROM uploads WHERE conversion_id IN (SELECT id FROM gone)
   )
   SELECT count(*)::int AS deleted FROM gone`,
  ['finishedBefore', 'limit', 'finished'],
);

/** Deletes up to `limit` conversions finished before `finishedBefore`, as deleteFinishedConversion does; returns how many. */
export async function deleteConversionsFinishedBefore(db: Db, finishedBefore: Date, limit: number): Promise<number> {
  const [row] = await deleteBatch(db, { finishedBefore, limit, finished: FINISHED_STATUSES });
  return row!.deleted;
}
