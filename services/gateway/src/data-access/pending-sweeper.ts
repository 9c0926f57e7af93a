import type { Db } from '@markwright/db';
import type { Logger } from '@markwright/config';
import { claimStalePending, deleteOrphanUploads } from './conversion-repository';
import type { JobPublisher } from '@markwright/contracts';

const SWEEP_BATCH = 100;
/** Far longer than storing an upload and charging for it can take. */
const ORPHAN_UPLOAD_AFTER_MS = 10 * 60_000;

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
    // An upload stored by a gateway that stopped before charging has no conversion: remove it.
    await deleteOrphanUploads(this.db, new Date(Date.now() - ORPHAN_UPLOAD_AFTER_MS));
    return ids.length;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
