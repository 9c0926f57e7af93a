import { eventually, silentLogger } from '@markwright/test-support';
import { startStack, type Stack } from '../../../services/gateway/test/stack';
import { startFileHost } from '../../../services/gateway/test/file-host';
import { startDispatcher, type DispatcherService } from '../../../services/dispatcher/src/dispatcher-service';
import { makeCertificate, startReceiver } from '../../../services/dispatcher/test/receiver';
import { AtCapacityError, MarkwrightClient, MarkwrightError, ValidationError } from '../src';

const cert = makeCertificate();
let stack: Stack;
let dispatcher: DispatcherService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let host: Awaited<ReturnType<typeof startFileHost>>;
let client: MarkwrightClient;

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  stack = await startStack({ env: { ALLOW_PRIVATE_NETWORKS: 'true' } });
  dispatcher = await startDispatcher(stack.env.config, silentLogger);
  receiver = await startReceiver(cert);
  host = await startFileHost(cert);
  const { token } = await stack.workspace('business', 100);
  client = new MarkwrightClient({ baseUrl: stack.gateway.url, token });
}, 60_000);
afterAll(async () => {
  await dispatcher.stop();
  await receiver.close();
  await host.close();
  await stack.stop();
  cert.cleanup();
});

async function failure<E extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  return err as E;
}

describe('@markwright/client: file_url, redeliver, at capacity', () => {
  it('When fileUrl is given instead of a file, then the service downloads and converts it', async () => {
    host.answer('/shared/note.md', { body: '# Shared\n' });
    const result = await client.convert(null, { fileUrl: host.url('/shared/note.md') });
    expect(result).toMatchObject({ success: true, markdown: '# Shared\n', credits_used: 1 });
  });

  it('When the download fails, then it throws ValidationError on file_url', async () => {
    const err = await failure(client.convert(null, { fileUrl: host.url('/gone.md') }), ValidationError);
    expect(err.errors).toEqual({ file_url: ['The file url could not be downloaded: the server answered 404.'] });
  });

  it('When redeliverWebhook is called for a delivered conversion, then it answers 202 and the receiver gets the event again', async () => {
    receiver.script('/client-hook', [200]);
    const queued = await client.convert(
      { data: Buffer.from('# Hook\n'), filename: 'hook.md' },
      { webhookUrl: receiver.url('/client-hook') },
    );
    await eventually(async () => (receiver.for('/client-hook').length === 1 ? true : undefined), 20_000);
    const accepted = await client.redeliverWebhook(queued.id);
    expect(accepted).toEqual({
      id: queued.id,
      message: 'The webhook is being sent again: up to 3 attempts; webhook_delivered shows the outcome.',
      status_url: `/api/v1/conversions/${queued.id}`,
    });
    const hits = await eventually(
      async () => (receiver.for('/client-hook').length === 2 ? receiver.for('/client-hook') : undefined),
      20_000,
    );
    expect(hits[1]!.headers['webhook-id']).toBe(queued.id);
  });

  it('When redeliverWebhook is called for a sync conversion, then it throws MarkwrightError 409 no_webhook', async () => {
    await client.convert({ data: Buffer.from('# Sync\n'), filename: 'sync.md' });
    const [row] = await stack.gateway.db.conversion.findMany({ where: { mode: 'sync' }, take: 1 });
    const err = await failure(client.redeliverWebhook(row!.id), MarkwrightError);
    expect([err.status, err.code]).toEqual([409, 'no_webhook']);
  });

  it('When the jobs queue is full, then convert throws AtCapacityError with Retry-After', async () => {
    // A stack of its own with a tiny limit and no converter: the other tests' jobs never count.
    const full = await startStack({ env: { MAX_QUEUED_JOBS: '2' } });
    try {
      await full.stopConverter();
      const { token } = await full.workspace('business', 10);
      const fullClient = new MarkwrightClient({ baseUrl: full.gateway.url, token });
      const file = { data: Buffer.from('# Waiting\n'), filename: 'waiting.md' };
      const options = { webhookUrl: receiver.url('/later') };
      await fullClient.convert(file, options);
      await fullClient.convert(file, options);
      const err = await failure(fullClient.convert(file, options), AtCapacityError);
      expect([err.status, err.code, err.retryAfterSeconds]).toEqual([503, 'at_capacity', 5]);
    } finally {
      await full.stop();
    }
  }, 60_000);
});
