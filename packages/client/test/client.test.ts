import { eventually, silentLogger } from '@markwright/test-support';
import { startStack, type Stack } from '../../../services/gateway/test/stack';
import { startDispatcher, type DispatcherService } from '../../../services/dispatcher/src/dispatcher-service';
import { makeCertificate, startReceiver } from '../../../services/dispatcher/test/receiver';
import {
  AuthenticationError,
  ConversionFailedError,
  ConversionTimeoutError,
  InsufficientCreditsError,
  MarkwrightClient,
  MarkwrightError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  ValidationError,
  verifyWebhook,
  type ConversionDetail,
  type QueuedConversion,
  type SyncConversionResult,
  type Page,
  type Chunk,
  type DocumentData,
  type WebhookPayload,
} from '../src';

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = 'a-webhook-secret-of-32-characters!';
const cert = makeCertificate();
let stack: Stack;
let dispatcher: DispatcherService | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
  dispatcher = await startDispatcher(stack.env.config, silentLogger);
  receiver = await startReceiver(cert);
}, 60_000);
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await stack?.stop();
  cert.cleanup();
});

async function clientFor(
  plan: Parameters<Stack['workspace']>[0] = 'business',
  credits = 100,
  options: { retryOn429?: boolean } = {},
) {
  const { token } = await stack.workspace(plan, credits);
  return new MarkwrightClient({ baseUrl: stack.gateway.url, token, ...options });
}

const hello = (name = 'hello.md', text = '# Hello\n\nSome *text*.\n') => ({ data: Buffer.from(text), filename: name });

/** Rejects unless `promise` fails with an error of `type`; returns that error for its fields. */
async function failure<E extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  return err as E;
}

describe('convert', () => {
  it('When no webhook URL is given, then the result is the sync body with markdown, metadata and token figures', async () => {
    const client = await clientFor('business', 10);
    const result = await client.convert(hello(), { includeMetadata: true, optimizeTokens: true });
    const typed: SyncConversionResult = result;
    // @ts-expect-error a sync result has no id: the overload without webhookUrl says so
    void result.status_url;
    expect(typed).toEqual({
      success: true,
      markdown: expect.stringContaining('# Hello'),
      credits_used: 1,
      credits_remaining: 9,
      metadata: { title: 'Hello', author: '', page_count: 1 },
      token_optimization: {
        original_tokens: expect.any(Number),
        optimized_tokens: expect.any(Number),
        reduction_percent: expect.any(Number),
      },
    });
    const { original_tokens: before, optimized_tokens: after, reduction_percent } = result.token_optimization!;
    expect(reduction_percent).toBe(Math.round((10_000 * (before - after)) / before) / 100);
  });

  it('When pages, chunks and the document are asked for (E1–E4), then the typed result carries them after the contract’s keys', async () => {
    const client = await clientFor('business', 10);
    const result = await client.convert(hello(), { includePages: true, chunkMaxTokens: 64, includeDocument: true });
    expect(Object.keys(result)).toEqual([
      'success',
      'markdown',
      'credits_used',
      'credits_remaining',
      'pages',
      'chunks',
      'document',
    ]);
    const pages: Page[] = result.pages!;
    const chunks: Chunk[] = result.chunks!;
    const document: DocumentData = result.document!;
    expect(pages).toEqual([{ number: 1, markdown: result.markdown.trim() }]);
    expect(chunks).toEqual([
      { index: 0, markdown: expect.stringContaining('# Hello'), tokens: expect.any(Number), pages: [1], headings: [] },
    ]);
    expect(chunks[0]!.tokens).toBeLessThanOrEqual(64);
    expect(document.version).toBe(1);
    expect(document.blocks[0]).toMatchObject({ type: 'heading', level: 1 });
  });

  it('When the options ask for nothing, then the sync body has neither metadata nor token_optimization', async () => {
    const client = await clientFor();
    const result = await client.convert(hello('note.txt', 'plain words'));
    expect(result).toEqual({ success: true, markdown: 'plain words\n', credits_used: 1, credits_remaining: 99 });
  });

  it('When a webhook URL is given, then it answers 202, waitForConversion gets the result, and the webhook verifies with verifyWebhook', async () => {
    const client = await clientFor('business', 10);
    receiver.script('/hook', [200]);
    const queued = await client.convert(hello(), {
      webhookUrl: receiver.url('/hook'),
      webhookSecret: SECRET,
      includeMetadata: true,
    });
    const ack: QueuedConversion = queued;
    // @ts-expect-error a 202 acknowledgement carries no markdown: the overload with webhookUrl says so
    void queued.markdown;
    expect(ack).toEqual({
      id: expect.stringMatching(UUID),
      status: 'pending',
      message: 'The conversion is queued. The result will be sent to the webhook URL when it is ready.',
      status_url: `/api/v1/conversions/${queued.id}`,
      credits_used: 1,
      credits_remaining: 9,
    });

    const done = await client.waitForConversion(queued.id, { initialDelayMs: 50, timeoutMs: 60_000 });
    if (done.status !== 'completed') throw new Error(`expected completed, got ${done.status}`);
    expect(done).toEqual({
      id: queued.id,
      status: 'completed',
      original_filename: 'hello.md',
      created_at: expect.stringMatching(TS),
      markdown: expect.stringContaining('# Hello'),
      metadata: { title: 'Hello', author: '', page_count: 1 },
      completed_at: expect.stringMatching(TS),
      webhook_delivered: expect.any(Boolean),
      can_retry_webhook: expect.any(Boolean),
    });

    const hit = await eventually(async () => receiver.for('/hook')[0]);
    expect(verifyWebhook(hit.body, hit.headers['x-webhook-signature'] as string, SECRET)).toBe(true);
    expect(verifyWebhook(hit.body, hit.headers['x-webhook-signature'] as string, `${SECRET}-other`)).toBe(false);
    const payload = JSON.parse(hit.body) as WebhookPayload;
    expect(payload).toEqual({
      id: queued.id,
      status: 'completed',
      created_at: done.created_at,
      markdown: done.markdown,
      completed_at: done.completed_at,
      metadata: done.metadata,
    });
  });
});

