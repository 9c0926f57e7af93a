import {
  type Broker,
  CANCEL_ROUTING_KEY,
  conversionCancelSchema,
  conversionFinishedSchema,
  encode,
  EventsPublisher,
  ROUTING,
  type TopologyNames,
} from '@markwright/contracts';

/**
 * Tells the rest of the system that a conversion was cancelled (E7): the cancel broadcast, so
 * the converter running it aborts its worker, then the "finished" event, so the dispatcher sends
 * the failure webhook and a sync request waiting for it answers.
 */
export class CancellationPublisher {
  private constructor(private readonly events: EventsPublisher) {}

  static async create(broker: Broker, names: TopologyNames): Promise<CancellationPublisher> {
    return new CancellationPublisher(await EventsPublisher.open(broker, names));
  }

  async announceCancelled(conversionId: string, mode: 'sync' | 'async', error: string): Promise<void> {
    await this.events.publish(CANCEL_ROUTING_KEY, encode(conversionCancelSchema, { conversionId }));
    const result = mode === 'sync' ? { markdown: null, metadata: null, tokenOptimization: null, error } : undefined;
    const finished = encode(conversionFinishedSchema, { conversionId, status: 'failed', mode, result });
    await this.events.publish(ROUTING.finished(mode), finished);
  }

  close(): Promise<void> {
    return this.events.close();
  }
}
