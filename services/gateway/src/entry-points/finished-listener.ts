import {
  type Broker,
  conversionFinishedEventsSchema,
  decode,
  listenToEvents,
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
  private listening?: { close(): Promise<void> };

  constructor(private readonly waiters: FinishedWaiters) {}

  async start(broker: Broker, names: TopologyNames): Promise<void> {
    this.listening = await listenToEvents(broker, names, ROUTING.finished('sync'), (content) => {
      for (const event of decode(conversionFinishedEventsSchema, content) ?? []) this.waiters.finished(event);
    });
  }

  async close(): Promise<void> {
    await this.listening?.close();
  }
}
