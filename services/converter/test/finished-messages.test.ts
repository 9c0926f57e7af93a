import amqplib from 'amqplib';
import { randomUUID } from 'node:crypto';
import {
  Broker,
  conversionFinishedEventsSchema,
  decode,
  FINISHED_EVENTS_SHARED_MAX_CHARS,
  ROUTING,
  topologyNames,
} from '@markwright/contracts';
import { createTestEnv, eventually, type TestEnv } from '@markwright/test-support';
import { FinishedAnnouncer } from '../src/data-access/finished-announcer';
import type { FinishedState } from '../src/data-access/conversion-store';

let env: TestEnv;
let broker: Broker;
let announcer: FinishedAnnouncer;
let conn: amqplib.ChannelModel;
let ch: amqplib.Channel;
let heard: string;
beforeAll(async () => {
  env = await createTestEnv();
  broker = await Broker.connect(env.config.AMQP_URL);
  announcer = await FinishedAnnouncer.create(broker, topologyNames(env.prefix));
  conn = await amqplib.connect(env.config.AMQP_URL);
  ch = await conn.createChannel();
  // A queue bound as a gateway's own: every sync "finished" message.
  heard = (await ch.assertQueue('', { exclusive: true })).queue;
  await ch.bindQueue(heard, topologyNames(env.prefix).eventsExchange, ROUTING.finished('sync'));
});
afterAll(async () => {
  await conn?.close();
  await announcer?.close();
  await broker?.close();
  await env?.cleanup();
});

/** The messages on the queue now, each as the list of events it carries (as the gateway's listener decodes it). */
async function messages(expectedEvents: number): Promise<string[][]> {
  const got: string[][] = [];
  await eventually(async () => {
    for (let m = await ch.get(heard, { noAck: true }); m; m = await ch.get(heard, { noAck: true })) {
      got.push(decode(conversionFinishedEventsSchema, m.content)!.map((e) => e.conversionId));
    }
    return got.flat().length >= expectedEvents ? true : undefined;
  });
  return got;
}

const completed = (markdown: string): FinishedState => ({
  status: 'completed',
  mode: 'sync',
  result: { markdown, metadata: null, tokenOptimization: null, error: null },
});

describe('Sync "finished" messages', () => {
  it('When sync conversions finish together, then one message announces them all, and a lone one goes as a single event', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    // Never touched: a known state is announced without reading the row.
    const db = undefined as never;
    await Promise.all(ids.map((id) => announcer.announce(db, id, completed('text\n'))));
    expect(await messages(3)).toEqual([ids]);

    const lone = randomUUID();
    await announcer.announce(db, lone, completed('text\n'));
    expect(await messages(1)).toEqual([[lone]]);
  });

  it('When a result is longer than the shared limit, then it is announced by a message of its own', async () => {
    const [long, short] = [randomUUID(), randomUUID()];
    const db = undefined as never;
    await Promise.all([
      announcer.announce(db, long, completed('a'.repeat(FINISHED_EVENTS_SHARED_MAX_CHARS + 1))),
      announcer.announce(db, short, completed('text\n')),
    ]);
    const got = await messages(2);
    expect(got.map((events) => events.length)).toEqual([1, 1]);
    expect(got.flat().sort()).toEqual([long, short].sort());
  });
});
