import {
  type Broker,
  CANCEL_ROUTING_KEY,
  type ChannelWrapper,
  conversionCancelSchema,
  conversionFinishedSchema,
  encode,
  publishPersistent,
  ROUTING,
  type TopologyNames,
} from '@markwright/contracts';

/**
 * Tells the rest of the system that a conversion was cancelled (E7): the cancel broadcast, so
 * the converter running it aborts its worker, then the "finished" event, so the dispatcher sends
 * the failure webhook and a sync request waiting for it answers.
 */
export class CancellationPublisher {
  private constructor(
    private readonly channel: ChannelWrapper,
    private readonly names: TopologyNames,
  ) {}

  static async create(broker: Broker, names: TopologyNames): Promise<CancellationPublisher> {
    const channel = await broker.channel(async (ch) => {
      await ch.assertExchange(names.eventsExchange, 'topic', { durable: true });
    });
    return new CancellationPublisher(channel, names);
  }

  async announceCancelled(conversionId: string, mode: 'sync' | 'async', error: string): Promise<void> {
    const exchange = this.names.eventsExchange;
    await publishPersistent(
      this.channel,
      exchange,
      CANCEL_ROUTING_KEY,
      encode(conversionCancelSchema, { conversionId }),
    );
    const result = mode === 'sync' ? { markdown: null, metadata: null, tokenOptimization: null, error } : undefined;
    const finished = encode(conversionFinishedSchema, { conversionId, status: 'failed', mode, result });
    await publishPersistent(this.channel, exchange, ROUTING.finished(mode), finished);
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
