import amqp, { type AmqpConnectionManager, type ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { unreachable } from '@markwright/config';

export type { ConfirmChannel, ConsumeMessage, ChannelWrapper };

const SETUP_RETRY_MS = 1000;

/**
 * A broker connection that reconnects by itself (amqp-connection-manager) and re-runs each
 * channel's setup (topology, consumers) after a reconnect. Publishes use publisher confirms.
 */
export class Broker {
  private constructor(
    readonly connection: AmqpConnectionManager,
    private readonly url: string,
  ) {}

  /** Connects, failing with one clear line when RabbitMQ cannot be reached at start-up. */
  static async connect(url: string, timeoutMs = 10_000): Promise<Broker> {
    const connection = amqp.connect([url], { heartbeatIntervalInSeconds: 10, reconnectTimeInSeconds: 1 });
    connection.on('connectFailed', () => undefined);
    let lastError: unknown;
    connection.on('connectFailed', ({ err }) => (lastError = err));
    try {
      await connection.connect({ timeout: timeoutMs });
    } catch (err) {
      await connection.close().catch(() => undefined);
      throw unreachable('RabbitMQ', url, lastError ?? err);
    }
    return new Broker(connection, url);
  }

  /** A confirm channel whose setup runs now and after every reconnect. */
  async channel(setup: (channel: ConfirmChannel) => Promise<void>): Promise<ChannelWrapper> {
    // A setup that fails after a broker restart (e.g. a quorum queue not yet elected) leaves the
    // channel closed while the connection stays up; reconnecting re-runs every setup.
    const guarded = async (ch: ConfirmChannel): Promise<void> => {
      try {
        await setup(ch);
      } catch (err) {
        setTimeout(() => this.connection.reconnect(), SETUP_RETRY_MS).unref();
        throw err;
      }
    };
    const wrapper = this.connection.createChannel({ json: false, confirm: true, setup: guarded });
    wrapper.on('error', () => undefined);
    await wrapper.waitForConnect();
    return wrapper;
  }

  isConnected(): boolean {
    return this.connection.isConnected();
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

export async function publishPersistent(
  channel: ChannelWrapper,
  exchange: string,
  routingKey: string,
  body: Buffer,
  timeoutMs = 10_000,
): Promise<void> {
  await channel.publish(exchange, routingKey, body, {
    persistent: true,
    contentType: 'application/json',
    timeout: timeoutMs,
  });
}

/**
 * Acks or nacks on the channel that delivered the message. If that channel has closed (broker
 * restart, reconnect), the broker has already requeued the message, so there is nothing to do;
 * acking on a newer channel would be an unknown delivery tag and close it.
 */
export function settle(action: () => void): void {
  try {
    action();
  } catch {
    // Channel closed: the message is redelivered.
  }
}
