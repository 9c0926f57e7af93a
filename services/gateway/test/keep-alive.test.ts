import net from 'node:net';
import { stopInOrder } from '@markwright/config';
import { bearer, startStack, type Stack } from './stack';

/** A raw HTTP/1.1 connection: what each request got back, and whether the gateway closed it. */
function connection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  const waiters: Array<() => void> = [];
  socket.on('data', (d) => {
    received += d.toString('latin1');
    waiters.splice(0).forEach((w) => w());
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    closed,
    isClosed: () => socket.destroyed || socket.readableEnded,
    ready: new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject)),
    /** Sends one request and resolves with the head of its answer (status line and headers). */
    async request(lines: string[], body = ''): Promise<string> {
      received = '';
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
      while (!/\r\n\r\n/.test(received)) {
        if (socket.destroyed) throw new Error('the gateway closed the connection before answering');
        await Promise.race([new Promise<void>((r) => waiters.push(r)), closed]);
      }
      return received.split('\r\n\r\n')[0];
    },
    end: () => socket.destroy(),
  };
}

/** Whether `promise` settles within `ms` (the timer is cleared either way). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

const get = (path: string) => [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1'];

describe('Keep-alive connections to the gateway', () => {
  let stack: Stack;
  let stopped = false;
  beforeAll(async () => {
    stack = await startStack({ converter: false, env: { SYNC_TIMEOUT_MS: '1500' } });
  });
  afterAll(async () => {
    await stopInOrder([() => (stopped ? undefined : stack.gateway.stop({ graceMs: 0 })), () => stack.env.cleanup()]);
  });

  it('When a client reuses a connection idle for 6 s (longer than Node’s 5 s default), then the gateway still answers on it', async () => {
    const conn = connection(stack.gateway.port);
    await conn.ready;
    const first = await conn.request(get('/no-such-route'));
    expect(first).toMatch(/^HTTP\/1\.1 404 /);
    expect(first).toMatch(/\r\nKeep-Alive: timeout=65\r\n|\r\nKeep-Alive: timeout=65$/i);
    await new Promise((r) => setTimeout(r, 6_000));
    expect(conn.isClosed()).toBe(false);
    expect(await conn.request(get('/no-such-route'))).toMatch(/^HTTP\/1\.1 404 /);
    conn.end();
  }, 30_000);

  it('When a request is answered while the gateway stops, then its connection is closed soon after, and stop() does not wait out the keep-alive time', async () => {
    const { token } = await stack.workspace('business', 100);
    const conn = connection(stack.gateway.port);
    await conn.ready;
    const boundary = 'KeepAliveStopBoundary';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="a.txt"',
      'Content-Type: text/plain',
      '',
      'hello',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    // No converter runs: the sync request is answered when SYNC_TIMEOUT_MS (1.5 s) passes.
    const answered = conn.request(
      [
        'POST /api/v1/convert HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: ${bearer(token)[1]}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
      ],
      body,
    );
    // The stop begins while the request waits for its result; the grace period is longer than the test.
    await new Promise((r) => setTimeout(r, 300));
    const stopping = stack.gateway.stop({ graceMs: 120_000 });
    stopped = true;
    expect(await answered).toMatch(/^HTTP\/1\.1 422 /);
    expect(await settlesWithin(conn.closed, 20_000)).toBe(true);
    expect(await settlesWithin(stopping, 20_000)).toBe(true);
  }, 60_000);
});
