import net from 'node:net';
import { stopInOrder } from '@markwright/config';
import { bearer, startStack, type Stack } from './stack';

/**
 * The gateway's stop is bounded: requests in flight get a grace period, then every connection is
 * closed, so a client stalled mid-upload cannot hold a rolling restart (or a test's teardown) open.
 */
describe('Stopping the gateway', () => {
  let stack: Stack;
  let stopped = false;
  beforeAll(async () => {
    stack = await startStack({ converter: false });
  });
  afterAll(async () => {
    await stopInOrder([() => (stopped ? undefined : stack.gateway.stop({ graceMs: 0 })), () => stack.env.cleanup()]);
  });

  it('When a client has sent half an upload and stalls, then stop() still ends: the stalled connection is closed after the grace period', async () => {
    const { token } = await stack.workspace('business', 100);
    const socket = net.connect(stack.gateway.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    const boundary = 'StalledUploadBoundary';
    socket.write(
      [
        'POST /api/v1/convert HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: ${bearer(token)[1]}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        'Content-Length: 1000000',
        '',
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="a.txt"',
        'Content-Type: text/plain',
        '',
        'The first words of a file whose rest never comes',
      ].join('\r\n'),
    );
    // The gateway has the request (its upload has begun) before the stop starts.
    await new Promise((r) => setTimeout(r, 300));
    await stack.gateway.stop({ graceMs: 200 });
    stopped = true;
    await closed;
    expect(socket.destroyed).toBe(true);
  }, 30_000);
});
