import { readFileSync } from 'node:fs';
import { type Db, isConnectionLoss } from '@markwright/db';
import {
  ConversionError,
  type ConvertDocumentOptions,
  convertIsolated,
  convertSmallTextInThread,
  type IsolatedConvertResult,
  countPages,
  finishDocument,
  PDF_PAGE_LIMIT,
  type IsolationLimits,
  type ReadResult,
  writesBlocksAsRead,
  type ModelEndpoint,
  type TranscriptionEndpoint,
} from '@markwright/conversion';
import type { Logger } from '@markwright/config';
import {
  CANCELLED_BY_REQUEST,
  type CarriedUpload,
  parsePageRange,
  type StructureOptions,
  type StructureOutput,
} from '@markwright/contracts';
import {
  claimJob,
  conversionExists,
  conversionExtension,
  failAndRefund,
  finishedFromStored,
  type FinishedState,
  readUpload,
  storeResult,
} from '../data-access/conversion-store';
import type { RunningConversions } from './running-conversions';
import { joinParts, mergeParts, planRanges, splits, type SplitDeps, type WrittenPart } from './split-conversion';
import { deleteParts, planParts, readParts, storePart, type PartRange } from '@markwright/db';
import { INLINE_UPLOAD_BYTES, LeftTheLine, type WorkSlots } from './work-slots';

export interface RunDeps {
  db: Db;
  logger: Logger;
  limits: IsolationLimits;
  /** Worker threads and upload bytes this converter holds at once, whatever its prefetch. */
  slots: WorkSlots;
  /** Enhanced mode's model pass, when an endpoint is configured. */
  modelEndpoint?: ModelEndpoint;
  /** Enhanced mode's speech-to-text endpoint, when one is configured. */
  transcriptionEndpoint?: TranscriptionEndpoint;
  /** Publishes "finished"; `known` is the state just stored (otherwise the row is read). */
  announce: (conversionId: string, known?: FinishedState) => Promise<void>;
  observe: ConversionObserver;
  /** The jobs running here, so a cancel (E7) can abort one. */
  running: RunningConversions;
  /** Long PDFs are split into page ranges on the jobs queue (issue 22); absent, never split. */
  split?: SplitDeps;
}

/** Where a conversion's outcome is reported (metrics), so the domain stays free of prom-client. */
export interface ConversionObserver {
  /** `seconds` is the conversion's own time; absent when nothing was converted. */
  finished(extension: string, status: 'completed' | 'failed', seconds?: number): void;
  refunded(credits: number): void;
}

export const UPLOAD_GONE = 'The uploaded file is no longer available.';
export const RESULT_NOT_STORED = 'The converted result could not be stored.';
export const WORKER_STOPPED = 'The file could not be processed: the conversion stopped its worker repeatedly.';

/**
 * One job: claim → convert in isolation → store the result or fail and refund → announce.
 * Redelivered jobs of finished conversions are only announced again (from the row). The upload
 * is held only within the byte budget, and the conversion waits for a free worker thread.
 */
export async function runConversion(
  deps: RunDeps,
  conversionId: string,
  part?: PartRange,
  upload?: CarriedUpload,
): Promise<void> {
  const running = deps.running.begin(conversionId);
  try {
    const carried = upload && !part ? { ...upload, bytes: Buffer.from(upload.bytes, 'base64') } : undefined;
    if (carried && (await convertCarried(deps, conversionId, carried, running.signal))) return;
    await claimConvertAndStore(deps, conversionId, running.signal, part, carried?.bytes);
  } finally {
    running.end();
  }
}

/**
 * A sync job that carried its small upload (which the gateway then did not store), converted in
 * this thread when it is plain text, and its result stored without a claim: the completion
 * statement takes the row from pending to completed (started_at = completed_at). A row finished
 * meanwhile (cancelled, timed out, a redelivery) drops the result and is announced from the row.
 * False when the bytes are not plain text after all: the job is claimed as any job, with these bytes.
 */
