import { createTestEnv, eventually, type TestEnv } from '@markwright/test-support';
import { Broker, EventsPublisher, listenToEvents, topologyNames, type TopologyNames } from '../src';

/** The one events-exchange helper the gateway and converter publish and listen with, on a real RabbitMQ. */
let env: TestEnv;
let broker: Broker;
let names: TopologyNames;
beforeAll(async () => {
  env = await createTestEnv();
  broker = await Broker.connect(env.config.AMQP_URL);
  names = topologyNames(env.prefix);
});
afterAll(async () => {
  await broker?.close();
  await env?.cleanup();
});

describe('The events exchange helpers', () => {
  it('When an event is published, then every listener of its routing key hears it once, and a listener of another key does not', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const other: string[] = [];
    const listeners = [
      await listenToEvents(broker, names, 'test.cancel', (body) => void first.push(body.toString())),
      await listenToEvents(broker, names, 'test.cancel', (body) => void second.push(body.toString())),
      await listenToEvents(broker, names, 'test.other', (body) => void other.push(body.toString())),
    ];
    const events = await EventsPublisher.open(broker, names);
    try {
      await events.publish('test.cancel', Buffer.from('one'));
      await events.publish('test.cancel', Buffer.from('two'));
      await eventually(async () => (first.length === 2 && second.length === 2 ? true : undefined), 10_000);
      await events.publish('test.other', Buffer.from('three'));
      await eventually(async () => (other.length === 1 ? true : undefined), 10_000);
      expect({ first, second, other }).toEqual({ first: ['one', 'two'], second: ['one', 'two'], other: ['three'] });
    } finally {
      await events.close();
      for (const listener of listeners) await listener.close();
    }
  });

  it('When the publisher opens, then the exchange is the durable topic exchange of the topology (a passive check finds it)', async () => {
    const events = await EventsPublisher.open(broker, names);
    const amqplib = await import('amqplib');
    const conn = await amqplib.connect(env.config.AMQP_URL);
    try {
      const ch = await conn.createChannel();
      await expect(ch.checkExchange(names.eventsExchange)).resolves.toBeDefined();
      // Declaring it again with the topology's own arguments succeeds only if they match.
      await expect(ch.assertExchange(names.eventsExchange, 'topic', { durable: true })).resolves.toBeDefined();
      await ch.close();
    } finally {
      await conn.close();
      await events.close();
    }
  });
});
