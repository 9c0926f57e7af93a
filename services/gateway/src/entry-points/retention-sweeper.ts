import type { JobControlDeps } from '../domain/job-control';
import { sweepExpiredResults } from '../domain/delete-conversion';

/**
 * The retention timer (E8): every interval, one bounded sweep of results past
 * RESULT_RETENTION_HOURS and of idempotency keys past their window. One sweep at a time.
 */
export class RetentionSweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly deps: JobControlDeps,
    private readonly retentionHours: number | undefined,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweepOnce()
        .then(() => undefined)
        .catch((err: Error) => this.deps.logger.warn({ err: err.message }, 'retention sweep failed'))
        .finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  sweepOnce(): Promise<number> {
    return sweepExpiredResults(this.deps, this.retentionHours);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