async function convertCarried(
  deps: RunDeps,
  conversionId: string,
  upload: Omit<CarriedUpload, 'bytes'> & { bytes: Buffer },
  cancel: AbortSignal,
): Promise<boolean> {
  if (cancel.aborted) return false;
  const job = {
    mode: 'sync' as const,
    extension: upload.extension,
    originalFilename: upload.originalFilename,
    useEnhancedAi: false,
    optimizeTokens: false,
    includePages: false,
    pageRange: null,
    chunkMaxTokens: null,
    includeDocument: false,
  };
  const started = Date.now();
  let result;
  try {
    result = await convertSmallTextInThread(upload.bytes, job.extension, convertOptions(deps, job));
  } catch (err) {
    if (!(err instanceof ConversionError)) throw err;
    deps.logger.info({ conversionId, code: err.code, ms: Date.now() - started }, 'conversion failed');
    await deps.announce(conversionId, await fail(deps, conversionId, job, err.message, (Date.now() - started) / 1000));
    return true;
  }
  if (!result) return false;
  await deps.announce(conversionId, await keepResult(deps, conversionId, job, result, started));
  return true;
}

/** The library's options for a job's inputs. */
function convertOptions(
  deps: RunDeps,
  job: Pick<ClaimedJob, 'useEnhancedAi' | 'optimizeTokens' | 'originalFilename'> &
    Parameters<typeof structureOptions>[0],
): ConvertDocumentOptions {
  return {
    enhanced: job.useEnhancedAi,
    optimizeTokens: job.optimizeTokens,
    filename: job.originalFilename,
    modelEndpoint: job.useEnhancedAi ? deps.modelEndpoint : undefined,
    transcriptionEndpoint: job.useEnhancedAi ? deps.transcriptionEndpoint : undefined,
    ...structureOptions(job),
  };
}

/** Not finished yet: other page ranges of the conversion are still to be read. */
const RANGES_PENDING = Symbol('ranges pending');

/**
 * The job's work; `cancel` aborts its worker task when the conversion is cancelled (E7). `carried`:
 * the upload that came with the job, which the row may not hold.
 */
async function claimConvertAndStore(
  deps: RunDeps,
  conversionId: string,
  cancel: AbortSignal,
  part: PartRange | undefined,
  carried?: Buffer,
): Promise<void> {
  // A range of a conversion split here: its upload is held already, so the claim does not bring it again.
  const held = part && deps.split?.inHand.upload(conversionId);
  const job = await claimJob(deps.db, conversionId, held ? 0 : INLINE_UPLOAD_BYTES);
  if (part) splitPhase(deps, conversionId, 'range claimed', part);
  if (!job) {
    // Finished (completed, failed, cancelled): a range left over holds text nobody will read.
    if (part) {
      deps.split?.inHand.drop(conversionId);
      await deleteParts(deps.db, conversionId);
    }
    if (await conversionExists(deps.db, conversionId)) await deps.announce(conversionId);
    return;
  }
  // A range, or the job of a split conversion: its ranges' rows go once its result is announced.
  let split = part !== undefined;
  const finished = await deps.slots
    .holdingBytes(
      job.size ?? carried?.length ?? 0,
      async () => {
        const bytes =
          job.bytes ?? carried ?? held ?? (job.size === null ? null : await readUpload(deps.db, conversionId));
        if (!bytes) return fail(deps, conversionId, job, UPLOAD_GONE);
        const claimed = { ...job, bytes };
        if (part) return convertRange(deps, conversionId, claimed, part, cancel);
        const unread = await splitWhenLong(deps, conversionId, claimed);
        if (!unread) return convertAndKeep(deps, conversionId, claimed, cancel);
        split = true;
        // Every range was read already (this job came back after the last one): write the document.
        return unread.length > 0 ? RANGES_PENDING : convertRange(deps, conversionId, claimed, undefined, cancel);
      },
      cancel,
    )
    .catch((err: unknown) => skipCancelled(deps, conversionId, job, err));
  if (finished === RANGES_PENDING) return;
  await deps.announce(conversionId, finished);
  if (split) splitPhase(deps, conversionId, 'announced', part);
  // After the announcement, not before: the webhook or the waiting request does not wait for it.
  if (split) {
    deps.split?.inHand.drop(conversionId);
    await deleteParts(deps.db, conversionId);
  }
}

