import {
  type Broker,
  type ConversionFinished,
  conversionFinishedEventsSchema,
  conversionFinishedSchema,
  encode,
  EventsPublisher,
  FINISHED_EVENTS_SHARED_MAX_CHARS,
  ROUTING,
  type TopologyNames,
} from '@markwright/contracts';
import { type Db, StatementBatch } from '@markwright/db';
import { finishedState, type FinishedState } from './conversion-store';

/** Sync events per message at most: as many as a converter completes by one statement. */
const SYNC_EVENTS_PER_MESSAGE = 64;

/**
 * Publishes "finished" (confirmed by the broker) so the gateway (sync) or the dispatcher (async) can act.
 * Sync events announced while a sync message is being confirmed go together in the next message
 * (as grouped statements do): the results one completion statement stored cost one publish, one
 * confirm and one delivery to each gateway instead of one each.
 */
export class FinishedAnnouncer {
  private readonly syncEvents: StatementBatch<ConversionFinished, undefined>;

  private constructor(private readonly events: EventsPublisher) {
    this.syncEvents = new StatementBatch({
      maxBatch: SYNC_EVENTS_PER_MESSAGE,
      run: async (batch) => {
        const body =
          batch.length === 1
            ? encode(conversionFinishedSchema, batch[0]!)
            : encode(conversionFinishedEventsSchema, batch);
        await this.events.publish(ROUTING.finished('sync'), body);
        return batch.map(() => undefined);
      },
      alone: (event) => (event.result?.markdown?.length ?? 0) > FINISHED_EVENTS_SHARED_MAX_CHARS,
    });
  }

  static async create(broker: Broker, names: TopologyNames): Promise<FinishedAnnouncer> {
    return new FinishedAnnouncer(await EventsPublisher.open(broker, names));
  }

  /** `known`: the state this converter just stored; without it the row is read (redelivered or dead jobs). */
  async announce(db: Db, conversionId: string, known?: FinishedState): Promise<void> {
    const state = known ?? (await finishedState(db, conversionId));
    if (!state) return;
    const event: ConversionFinished = { conversionId, ...state };
    if (state.mode === 'sync') {
      await this.syncEvents.call(event);
      return;
    }
    await this.events.publish(ROUTING.finished(state.mode), encode(conversionFinishedSchema, event));
  }

  close(): Promise<void> {
    return this.events.close();
  }
}
