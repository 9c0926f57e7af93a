import {
  type Broker,
  type ChannelWrapper,
  encode,
  publishPersistent,
  type TopologyNames,
  webhookAttemptSchema,
} from '@markwright/contracts';

/** Parks a webhook attempt in the broker's per-delay retry queue (confirmed, persistent). */
export class RetryScheduler {
  private constructor(
    private readonly channel: ChannelWrapper,
    private readonly names: TopologyNames,
  ) {}

  /** The retry queues are declared by the webhook consumer's setup. */
  static async create(broker: Broker, names: TopologyNames): Promise<RetryScheduler> {
    return new RetryScheduler(await broker.channel(async () => undefined), names);
  }

  async schedule(conversionId: string, series: number, attempt: number, delayMs: number): Promise<void> {
    const body = encode(webhookAttemptSchema, { conversionId, series, attempt });
    await publishPersistent(this.channel, '', this.names.webhookRetryQueue(delayMs), body);
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
