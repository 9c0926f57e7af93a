import { type Db, preparedQuery, Prisma, uuidv7 } from '@markwright/db';
import type { ConvertRequest } from '../domain/convert-request';

export interface ChargedConversion {
  id: string;
  createdAt: Date;
  creditsRemaining: number;
}

/**
 * Stores the uploaded bytes on their own, before any charge: no transaction and no lock on the
 * workspace, so however long a 50 MB write takes, no other request of the workspace waits for it.
 */
export async function storeUpload(db: Db, conversionId: string, bytes: Buffer): Promise<void> {
  // A Buffer is a Uint8Array: passed as is, without a copy; createMany does not send the bytes back.
  await db.upload.createMany({ data: [{ conversionId, bytes: bytes as Uint8Array<ArrayBuffer> }] });
}

/** Removes an upload whose charge was refused or failed (it has no conversion row). */
export async function deleteUpload(db: Db, conversionId: string): Promise<void> {
  await db.upload.deleteMany({ where: { conversionId } });
}

/**
 * Uploads up to this size are written by the charge statement itself (one round trip and one
 * commit fewer); larger ones are stored first, on their own, so that writing up to 50 MB never
 * holds the workspace's row lock. 256 KB is written in well under a millisecond.
 */
export const UPLOAD_IN_CHARGE_MAX_BYTES = 256 * 1024;

/**
 * Charges the credits, creates the conversion and its charge row in ONE statement (one short
 * transaction, one round trip): the workspace's row lock is held for a few index writes only.
 * The conditional UPDATE cannot take the balance below zero, so concurrent requests can never
 * overdraw it; when it matches no row nothing else is inserted and the balance is returned.
 * `bytes` (a small upload, see UPLOAD_IN_CHARGE_MAX_BYTES) is stored by the same statement, so
 * a refused charge stores nothing; null when the upload was stored before.
 * The job is published right after, so the row starts as published once (the sweeper
 * republishes it if that publish is lost).
 *
 * A sync conversion's charge commits without waiting for the WAL flush: its caller is answered
 * only after the conversion is completed or failed by a synchronous commit, which flushes this
 * one with it (the WAL is flushed in order). A PostgreSQL crash before that loses the row, its
 * charge and its ledger row together, and the request, never answered, fails. An async
 * conversion's 202 promises the job, so its charge waits for the flush.
 */
export async function chargeAndCreateConversion(
  db: Db,
  workspaceId: string,
  conversionId: string,
  request: ConvertRequest,
  cost: number,
  bytes: Buffer | null,
): Promise<ChargedConversion | { insufficient: true; available: number }> {
  const createdAt = new Date();
  const rows = await preparedQuery<{ remaining: number | null; available: number }>(
    db,
    'mw_charge_and_create_conversion',
    `WITH charged AS (
       UPDATE workspaces SET credit_balance = credit_balance - $3::int
       WHERE id = $2::uuid AND credit_balance >= $3::int
       RETURNING credit_balance
     ), created AS (
       INSERT INTO conversions (id, workspace_id, status, original_filename, extension, file_size_bytes,
         use_enhanced_ai, include_metadata, optimize_tokens, mode, webhook_url, webhook_secret,
         credits_charged, created_at, last_published_at, publish_count)
       SELECT $1::uuid, $2::uuid, 'pending', $4::text, $5::text, $6::int, $7::boolean, $8::boolean,
         $9::boolean, $10::text, $11::text, $12::text, $3::int, $13::timestamptz, $13::timestamptz, 1
       FROM charged
       RETURNING id
     ), ledger AS (
       INSERT INTO credit_transactions (id, workspace_id, conversion_id, type, amount)
       SELECT $14::uuid, $2::uuid, id, 'charge', -$3::int FROM created
     ), stored AS (
       INSERT INTO uploads (conversion_id, bytes) SELECT id, $15::bytea FROM created WHERE $15::bytea IS NOT NULL
     )
     SELECT (SELECT credit_balance FROM charged) AS remaining,
            (SELECT credit_balance FROM workspaces WHERE id = $2::uuid) AS available,
            CASE WHEN $10::text = 'sync' THEN set_config('synchronous_commit', 'off', true) END AS "commitMode"`,
    [
      conversionId,
      workspaceId,
      cost,
      request.file.originalname,
      request.extension,
      request.file.size,
      request.useEnhancedAi,
      request.includeMetadata,
      request.optimizeTokens,
      request.webhookUrl ? 'async' : 'sync',
      request.webhookUrl ?? null,
      request.webhookSecret ?? null,
      createdAt,
      uuidv7(),
      bytes,
    ],
  );
  const row = rows[0]!;
  if (row.remaining === null) return { insufficient: true, available: row.available };
  return { id: conversionId, createdAt, creditsRemaining: row.remaining };
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
  webhookSeries: true,
  webhookAttempts: { select: { succeeded: true, series: true } },
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

/** Uploads without a conversion older than `olderThan`: a gateway stopped between storing and charging. */
export async function deleteOrphanUploads(db: Db, olderThan: Date): Promise<number> {
  return db.$executeRaw`
    DELETE FROM uploads u WHERE u.created_at < ${olderThan}
      AND NOT EXISTS (SELECT 1 FROM conversions c WHERE c.id = u.conversion_id)`;
}
