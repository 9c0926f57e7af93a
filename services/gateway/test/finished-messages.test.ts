import amqplib from 'amqplib';
import request from 'supertest';
import { eventually } from '@markwright/test-support';
import { conversionFinishedSchema, ROUTING, topologyNames } from '@markwright/contracts';
import { bearer, startStack, type Stack } from './stack';

let stack: Stack;
let conn: amqplib.ChannelModel;
let ch: amqplib.Channel;
beforeAll(async () => {
  // No converter: this file announces the results itself, and the rows stay pending (only the event can answer).
  stack = await startStack({ converter: false, env: { SYNC_TIMEOUT_MS: '20000' } });
  conn = await amqplib.connect(stack.env.config.AMQP_URL);
  ch = await conn.createChannel();
});
afterAll(async () => {
  await conn?.close();
  await stack?.stop();
});

describe('Sync "finished" messages', () => {
  it('When one message announces several sync results, then each waiting request answers with its own', async () => {
    const names = topologyNames(stack.env.prefix);
    const answers = [];
    const ids: string[] = [];
    for (const name of ['one.txt', 'two.txt']) {
      const { token } = await stack.workspace('starter', 10);
      answers.push(
        request(stack.gateway.url)
          .post('/convert')
          .set(...bearer(token))
          .attach('file', Buffer.from(name), name)
          .then((res) => [res.status, res.body.markdown]),
      );
      const job = await eventually(async () => (await ch.get(names.jobsQueue, { noAck: true })) || undefined);
      ids.push((JSON.parse(job.content.toString()) as { conversionId: string }).conversionId);
    }
    const events = ids.map((conversionId, i) =>
      conversionFinishedSchema.parse({
        conversionId,
        status: 'completed',
        mode: 'sync',
        result: { markdown: `# Result ${i + 1}\n`, metadata: null, tokenOptimization: null, error: null },
      }),
    );

    ch.publish(names.eventsExchange, ROUTING.finished('sync'), Buffer.from(JSON.stringify(events)));

    expect(await Promise.all(answers)).toEqual([
      [200, '# Result 1\n'],
      [200, '# Result 2\n'],
    ]);
  });
});