/**
 * A long PDF becomes page ranges on the jobs queue, for any converter (issue 22), as many as
 * the converters have slots (`planRanges`); this job ends once they are published. Returns the
 * ranges still to read, or undefined when the job is not split. Planning is idempotent: a
 * redelivered job publishes the ranges not read yet again (a range converted twice is stored
 * twice, the same).
 */
async function splitWhenLong(deps: RunDeps, conversionId: string, job: ClaimedJob): Promise<PartRange[] | undefined> {
  const split = deps.split;
  if (!split) return undefined;
  // A request that gives page_range reads only what it asks for: it is not split.
  if (job.pageRange !== null) return undefined;
  const pageCount = await countPages(job.bytes, job.extension);
  splitPhase(deps, conversionId, 'pages counted');
  if (!splits(job, pageCount, split, PDF_PAGE_LIMIT)) return undefined;
  const slots = await split.slots().catch(() => 1);
  const unread = await planParts(deps.db, conversionId, planRanges(pageCount!, split.pages, slots));
  // Held before the ranges are published: those that come to this converter take the bytes from here.
  if (unread.length > 0) split.inHand.keepUpload(conversionId, job.bytes);
  // Published at once: each waits for the broker's confirm, and the first may start converting meanwhile.
  await Promise.all(unread.map((range) => split.publish(conversionId, range)));
  deps.logger.info(
    { conversionId, pages: pageCount, slots, ranges: unread.length },
    'conversion split into page ranges',
  );
  return unread;
}

/**
 * One page range: read it in isolation and keep its model; the range that completes the set
 * writes the document from all of them, in page order, and stores it as any conversion's result.
 * A range that fails fails the conversion (one refund); the other ranges then find it finished.
 */
async function convertRange(
  deps: RunDeps,
  conversionId: string,
  job: ClaimedJob,
  part: PartRange | undefined,
  cancel: AbortSignal,
): Promise<FinishedState | undefined | typeof RANGES_PENDING> {
  const started = Date.now();
  // Only the Markdown asked for: each range writes its own blocks in its worker, and the merge is a join.
  const joined = writesBlocksAsRead({ enhanced: false, optimizeTokens: job.optimizeTokens, ...structureOptions(job) });
  let own: { firstPage: number; kept: unknown } | undefined;
  if (part) {
    let range;
    try {
      range = await deps.slots.converting(() => {
        splitPhase(deps, conversionId, 'range converting', part);
        return convertIsolated(
          job.bytes,
          job.extension,
          {
            enhanced: false,
            filename: job.originalFilename,
            // Pages or chunks asked for: the reader keeps blocks on their pages, as for the whole file.
            ...structureOptions(job),
            ...(joined ? { writeBlocksOnly: true } : { readOnly: true }),
            pageRange: [[part.firstPage, part.lastPage]],
          },
          deps.limits,
          cancel,
        );
      });
    } catch (err) {
      if (!(err instanceof ConversionError)) throw err;
      deps.logger.info({ conversionId, code: err.code, part }, 'page range failed');
      return fail(deps, conversionId, job, err.message, (Date.now() - started) / 1000);
    }
    splitPhase(deps, conversionId, 'range converted', part);
    const kept: WrittenPart | ReadResult | undefined = joined
      ? range.written && { ...range.written, metadata: range.metadata }
      : range.read;
    const stored = await storePart(deps.db, conversionId, part.firstPage, () => JSON.stringify(kept));
    splitPhase(deps, conversionId, stored.last ? 'range last' : 'range stored', part);
    // Finished meanwhile (cancelled, failed): the range is dropped.
    if (!stored.live) {
      deps.split?.inHand.drop(conversionId);
      return undefined;
    }
    if (!stored.last) {
      deps.split?.inHand.keepPart(conversionId, part.firstPage, kept);
      return RANGES_PENDING;
    }
    own = { firstPage: part.firstPage, kept };
  }
  // The other ranges' texts or readings, and from memory this one's (the last range is not stored)
  // and those this converter read and still holds.
  const held = deps.split?.inHand.parts(conversionId) ?? new Map<number, unknown>();
  const parts = (await readParts(deps.db, conversionId, [...held.keys()])).map((p) =>
    p.firstPage === own?.firstPage
      ? own.kept
      : held.has(p.firstPage)
        ? held.get(p.firstPage)
        : (JSON.parse(p.read ?? 'null') as unknown),
  );
  const result = joined
    ? joinParts(parts)
    : await finishDocument(mergeParts(parts.map((read) => ({ read }))), {
        enhanced: false,
        optimizeTokens: job.optimizeTokens,
        ...structureOptions(job),
      });
  splitPhase(deps, conversionId, 'ranges merged');
  // The ranges' rows are deleted once this is announced (claimConvertAndStore).
  return keepResult(deps, conversionId, job, result, started);
}

