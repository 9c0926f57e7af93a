import { type Db, FINISHED_STATUSES } from '@markwright/db';
import { IN_PROGRESS } from './attempt-repository';

const SWEEP_LIMIT = 100;

export interface OverdueOptions {
  retryDelaysMs: number[];
  graceMs: number;
  maxAttempts: number;
  /** An attempt "in progress" for longer than this lost its outcome (sender died, record failed). */
  staleAfterMs: number;
}

/**
 * Async conversions whose next webhook attempt of the current series (E10) is overdue: finished,
 * not delivered in that series, and either
 * an attempt whose outcome was never recorded (stale "in progress": it is sent again under the
 * same number, so the receiver may see a duplicate but the row never stays falsely undelivered),
 * or fewer than 3 attempts and the next one's due time (finish or redelivery request + grace, or
 * last attempt + its retry delay + grace) has passed. The database is the source of truth if a broker message was lost.
 */
export async function findOverdueDeliveries(
  db: Db,
  options: OverdueOptions,
): Promise<Array<{ conversionId: string; series: number; nextAttempt: number }>> {
  const { retryDelaysMs, graceMs, maxAttempts, staleAfterMs } = options;
  const rows = await db.$queryRaw<
    Array<{
      id: string;
      series: number;
      attempts: number;
      last_at: Date | null;
      unknown_number: number | null;
      in_progress: boolean;
    }>
  >`
    SELECT c.id::text AS id, c.webhook_series AS series, count(a.id)::int AS attempts, max(a.attempted_at) AS last_at,
      min(a.number) FILTER (WHERE a.error = ${IN_PROGRESS}
        AND a.attempted_at < now() - make_interval(secs => ${staleAfterMs / 1000})) AS unknown_number,
      coalesce(bool_or(a.error = ${IN_PROGRESS}), false) AS in_progress
    FROM conversions c
      LEFT JOIN webhook_attempts a ON a.conversion_id = c.id AND a.series = c.webhook_series
    WHERE c.mode = 'async' AND c.webhook_url IS NOT NULL AND c.status = ANY (${[...FINISHED_STATUSES]}::text[])
      AND coalesce(c.webhook_series_started_at, c.completed_at) < now() - make_interval(secs => ${graceMs / 1000})
    GROUP BY c.id, c.completed_at, c.webhook_series
    HAVING NOT coalesce(bool_or(a.succeeded), false)
      AND (count(a.id) < ${maxAttempts} OR bool_or(a.error = ${IN_PROGRESS}))
    ORDER BY c.completed_at
    LIMIT ${SWEEP_LIMIT}`;
  const now = Date.now();
  const overdue: Array<{ conversionId: string; series: number; nextAttempt: number }> = [];
  for (const r of rows) {
    const due = (nextAttempt: number) => overdue.push({ conversionId: r.id, series: r.series, nextAttempt });
    if (r.unknown_number !== null) due(r.unknown_number);
    else if (r.in_progress) continue;
    else if (r.attempts === 0) due(1);
    else {
      const delay = retryDelaysMs[r.attempts - 1] ?? retryDelaysMs[retryDelaysMs.length - 1] ?? 60_000;
      if (r.last_at !== null && r.last_at.getTime() + delay + graceMs < now) {
        due(r.attempts + 1);
      }
    }
  }
  return overdue;
}
