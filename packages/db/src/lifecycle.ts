import { namedStatement } from './named-statement';
import { type Db, preparedQuery } from './client';
import { uuidv7 } from './ids';
import { storableJson, storableText } from './storable-text';
import { StatementBatch } from './statement-batch';
import { isConnectionLoss } from './reconnect';

/** The finished states; a finished conversion never changes again (decisions.md, lifecycle). */
export const FINISHED_STATUSES = ['completed', 'failed'] as const;
export type FinishedStatus = (typeof FINISHED_STATUSES)[number];

/** Whether a conversion's status is final: the one test of "finished" in code (SQL takes FINISHED_STATUSES as a parameter). */
export function isFinishedStatus(status: string): status is FinishedStatus {
  return (FINISHED_STATUSES as readonly string[]).includes(status);
}

export interface CompletedResult {
  markdown: string;
  metadata: { title: string; author: string; page_count: number } | null;
  tokenOptimization: { original_tokens: number; optimized_tokens: number; reduction_percent: number } | null;
  /** E1, E3, E4: present only when the conversion asked for them (null otherwise, or absent). */
  pages?: unknown[] | null;
  chunks?: unknown[] | null;
  document?: object | null;
}

export interface ClaimedJob {
  mode: 'sync' | 'async';
  extension: string;
  originalFilename: string;
  useEnhancedAi: boolean;
  optimizeTokens: boolean;
  /** E1–E4 as asked for; page_range in its canonical text form ("1-3,7"). */
  includePages: boolean;
  pageRange: string | null;
  chunkMaxTokens: number | null;
  includeDocument: boolean;
  /**
   * The upload when it is at most the claim's `inlineBytes`, so a small document costs one
   * statement; null when it is larger (read it with `readUpload` once there is room for it) or gone.
   */
  bytes: Uint8Array | null;
  /** The upload's size in bytes; null when the upload is gone (the conversion then fails with a clear error). */
  size: number | null;
}

/**
 * pending -> processing (keeping the first start time when a job is redelivered) and the job's
 * inputs with its upload, in one statement instead of three. Null when already finished or unknown.
 *
 * Claims made while one is running go together in the next statement (`StatementBatch`): a
 * converter taking many small jobs at once claims them with one round trip and one commit.
 *
 * Its commit does not wait for the WAL flush (`synchronous_commit` off for this transaction
 * only): "processing" is a progress mark, not a money movement. If PostgreSQL crashed right
 * after it, the row would read pending again and the unacked job would be claimed again; the
 * completing or failing statement is a synchronous commit, which flushes this one with it.
 */
export async function claimJob(db: Db, conversionId: string, inlineBytes: number): Promise<ClaimedJob | null> {
  return batchOf(claimBatches, db, inlineBytes, () => claimBatch(db, inlineBytes)).call(conversionId);
}

/** The upload rides with the claim up to this size: every claim of one batch shares it. */
function claimBatch(db: Db, inlineBytes: number): StatementBatch<string, ClaimedJob | null> {
  return new StatementBatch({
    maxBatch: 64,
    run: async (ids) => {
      // Sorted, so that rows are locked in one order whatever the batch.
      const rows = await preparedQuery<ClaimedJob & { id: string; asyncCommit: string }>(
        db,
        'mw_claim_jobs',
        `UPDATE conversions SET status = 'processing', started_at = COALESCE(started_at, now())
         WHERE id = ANY($1::uuid[]) AND status IN ('pending', 'processing')
         RETURNING id::text AS id, mode, extension, original_filename AS "originalFilename", use_enhanced_ai AS "useEnhancedAi",
           optimize_tokens AS "optimizeTokens", include_pages AS "includePages", page_range AS "pageRange",
           chunk_max_tokens AS "chunkMaxTokens", include_document AS "includeDocument",
           (SELECT CASE WHEN octet_length(u.bytes) <= $2::int THEN u.bytes END FROM uploads u WHERE u.conversion_id = conversions.id) AS bytes,
           (SELECT octet_length(u.bytes) FROM uploads u WHERE u.conversion_id = conversions.id) AS size,
           set_config('synchronous_commit', 'off', true) AS "asyncCommit"`,
        [[...new Set(ids)].sort(), inlineBytes],
      );
      const byId = new Map(rows.map(({ id, asyncCommit: _, ...job }) => [id, job]));
      return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
    },
  });
}

