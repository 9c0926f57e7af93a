import { Semaphore } from 'async-mutex';

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

  /** Runs `work` once `size` bytes fit in the budget, and gives them back after. */
  holdingBytes<T>(size: number, work: () => Promise<T>): Promise<T> {
    const weight = Math.min(this.budgetKb, Math.max(1, Math.ceil(size / 1024)));
    return this.bytes.runExclusive(work, weight);
  }

  /** Runs a conversion once a worker thread is free; its deadline starts then, not while it waits. */
  converting<T>(work: () => Promise<T>): Promise<T> {
    return this.cpu.runExclusive(work);
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
