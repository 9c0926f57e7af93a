import type { Db } from './client';
import { Prisma } from './generated/prisma/client';
import { uuidv7 } from './ids';

/** The finished states; a finished conversion never changes again (decisions.md, lifecycle). */
export const FINISHED_STATUSES = ['completed', 'failed'] as const;

export interface CompletedResult {
  markdown: string;
  metadata: { title: string; author: string; page_count: number } | null;
  tokenOptimization: { original_tokens: number; optimized_tokens: number; reduction_percent: number } | null;
}

/** pending -> processing; keeps the first start time when a job is redelivered. Null when already finished or unknown. */
export async function markProcessing(db: Db, conversionId: string): Promise<{ id: string } | null> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE conversions SET status = 'processing', started_at = COALESCE(started_at, now())
    WHERE id = ${conversionId}::uuid AND status IN ('pending', 'processing')
    RETURNING id::text`;
  return rows[0] ?? null;
}

/** Stores the result and deletes the upload; false when the conversion had already finished (late result dropped). */
export async function completeConversion(db: Db, conversionId: string, result: CompletedResult): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const updated = await tx.conversion.updateMany({
      where: { id: conversionId, status: { in: ['pending', 'processing'] } },
      data: {
        status: 'completed',
        markdown: result.markdown,
        metadata: result.metadata ?? Prisma.DbNull,
        tokenOptimization: result.tokenOptimization ?? Prisma.DbNull,
        completedAt: new Date(),
      },
    });
    await tx.upload.deleteMany({ where: { conversionId } });
    return updated.count === 1;
  });
}

/**
 * Fails the conversion and refunds its credits exactly once: the refund row's unique
 * (conversion_id, type) key makes a second refund impossible whatever redeliveries happen.
 * False when it had already finished; otherwise the credits this call gave back.
 */
export async function failConversion(
  db: Db,
  conversionId: string,
  error: string,
): Promise<{ refunded: number } | false> {
  return db.$transaction(async (tx) => {
    const updated = await tx.conversion.updateMany({
      where: { id: conversionId, status: { in: ['pending', 'processing'] } },
      data: { status: 'failed', error, completedAt: new Date() },
    });
    await tx.upload.deleteMany({ where: { conversionId } });
    if (updated.count === 0) return false;
    const conversion = await tx.conversion.findUniqueOrThrow({ where: { id: conversionId } });
    const inserted = await tx.$executeRaw`
      INSERT INTO credit_transactions (id, workspace_id, conversion_id, type, amount)
      VALUES (${uuidv7()}::uuid, ${conversion.workspaceId}::uuid, ${conversionId}::uuid, 'refund', ${conversion.creditsCharged})
      ON CONFLICT (conversion_id, type) DO NOTHING`;
    if (inserted !== 1) return { refunded: 0 };
    await tx.workspace.update({
      where: { id: conversion.workspaceId },
      data: { creditBalance: { increment: conversion.creditsCharged } },
    });
    return { refunded: conversion.creditsCharged };
  });
}
