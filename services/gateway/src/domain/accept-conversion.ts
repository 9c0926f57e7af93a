import { failConversion, isFinishedStatus, uuidv7, type Db } from '@markwright/db';
import {
  CARRIED_UPLOAD_MAX_BYTES,
  type CarriedUpload,
  sealWebhookSecret,
  type FinishedResult,
} from '@markwright/contracts';
import type { Logger } from '@markwright/config';
import { AppError } from './app-error';
import { conversionCost } from './plans';
import type { ConvertRequest } from './convert-request';
import type { AuthenticatedWorkspace } from './workspaces';
import {
  chargeAndCreateConversion,
  deleteUpload,
  findConversion,
  storeUpload,
  storeUploadWhilePending,
  UPLOAD_IN_CHARGE_MAX_BYTES,
} from '../data-access/conversion-repository';
import type { JobPublisher } from '@markwright/contracts';
import type { FinishedNotice, FinishedWaiters } from './finished-waiters';
import { asksForStructure, queuedAnswer, syncAnswer, type Answer, type StoredStructure } from './conversion-answers';
import {
  IDEMPOTENCY_RETRY_AFTER_SECONDS,
  idempotencyExpiredBefore,
  replayIdempotent,
  type IdempotencyKey,
} from './idempotency';

export interface AcceptDeps {
  db: Db;
  publisher: Pick<JobPublisher, 'publish'>;
  listener: Pick<FinishedWaiters, 'waitFor'>;
  logger: Logger;
  syncTimeoutMs: number;
  /** How often a sync request re-reads its row, in case an event was missed. */
  syncPollMs: number;
  credits: CreditsMeter;
  /** WEBHOOK_SECRET_KEY: webhook secrets are stored encrypted with it. */
  webhookSecretKey: Buffer;
}

/** Where credit movements are reported (metrics), so the domain stays free of prom-client. */
export interface CreditsMeter {
  charged(plan: AuthenticatedWorkspace['plan'], credits: number): void;
  refunded(credits: number): void;
}

export type { Answer } from './conversion-answers';

type Outcome = FinishedResult & StoredStructure & { status: 'completed' | 'failed' };

/** POST /convert: charge and create the row (with the upload) → publish → answer 202, or wait and answer the result. */
export async function acceptConversion(
  deps: AcceptDeps,
  workspace: AuthenticatedWorkspace,
  request: ConvertRequest,
  idempotency: IdempotencyKey | null = null,
): Promise<Answer> {
  const cost = conversionCost(workspace.plan, request.useEnhancedAi);
  const upload = request.webhookUrl ? undefined : carriedUpload(request);
  const created = await storeThenCharge(deps, workspace, request, cost, idempotency, !upload).finally(() =>
    request.file.release?.(),
  );
  // An identical request with the same key charged first (E6): answer as it was answered.
  if ('keyTaken' in created) return await keyTakenAnswer(deps, workspace, idempotency!);
  deps.credits.charged(workspace.plan, cost);
  deps.logger.info({ conversionId: created.id, mode: request.webhookUrl ? 'async' : 'sync' }, 'conversion accepted');

  if (request.webhookUrl) {
    await publishJob(deps, created.id);
    return queuedAnswer(created.id, { creditsUsed: cost, creditsRemaining: created.creditsRemaining });
  }

  const waiting = deps.listener.waitFor(created.id);
  try {
    await publishJob(deps, created.id, upload && { upload, bytes: request.file.buffer });
    // pages, chunks and document never ride on the event: the row has them.
    const outcome = await waitUntilFinished(deps, created.id, waiting, !asksForStructure(request));
    if (outcome.status === 'completed') {
      return syncAnswer(outcome, request, { creditsUsed: cost, creditsRemaining: created.creditsRemaining });
    }
    throw AppError.conversionFailed(outcome.error ?? 'The conversion failed.');
  } finally {
    waiting.cancel();
  }
}

/**
 * A small upload is stored by the charge statement itself. A larger one is stored first, on its
 * own, then one short statement charges and creates the row: an upload that fails to store
 * charges nothing, and a refused or failed charge deletes it. One that rides in its job message
 * is not stored (`store` false) unless the publish fails (`publishJob`).
 */
async function storeThenCharge(
  deps: AcceptDeps,
  workspace: AuthenticatedWorkspace,
  request: ConvertRequest,
  cost: number,
  idempotency: IdempotencyKey | null,
  store: boolean,
) {
  const conversionId = uuidv7();
  const bytes = request.file.buffer;
  const storedFirst = store && bytes.length > UPLOAD_IN_CHARGE_MAX_BYTES;
  if (storedFirst) await storeUpload(deps.db, conversionId, bytes);
  const sealed = request.webhookSecret ? sealWebhookSecret(request.webhookSecret, deps.webhookSecretKey) : null;
  try {
    const created = await chargeAndCreateConversion(
      deps.db,
      {
        id: conversionId,
        workspaceId: workspace.id,
        cost,
        originalFilename: request.file.originalname,
        extension: request.extension,
        fileSizeBytes: request.file.size,
        useEnhancedAi: request.useEnhancedAi,
        includeMetadata: request.includeMetadata,
        optimizeTokens: request.optimizeTokens,
        includePages: request.includePages,
        pageRange: request.pageRange,
        chunkMaxTokens: request.chunkMaxTokens,
        includeDocument: request.includeDocument,
        mode: request.webhookUrl ? 'async' : 'sync',
        webhookUrl: request.webhookUrl,
        webhookSecret: sealed,
        bytes: storedFirst || !store ? null : bytes,
      },
      idempotency && { ...idempotency, expiredBefore: idempotencyExpiredBefore() },
    );
    if ('insufficient' in created) throw AppError.insufficientCredits(cost, created.available);
    if ('keyTaken' in created && storedFirst) await deleteUpload(deps.db, conversionId);
    return created;
  } catch (err) {
    if (storedFirst) await deleteUpload(deps.db, conversionId).catch(() => undefined);
    throw err;
  }
}

