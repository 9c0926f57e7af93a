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

  async run<T>(weight: number, work: () => Promise<T>): Promise<T> {
    await this.take(weight);
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

  private take(weight: number): Promise<void> {
    if (this.queue.length === 0 && weight <= this.free) {
      this.free -= weight;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.queue.push({ weight, resolve, reject }));
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

  /** Runs `work` once `size` bytes fit in the budget, and gives them back after. */
  holdingBytes<T>(size: number, work: () => Promise<T>): Promise<T> {
    const weight = Math.min(this.budgetKb, Math.max(1, Math.ceil(size / 1024)));
    return this.bytes.run(weight, work);
  }

  /** Runs a conversion once a worker thread is free; its deadline starts then, not while it waits. */
  converting<T>(work: () => Promise<T>): Promise<T> {
    return this.cpu.run(1, work);
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
