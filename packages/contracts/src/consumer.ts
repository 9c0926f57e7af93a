import type { Logger } from '@markwright/config';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { settle } from './broker';

/**
 * The one way a Markwright queue consumer settles its messages: a malformed body is
 * dead-lettered (nack, no requeue), a handled one is acked after its work is committed, a
 * handler that throws (infrastructure trouble) nacks with requeue. Work in flight is tracked
 * so a clean stop waits for it.
 */
export class QueueConsumer {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /** Starts consuming `queue` on `channel` (call it inside the channel's setup, so it is redone after a reconnect). */
  async consume<T extends { conversionId: string }>(
    channel: ConfirmChannel,
    queue: string,
    parse: (body: Buffer) => T | undefined,
    handle: (message: T) => Promise<void>,
  ): Promise<void> {
    await channel.consume(queue, (msg) => {
      if (!msg) return;
      const work = this.settleAfter(channel, queue, msg, parse, handle);
      this.inFlight.add(work);
      void work.finally(() => this.inFlight.delete(work));
    });
  }

  private async settleAfter<T extends { conversionId: string }>(
    channel: ConfirmChannel,
    queue: string,
    msg: ConsumeMessage,
    parse: (body: Buffer) => T | undefined,
    handle: (message: T) => Promise<void>,
  ): Promise<void> {
    const message = parse(msg.content);
    if (!message) {
      this.logger.warn({ queue }, 'malformed message dead-lettered');
      settle(() => channel.nack(msg, false, false));
      return;
    }
    try {
      await handle(message);
      settle(() => channel.ack(msg));
    } catch (err) {
      this.logger.error({ conversionId: message.conversionId, queue, err: (err as Error).message }, 'message requeued');
      settle(() => channel.nack(msg, false, true));
    }
  }

  /** Resolves once every message being handled has been settled. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
