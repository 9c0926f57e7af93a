import type { ConsumeMessage } from 'amqplib';
import { type Broker, type ChannelWrapper, publishPersistent } from './broker';
import type { TopologyNames } from './topology';

/**
 * The conversion events exchange (finished events, cancel broadcasts), as every service uses it:
 * one place that declares it, publishes on it and listens to it.
 */
export async function assertEventsExchange(
  channel: { assertExchange: (name: string, type: string, options: { durable: boolean }) => Promise<unknown> },
  names: TopologyNames,
): Promise<void> {
  await channel.assertExchange(names.eventsExchange, 'topic', { durable: true });
}

/** Publishes persistent, broker-confirmed events on the events exchange, over a channel of its own. */
export class EventsPublisher {
  private constructor(
    private readonly channel: ChannelWrapper,
    private readonly exchange: string,
  ) {}

  /** Opens the channel; the exchange is declared now and after every reconnect. */
  static async open(broker: Broker, names: TopologyNames): Promise<EventsPublisher> {
    const channel = await broker.channel((ch) => assertEventsExchange(ch, names));
    return new EventsPublisher(channel, names.eventsExchange);
  }

  publish(routingKey: string, body: Buffer): Promise<void> {
    return publishPersistent(this.channel, this.exchange, routingKey, body);
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}

/**
 * Hears every event of `routingKey` on the events exchange: an exclusive, auto-deleted queue of
 * this process's own (re-declared and re-bound after a reconnect), without acks. For broadcasts
 * each process must hear (a cancel, a sync result); a lost one is a hint missed, never a job lost.
 */
export async function listenToEvents(
  broker: Broker,
  names: TopologyNames,
  routingKey: string,
  onEvent: (content: Buffer, message: ConsumeMessage) => void,
): Promise<{ close(): Promise<void> }> {
  const channel = await broker.channel(async (ch) => {
    await assertEventsExchange(ch, names);
    const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
    await ch.bindQueue(queue, names.eventsExchange, routingKey);
    await ch.consume(queue, (msg) => msg && onEvent(msg.content, msg), { noAck: true });
  });
  return { close: () => channel.close() };
}
