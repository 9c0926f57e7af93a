import { type Semaphore as SemaphoreType, Semaphore } from 'async-mutex';

/** Uploads up to this size come with the job's claim (one statement); larger ones are read once there is room for them. */
export const INLINE_UPLOAD_BYTES = 1024 * 1024;

/**
 * What a converter holds at once, decoupled from how many jobs it has taken from the queue: many
 * jobs in flight (their database and broker I/O overlaps), conversions bounded by the worker
 * threads (`cpu`), and uploads held in memory bounded by bytes (`maxBytes`). A job larger than
 * the whole byte budget still runs, alone.
 */
export class WorkSlots {
  private readonly cpu: Semaphore;
  private readonly bytes: Semaphore;
  private readonly budgetKb: number;

  constructor(cpu: number, maxBytes: number) {
    this.cpu = new Semaphore(cpu);
    this.budgetKb = Math.max(1, Math.floor(maxBytes / 1024));
    this.bytes = new Semaphore(this.budgetKb);
  }

  /**
   * Runs `work` once `size` bytes fit in the budget, and gives them back after. When `leave`
   * aborts first (a cancel), the job leaves the line with LeftTheLine and `work` never runs.
   */
  holdingBytes<T>(size: number, work: () => Promise<T>, leave?: AbortSignal): Promise<T> {
    const weight = Math.min(this.budgetKb, Math.max(1, Math.ceil(size / 1024)));
    return inTurn(this.bytes, weight, work, leave);
  }

  /**
   * Runs a conversion once a worker thread is free; its deadline starts then, not while it waits.
   * When `leave` aborts first (a cancel), the job leaves the line with LeftTheLine and is never
   * converted: a cancelled job does not wait its turn for nothing.
   */
  converting<T>(work: () => Promise<T>, leave?: AbortSignal): Promise<T> {
    return inTurn(this.cpu, 1, work, leave);
  }

  /**
   * Shutting down: jobs still waiting for a slot give up (they reject, so their messages are
   * requeued for another converter) instead of converting before the process may exit; running
   * ones finish.
   */
  stopWaiting(): void {
    this.cpu.cancel();
    this.bytes.cancel();
  }
}

/** A job that stopped waiting for a slot because it was cancelled; its work never ran. */
export class LeftTheLine extends Error {
  constructor() {
    super('cancelled while waiting for a slot');
    this.name = 'LeftTheLine';
  }
}

/**
 * `semaphore.runExclusive(work, weight)`, unless `leave` aborts while waiting: then it rejects at
 * once, and the place it was waiting for is given straight back when it comes.
 */
async function inTurn<T>(
  semaphore: SemaphoreType,
  weight: number,
  work: () => Promise<T>,
  leave: AbortSignal | undefined,
): Promise<T> {
  if (!leave) return semaphore.runExclusive(work, weight);
  if (leave.aborted) throw new LeftTheLine();
  const acquiring = semaphore.acquire(weight);
  let onAbort!: () => void;
  const left = new Promise<never>((_, reject) => {
    onAbort = () => reject(new LeftTheLine());
    leave.addEventListener('abort', onAbort, { once: true });
  });
  let release: () => void;
  try {
    [, release] = await Promise.race([acquiring, left]);
  } catch (err) {
    if (err instanceof LeftTheLine)
      acquiring.then(
        ([, given]) => given(),
        () => undefined,
      );
    throw err;
  } finally {
    leave.removeEventListener('abort', onAbort);
  }
  try {
    return await work();
  } finally {
    release();
  }
}
