import { type Broker, type ChannelWrapper, publishPersistent } from './broker';
import { type ConversionJob, conversionJobSchema, encode } from './messages';
import { assertConversionTopology, type TopologyNames } from './topology';

/**
 * Publishes conversion jobs with publisher confirms onto the durable jobs queue: the gateway's
 * new conversions, and the converter's page ranges of a long document (issue 22).
 */
export class JobPublisher {
  private constructor(
    private readonly channel: ChannelWrapper,
    private readonly names: TopologyNames,
  ) {}

  static async create(broker: Broker, names: TopologyNames, deliveryLimit: number): Promise<JobPublisher> {
    const channel = await broker.channel((ch) => assertConversionTopology(ch, names, deliveryLimit));
    return new JobPublisher(channel, names);
  }

  /** `part`: a page range of a long document; `upload`: a small sync upload carried along (see the schema). */
  async publish(conversionId: string, fields: Omit<ConversionJob, 'conversionId'> = {}): Promise<void> {
    const job: ConversionJob = { conversionId, ...fields };
    await publishPersistent(this.channel, '', this.names.jobsQueue, encode(conversionJobSchema, job));
  }

  /** How many consumers take jobs now: one per running converter (issue 22 sizes a long document's ranges by them). */
  async consumers(): Promise<number> {
    return (await this.channel.checkQueue(this.names.jobsQueue)).consumerCount;
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
