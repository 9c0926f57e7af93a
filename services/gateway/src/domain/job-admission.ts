import type { Logger } from '@markwright/config';
import { AppError } from './app-error';

/** How long one reading of the jobs queue's depth is trusted (E11: at most 1 s). */
export const QUEUE_DEPTH_CACHE_MS = 1_000;
/**
 * A reading this old is read again in the background while requests still use it, so under a
 * steady stream no request waits for the broker: only one that finds the reading past
 * QUEUE_DEPTH_CACHE_MS (the first after a quiet second, or a read slower than the rest) waits.
 */
export const QUEUE_DEPTH_REFRESH_AHEAD_MS = QUEUE_DEPTH_CACHE_MS / 2;
/** A broker that does not answer the depth check within this is treated as unknown (the request is let through). */
export const QUEUE_DEPTH_READ_TIMEOUT_MS = 1_000;
/** What a refused client is told to wait: about how long converters need to take a few jobs off a full queue. */
export const AT_CAPACITY_RETRY_AFTER_SECONDS = 5;

export interface JobAdmissionDeps {
  /** Ready (not yet delivered) messages in the jobs queue, as the broker reports them. */
  readWaitingJobs: () => Promise<number>;
  maxQueuedJobs: number;
  logger: Logger;
  /** Reports each refusal (metrics), so the domain stays free of prom-client. */
  onRefused: () => void;
  now?: () => number;
}

interface DepthReading {
  waiting: number;
  /** When the read was started. */
  readAt: number;
  /** `published` when the read was started: jobs published after it may be missing from `waiting`. */
  publishedBefore: number;
}

/**
 * A place in the queue held by one admitted request until its job is published, or until the
 * request ends without one (a validation error, a 402, a failed publish).
 */
export interface QueuePlace {
  /** The job is in the broker's queue now: counted as this process's until a reading that began after it. */
  published(): void;
  /** The request is over; a place never published stops counting at once. Idempotent, and a no-op after published(). */
  release(): void;
}

export interface JobAdmission {
  /** Throws AppError at_capacity when the jobs queue is full; otherwise holds a place for one job. */
  admit(): Promise<QueuePlace>;
}

/**
 * Backpressure for POST /convert (E11). Only the broker's reading of the jobs queue's ready count
 * is cached (used for at most a second, read again in the background after half of it, one read
 * at a time shared by concurrent requests); to it are added
 * this process's admissions since that reading: places still held (admitted, not yet published)
 * and jobs published after the reading began, which the broker may not count yet. A place that
 * ends without a job (a 422, a 402, a failed publish) stops counting at once, so the count is
 * what the queue holds, not what was once admitted. At or over MAX_QUEUED_JOBS the request is
 * refused before anything is read, charged or stored. A broker that cannot be read lets requests
 * through: publishing has its own recovery (the sweeper).
 */
export function createJobAdmission(deps: JobAdmissionDeps): JobAdmission {
  const now = deps.now ?? Date.now;
  let reading: DepthReading | undefined;
  let failedAt: number | undefined;
  let inFlight: Promise<void> | undefined;
  /** Places held: admitted, job not yet published, request not over. */
  let held = 0;
  /** Jobs published so far by this process (a running count, compared with a reading's start). */
  let published = 0;

  async function refresh(): Promise<void> {
    const readAt = now();
    const publishedBefore = published;
    try {
      const waiting = await withTimeout(deps.readWaitingJobs(), QUEUE_DEPTH_READ_TIMEOUT_MS);
      reading = { waiting, readAt, publishedBefore };
      failedAt = undefined;
    } catch (err) {
      reading = undefined;
      failedAt = readAt;
      deps.logger.warn({ err: (err as Error).message }, 'jobs queue depth unreadable; admitting without backpressure');
    }
  }

  const startRefresh = (): Promise<void> => (inFlight ??= refresh().finally(() => (inFlight = undefined)));

  async function current(): Promise<DepthReading | undefined> {
    // The reading (or the failed read) of the last read started; a failed one lets requests through as long.
    const readAt = failedAt ?? reading?.readAt;
    const age = readAt === undefined ? Infinity : now() - readAt;
    if (age < QUEUE_DEPTH_CACHE_MS) {
      // Read again ahead of expiry without waiting for it (refresh never rejects).
      if (age >= QUEUE_DEPTH_REFRESH_AHEAD_MS) void startRefresh();
      return reading;
    }
    await startRefresh();
    return reading;
  }

  return {
    async admit() {
      const depth = await current();
      if (depth && depth.waiting + (published - depth.publishedBefore) + held >= deps.maxQueuedJobs) {
        deps.onRefused();
        throw AppError.atCapacity(AT_CAPACITY_RETRY_AFTER_SECONDS);
      }
      held += 1;
      let open = true;
      const close = (): boolean => {
        if (!open) return false;
        open = false;
        held -= 1;
        return true;
      };
      return {
        published() {
          if (close()) published += 1;
        },
        release() {
          close();
        },
      };
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (err: unknown) => (clearTimeout(timer), reject(err as Error)),
    );
  });
}
