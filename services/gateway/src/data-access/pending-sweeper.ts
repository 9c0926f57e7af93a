import type { Db } from '@markwright/db';
import type { Logger } from '@markwright/config';
import { claimStalePending } from './conversion-repository';
import type { JobPublisher } from './job-publisher';

const SWEEP_BATCH = 100;

/**
 * The database row is the source of truth: conversions still pending after `republishAfterMs`
 * (publish failed, broker lost the message, gateway died) are published again. SKIP LOCKED
 * lets several gateway replicas sweep without publishing the same row twice in one pass.
 */
export class PendingSweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly publisher: JobPublisher,
    private readonly logger: Logger,
    private readonly republishAfterMs: number,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweepOnce()
        .then(() => undefined)
        .catch((err: Error) => this.logger.warn({ err: err.message }, 'sweep failed'))
        .finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  async sweepOnce(): Promise<number> {
    const ids = await claimStalePending(this.db, new Date(Date.now() - this.republishAfterMs), SWEEP_BATCH);
    for (const conversionId of ids) {
      await this.publisher.publish(conversionId);
      this.logger.info({ conversionId }, 'republished stale pending conversion');
    }
    return ids.length;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