describe('getConversion and waitForConversion', () => {
  it('When the id does not exist, then getConversion throws NotFoundError with the contract body', async () => {
    const client = await clientFor();
    const err = await failure(client.getConversion('0192f2a0-0000-7000-8000-000000000000'), NotFoundError);
    expect([err.status, err.code, err.message]).toEqual([404, 'not_found', 'Conversion not found.']);
    expect(err.body).toEqual({ error: 'not_found', message: 'Conversion not found.' });
    expect(err).toBeInstanceOf(MarkwrightError);
  });

  it('When an async conversion fails, then waitForConversion returns it as failed with its error', async () => {
    const client = await clientFor();
    const queued = await client.convert(hello('bad.json', '{'), { webhookUrl: receiver.url('/bad') });
    const done = await client.waitForConversion(queued.id, { initialDelayMs: 50 });
    if (done.status !== 'failed') throw new Error(`expected failed, got ${done.status}`);
    expect(done.error).toMatch(/not valid JSON/);
    expect(Object.keys(done).sort()).toEqual(
      [
        'id',
        'status',
        'original_filename',
        'created_at',
        'error',
        'completed_at',
        'webhook_delivered',
        'can_retry_webhook',
      ].sort(),
    );
  });
});

describe('waitForConversion while no converter runs', () => {
  let client: MarkwrightClient;
  let queued: QueuedConversion;
  const polls: number[] = [];
  beforeAll(async () => {
    const { token } = await stack.workspace('business', 10);
    const recording: typeof fetch = (input, init) => {
      if (String(input).includes('/conversions/')) polls.push(Date.now());
      return fetch(input, init);
    };
    client = new MarkwrightClient({ baseUrl: stack.gateway.url, token, fetch: recording });
    await stack.stopConverter();
    queued = await client.convert(hello('later.txt', 'later'), { webhookUrl: receiver.url('/later') });
  });
  afterAll(async () => {
    if (!stack.converter) await stack?.startConverter();
  });

  it('When the conversion stays pending past the deadline, then it throws ConversionTimeoutError with the last status', async () => {
    const err = await failure(
      client.waitForConversion(queued.id, { timeoutMs: 300, initialDelayMs: 50 }),
      ConversionTimeoutError,
    );
    expect([err.conversionId, err.lastStatus, err.timeoutMs]).toEqual([queued.id, 'pending', 300]);
    const pending: ConversionDetail = await client.getConversion(queued.id);
    expect(pending).toEqual({
      id: queued.id,
      status: 'pending',
      original_filename: 'later.txt',
      created_at: expect.stringMatching(TS),
      webhook_delivered: false,
      can_retry_webhook: true,
    });
  });

  it('When it polls, then each pause doubles from initialDelayMs up to maxDelayMs', async () => {
    polls.length = 0;
    await failure(
      client.waitForConversion(queued.id, { timeoutMs: 3_000, initialDelayMs: 100, maxDelayMs: 400 }),
      ConversionTimeoutError,
    );
    const gaps = polls.slice(1).map((at, i) => at - polls[i]!);
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    // Lower bounds only: a pause is at least its backoff step (the last one may be cut by the deadline).
    gaps.slice(0, -1).forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(Math.min(100 * 2 ** i, 400) - 20));
  });

  it('When a converter starts, then waitForConversion returns the completed conversion', async () => {
    await stack.startConverter();
    const done = await client.waitForConversion(queued.id, { initialDelayMs: 50, maxDelayMs: 200 });
    expect(done).toMatchObject({ id: queued.id, status: 'completed', markdown: 'later\n' });
  });
});

