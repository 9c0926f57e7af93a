/** Uploads up to this size come with the job's claim (one statement); larger ones are read once there is room for them. */
export const INLINE_UPLOAD_BYTES = 1024 * 1024;

/** The error a job waiting for a slot rejects with when the converter stops. */
export class StoppedWaiting extends Error {
  constructor() {
    super('the converter is stopping: the job gives up its wait');
  }
}

interface Waiter {
  weight: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * A weighted budget handed out first come, first served: a waiter that does not fit holds back
 * the ones behind it, so a large job is not starved by small ones. Taking and giving back cost
 * the same whatever the budget's size. (async-mutex's Semaphore, used before, walks every unit of
 * the free budget on each release: 262,144 steps per job for a 256 MB budget counted in KB, the
 * largest item of the converter's profile under load.)
 */
class Budget {
  private free: number;
  private readonly queue: Waiter[] = [];

  constructor(size: number) {
    this.free = size;
  }

  /** Runs `work` holding `weight`; a `leave` that aborts while waiting takes the job out of the line (LeftTheLine). */
  async run<T>(weight: number, work: () => Promise<T>, leave?: AbortSignal): Promise<T> {
    await this.take(weight, leave);
    try {
      return await work();
    } finally {
      this.free += weight;
      this.dispatch();
    }
  }

  /** Every waiter gives up (rejects); holders keep what they hold. */
  cancel(): void {
    for (const waiter of this.queue.splice(0)) waiter.reject(new StoppedWaiting());
  }

  private take(weight: number, leave?: AbortSignal): Promise<void> {
    if (leave?.aborted) return Promise.reject(new LeftTheLine());
    if (this.queue.length === 0 && weight <= this.free) {
      this.free -= weight;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        reject(new LeftTheLine());
        // The line moved: those behind the job that left may fit now.
        this.dispatch();
      };
      const waiter: Waiter = {
        weight,
        resolve: () => {
          leave?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (err) => {
          leave?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      leave?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0 && this.queue[0]!.weight <= this.free) {
      const next = this.queue.shift()!;
      this.free -= next.weight;
      next.resolve();
    }
  }
}

/**
 * What a converter holds at once, decoupled from how many jobs it has taken from the queue: many
 * jobs in flight (their database and broker I/O overlaps), conversions bounded by the worker
 * threads (`cpu`), and uploads held in memory bounded by bytes (`maxBytes`). A job larger than
 * the whole byte budget still runs, alone.
 */
export class WorkSlots {
  private readonly cpu: Budget;
  private readonly bytes: Budget;
  private readonly budgetKb: number;

  constructor(cpu: number, maxBytes: number) {
    this.cpu = new Budget(cpu);
    this.budgetKb = Math.max(1, Math.floor(maxBytes / 1024));
    this.bytes = new Budget(this.budgetKb);
  }

  /**
   * Runs `work` once `size` bytes fit in the budget, and gives them back after. When `leave`
   * aborts first (a cancel), the job leaves the line with LeftTheLine and `work` never runs.
   */
  holdingBytes<T>(size: number, work: () => Promise<T>, leave?: AbortSignal): Promise<T> {
    const weight = Math.min(this.budgetKb, Math.max(1, Math.ceil(size / 1024)));
    return this.bytes.run(weight, work, leave);
  }

  /**
   * Runs a conversion once a worker thread is free; its deadline starts then, not while it waits.
   * When `leave` aborts first (a cancel), the job leaves the line with LeftTheLine and is never
   * converted: a cancelled job does not wait its turn for nothing.
   */
  converting<T>(work: () => Promise<T>, leave?: AbortSignal): Promise<T> {
    return this.cpu.run(1, work, leave);
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
