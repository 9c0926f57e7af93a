import {
  type Broker,
  conversionFinishedSchema,
  encode,
  EventsPublisher,
  ROUTING,
  type TopologyNames,
} from '@markwright/contracts';
import type { Db } from '@markwright/db';
import { finishedState, type FinishedState } from './conversion-store';

/** Publishes "finished" (confirmed by the broker) so the gateway (sync) or the dispatcher (async) can act. */
export class FinishedAnnouncer {
  private constructor(private readonly events: EventsPublisher) {}

  static async create(broker: Broker, names: TopologyNames): Promise<FinishedAnnouncer> {
    return new FinishedAnnouncer(await EventsPublisher.open(broker, names));
  }

  /** `known`: the state this converter just stored; without it the row is read (redelivered or dead jobs). */
  async announce(db: Db, conversionId: string, known?: FinishedState): Promise<void> {
    const state = known ?? (await finishedState(db, conversionId));
    if (!state) return;
    const body = encode(conversionFinishedSchema, { conversionId, ...state });
    await this.events.publish(ROUTING.finished(state.mode), body);
  }

  close(): Promise<void> {
    return this.events.close();
  }
}
