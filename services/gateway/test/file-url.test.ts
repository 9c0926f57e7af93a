import request from 'supertest';
import { silentLogger } from '@markwright/test-support';
import { makeCertificate } from '../../dispatcher/test/receiver';
import { bearer, startStack, type Stack } from './stack';
import { startFileHost } from './file-host';
import { startGateway, type Gateway } from '../src/gateway';
import { PLANS } from '../src/domain/plans';

/** Only the impatient gateway's deadline is short; the others allow a busy machine its time. */
const FETCH_TIMEOUT_MS = 1000;
const cert = makeCertificate();
let stack: Stack;
let guarded: Gateway;
let impatient: Gateway;
let host: Awaited<ReturnType<typeof startFileHost>>;
let workspace: { workspaceId: string; token: string };

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  stack = await startStack({ env: { ALLOW_PRIVATE_NETWORKS: 'true' } });
  // More gateways on the same database and queues: one with the address guard in force, one with a short deadline.
  guarded = await startGateway({ ...stack.env.config, ALLOW_PRIVATE_NETWORKS: false }, silentLogger);
  impatient = await startGateway({ ...stack.env.config, FETCH_TIMEOUT_MS }, silentLogger);
  host = await startFileHost(cert);
  workspace = await stack.workspace('free', 100);
}, 60_000);
afterAll(async () => {
  await host.close();
  await guarded.stop();
  await impatient.stop();
  await stack.stop();
  cert.cleanup();
});

const convertUrl = (fileUrl: string, fields: Record<string, string> = {}, gateway: { url: string } = stack.gateway) => {
  let req = request(gateway.url)
    .post('/convert')
    .set(...bearer(workspace.token))
    .field('file_url', fileUrl);
  for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
  return req;
};
const conversions = () => stack.gateway.db.conversion.findMany({ where: { workspaceId: workspace.workspaceId } });
const charges = async () => (await stack.ledger(workspace.workspaceId)).filter((t) => t.type === 'charge').length;

/** Asserts a 422 on file_url with exactly this message, and that nothing was charged or stored. */
async function expectRefused(res: request.Response, message: string): Promise<void> {
  expect([res.status, res.body]).toEqual([422, { message, errors: { file_url: [message] } }]);
}