/**
 * A step of a split conversion for timelines (LOG_LEVEL=debug): the process's CPU time so far
 * (worker threads and finished pdftohtml children included) and, where Linux tells it, this
 * thread's own, so what the main thread spends between steps is told from the workers'.
 */
function splitPhase(deps: RunDeps, conversionId: string, phase: string, part?: PartRange): void {
  if (!deps.logger.isLevelEnabled('debug')) return;
  const cpu = process.cpuUsage();
  deps.logger.debug(
    { conversionId, part, cpuMs: Math.round((cpu.user + cpu.system) / 1000), mainCpuMs: mainThreadCpuMs() },
    phase,
  );
}

/** This thread's CPU time in ms from /proc/thread-self/schedstat (nanoseconds on the CPU); undefined off Linux. */
function mainThreadCpuMs(): number | undefined {
  try {
    return Math.round(Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6);
  } catch {
    return undefined;
  }
}

type ClaimedJob = NonNullable<Awaited<ReturnType<typeof claimJob>>> & { bytes: Buffer };

/** Converts the job's bytes and keeps the result, or fails it with the document's error and a refund. */
async function convertAndKeep(
  deps: RunDeps,
  conversionId: string,
  job: ClaimedJob,
  cancel: AbortSignal,
): Promise<FinishedState | undefined> {
  let started = Date.now();
  const options = convertOptions(deps, job);
  let result;
  try {
    // Small plain text converts here at once, without waiting for a worker thread (bounded: see the library).
    const inThread = cancel.aborted ? undefined : await convertSmallTextInThread(job.bytes, job.extension, options);
    result =
      (inThread as (IsolatedConvertResult & StructureOutput) | undefined) ??
      (await deps.slots.converting(async () => {
        started = Date.now();
        const converted = await convertIsolated(job.bytes, job.extension, options, deps.limits, cancel);
        return converted as typeof converted & StructureOutput;
      }, cancel));
  } catch (err) {
    if (err instanceof LeftTheLine) return skipCancelled(deps, conversionId, job, err);
    if (!(err instanceof ConversionError)) throw err;
    deps.logger.info({ conversionId, code: err.code, ms: Date.now() - started }, 'conversion failed');
    return fail(deps, conversionId, job, err.message, (Date.now() - started) / 1000);
  }
  return keepResult(deps, conversionId, job, result, started);
}

/**
 * A job cancelled (E7) while it waited for upload bytes or a worker thread: it is not converted.
 * The gateway failed and refunded the row before broadcasting the cancel, so failing it here only
 * makes sure (it reports nothing when the row had finished already).
 */
