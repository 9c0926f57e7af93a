import type { Broker, ChannelWrapper, TopologyNames } from '@markwright/contracts';

export interface JobsQueueState {
  /** Jobs waiting for a converter (ready, not yet delivered). */
  waiting: number;
  consumers: number;
}

/** Reads the jobs queue's length with a passive check on a channel of its own (a failed check closes its channel). */
export class JobsQueueProbe {
  private constructor(
    private readonly channel: ChannelWrapper,
    private readonly queue: string,
  ) {}

  static async create(broker: Broker, names: TopologyNames): Promise<JobsQueueProbe> {
    return new JobsQueueProbe(await broker.channel(async () => undefined), names.jobsQueue);
  }

  async read(): Promise<JobsQueueState> {
    const { messageCount, consumerCount } = await this.channel.checkQueue(this.queue);
    return { waiting: messageCount, consumers: consumerCount };
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
