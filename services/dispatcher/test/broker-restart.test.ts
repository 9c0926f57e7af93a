import { execFileSync } from 'node:child_process';
import request from 'supertest';
import { eventually, silentLogger } from '@markwright/test-support';
import { bearer, startStack, type Stack } from '../../gateway/test/stack';
import { startDispatcher, type DispatcherService } from '../src/dispatcher-service';
import { makeCertificate, startReceiver } from './receiver';

/** Stops and starts the RabbitMQ application on this machine (the test suite runs in band, so no other file is using it). */
function restartBroker(pauseMs: number): void {
  execFileSync('rabbitmqctl', ['stop_app'], { stdio: 'ignore', timeout: 60_000 });
  execFileSync('sleep', [String(pauseMs / 1000)]);
  execFileSync('rabbitmqctl', ['start_app'], { stdio: 'ignore', timeout: 60_000 });
  execFileSync('rabbitmqctl', ['await_startup'], { stdio: 'ignore', timeout: 60_000 });
}

const cert = makeCertificate();
let stack: Stack;
let dispatcher: DispatcherService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  stack = await startStack({
    env: { WEBHOOK_RETRY_DELAYS_MS: '1000,1500', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
  });
  dispatcher = await startDispatcher(stack.env.config, silentLogger);
  receiver = await startReceiver(cert);
}, 60_000);
afterAll(async () => {
  execFileSync('rabbitmqctl', ['start_app'], { stdio: 'ignore', timeout: 60_000 });
  await dispatcher?.stop();
  await receiver?.close();
  await stack?.stop();
  cert.cleanup();
}, 120_000);

it('When RabbitMQ restarts while a webhook retry is pending, then the retry is still delivered', async () => {
  const { token } = await stack.workspace('business', 10);
  receiver.script('/broker', [500, 200]);
  const res = await request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token))
    .field('webhook_url', receiver.url('/broker'))
    .attach('file', Buffer.from('hello'), 'a.txt');
  const id = res.body.id as string;
  await eventually(async () => (receiver.for('/broker').length === 1 ? true : undefined), 30_000);
  restartBroker(2000);
  await eventually(
    async () =>
      (await stack.gateway.db.webhookAttempt.count({ where: { conversionId: id, succeeded: true } })) === 1
        ? true
        : undefined,
    60_000,
    250,
  );
  expect(receiver.for('/broker').map((h) => h.headers['x-webhook-attempt'])).toEqual(['1', '2']);
}, 120_000);
