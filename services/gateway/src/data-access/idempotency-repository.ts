import type { Db, Prisma } from '@markwright/db';

const recordSelect = {
  fingerprint: true,
  creditsUsed: true,
  creditsRemaining: true,
  conversion: {
    select: {
      id: true,
      status: true,
      mode: true,
      markdown: true,
      metadata: true,
      tokenOptimization: true,
      error: true,
      includeMetadata: true,
      optimizeTokens: true,
      includePages: true,
      chunkMaxTokens: true,
      includeDocument: true,
      pages: true,
      chunks: true,
      document: true,
    },
  },
} satisfies Prisma.IdempotencyKeySelect;

export type IdempotencyRecord = Prisma.IdempotencyKeyGetPayload<{ select: typeof recordSelect }>;

/** The workspace's live record of `key` (created after `createdAfter`) with its conversion; null when none. */
export async function findIdempotencyRecord(
  db: Db,
  workspaceId: string,
  key: string,
  createdAfter: Date,
): Promise<IdempotencyRecord | null> {
  return db.idempotencyKey.findFirst({
    where: { workspaceId, key, createdAt: { gt: createdAfter } },
    select: recordSelect,
  });
}

/** Deletes up to `limit` records created at or before `before` (past the 24 h window); returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Db, before: Date, limit: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_keys WHERE ctid IN (
      SELECT ctid FROM idempotency_keys WHERE created_at <= ${before} ORDER BY created_at LIMIT ${limit})`;
}
