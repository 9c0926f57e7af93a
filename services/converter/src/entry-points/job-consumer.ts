import type { Logger } from '@markwright/config';
import type { PartRange } from '@markwright/db';
import {
  assertConversionTopology,
  type Broker,
  type CarriedUpload,
  type ChannelWrapper,
  conversionJobSchema,
  decode,
  QueueConsumer,
  type TopologyNames,
} from '@markwright/contracts';

export interface JobHandlers {
  /** `part`: one page range of a long document split across converters (issue 22). */
  onJob: (conversionId: string, part?: PartRange, upload?: CarriedUpload) => Promise<void>;
  onDeadJob: (conversionId: string) => Promise<void>;
  /** Stopping: no more jobs arrive; jobs taken but not started should give up so they are requeued. */
  onStopping?: () => void;
}

/**
 * The converter's queue entry point: the jobs queue (prefetch: jobs in flight, more than convert at once) and its dead-letter
 * queue. A job is acked only after its result is committed and announced; an infrastructure error
 * requeues it (the quorum queue's delivery limit dead-letters a job that keeps failing), and a
 * crash leaves it unacked for redelivery.
 */
export async function consumeJobs(
  broker: Broker,
  names: TopologyNames,
  logger: Logger,
  options: { prefetch: number; deliveryLimit: number },
  handlers: JobHandlers,
): Promise<{ stop(): Promise<void> }> {
  const consumer = new QueueConsumer(logger);
  const parse = (body: Buffer) => decode(conversionJobSchema, body);
  const channel: ChannelWrapper = await broker.channel(async (ch) => {
    await assertConversionTopology(ch, names, options.deliveryLimit);
    await ch.prefetch(options.prefetch);
    await consumer.consume(ch, names.jobsQueue, parse, (job) => handlers.onJob(job.conversionId, job.part, job.upload));
    await consumer.consume(ch, names.deadJobsQueue, parse, (job) => handlers.onDeadJob(job.conversionId));
  });
  return {
    /** Stops taking jobs and waits for the ones in flight to finish. */
    async stop() {
      await channel.cancelAll();
      handlers.onStopping?.();
      await consumer.drain();
      await channel.close();
    },
  };
}
