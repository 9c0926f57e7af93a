import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MarkwrightClient, MarkwrightConnectionError, RateLimitError } from '../src';

/*
 * The real gateway's Retry-After is the rest of its 60 s window, too long to wait for in a test,
 * so these cases use a stand-in that answers 429 with a chosen Retry-After. The case with retries
 * turned off runs against the real gateway in client.test.ts.
 */

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

async function standIn(answers: Answer[]) {
  const hits: Array<{ at: number; path: string; authorization?: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      hits.push({ at: Date.now(), path: req.url ?? '', authorization: req.headers.authorization, body });
      const answer = answers[Math.min(hits.length - 1, answers.length - 1)]!;
      res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Timers may fire a millisecond or so before Date.now() reaches their due time. */
const TIMER_SLACK_MS = 20;
const LIMITED = { message: 'Too many requests. Please wait before retrying.' };
const RESULT = { success: true, markdown: '# Hi\n', credits_used: 1, credits_remaining: 9 };
const file = { data: Buffer.from('# Hi\n'), filename: 'hi.md' };

describe('retry on 429', () => {
  it('When the API answers 429 with Retry-After: 1, then the client waits at least a second and resends the same upload', async () => {
    const server = await standIn([
      { status: 429, headers: { 'Retry-After': '1' }, body: LIMITED },
      { status: 200, body: RESULT },
    ]);
    try {
      const client = new MarkwrightClient({ baseUrl: server.baseUrl, token: 'mwk_x' });
      expect(await client.convert(file)).toEqual(RESULT);
      expect(server.hits).toHaveLength(2);
      expect(server.hits[1]!.at - server.hits[0]!.at).toBeGreaterThanOrEqual(1000 - TIMER_SLACK_MS);
      const unbounded = (body: string) => body.replace(/formdata-undici-\d+/g, 'boundary');
      expect(unbounded(server.hits[1]!.body)).toBe(unbounded(server.hits[0]!.body));
      expect(server.hits[1]!.body).toContain('filename="hi.md"');
      expect(server.hits[1]!.authorization).toBe('Bearer mwk_x');
    } finally {
      await server.close();
    }
  });

  it('When Retry-After is an HTTP date, then the client waits until that date', async () => {
    const until = new Date(Date.now() + 2000).toUTCString();
    const server = await standIn([
      { status: 429, headers: { 'Retry-After': until }, body: LIMITED },
      { status: 200, body: { data: [], current_page: 1, next_page_url: null } },
    ]);
    try {
      const client = new MarkwrightClient({ baseUrl: server.baseUrl, token: 'mwk_x' });
      await client.listConversions().pages().next();
      expect(server.hits).toHaveLength(2);
      expect(server.hits[1]!.at).toBeGreaterThanOrEqual(Date.parse(until) - TIMER_SLACK_MS);
    } finally {
      await server.close();
    }
  });

  it('When every answer is 429, then the client stops after maxRetries resends and throws RateLimitError', async () => {
    const server = await standIn([{ status: 429, headers: { 'Retry-After': '0' }, body: LIMITED }]);
    try {
      const client = new MarkwrightClient({ baseUrl: server.baseUrl, token: 'mwk_x', maxRetries: 2 });
      const err = await client.getConversion('abc').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as RateLimitError).retryAfterSeconds).toBe(0);
      expect(server.hits).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('When retryOn429 is false, then the first 429 is thrown and nothing is resent', async () => {
    const server = await standIn([
      { status: 429, headers: { 'Retry-After': '7' }, body: LIMITED },
      { status: 200, body: RESULT },
    ]);
    try {
      const client = new MarkwrightClient({ baseUrl: server.baseUrl, token: 'mwk_x', retryOn429: false });
      const err = await client.convert(file).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as RateLimitError).retryAfterSeconds).toBe(7);
      expect(server.hits).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
  it('When the signal aborts during the Retry-After wait, then the call rejects with the abort and nothing is resent', async () => {
    const server = await standIn([
      { status: 429, headers: { 'Retry-After': '30' }, body: LIMITED },
      { status: 200, body: RESULT },
    ]);
    try {
      let answered429!: () => void;
      const limited = new Promise<void>((r) => (answered429 = r));
      const watching: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (response.status === 429) answered429();
        return response;
      };
      const client = new MarkwrightClient({ baseUrl: server.baseUrl, token: 'mwk_x', fetch: watching });
      const controller = new AbortController();
      const pending = client.convert(file, { signal: controller.signal }).catch((e: unknown) => e);
      await limited;
      controller.abort();
      expect(await pending).toMatchObject({ name: 'AbortError' });
      expect(server.hits).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('transport', () => {
  it('When nothing listens at the base URL, then it throws MarkwrightConnectionError naming the URL', async () => {
    const server = await standIn([{ status: 200, body: {} }]);
    await server.close();
    const client = new MarkwrightClient({ baseUrl: server.baseUrl, token: 'mwk_x' });
    const err = await client.getConversion('abc').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MarkwrightConnectionError);
    expect((err as MarkwrightConnectionError).url).toBe(`${server.baseUrl}/conversions/abc`);
  });

  it('When the base URL ends with a slash and list options are given, then the request path and query are the API’s', async () => {
    const server = await standIn([{ status: 200, body: { data: [], current_page: 2, next_page_url: null } }]);
    try {
      const client = new MarkwrightClient({ baseUrl: `${server.baseUrl}/`, token: 'mwk_x' });
      await client.listConversions({ status: 'completed', perPage: 5, page: 2 }).pages().next();
      expect(server.hits.map((h) => h.path)).toEqual(['/api/v1/conversions?status=completed&per_page=5&page=2']);
    } finally {
      await server.close();
    }
  });
});