const claimBatches = new WeakMap<Db, Map<number, StatementBatch<string, ClaimedJob | null>>>();

function batchOf<K, B>(batches: WeakMap<Db, Map<K, B>>, db: Db, key: K, create: () => B): B {
  let byKey = batches.get(db);
  if (!byKey) batches.set(db, (byKey = new Map()));
  let batch = byKey.get(key);
  if (!batch) byKey.set(key, (batch = create()));
  return batch;
}

/** A claimed job's upload that was too large to come with the claim; null when it is gone. */
export async function readUpload(db: Db, conversionId: string): Promise<Uint8Array | null> {
  const rows = await preparedQuery<{ bytes: Uint8Array }>(
    db,
    'mw_read_upload',
    'SELECT bytes FROM uploads WHERE conversion_id = $1::uuid',
    [conversionId],
  );
  return rows[0]?.bytes ?? null;
}

/**
 * Stores the result and deletes the upload in one statement (one round trip). Returns the result
 * as stored (made storable), so a "finished" announcement can carry it without reading the row
 * back; null when the conversion had already finished (late result dropped).
 *
 * Completions made while one is being committed go together in the next statement
 * (`StatementBatch`): one round trip and one synchronous commit (one WAL flush) for all of them.
 * A result over COMPLETE_ALONE_CHARS, or with pages, chunks or a document, goes alone. When a
 * batch fails for any reason but a lost connection (PostgreSQL refused one result), each of its
 * results is stored on its own, so only the refused one fails.
 */
export async function completeConversion(
  db: Db,
  conversionId: string,
  result: CompletedResult,
): Promise<CompletedResult | null> {
  const stored: CompletedResult = {
    markdown: storableText(result.markdown),
    metadata: result.metadata ? storableJson(result.metadata) : null,
    tokenOptimization: result.tokenOptimization ?? null,
    // E1–E4: present only when asked for, as in the bodies.
    ...(result.pages ? { pages: storableJson(result.pages) } : {}),
    ...(result.chunks ? { chunks: storableJson(result.chunks) } : {}),
    ...(result.document ? { document: storableJson(result.document) } : {}),
  };
  const batch = batchOf(completeBatches, db, 0, () => completeBatch(db));
  return (await batch.call({ conversionId, stored })) ? stored : null;
}

/** Results longer than this (characters) are stored by a statement of their own. */
export const COMPLETE_ALONE_CHARS = 64 * 1024;

interface Completion {
  conversionId: string;
  stored: CompletedResult;
}

const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

const completeRowsStatement = namedStatement<
  {
    ids: string[];
    markdowns: string[];
    metadata: Array<string | null>;
    tokenOptimizations: Array<string | null>;
    pages: Array<string | null>;
    chunks: Array<string | null>;
    documents: Array<string | null>;
  },
  { id: string }
>(
  'mw_complete_conversions',
  `WITH r AS (
     SELECT * FROM unnest(:ids::uuid[], :markdowns::text[], :metadata::jsonb[], :tokenOptimizations::jsonb[], :pages::jsonb[],
       :chunks::jsonb[], :documents::jsonb[])
       AS r(id, markdown, metadata, token_optimization, pages, chunks, document)
   ), done AS (
     UPDATE conversions c SET status = 'completed', markdown = r.markdown, metadata = r.metadata,
       token_optimization = r.token_optimization, pages = r.pages, chunks = r.chunks,
       document = r.document, completed_at = now(),
       -- Set already unless a crash lost the claim's asynchronous commit.
       started_at = COALESCE(c.started_at, now())
     -- id = ANY(...) lets the planner find the rows by primary key, whatever the backlog of pending rows.
     FROM r WHERE c.id = ANY(:ids::uuid[]) AND c.id = r.id AND c.status IN ('pending', 'processing')
     RETURNING c.id
   ), gone AS (
     DELETE FROM uploads WHERE conversion_id = ANY(:ids::uuid[])
   )
   SELECT id::text AS id FROM done`,
  ['ids', 'markdowns', 'metadata', 'tokenOptimizations', 'pages', 'chunks', 'documents'],
);

