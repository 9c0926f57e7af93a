import amqplib from 'amqplib';
import request from 'supertest';
import { eventually } from '@markwright/test-support';
import { failConversion } from '@markwright/db';
import { conversionJobSchema, encode, topologyNames } from '@markwright/contracts';
import { bearer, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    converter: false,
    env: { SYNC_TIMEOUT_MS: '1500', PENDING_REPUBLISH_AFTER_MS: '300', JOB_DELIVERY_LIMIT: '1' },
  });
});
afterAll(() => stack?.stop());

async function queueAsync(token: string, name: string, content: string): Promise<string> {
  const res = await request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token))
    .field('webhook_url', 'https://receiver.invalid/hook')
    .attach('file', Buffer.from(content), name);
  expect(res.status).toBe(202);
  return res.body.id;
}

async function statusOf(id: string): Promise<string> {
  return (await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } })).status;
}

async function withChannel<T>(fn: (ch: amqplib.Channel) => Promise<T>): Promise<T> {
  const conn = await amqplib.connect(stack.env.config.AMQP_URL);
  try {
    return await fn(await conn.createChannel());
  } finally {
    await conn.close();
  }
}

const names = () => topologyNames(stack.env.prefix);

describe('conversion lifecycle on the real broker', () => {
  it('When no converter answers within SYNC_TIMEOUT_MS, then the sync request gets 422 conversion_failed and is refunded', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 5);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .attach('file', Buffer.from('late'), 'late.txt');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'conversion_failed',
      message: 'The conversion did not finish within 2 seconds.',
    });
    const ws = await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
    expect(ws.creditBalance).toBe(5);
    const row = await stack.gateway.db.conversion.findFirstOrThrow({ where: { workspaceId } });
    expect(row.status).toBe('failed');
    expect(row.startedAt).toBeNull();
    // The job still in the queue reaches a converter later: the late result is dropped, nothing refunded twice.
    await stack.startConverter();
    try {
      await eventually(async () =>
        (await withChannel((ch) => ch.checkQueue(names().jobsQueue))).messageCount === 0 ? true : undefined,
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(await statusOf(row.id)).toBe('failed');
      expect(await stack.gateway.db.creditTransaction.count({ where: { conversionId: row.id, type: 'refund' } })).toBe(
        1,
      );
    } finally {
      await stack.stopConverter();
    }
  });

  it('When a job message is lost, then the sweeper publishes the pending conversion again and it completes', async () => {
    const { token } = await stack.workspace();
    const id = await queueAsync(token, 'lost.md', '# Lost\n');
    await withChannel((ch) => ch.purgeQueue(names().jobsQueue));
    await new Promise((r) => setTimeout(r, 400));
    await stack.startConverter();
    try {
      await eventually(async () => ((await statusOf(id)) === 'completed' ? true : undefined));
      const row = await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } });
      expect(row.publishCount).toBeGreaterThanOrEqual(2);
      expect(row.markdown).toBe('# Lost\n');
    } finally {
      await stack.stopConverter();
    }
  });

  it('When a failing job is delivered twice, then its credits are refunded exactly once', async () => {
    const { token, workspaceId } = await stack.workspace('free', 4);
    const id = await queueAsync(token, 'bad.json', '{');
    await withChannel(async (ch) => {
      ch.sendToQueue(names().jobsQueue, encode(conversionJobSchema, { conversionId: id }), { persistent: true });
    });
    await stack.startConverter();
    try {
      await eventually(async () => ((await statusOf(id)) === 'failed' ? true : undefined));
      await eventually(async () =>
        (await withChannel((ch) => ch.checkQueue(names().jobsQueue))).messageCount === 0 ? true : undefined,
      );
      expect(await failConversion(stack.gateway.db, id, 'again')).toBe(false);
      const refunds = await stack.gateway.db.creditTransaction.count({ where: { conversionId: id, type: 'refund' } });
      expect(refunds).toBe(1);
      expect((await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } })).creditBalance).toBe(
        4,
      );
    } finally {
      await stack.stopConverter();
    }
  });

  it('When a job keeps being returned past the delivery limit, then it is dead-lettered, failed and refunded', async () => {
    // The pending sweeper (300 ms here) would publish copies of the waiting job; on a busy machine the
    // converter then converted a copy before it read the dead letter, and the job completed instead.
    await stack.gateway.sweeper.stop();
    const { token, workspaceId } = await stack.workspace('free', 2);
    const id = await queueAsync(token, 'crash.txt', 'x');
    // A worker that dies mid-job returns the message; do that until the quorum queue's delivery limit
    // is passed. A returned message is back on the queue only once the queue has logged the return
    // (later on a busy broker), so each round takes it if it is there and looks for the dead letter.
    await withChannel((ch) =>
      eventually(async () => {
        const msg = await ch.get(names().jobsQueue, { noAck: false });
        if (msg) ch.nack(msg, false, true);
        return (await ch.checkQueue(names().deadJobsQueue)).messageCount >= 1 ? true : undefined;
      }),
    );
    await stack.startConverter();
    try {
      await eventually(async () => ((await statusOf(id)) === 'failed' ? true : undefined));
      const row = await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } });
      expect(row.error).toBe('The file could not be processed: the conversion stopped its worker repeatedly.');
      expect((await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } })).creditBalance).toBe(
        2,
      );
    } finally {
      await stack.stopConverter();
      stack.gateway.sweeper.start(stack.env.config.SWEEP_INTERVAL_MS);
    }
  });

  it('When the converter meets a corrupt document, then it stays up and converts the next job', async () => {
    const { token } = await stack.workspace();
    await stack.startConverter();
    try {
      const bad = await queueAsync(token, 'zip.docx', 'PK\u0003\u0004 not really a zip');
      const good = await queueAsync(token, 'ok.txt', 'fine');
      await eventually(async () => ((await statusOf(good)) === 'completed' ? true : undefined));
      await eventually(async () => ((await statusOf(bad)) === 'failed' ? true : undefined));
    } finally {
      await stack.stopConverter();
    }
  });
});
