import { type Db, isConnectionLoss, namedStatement, Prisma, StatementBatch, uuidv7 } from '@markwright/db';

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
  await insertUpload(db, { conversionId, bytes });
}

/**
 * A prepared statement, the bytes sent as a binary parameter: through Prisma (`createMany`) the
 * 825 KB PDF of the split benchmark cost 22 ms of the gateway's CPU (its query plan keys every
 * parameter by its base64 text) against 8.5 ms, inside the request POST /convert answers after.
 */
const insertUpload = namedStatement<{ conversionId: string; bytes: Buffer }, never>(
  'mw_store_upload',
  'INSERT INTO uploads (conversion_id, bytes) VALUES (:conversionId::uuid, :bytes::bytea)',
  ['conversionId', 'bytes'],
);

/**
 * Stores the upload of a conversion created without it (its job was to carry it, but the publish
 * failed), unless the conversion has finished meanwhile: then nothing will read it.
 */
export async function storeUploadWhilePending(db: Db, conversionId: string, bytes: Buffer): Promise<void> {
  await db.$executeRaw`
    INSERT INTO uploads (conversion_id, bytes)
    SELECT id, ${bytes as Uint8Array<ArrayBuffer>}::bytea FROM conversions
    WHERE id = ${conversionId}::uuid AND status IN ('pending', 'processing')
    ON CONFLICT DO NOTHING`;
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

/** A conversion to charge for and create: its row's inputs, its cost, and a small upload to store with it. */
export interface NewConversion {
  id: string;
  workspaceId: string;
  cost: number;
  originalFilename: string;
  extension: string;
  fileSizeBytes: number;
  useEnhancedAi: boolean;
  includeMetadata: boolean;
  optimizeTokens: boolean;
  /** E1–E4 as asked for; the converter reads them from the row. */
  includePages: boolean;
  pageRange: string | null;
  chunkMaxTokens: number | null;
  includeDocument: boolean;
  mode: 'sync' | 'async';
  webhookUrl: string | null;
  /** Sealed (encrypted) already. */
  webhookSecret: string | null;
  /** A small upload (see UPLOAD_IN_CHARGE_MAX_BYTES); null when it was stored before. */
  bytes: Buffer | null;
}

interface ChargeParams extends NewConversion, Record<string, unknown> {
  createdAt: Date;
  chargeId: string;
  idempotencyKey: string | null;
  fingerprint: string | null;
  keyExpiredBefore: Date;
}

const chargeStatement = namedStatement<
  ChargeParams,
  { remaining: number | null; available: number; keyTaken: boolean; commitMode: string | null }
>(
  'mw_charge_and_create_conversion',
  `WITH locked AS (
     SELECT credit_balance FROM workspaces WHERE id = :workspaceId::uuid FOR UPDATE
   ), keyed AS (
     INSERT INTO idempotency_keys (workspace_id, key, fingerprint, conversion_id, credits_used, credits_remaining, created_at)
     SELECT :workspaceId::uuid, :idempotencyKey::text, :fingerprint::text, :id::uuid, :cost::int,
       credit_balance - :cost::int, :createdAt::timestamptz
     FROM locked WHERE :idempotencyKey::text IS NOT NULL AND credit_balance >= :cost::int
     ON CONFLICT (workspace_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
       conversion_id = EXCLUDED.conversion_id, credits_used = EXCLUDED.credits_used,
       credits_remaining = EXCLUDED.credits_remaining, created_at = EXCLUDED.created_at
     WHERE idempotency_keys.created_at <= :keyExpiredBefore::timestamptz
     RETURNING 1
   ), charged AS (
     UPDATE workspaces SET credit_balance = credit_balance - :cost::int
     WHERE id = :workspaceId::uuid AND credit_balance >= :cost::int
       AND (:idempotencyKey::text IS NULL OR EXISTS (SELECT 1 FROM keyed))
     RETURNING credit_balance
   ), created AS (
     INSERT INTO conversions (id, workspace_id, status, original_filename, extension, file_size_bytes,
       use_enhanced_ai, include_metadata, optimize_tokens, mode, webhook_url, webhook_secret,
       credits_charged, created_at, last_published_at, publish_count,
       include_pages, page_range, chunk_max_tokens, include_document)
     SELECT :id::uuid, :workspaceId::uuid, 'pending', :originalFilename::text, :extension::text, :fileSizeBytes::int,
       :useEnhancedAi::boolean, :includeMetadata::boolean, :optimizeTokens::boolean, :mode::text, :webhookUrl::text,
       :webhookSecret::text, :cost::int, :createdAt::timestamptz, :createdAt::timestamptz, 1,
       :includePages::boolean, :pageRange::text, :chunkMaxTokens::int, :includeDocument::boolean
     FROM charged
     RETURNING id
   ), ledger AS (
     INSERT INTO credit_transactions (id, workspace_id, conversion_id, type, amount)
     SELECT :chargeId::uuid, :workspaceId::uuid, id, 'charge', -:cost::int FROM created
   ), stored AS (
     INSERT INTO uploads (conversion_id, bytes) SELECT id, :bytes::bytea FROM created WHERE :bytes::bytea IS NOT NULL
   )
   SELECT (SELECT credit_balance FROM charged) AS remaining,
          (SELECT credit_balance FROM locked) AS available,
          (:idempotencyKey::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM keyed)
            AND (SELECT credit_balance FROM locked) >= :cost::int) AS "keyTaken",
          CASE WHEN :mode::text = 'sync' THEN set_config('synchronous_commit', 'off', true) END AS "commitMode"`,
  [
    'id',
    'workspaceId',
    'cost',
    'originalFilename',
    'extension',
    'fileSizeBytes',
    'useEnhancedAi',
    'includeMetadata',
    'optimizeTokens',
    'includePages',
    'pageRange',
    'chunkMaxTokens',
    'includeDocument',
    'mode',
    'webhookUrl',
    'webhookSecret',
    'createdAt',
    'chargeId',
    'bytes',
    'idempotencyKey',
    'fingerprint',
    'keyExpiredBefore',
  ],
);

/** An Idempotency-Key to record with the charge (E6): the key and the request's fingerprint. */
export interface IdempotencyClaim {
  key: string;
  fingerprint: string;
  /** A record created at or before this is expired and is taken over. */
  expiredBefore: Date;
}

/**
 * Charges the credits, creates the conversion and its charge row in ONE statement (one short
 * transaction, one round trip): the workspace's row lock is held for a few index writes only.
 * The balance is read under that lock, so concurrent requests can never overdraw it; when it is
 * short nothing is inserted and the balance is returned.
 * With an Idempotency-Key, the key's row is inserted by the same statement and gates the
 * charge: of 20 identical requests racing, the first commits its key and its charge together and
 * the others, serialised on the workspace's row lock, find the key taken and charge nothing.
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
 *
 * Without an Idempotency-Key, charges of other workspaces made while one is running share the
 * next statement and its commit (CHARGE_BATCH_SQL below), under the same rules.
 */
export async function chargeAndCreateConversion(
  db: Db,
  conversion: NewConversion,
  idempotency: IdempotencyClaim | null = null,
): Promise<ChargedConversion | { insufficient: true; available: number } | { keyTaken: true }> {
  if (idempotency) return chargeOne(db, conversion, idempotency);
  let batch = chargeBatches.get(db);
  if (!batch) chargeBatches.set(db, (batch = chargeBatch(db)));
  return batch.call(conversion);
}

type ChargeOutcome = ChargedConversion | { insufficient: true; available: number } | { keyTaken: true };

async function chargeOne(
  db: Db,
  conversion: NewConversion,
  idempotency: IdempotencyClaim | null,
): Promise<ChargeOutcome> {
  const createdAt = new Date();
  const [row] = await chargeStatement(db, {
    ...conversion,
    createdAt,
    chargeId: uuidv7(),
    idempotencyKey: idempotency?.key ?? null,
    fingerprint: idempotency?.fingerprint ?? null,
    keyExpiredBefore: idempotency?.expiredBefore ?? createdAt,
  });
  if (row!.keyTaken) return { keyTaken: true };
  if (row!.remaining === null) return { insufficient: true, available: row!.available };
  return { id: conversion.id, createdAt, creditsRemaining: row!.remaining };
}

/**
 * Uploads up to this size may go with other requests' charges in one statement (sent as text
 * there, twice their size); larger ones, up to UPLOAD_IN_CHARGE_MAX_BYTES, go in a charge statement
 * of their own.
 */
export const UPLOAD_IN_BATCH_MAX_BYTES = 16 * 1024;

interface ChargeBatchRow {
  id: string;
  remaining: number | null;
  available: number;
  commitMode: string | null;
}

/** One column per field of the charged conversions, in the same order (unnest keeps them in step). */
type ChargeBatchParams = {
  [
    K in
      | 'ids'
      | 'workspaceIds'
      | 'costs'
      | 'originalFilenames'
      | 'extensions'
      | 'fileSizes'
      | 'useEnhancedAi'
      | 'includeMetadata'
      | 'optimizeTokens'
      | 'includePages'
      | 'pageRanges'
      | 'chunkMaxTokens'
      | 'includeDocument'
      | 'modes'
      | 'webhookUrls'
      | 'webhookSecrets'
      | 'createdAts'
      | 'chargeIds'
      | 'bytes'
  ]: unknown[];
} & { allSync: boolean };

/**
 * Charges made while one is running go together in the next statement (`StatementBatch`): the
 * same rules as the one-conversion statement above, for one request per workspace (a second
 * request of a workspace waits for the next statement, so it reads the balance the first left),
 * the workspaces locked in the order of their ids. Requests with an Idempotency-Key, and uploads
 * over UPLOAD_IN_BATCH_MAX_BYTES, use the statement above, alone. The commit waits for the WAL
 * flush unless every conversion of the batch is sync (see chargeAndCreateConversion).
 */
const chargeConversionsStatement = namedStatement<ChargeBatchParams, ChargeBatchRow>(
  'mw_charge_and_create_conversions',
  `WITH r AS (
     SELECT * FROM unnest(:ids::uuid[], :workspaceIds::uuid[], :costs::int[], :originalFilenames::text[], :extensions::text[],
       :fileSizes::int[], :useEnhancedAi::boolean[], :includeMetadata::boolean[], :optimizeTokens::boolean[], :includePages::boolean[],
       :pageRanges::text[], :chunkMaxTokens::int[], :includeDocument::boolean[], :modes::text[], :webhookUrls::text[],
       :webhookSecrets::text[], :createdAts::timestamptz[], :chargeIds::uuid[], :bytes::bytea[])
       AS r(id, workspace_id, cost, original_filename, extension, file_size_bytes, use_enhanced_ai,
         include_metadata, optimize_tokens, include_pages, page_range, chunk_max_tokens, include_document, mode, webhook_url,
         webhook_secret, created_at, charge_id, bytes)
   ), locked AS (
     SELECT id, credit_balance FROM workspaces WHERE id IN (SELECT workspace_id FROM r) ORDER BY id FOR UPDATE
   ), charged AS (
     UPDATE workspaces w SET credit_balance = w.credit_balance - r.cost
     FROM r JOIN locked l ON l.id = r.workspace_id
     WHERE w.id = l.id AND l.credit_balance >= r.cost
     RETURNING w.id, w.credit_balance
   ), created AS (
     INSERT INTO conversions (id, workspace_id, status, original_filename, extension, file_size_bytes,
       use_enhanced_ai, include_metadata, optimize_tokens, mode, webhook_url, webhook_secret,
       credits_charged, created_at, last_published_at, publish_count,
       include_pages, page_range, chunk_max_tokens, include_document)
     SELECT r.id, r.workspace_id, 'pending', r.original_filename, r.extension, r.file_size_bytes,
       r.use_enhanced_ai, r.include_metadata, r.optimize_tokens, r.mode, r.webhook_url,
       r.webhook_secret, r.cost, r.created_at, r.created_at, 1,
       r.include_pages, r.page_range, r.chunk_max_tokens, r.include_document
     FROM r JOIN charged c ON c.id = r.workspace_id
     RETURNING id
   ), ledger AS (
     INSERT INTO credit_transactions (id, workspace_id, conversion_id, type, amount)
     SELECT r.charge_id, r.workspace_id, r.id, 'charge', -r.cost FROM r JOIN created c ON c.id = r.id
   ), stored AS (
     INSERT INTO uploads (conversion_id, bytes) SELECT r.id, r.bytes FROM r JOIN created c ON c.id = r.id WHERE r.bytes IS NOT NULL
   )
   SELECT r.id::text AS id, c.credit_balance AS remaining, l.credit_balance AS available,
          CASE WHEN :allSync::boolean THEN set_config('synchronous_commit', 'off', true) END AS "commitMode"
   FROM r LEFT JOIN charged c ON c.id = r.workspace_id LEFT JOIN locked l ON l.id = r.workspace_id`,
  [
    'ids',
    'workspaceIds',
    'costs',
    'originalFilenames',
    'extensions',
    'fileSizes',
    'useEnhancedAi',
    'includeMetadata',
    'optimizeTokens',
    'includePages',
    'pageRanges',
    'chunkMaxTokens',
    'includeDocument',
    'modes',
    'webhookUrls',
    'webhookSecrets',
    'createdAts',
    'chargeIds',
    'bytes',
    'allSync',
  ],
);

async function chargeRows(db: Db, items: NewConversion[]): Promise<ChargeOutcome[]> {
  const createdAt = new Date();
  const col = <T>(pick: (c: NewConversion) => T) => items.map(pick);
  const rows = await chargeConversionsStatement(db, {
    ids: col((c) => c.id),
    workspaceIds: col((c) => c.workspaceId),
    costs: col((c) => c.cost),
    originalFilenames: col((c) => c.originalFilename),
    extensions: col((c) => c.extension),
    fileSizes: col((c) => c.fileSizeBytes),
    useEnhancedAi: col((c) => c.useEnhancedAi),
    includeMetadata: col((c) => c.includeMetadata),
    optimizeTokens: col((c) => c.optimizeTokens),
    includePages: col((c) => c.includePages),
    pageRanges: col((c) => c.pageRange),
    chunkMaxTokens: col((c) => c.chunkMaxTokens),
    includeDocument: col((c) => c.includeDocument),
    modes: col((c) => c.mode),
    webhookUrls: col((c) => c.webhookUrl),
    webhookSecrets: col((c) => c.webhookSecret),
    createdAts: col(() => createdAt),
    chargeIds: col(() => uuidv7()),
    bytes: col((c) => c.bytes),
    allSync: items.every((c) => c.mode === 'sync'),
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return items.map((c): ChargeOutcome => {
    const row = byId.get(c.id.toLowerCase())!;
    if (row.remaining === null) return { insufficient: true, available: row.available };
    return { id: c.id, createdAt, creditsRemaining: row.remaining };
  });
}

function chargeBatch(db: Db): StatementBatch<NewConversion, ChargeOutcome> {
  return new StatementBatch({
    maxBatch: 64,
    run: (items) => chargeRows(db, items),
    runOne: (item) => chargeOne(db, item, null),
    alone: (c) => (c.bytes?.length ?? 0) > UPLOAD_IN_BATCH_MAX_BYTES,
    key: (c) => c.workspaceId,
    isConnectionLoss,
  });
}

const chargeBatches = new WeakMap<Db, StatementBatch<NewConversion, ChargeOutcome>>();

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
  includePages: true,
  chunkMaxTokens: true,
  includeDocument: true,
  pages: true,
  chunks: true,
  document: true,
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
