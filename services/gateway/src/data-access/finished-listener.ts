import {
  type Broker,
  type ChannelWrapper,
  conversionFinishedSchema,
  decode,
  ROUTING,
  type TopologyNames,
} from '@markwright/contracts';

type Waiter = () => void;

/**
 * Wakes sync requests when their conversion finishes. Each gateway replica has its own
 * exclusive queue bound to the sync "finished" events; waiters are keyed by conversion id.
 */
export class FinishedListener {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private channel?: ChannelWrapper;

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
          if (event) this.notify(event.conversionId);
        },
        { noAck: true },
      );
    });
  }

  /** Resolves when the conversion is announced finished, or when `signal` fires (timeout, poll). */
  waitFor(conversionId: string): { promise: Promise<void>; cancel: () => void } {
    let waiter!: Waiter;
    const promise = new Promise<void>((resolve) => (waiter = resolve));
    const set = this.waiters.get(conversionId) ?? new Set();
    set.add(waiter);
    this.waiters.set(conversionId, set);
    const cancel = (): void => {
      set.delete(waiter);
      if (set.size === 0) this.waiters.delete(conversionId);
    };
    return { promise, cancel };
  }

  private notify(conversionId: string): void {
    for (const waiter of this.waiters.get(conversionId) ?? []) waiter();
  }

  async close(): Promise<void> {
    await this.channel?.close();
  }
}
