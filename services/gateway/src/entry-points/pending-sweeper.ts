import { republishStalePending, type RepublishDeps } from '../domain/republish-pending';

/** A timer entry point: every interval, publishes stale pending conversions again. One sweep at a time. */
export class PendingSweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(private readonly deps: RepublishDeps) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweepOnce()
        .then(() => undefined)
        .catch((err: Error) => this.deps.logger.warn({ err: err.message }, 'sweep failed'))
        .finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  sweepOnce(): Promise<number> {
    return republishStalePending(this.deps);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
