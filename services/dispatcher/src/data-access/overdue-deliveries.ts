import type { Db } from '@markwright/db';

const SWEEP_LIMIT = 100;

/**
 * Async conversions whose next webhook attempt is overdue: finished, not delivered, fewer than
 * 3 attempts, and the next attempt's due time (finish + grace, or last attempt + its retry delay
 * + grace) has passed. The database is the source of truth if a broker message was ever lost.
 */
export async function findOverdueDeliveries(
  db: Db,
  retryDelaysMs: number[],
  graceMs: number,
  maxAttempts: number,
): Promise<Array<{ conversionId: string; nextAttempt: number }>> {
  const rows = await db.$queryRaw<Array<{ id: string; completed_at: Date; attempts: number; last_at: Date | null }>>`
    SELECT c.id::text AS id, c.completed_at, count(a.id)::int AS attempts, max(a.attempted_at) AS last_at
    FROM conversions c LEFT JOIN webhook_attempts a ON a.conversion_id = c.id
    WHERE c.mode = 'async' AND c.webhook_url IS NOT NULL AND c.status IN ('completed', 'failed')
      AND c.completed_at < now() - make_interval(secs => ${graceMs / 1000})
    GROUP BY c.id, c.completed_at
    HAVING NOT bool_or(coalesce(a.succeeded, false)) AND count(a.id) < ${maxAttempts}
    ORDER BY c.completed_at
    LIMIT ${SWEEP_LIMIT}`;
  const now = Date.now();
  return rows
    .filter((r) => {
      if (r.attempts === 0) return true;
      const delay = retryDelaysMs[r.attempts - 1] ?? retryDelaysMs[retryDelaysMs.length - 1] ?? 60_000;
      return r.last_at !== null && r.last_at.getTime() + delay + graceMs < now;
    })
    .map((r) => ({ conversionId: r.id, nextAttempt: r.attempts + 1 }));
}
