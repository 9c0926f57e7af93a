import type { Socket } from 'node:net';
import amqplib from 'amqplib';
import { TEST_AMQP_URL } from '@markwright/test-support';

/**
 * patches/amqplib@2.3.1.patch: the frames amqplib's channels have ready in one tick (acks and
 * publishes of many jobs finishing together) leave in one socket write, not one write each.
 */
describe('amqplib socket writes', () => {
  it('When twenty messages are published in one tick, then they leave the socket in a few writes (not one each), and all arrive', async () => {
    const connection = await amqplib.connect(TEST_AMQP_URL);
    try {
      const channel = await connection.createChannel();
      const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
      const socket = (connection as unknown as { connection: { stream: Socket } }).connection.stream;
      let writes = 0;
      const original = { write: socket._write.bind(socket), writev: socket._writev?.bind(socket) };
      socket._write = (chunk, encoding, callback) => {
        writes++;
        original.write(chunk, encoding, callback);
      };
      socket._writev = (chunks, callback) => {
        writes++;
        original.writev!(chunks, callback);
      };
      for (let i = 0; i < 20; i++) channel.sendToQueue(queue, Buffer.from(String(i)));
      const received: string[] = [];
      await new Promise<void>((resolve) => {
        void channel.consume(
          queue,
          (msg) => {
            received.push(msg!.content.toString());
            if (received.length === 20) resolve();
          },
          { noAck: true },
        );
      });
      // The consume itself is one more frame, written in a later tick.
      expect(writes).toBeLessThanOrEqual(3);
      expect(received).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    } finally {
      await connection.close();
    }
  });
});