async function completeRows(db: Db, items: Completion[]): Promise<boolean[]> {
  const ids = items.map((i) => i.conversionId.toLowerCase());
  // One conversion twice in a batch would be updated once from either row: each goes alone instead.
  if (new Set(ids).size !== ids.length) throw new Error('a conversion completed twice in one batch');
  const column = (pick: (stored: CompletedResult) => unknown) => items.map((i) => json(pick(i.stored)));
  const rows = await completeRowsStatement(db, {
    ids,
    markdowns: items.map((i) => i.stored.markdown),
    metadata: column((r) => r.metadata),
    tokenOptimizations: column((r) => r.tokenOptimization),
    pages: column((r) => r.pages),
    chunks: column((r) => r.chunks),
    documents: column((r) => r.document),
  });
  const done = new Set(rows.map((r) => r.id));
  return ids.map((id) => done.has(id));
}

/**
 * One result by a statement of its own, its values passed as they are (no array literal to
 * build and parse: a long result goes this way).
 */
const completeOneStatement = namedStatement<
  {
    conversionId: string;
    markdown: string;
    metadata: string | null;
    tokenOptimization: string | null;
    pages: string | null;
    chunks: string | null;
    document: string | null;
  },
  { updated: number }
>(
  'mw_complete_conversion',
  `WITH done AS (
     UPDATE conversions SET status = 'completed', markdown = :markdown::text, metadata = :metadata::jsonb,
       token_optimization = :tokenOptimization::jsonb, pages = :pages::jsonb, chunks = :chunks::jsonb,
       document = :document::jsonb, completed_at = now(),
       -- Set already unless a crash lost the claim's asynchronous commit.
       started_at = COALESCE(started_at, now())
     WHERE id = :conversionId::uuid AND status IN ('pending', 'processing')
     RETURNING id
   ), gone AS (
     DELETE FROM uploads WHERE conversion_id = :conversionId::uuid
   )
   SELECT count(*)::int AS updated FROM done`,
  ['conversionId', 'markdown', 'metadata', 'tokenOptimization', 'pages', 'chunks', 'document'],
);

async function completeOne(db: Db, { conversionId, stored }: Completion): Promise<boolean> {
  const rows = await completeOneStatement(db, {
    conversionId,
    markdown: stored.markdown,
    metadata: json(stored.metadata),
    tokenOptimization: json(stored.tokenOptimization),
    pages: json(stored.pages),
    chunks: json(stored.chunks),
    document: json(stored.document),
  });
  return rows[0]!.updated === 1;
}

/**
 * Completions per statement at most: as many as a converter takes jobs at 64 sync connections. At
 * 32, a converter holding more results than that stored them in two statements in series (two
 * synchronous commits), the second group waiting for the first's WAL flush: 14% of the completion
 * statements were full at 64 connections (docs/performance.md, helper p99).
 */
export const COMPLETE_BATCH_MAX = 64;

function completeBatch(db: Db): StatementBatch<Completion, boolean> {
  return new StatementBatch({
    maxBatch: COMPLETE_BATCH_MAX,
    run: (items) => completeRows(db, items),
    runOne: (item) => completeOne(db, item),
    alone: ({ stored }) =>
      stored.markdown.length > COMPLETE_ALONE_CHARS || Boolean(stored.pages || stored.chunks || stored.document),
    isConnectionLoss,
  });
}

const completeBatches = new WeakMap<Db, Map<number, StatementBatch<Completion, boolean>>>();

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
      data: { status: 'failed', error: storableText(error), completedAt: new Date() },
    });
    await tx.upload.deleteMany({ where: { conversionId } });
    if (updated.count === 0) return false;
    const conversion = await tx.conversion.findUniqueOrThrow({ where: { id: conversionId } });
    // The workspace's row is locked before the ledger row is inserted, as the charge statement
    // locks it first: inserting the ledger row takes a key-share lock on the workspace, and a
    // charge waiting for its FOR UPDATE between that insert and the balance update deadlocked.
    await tx.$queryRaw`SELECT 1 FROM workspaces WHERE id = ${conversion.workspaceId}::uuid FOR UPDATE`;
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