/** The key's first request committed while this one was being received: replay it (or 409 while it runs). */
async function keyTakenAnswer(
  deps: AcceptDeps,
  workspace: AuthenticatedWorkspace,
  idempotency: IdempotencyKey,
): Promise<Answer> {
  const replayed = await replayIdempotent(deps.db, workspace.id, idempotency);
  if (replayed) return replayed;
  throw AppError.idempotencyConflict(IDEMPOTENCY_RETRY_AFTER_SECONDS);
}

/**
 * A sync upload small enough to ride in its job message, asked for as plain Markdown of a `.txt`:
 * the converter converts it in its own thread and stores the result without claiming the row
 * first, and the upload is not stored in PostgreSQL (one statement, one row version and an
 * upload row written and deleted fewer per request; docs/decisions.md).
 */
function carriedUpload(request: ConvertRequest): CarriedUpload | undefined {
  const plain =
    !request.useEnhancedAi &&
    !request.optimizeTokens &&
    !request.includePages &&
    request.pageRange === null &&
    request.chunkMaxTokens === null &&
    !request.includeDocument;
  const bytes = request.file.buffer;
  if (!plain || request.extension !== 'txt' || bytes.length > CARRIED_UPLOAD_MAX_BYTES) return undefined;
  return { originalFilename: request.file.originalname, extension: request.extension, bytes: bytes.toString('base64') };
}

/**
 * A failed publish is not lost: the row stays pending and the sweeper publishes it again (naming
 * the conversion only, so an upload that was to ride along is stored first).
 */
async function publishJob(
  deps: AcceptDeps,
  conversionId: string,
  carried?: { upload: CarriedUpload; bytes: Buffer },
): Promise<void> {
  try {
    await deps.publisher.publish(conversionId, carried && { upload: carried.upload });
  } catch (err) {
    deps.logger.warn({ conversionId, err: (err as Error).message }, 'publish failed; the sweeper will retry');
    // Not stored either: the republished job fails as "no longer available" and is refunded.
    if (carried) {
      await storeUploadWhilePending(deps.db, conversionId, carried.bytes).catch((stored: unknown) =>
        deps.logger.warn({ conversionId, err: (stored as Error).message }, 'upload not stored'),
      );
    }
  }
}

/**
 * Waits for the "finished" event, which carries the result when it is small enough; the row is
 * read only when the event has no result (large markdown), or every `syncPollMs` in case an
 * event was lost. Past the deadline the conversion fails and is refunded.
 */
async function waitUntilFinished(
  deps: AcceptDeps,
  conversionId: string,
  waiting: { promise: Promise<FinishedNotice> },
  eventResultWillDo: boolean,
): Promise<Outcome> {
  const deadline = Date.now() + deps.syncTimeoutMs;
  let announced: Promise<FinishedNotice | undefined> = waiting.promise;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    // The poll's timer goes with the wait: left running it would hold the result for syncPollMs after the answer.
    const poll = delay(Math.min(left, deps.syncPollMs));
    const notice = await Promise.race([announced, poll.promise]).finally(poll.cancel);
    if (notice?.result && eventResultWillDo) return { status: notice.status, ...notice.result };
    // An event without the result was used up: from now on only the poll wakes this loop.
    if (notice) announced = new Promise(() => undefined);
    const row = await readOutcome(deps.db, conversionId);
    if (row) return row;
  }
  const seconds = Math.round(deps.syncTimeoutMs / 1000);
  const failed = await failConversion(
    deps.db,
    conversionId,
    `The conversion did not finish within ${seconds} seconds.`,
  );
  if (failed) deps.credits.refunded(failed.refunded);
  deps.logger.warn({ conversionId }, 'sync conversion timed out');
  // If a result landed in the meantime, the finished row wins.
  return (await readOutcome(deps.db, conversionId))!;
}

async function readOutcome(db: Db, conversionId: string): Promise<Outcome | null> {
  const row = await findConversion(db, conversionId);
  if (!row) throw new Error(`conversion ${conversionId} disappeared`);
  if (!isFinishedStatus(row.status)) return null;
  return {
    status: row.status,
    markdown: row.markdown,
    metadata: row.metadata,
    tokenOptimization: row.tokenOptimization,
    pages: row.pages,
    chunks: row.chunks,
    document: row.document,
    error: row.error,
  };
}

/** A timer as a promise, with its cancel (the promise then never settles and is dropped with the timer). */
function delay(ms: number): { promise: Promise<undefined>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms).unref();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}