async function skipCancelled(
  deps: RunDeps,
  conversionId: string,
  job: JobFacts,
  err: unknown,
): Promise<FinishedState | undefined> {
  if (!(err instanceof LeftTheLine)) throw err;
  deps.logger.info({ conversionId }, 'cancelled while waiting for a slot: not converted');
  return fail(deps, conversionId, job, CANCELLED_BY_REQUEST);
}

/** E1–E4 as the row asked for them, in the library's terms; nothing when nothing was asked. */
export function structureOptions(job: {
  includePages: boolean;
  pageRange: string | null;
  chunkMaxTokens: number | null;
  includeDocument: boolean;
}): StructureOptions {
  const options: StructureOptions = {};
  if (job.includePages) options.includePages = true;
  const range = job.pageRange === null ? null : parsePageRange(job.pageRange);
  if (range) options.pageRange = range;
  if (job.chunkMaxTokens !== null) options.chunkMaxTokens = job.chunkMaxTokens;
  if (job.includeDocument) options.includeDocument = true;
  return options;
}

/** What `fail` and `keepResult` need of the job; without its mode, what to announce is read from the row. */
type JobFacts = { extension: string; mode?: FinishedState['mode'] };

/**
 * Stores a finished conversion. A result the database refuses (not a lost connection, which is
 * retried as a store) fails the conversion with a refund: converting the same bytes again
 * would give the same result, so redelivering the job could only end as a false "crashed worker".
 * Returns what to announce, or undefined when the row must be read (it had finished already).
 */
async function keepResult(
  deps: RunDeps,
  conversionId: string,
  job: JobFacts,
  result: Awaited<ReturnType<typeof convertIsolated>> & StructureOutput,
  started: number,
): Promise<FinishedState | undefined> {
  const seconds = (Date.now() - started) / 1000;
  try {
    const stored = await storeResult(deps.db, conversionId, {
      markdown: result.markdown,
      metadata: result.metadata,
      tokenOptimization: result.tokenOptimization ?? null,
      pages: result.pages ?? null,
      chunks: result.chunks ?? null,
      document: result.document ?? null,
    });
    deps.logger.info({ conversionId, ms: Date.now() - started }, 'conversion completed');
    if (!stored) return undefined;
    deps.observe.finished(job.extension, 'completed', seconds);
    return job.mode && finishedFromStored(job.mode, { status: 'completed', stored });
  } catch (err) {
    if (isConnectionLoss(err)) throw err;
    // The database's message may quote the document, so only its code is logged.
    deps.logger.error({ conversionId, code: (err as { code?: string }).code }, 'result not stored; conversion failed');
    return fail(deps, conversionId, job, RESULT_NOT_STORED, seconds);
  }
}

/** A job that crashed its workers too often reached the dead-letter queue: fail it for good and refund. */
export async function failDeadJob(deps: RunDeps, conversionId: string): Promise<void> {
  await fail(
    deps,
    conversionId,
    { extension: (await conversionExtension(deps.db, conversionId)) ?? 'unknown' },
    WORKER_STOPPED,
  );
  deps.split?.inHand.drop(conversionId);
  await deleteParts(deps.db, conversionId);
  await deps.announce(conversionId);
}

/**
 * Fails and refunds once, and reports it (a conversion already finished reports nothing).
 * Returns what to announce, or undefined when the row must be read (it had finished already).
 */
async function fail(
  deps: RunDeps,
  conversionId: string,
  job: JobFacts,
  error: string,
  seconds?: number,
): Promise<FinishedState | undefined> {
  const outcome = await failAndRefund(deps.db, conversionId, error);
  if (!outcome) return undefined;
  deps.observe.finished(job.extension, 'failed', seconds);
  deps.observe.refunded(outcome.refunded);
  return job.mode && finishedFromStored(job.mode, { status: 'failed', error });
}
