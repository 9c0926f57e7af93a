import {
  assertConversionTopology,
  type Broker,
  type ChannelWrapper,
  type ConfirmChannel,
  type ConsumeMessage,
  settle,
  conversionFinishedSchema,
  conversionJobSchema,
  decode,
  encode,
  FINISHED_EVENT_INLINE_MAX_CHARS,
  publishPersistent,
  ROUTING,
  type TopologyNames,
} from '@markwright/contracts';
import type { Db } from '@markwright/db';
import type { Logger } from '@markwright/config';

interface FinishedRow {
  status: string;
  mode: string;
  markdown: string | null;
  metadata: unknown;
  tokenOptimization: unknown;
  error: string | null;
  inline: boolean;
}

export interface ConsumerHandlers {
  onJob: (conversionId: string) => Promise<void>;
  onDeadJob: (conversionId: string) => Promise<void>;
}

/**
 * Consumes the jobs queue with prefetch = concurrency and acks only after the result is
 * committed and announced. An infrastructure error nacks with requeue (the quorum queue's
 * delivery limit dead-letters a job that keeps failing); a crash leaves it unacked for redelivery.
 */
export class JobConsumer {
  private channel?: ChannelWrapper;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly broker: Broker,
    private readonly names: TopologyNames,
    private readonly logger: Logger,
  ) {}

  async start(concurrency: number, deliveryLimit: number, handlers: ConsumerHandlers): Promise<void> {
    this.channel = await this.broker.channel(async (ch) => {
      await assertConversionTopology(ch, this.names, deliveryLimit);
      await ch.prefetch(concurrency);
      await ch.consume(this.names.jobsQueue, (msg) => msg && this.track(this.handle(ch, msg, handlers.onJob)));
      await ch.consume(this.names.deadJobsQueue, (msg) => msg && this.track(this.handle(ch, msg, handlers.onDeadJob)));
    });
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async handle(ch: ConfirmChannel, msg: ConsumeMessage, handler: (id: string) => Promise<void>): Promise<void> {
    const job = decode(conversionJobSchema, msg.content);
    if (!job) {
      this.logger.warn('malformed job message dead-lettered');
      settle(() => ch.nack(msg, false, false));
      return;
    }
    try {
      await handler(job.conversionId);
      settle(() => ch.ack(msg));
    } catch (err) {
      this.logger.error({ conversionId: job.conversionId, err: (err as Error).message }, 'job failed; requeued');
      settle(() => ch.nack(msg, false, true));
    }
  }

  /**
   * Publishes "finished" so the gateway (sync) or the dispatcher (async) can act. A sync event
   * carries the result when its markdown is small, so the waiting request need not read the row.
   */
  async announce(db: Db, conversionId: string): Promise<void> {
    const [row] = await db.$queryRaw<FinishedRow[]>`
      SELECT status, mode, error, metadata, token_optimization AS "tokenOptimization",
             length(markdown) <= ${FINISHED_EVENT_INLINE_MAX_CHARS} OR markdown IS NULL AS inline,
             CASE WHEN mode = 'sync' AND length(markdown) <= ${FINISHED_EVENT_INLINE_MAX_CHARS} THEN markdown END AS markdown
      FROM conversions WHERE id = ${conversionId}::uuid`;
    if (!row || (row.status !== 'completed' && row.status !== 'failed')) return;
    const mode = row.mode === 'async' ? 'async' : 'sync';
    const result =
      mode === 'sync' && row.inline
        ? { markdown: row.markdown, metadata: row.metadata, tokenOptimization: row.tokenOptimization, error: row.error }
        : undefined;
    const body = encode(conversionFinishedSchema, { conversionId, status: row.status, mode, result });
    await publishPersistent(this.channel!, this.names.eventsExchange, ROUTING.finished(mode), body);
  }

  /** Stops taking jobs and waits for the ones in flight to finish. */
  async stop(): Promise<void> {
    await this.channel?.cancelAll();
    await Promise.allSettled([...this.inFlight]);
    await this.channel?.close();
  }
}
