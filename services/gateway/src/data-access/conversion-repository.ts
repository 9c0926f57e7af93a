import { type Db, Prisma, uuidv7 } from '@markwright/db';
import type { ConvertRequest } from '../domain/convert-request';

export interface ChargedConversion {
  id: string;
  createdAt: Date;
  creditsRemaining: number;
}

/**
 * Charges the credits and creates the conversion, its upload and the charge row in ONE
 * transaction. The conditional UPDATE cannot take the balance below zero, so concurrent
 * requests can never overdraw it. Returns the balance when it is too low instead.
 */
export async function chargeAndCreateConversion(
  db: Db,
  workspaceId: string,
  request: ConvertRequest,
  cost: number,
): Promise<ChargedConversion | { insufficient: true; available: number }> {
  return db.$transaction(async (tx) => {
    const charged = await tx.$queryRaw<{ credit_balance: number }[]>`
      UPDATE workspaces SET credit_balance = credit_balance - ${cost}
      WHERE id = ${workspaceId}::uuid AND credit_balance >= ${cost}
      RETURNING credit_balance`;
    if (charged.length === 0) {
      const ws = await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
      return { insufficient: true as const, available: ws.creditBalance };
    }
    const id = uuidv7();
    const createdAt = new Date();
    await tx.conversion.create({
      data: {
        id,
        workspaceId,
        status: 'pending',
        originalFilename: request.file.originalname,
        extension: request.extension,
        fileSizeBytes: request.file.size,
        useEnhancedAi: request.useEnhancedAi,
        includeMetadata: request.includeMetadata,
        optimizeTokens: request.optimizeTokens,
        mode: request.webhookUrl ? 'async' : 'sync',
        webhookUrl: request.webhookUrl,
        webhookSecret: request.webhookSecret,
        creditsCharged: cost,
        createdAt,
      },
    });
    await tx.upload.create({ data: { conversionId: id, bytes: new Uint8Array(request.file.buffer) } });
    await tx.creditTransaction.create({
      data: { id: uuidv7(), workspaceId, conversionId: id, type: 'charge', amount: -cost },
    });
    return { id, createdAt, creditsRemaining: charged[0]!.credit_balance };
  });
}

export async function markPublished(db: Db, conversionId: string): Promise<void> {
  await db.conversion.update({
    where: { id: conversionId },
    data: { lastPublishedAt: new Date(), publishCount: { increment: 1 } },
  });
}

const detailSelect = {
  id: true,
  workspaceId: true,
  status: true,
  originalFilename: true,
  createdAt: true,
  startedAt: true,
  completedAt: true,
  markdown: true,
  metadata: true,
  tokenOptimization: true,
  includeMetadata: true,
  error: true,
  webhookUrl: true,
  webhookAttempts: { select: { succeeded: true } },
} satisfies Prisma.ConversionSelect;

export type ConversionDetailRow = Prisma.ConversionGetPayload<{ select: typeof detailSelect }>;

export async function findConversionForWorkspace(
  db: Db,
  workspaceId: string,
  conversionId: string,
): Promise<ConversionDetailRow | null> {
  return db.conversion.findFirst({ where: { id: conversionId, workspaceId }, select: detailSelect });
}

export async function findConversion(db: Db, conversionId: string): Promise<ConversionDetailRow | null> {
  return db.conversion.findUnique({ where: { id: conversionId }, select: detailSelect });
}

const listSelect = {
  id: true,
  status: true,
  originalFilename: true,
  extension: true,
  fileSizeBytes: true,
  useEnhancedAi: true,
  createdAt: true,
  startedAt: true,
  completedAt: true,
} satisfies Prisma.ConversionSelect;

export type ConversionListRow = Prisma.ConversionGetPayload<{ select: typeof listSelect }>;

export async function listConversions(
  db: Db,
  workspaceId: string,
  filter: { status?: string; page: number; perPage: number },
): Promise<{ rows: ConversionListRow[]; total: number }> {
  const where = { workspaceId, ...(filter.status ? { status: filter.status } : {}) };
  const [rows, total] = await db.$transaction([
    db.conversion.findMany({
      where,
      select: listSelect,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (filter.page - 1) * filter.perPage,
      take: filter.perPage,
    }),
    db.conversion.count({ where }),
  ]);
  return { rows, total };
}

/** Pending conversions whose job was never published or not picked up in time (oldest first). */
export async function claimStalePending(db: Db, olderThan: Date, limit: number): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE conversions SET last_published_at = now(), publish_count = publish_count + 1
    WHERE id IN (
      SELECT id FROM conversions
      WHERE status = 'pending' AND (last_published_at IS NULL OR last_published_at < ${olderThan})
        AND created_at < ${olderThan}
      ORDER BY created_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id::text`;
  return rows.map((r) => r.id);
}
