import {
  type Broker,
  type ChannelWrapper,
  assertConversionTopology,
  conversionJobSchema,
  encode,
  publishPersistent,
  type TopologyNames,
} from '@markwright/contracts';

/** Publishes conversion jobs with publisher confirms onto the durable jobs queue. */
export class JobPublisher {
  private constructor(
    private readonly channel: ChannelWrapper,
    private readonly names: TopologyNames,
  ) {}

  static async create(broker: Broker, names: TopologyNames, deliveryLimit: number): Promise<JobPublisher> {
    const channel = await broker.channel((ch) => assertConversionTopology(ch, names, deliveryLimit));
    return new JobPublisher(channel, names);
  }

  async publish(conversionId: string): Promise<void> {
    await publishPersistent(this.channel, '', this.names.jobsQueue, encode(conversionJobSchema, { conversionId }));
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
