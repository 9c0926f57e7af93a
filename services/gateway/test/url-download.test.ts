import { makeCertificate } from '../../dispatcher/test/receiver';
import { startFileHost } from './file-host';
import { createUrlDownloader } from '../src/data-access/url-download';

const cert = makeCertificate();
let host: Awaited<ReturnType<typeof startFileHost>>;

beforeAll(async () => {
  host = await startFileHost(cert);
  host.answer('/doc.md', { body: '# Doc\n' });
});
afterAll(async () => {
  await host.close();
  cert.cleanup();
});

/** A downloader whose guard allows exactly the addresses `policy` allows (the test host is loopback). */
const downloader = (policy: (address: string) => boolean) =>
  createUrlDownloader({ timeoutMs: 5_000, allowPrivateNetworks: policy, extraCaFile: cert.certFile });

describe('The file_url downloader and the address guard', () => {
  it('When a redirect names a host whose address the guard refuses, then the refusal happens when connecting to that hop', async () => {
    // The first hop (an IP literal) is allowed; the DNS answer for the second hop is the guard's next question.
    let checks = 0;
    const download = downloader(() => ++checks === 1);
    host.answer('/hop-to-name', { redirect: host.url('/doc.md') });
    const result = await download(host.ipUrl('/hop-to-name'), 1024);
    expect(result).toEqual({ ok: false, reason: 'blocked', address: '127.0.0.1' });
    expect(host.requested.filter((p) => p === '/doc.md')).toHaveLength(0);
  });

  it('When a redirect names a refused IP literal, then it is refused before connecting', async () => {
    const download = downloader((address) => address === '127.0.0.1');
    host.answer('/hop-to-literal', { redirect: `https://127.0.0.2:${host.port}/doc.md` });
    expect(await download(host.ipUrl('/hop-to-literal'), 1024)).toEqual({
      ok: false,
      reason: 'blocked',
      address: '127.0.0.2',
    });
  });

  it('When the first URL is a refused IP literal, then nothing is connected to', async () => {
    const download = downloader(() => false);
    expect(await download('https://[::ffff:127.0.0.1]:1/doc.md', 1024)).toEqual({
      ok: false,
      reason: 'blocked',
      address: '::ffff:7f00:1',
    });
  });

  it('When every hop is allowed, then the bytes and the name of the last hop are returned', async () => {
    const download = downloader(() => true);
    host.answer('/start', { redirect: host.url('/doc.md') });
    const result = await download(host.ipUrl('/start'), 1024);
    expect(result).toEqual({ ok: true, file: { name: 'doc.md', bytes: Buffer.from('# Doc\n') } });
  });

  it('When the body is exactly the limit, then it is accepted; one byte more is refused', async () => {
    const download = downloader(() => true);
    host.answer('/six.md', { body: '# Six\n' });
    expect((await download(host.url('/six.md'), 6)).ok).toBe(true);
    expect(await download(host.url('/six.md'), 5)).toEqual({ ok: false, reason: 'too_large', limitBytes: 5 });
  });

  it('When Content-Disposition names a path, then only its last segment is the name', async () => {
    const download = downloader(() => true);
    host.answer('/evil', {
      body: 'x',
      headers: { 'Content-Disposition': 'attachment; filename="../../etc/passwd.txt"' },
    });
    const result = await download(host.url('/evil'), 1024);
    expect(result).toMatchObject({ ok: true, file: { name: 'passwd.txt' } });
  });
});
