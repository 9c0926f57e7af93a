import type { Db } from '@markwright/db';
import type { Logger } from '@markwright/config';
import type { CreditsMeter } from './accept-conversion';

/** Where cancels and deletions are reported (metrics), so the domain stays free of prom-client. */
export interface JobControlMeter {
  cancelled(): void;
  deleted(reason: 'request' | 'retention', count: number): void;
}

/** What the cancel, delete and retention use cases need. */
export interface JobControlDeps {
  db: Db;
  logger: Logger;
  /** Broadcasts the cancel to the converters and announces the failure (webhook, waiting sync request). */
  cancellations: { announceCancelled(conversionId: string, mode: 'sync' | 'async', error: string): Promise<void> };
  jobControl: JobControlMeter;
  credits: CreditsMeter;
}
