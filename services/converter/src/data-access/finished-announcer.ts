import {
  type Broker,
  type ChannelWrapper,
  conversionFinishedSchema,
  encode,
  publishPersistent,
  ROUTING,
  type TopologyNames,
} from '@markwright/contracts';
import type { Db } from '@markwright/db';
import { finishedState, type FinishedState } from './conversion-store';

/** Publishes "finished" (confirmed by the broker) so the gateway (sync) or the dispatcher (async) can act. */
export class FinishedAnnouncer {
  private constructor(
    private readonly channel: ChannelWrapper,
    private readonly names: TopologyNames,
  ) {}

  static async create(broker: Broker, names: TopologyNames): Promise<FinishedAnnouncer> {
    const channel = await broker.channel(async (ch) => {
      await ch.assertExchange(names.eventsExchange, 'topic', { durable: true });
    });
    return new FinishedAnnouncer(channel, names);
  }

  /** `known`: the state this converter just stored; without it the row is read (redelivered or dead jobs). */
  async announce(db: Db, conversionId: string, known?: FinishedState): Promise<void> {
    const state = known ?? (await finishedState(db, conversionId));
    if (!state) return;
    const body = encode(conversionFinishedSchema, { conversionId, ...state });
    await publishPersistent(this.channel, this.names.eventsExchange, ROUTING.finished(state.mode), body);
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