describe('Input by URL: file_url (E5)', () => {
  it('When file_url names a Markdown file, then it is downloaded, converted and charged like an upload', async () => {
    host.answer('/notes/doc.md', { body: '# From a URL\n\nFetched *text*.\n' });
    const before = await charges();
    const res = await convertUrl(host.url('/notes/doc.md'), { include_metadata: 'true' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      markdown: '# From a URL\n\nFetched *text*.\n',
      credits_used: 1,
      metadata: { title: 'From a URL', author: '', page_count: 1 },
    });
    expect(await charges()).toBe(before + 1);
    const row = (await conversions()).find((c) => c.originalFilename === 'doc.md');
    expect(row).toMatchObject({ extension: 'md', fileSizeBytes: 30 });
  });

  it('When the server sends Content-Disposition, then the file is named by it', async () => {
    host.answer('/download/42', {
      body: 'a,b\n1,2\n',
      headers: { 'Content-Disposition': `attachment; filename="x.bin"; filename*=UTF-8''Q3%20r%C3%A9sultats.csv` },
    });
    const res = await convertUrl(host.url('/download/42'), { webhook_url: 'https://receiver.example/hook' });
    expect(res.status).toBe(202);
    const row = await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id: res.body.id as string } });
    expect([row.originalFilename, row.extension]).toEqual(['Q3 résultats.csv', 'csv']);
  });

  it('When neither the header nor the path names a known extension, then the format is sniffed from the bytes', async () => {
    host.answer('/export', { body: '<!doctype html><html><body><h1>Sniffed</h1><p>Page.</p></body></html>' });
    const res = await convertUrl(host.url('/export'));
    expect([res.status, res.body.markdown]).toEqual([200, '# Sniffed\n\nPage.\n']);
    expect((await conversions()).some((c) => c.originalFilename === 'export.html' && c.extension === 'html')).toBe(
      true,
    );
  });

  it('When the URL redirects 3 times, then the redirects are followed', async () => {
    host.answer('/r1', { redirect: '/r2' });
    host.answer('/r2', { redirect: host.ipUrl('/r3') });
    host.answer('/r3', { redirect: '/final/end.md' });
    host.answer('/final/end.md', { body: '# Moved\n' });
    const res = await convertUrl(host.url('/r1'));
    expect([res.status, res.body.markdown]).toEqual([200, '# Moved\n']);
  });

  it('When the URL redirects a fourth time, then it is a 422 on file_url and nothing is charged', async () => {
    host.answer('/s1', { redirect: '/s2' });
    host.answer('/s2', { redirect: '/s3' });
    host.answer('/s3', { redirect: '/s4' });
    host.answer('/s4', { redirect: '/final/end.md' });
    const before = await charges();
    await expectRefused(await convertUrl(host.url('/s1')), 'The file url redirected more than 3 times.');
    expect(await charges()).toBe(before);
  });

  it('When a redirect leads to http, then it is refused', async () => {
    host.answer('/to-http', { redirect: `http://localhost:${host.port}/final/end.md` });
    await expectRefused(
      await convertUrl(host.url('/to-http')),
      'The file url redirected to an address that does not use https.',
    );
  });

  it('When the server answers 404, then the 422 names the status and nothing is charged or stored', async () => {
    const [before, rows] = [await charges(), (await conversions()).length];
    await expectRefused(
      await convertUrl(host.url('/missing.pdf')),
      'The file url could not be downloaded: the server answered 404.',
    );
    expect([await charges(), (await conversions()).length]).toEqual([before, rows]);
  });

  it('When the body grows past the plan limit while it arrives, then the download is stopped and refused', async () => {
    host.answer('/huge.txt', { endless: true });
    const limit = PLANS.free.maxFileBytes;
    const before = await charges();
    await expectRefused(
      await convertUrl(host.url('/huge.txt')),
      `The file at the file url must not be greater than ${limit / 1024} kilobytes.`,
    );
    expect(await charges()).toBe(before);
    // The server was cut off soon after the limit (socket buffers aside), not allowed to send on.
    await new Promise((r) => setTimeout(r, 200));
    expect(host.closedAfterBytes).toHaveLength(1);
    expect(host.closedAfterBytes[0]!).toBeLessThan(limit + 16 * 1024 * 1024);
  });

  it('When Content-Length declares more than the plan limit, then it is refused before the body is read', async () => {
    host.answer('/declared.pdf', { declared: 200 * 1024 * 1024 });
    await expectRefused(
      await convertUrl(host.url('/declared.pdf')),
      `The file at the file url must not be greater than ${PLANS.free.maxFileBytes / 1024} kilobytes.`,
    );
  });

  it('When the server is too slow, then the download times out after FETCH_TIMEOUT_MS', async () => {
    // The drip never ends, so only the deadline can end the download.
    host.answer('/slow.md', { drip: 300 });
    await expectRefused(
      await convertUrl(host.url('/slow.md'), {}, impatient),
      `The file url could not be downloaded within ${FETCH_TIMEOUT_MS / 1000} seconds.`,
    );
  });

  it('When nothing listens at the address, then it is unreachable', async () => {
    await expectRefused(await convertUrl('https://127.0.0.1:1/file.md'), 'The file url could not be reached.');
  });

  it('When the host resolves to a private address and private networks are not allowed, then it is refused', async () => {
    host.answer('/private.md', { body: '# Private\n' });
    const before = await charges();
    await expectRefused(
      await convertUrl(host.url('/private.md'), {}, guarded),
      'The file url points to a non-public address (127.0.0.1), which is not allowed.',
    );
    await expectRefused(
      await convertUrl('https://169.254.169.254/latest/meta-data', {}, guarded),
      'The file url points to a non-public address (169.254.169.254), which is not allowed.',
    );
    expect(await charges()).toBe(before);
  });

  it('When the downloaded file is nothing we convert, then it is a 422 on file_url', async () => {
    host.answer('/blob', { body: Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x10, 0x80]) });
    await expectRefused(
      await convertUrl(host.url('/blob')),
      'The file at the file url is not a document, image or audio file in any format we convert.',
    );
  });
});

describe('file_url validation', () => {
  it('When both file and file_url are sent, then it is a 422 on file', async () => {
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(workspace.token))
      .field('file_url', host.url('/notes/doc.md'))
      .attach('file', Buffer.from('# Hi\n'), 'hi.md');
    expect([res.status, res.body]).toEqual([
      422,
      {
        message: 'Send either file or file_url, not both.',
        errors: { file: ['Send either file or file_url, not both.'] },
      },
    ]);
  });

  it('When neither is sent, then the contract’s "file is required" answer is unchanged', async () => {
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(workspace.token))
      .field('include_metadata', 'true');
    expect([res.status, res.body]).toEqual([
      422,
      { message: 'The file field is required.', errors: { file: ['The file field is required.'] } },
    ]);
  });

  it.each([
    ['http', 'http://example.com/a.pdf', 'The file url field must start with https://.'],
    ['not a URL', 'not a url', 'The file url field must be a valid URL.'],
    [
      '2049 characters',
      `https://e.com/${'a'.repeat(2035)}`,
      'The file url field must not be greater than 2048 characters.',
    ],
  ])('When file_url is %s, then it is a 422 on file_url', async (_label, url, message) => {
    const res = await convertUrl(url);
    expect([res.status, res.body.errors]).toEqual([422, { file_url: [message] }]);
  });

  it('When another field is invalid too, then every failing field is listed and nothing is downloaded', async () => {
    host.answer('/counted.md', { body: '# Counted\n' });
    const res = await convertUrl(host.url('/counted.md'), { webhook_secret: 'short' });
    expect([res.status, res.body.errors]).toEqual([
      422,
      { webhook_secret: ['The webhook secret field must be at least 32 characters.'] },
    ]);
    expect(host.requested).not.toContain('/counted.md');
  });
});