describe('listConversions', () => {
  it('When there are more conversions than a page holds, then iterating reads every page, newest first, each once', async () => {
    const client = await clientFor('business', 100);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      made.push((await client.convert(hello(`n${i}.txt`, `n${i}`), { webhookUrl: receiver.url('/list') })).id);
    }

    const pages = [];
    for await (const page of client.listConversions({ perPage: 3 }).pages()) pages.push(page);
    expect(pages.map((p) => [p.current_page, p.data.length, p.last_page, p.total, p.per_page])).toEqual([
      [1, 3, 3, 7, 3],
      [2, 3, 3, 7, 3],
      [3, 1, 3, 7, 3],
    ]);

    const ids: string[] = [];
    for await (const item of client.listConversions({ perPage: 3 })) ids.push(item.id);
    expect(ids).toEqual([...made].reverse());
  });

  it('When a status filter is given, then only conversions in that status are listed', async () => {
    const client = await clientFor('business', 100);
    await client.convert(hello('ok.txt', 'ok'));
    const failed = await failure(client.convert(hello('bad.json', '{')), ConversionFailedError);
    expect(failed.status).toBe(422);
    const listed = [];
    for await (const item of client.listConversions({ status: 'failed', perPage: 1 })) listed.push(item);
    expect(listed.map((c) => [c.original_filename, c.status, c.extension])).toEqual([['bad.json', 'failed', 'json']]);
  });

  it('When per_page is out of range, then the first page throws ValidationError', async () => {
    const client = await clientFor();
    const err = await failure(client.listConversions({ perPage: 500 }).pages().next(), ValidationError);
    expect(Object.keys(err.errors)).toEqual(['per_page']);
  });
});

describe('errors', () => {
  it('When the token is unknown, then it throws AuthenticationError with the 401 message', async () => {
    const client = new MarkwrightClient({ baseUrl: stack.gateway.url, token: 'mwk_notarealtoken' });
    const err = await failure(client.getConversion('0192f2a0-0000-7000-8000-000000000000'), AuthenticationError);
    expect([err.status, err.code, err.message]).toEqual([401, undefined, 'Unauthenticated.']);
  });

  it('When the balance is below the cost, then it throws InsufficientCreditsError with credits required and available', async () => {
    const client = await clientFor('starter', 2);
    const err = await failure(client.convert(hello(), { useEnhancedAi: true }), InsufficientCreditsError);
    expect([err.status, err.code, err.creditsRequired, err.creditsAvailable]).toEqual([
      402,
      'insufficient_credits',
      3,
      2,
    ]);
    expect(err.message).toBe('This conversion costs 3 credits but the workspace has 2.');
  });

  it('When the webhook secret is too short, then it throws ValidationError with the messages of that field', async () => {
    const client = await clientFor();
    const err = await failure(
      client.convert(hello(), { webhookUrl: receiver.url('/v'), webhookSecret: 'short' }),
      ValidationError,
    );
    expect(err.status).toBe(422);
    expect(err.errors).toEqual({ webhook_secret: ['The webhook secret field must be at least 32 characters.'] });
    expect(err.message).toBe('The webhook secret field must be at least 32 characters.');
  });

  it('When a sync conversion fails, then it throws ConversionFailedError with the reason, and the credit is refunded', async () => {
    const client = await clientFor('business', 5);
    const err = await failure(client.convert(hello('bad.json', '{')), ConversionFailedError);
    expect([err.status, err.code]).toEqual([422, 'conversion_failed']);
    expect(err.message).toMatch(/not valid JSON/);
    expect((await client.convert(hello())).credits_remaining).toBe(4);
  });

  it('When the upload is over the server cap, then it throws PayloadTooLargeError', async () => {
    const client = await clientFor();
    const big = { data: new Blob([new Uint8Array(61 * 1024 * 1024)]), filename: 'big.txt' };
    const err = await failure(client.convert(big), PayloadTooLargeError);
    expect([err.status, err.code]).toEqual([413, undefined]);
    expect(err.message).toBe('The uploaded file exceeds the server limit of 60 MB.');
  });

  it('When the rate limit is spent and retryOn429 is off, then it throws RateLimitError with Retry-After at once', async () => {
    const client = await clientFor('free', 100, { retryOn429: false });
    for (let i = 0; i < 20; i++) {
      await failure(client.convert(hello('x.exe', 'x')), ValidationError);
    }
    const err = await failure(client.convert(hello()), RateLimitError);
    expect([err.status, err.code, err.message]).toEqual([
      429,
      undefined,
      'Too many requests. Please wait before retrying.',
    ]);
    expect(err.retryAfterSeconds).toBeGreaterThan(0);
    expect(err.retryAfterSeconds).toBeLessThanOrEqual(60);
  });
});
