import { type Db, uuidv7 } from '@markwright/db';
import type { SendResult } from './sender';

const IN_PROGRESS = 'in progress';

/**
 * Claims attempt `number` for this process: the unique (conversion_id, number) key lets only one
 * replica send it. A claim left "in progress" longer than `staleAfterMs` (its sender died) may be retaken.
 */
export async function claimAttempt(
  db: Db,
  conversionId: string,
  number: number,
  staleAfterMs: number,
): Promise<string | null> {
  const id = uuidv7();
  const inserted = await db.$executeRaw`
    INSERT INTO webhook_attempts (id, conversion_id, number, attempted_at, status_code, error, duration_ms, succeeded)
    VALUES (${id}::uuid, ${conversionId}::uuid, ${number}, now(), NULL, ${IN_PROGRESS}, 0, false)
    ON CONFLICT (conversion_id, number) DO NOTHING`;
  if (inserted === 1) return id;
  const retaken = await db.$queryRaw<{ id: string }[]>`
    UPDATE webhook_attempts SET attempted_at = now()
    WHERE conversion_id = ${conversionId}::uuid AND number = ${number} AND error = ${IN_PROGRESS}
      AND attempted_at < now() - make_interval(secs => ${staleAfterMs / 1000})
    RETURNING id::text`;
  return retaken[0]?.id ?? null;
}

export async function recordAttempt(db: Db, attemptId: string, result: SendResult): Promise<void> {
  await db.webhookAttempt.update({
    where: { id: attemptId },
    data: {
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      succeeded: result.succeeded,
    },
  });
}

export async function deliveryState(db: Db, conversionId: string) {
  const attempts = await db.webhookAttempt.findMany({ where: { conversionId }, orderBy: { number: 'asc' } });
  return { delivered: attempts.some((a) => a.succeeded), attempts };
}
