import {
  type Broker,
  type ChannelWrapper,
  conversionFinishedSchema,
  decode,
  ROUTING,
  type TopologyNames,
} from '@markwright/contracts';
import type { FinishedWaiters } from '../domain/finished-waiters';

/**
 * A queue entry point: wakes sync requests when their conversion finishes. Each gateway replica
 * has its own exclusive queue bound to the sync "finished" events, and hands each event to the
 * waiting requests (domain/finished-waiters.ts).
 */
export class FinishedListener {
  private channel?: ChannelWrapper;

  constructor(private readonly waiters: FinishedWaiters) {}

  async start(broker: Broker, names: TopologyNames): Promise<void> {
    this.channel = await broker.channel(async (ch) => {
      await ch.assertExchange(names.eventsExchange, 'topic', { durable: true });
      const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
      await ch.bindQueue(queue, names.eventsExchange, ROUTING.finished('sync'));
      await ch.consume(
        queue,
        (msg) => {
          if (!msg) return;
          const event = decode(conversionFinishedSchema, msg.content);
          if (event) this.waiters.finished(event);
        },
        { noAck: true },
      );
    });
  }

  async close(): Promise<void> {
    await this.channel?.close();
  }
}
