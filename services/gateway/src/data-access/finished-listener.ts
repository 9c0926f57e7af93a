import {
  type Broker,
  type ConversionFinished,
  type ChannelWrapper,
  conversionFinishedSchema,
  decode,
  ROUTING,
  type TopologyNames,
} from '@markwright/contracts';

/** What a waiting sync request learns: the status, and the result when the event carries it. */
export type FinishedNotice = Pick<ConversionFinished, 'status' | 'result'>;
type Waiter = (notice: FinishedNotice) => void;

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
          if (event) this.notify(event);
        },
        { noAck: true },
      );
    });
  }

  /** Resolves with the first announcement that the conversion finished; `cancel` forgets the waiter. */
  waitFor(conversionId: string): { promise: Promise<FinishedNotice>; cancel: () => void } {
    let waiter!: Waiter;
    const promise = new Promise<FinishedNotice>((resolve) => (waiter = resolve));
    const set = this.waiters.get(conversionId) ?? new Set();
    set.add(waiter);
    this.waiters.set(conversionId, set);
    const cancel = (): void => {
      set.delete(waiter);
      if (set.size === 0) this.waiters.delete(conversionId);
    };
    return { promise, cancel };
  }

  private notify(event: ConversionFinished): void {
    for (const waiter of this.waiters.get(event.conversionId) ?? [])
      waiter({ status: event.status, result: event.result });
  }

  async close(): Promise<void> {
    await this.channel?.close();
  }
}
