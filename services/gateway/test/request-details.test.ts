import http from 'node:http';
import request from 'supertest';
import { bearer, startStack, type Stack } from './stack';

/**
 * Issue 21, point 3 (the low findings at the gateway): file names in UTF-8, the Bearer scheme in
 * any case, empty optional fields as absent, no credentials in webhook URLs, and list-page links
 * that never come from the Host header.
 */
const HOOK_URL = 'https://receiver.example/hook';
const BOUNDARY = 'RequestDetailsBoundary';

let stack: Stack;
let token: string;
let workspaceId: string;
beforeAll(async () => {
  stack = await startStack({ converter: false, env: { SYNC_TIMEOUT_MS: '1000' } });
  ({ token, workspaceId } = await stack.workspace('free', 100));
});
afterAll(() => stack.stop());

/** A form with the file part's Content-Disposition written byte for byte, as a browser or curl sends it. */
const formWithFile = (disposition: string) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="webhook_url"\r\n\r\n${HOOK_URL}\r\n`),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\nContent-Type: text/plain\r\n\r\n`, 'utf8'),
    Buffer.from(`hello\r\n--${BOUNDARY}--\r\n`),
  ]);

const postForm = (body: Buffer) =>
  request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token))
    .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
    .send(body);

const get = (path: string) =>
  request(stack.gateway.url)
    .get(path)
    .set(...bearer(token));

describe('file names are UTF-8', () => {
  it.each(['résumé.txt', 'Ёлка.txt', '报告 2026.md', 'ファイル名.csv', 'naïve façade — Ünïcödé.html', '📄 notes.txt'])(
    'When the file is named %s (raw UTF-8, as browsers send it), then the list and the detail give the name back unchanged',
    async (name) => {
      const res = await postForm(formWithFile(`form-data; name="file"; filename="${name}"`));
      expect(res.status).toBe(202);
      const detail = await get(`/conversions/${res.body.id}`);
      expect(detail.body.original_filename).toBe(name);
      const list = await get('/conversions?per_page=1');
      expect(list.body.data[0]).toMatchObject({ id: res.body.id, original_filename: name });
    },
  );

  it("When the name is sent as RFC 5987 filename*=UTF-8'', then it is decoded as UTF-8 too", async () => {
    const res = await postForm(
      formWithFile(`form-data; name="file"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E6%8A%A5%E5%91%8A.txt`),
    );
    expect(res.status).toBe(202);
    expect((await get(`/conversions/${res.body.id}`)).body.original_filename).toBe('résumé 报告.txt');
  });

  it('When supertest attaches a file with an accented name, then it is stored as sent', async () => {
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', HOOK_URL)
      .attach('file', Buffer.from('hello'), 'Übersicht.txt');
    expect(res.status).toBe(202);
    expect((await get(`/conversions/${res.body.id}`)).body.original_filename).toBe('Übersicht.txt');
  });
});

describe('the Bearer scheme is case-insensitive (RFC 9110)', () => {
  it.each(['bearer', 'BEARER', 'BeArEr'])(
    'When the scheme is written %s, then the token is accepted',
    async (scheme) => {
      const res = await request(stack.gateway.url).get('/conversions').set('Authorization', `${scheme} ${token}`);
      expect(res.status).toBe(200);
    },
  );

  it('When the scheme is another word, then it still answers 401', async () => {
    const res = await request(stack.gateway.url).get('/conversions').set('Authorization', `Token ${token}`);
    expect([res.status, res.body]).toEqual([401, { message: 'Unauthenticated.' }]);
  });
});

describe('empty optional fields count as absent', () => {
  it('When every optional field is sent empty (as an HTML form sends them), then none of them is validated: only the rule of the file answers', async () => {
    const before = await stack.ledger(workspaceId);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', '')
      .field('webhook_secret', '')
      .field('use_enhanced_ai', '')
      .field('optimize_tokens', '')
      .field('include_metadata', '')
      .attach('file', Buffer.from('hello'), 'a.exe');
    // Only the file's own rule fails: the empty fields were not validated.
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['file']);
    expect(await stack.ledger(workspaceId)).toEqual(before);
  });

  it('When webhook_url is empty and the rest is valid, then the conversion is sync, without a webhook', async () => {
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', '')
      .field('webhook_secret', '')
      .attach('file', Buffer.from('hello'), 'a.txt');
    // No converter runs here, so the sync request reaches SYNC_TIMEOUT_MS (1 s in this file).
    expect([res.status, res.body.error]).toEqual([422, 'conversion_failed']);
    const stored = await stack.gateway.db.conversion.findFirstOrThrow({
      where: { workspaceId },
      orderBy: { createdAt: 'desc' },
    });
    expect([stored.mode, stored.webhookUrl, stored.webhookSecret]).toEqual(['sync', null, null]);
  });
});

describe('webhook URLs without credentials', () => {
  it.each([
    'https://user:pass@receiver.example/hook',
    'https://user@receiver.example/hook',
    'https://:pass@receiver.example/hook',
  ])('When webhook_url is %s, then it answers 422 on webhook_url and charges nothing', async (url) => {
    const before = await stack.ledger(workspaceId);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', url)
      .attach('file', Buffer.from('hello'), 'a.txt');
    expect([res.status, res.body]).toEqual([
      422,
      {
        message: 'The webhook url field must not contain a user name or password.',
        errors: { webhook_url: ['The webhook url field must not contain a user name or password.'] },
      },
    ]);
    expect(await stack.ledger(workspaceId)).toEqual(before);
  });
});

describe('list-page links never come from the Host header', () => {
  /** supertest sets Host from the URL; node:http lets the test send any Host. */
  function getWithHost(host: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const url = new URL(`${stack.gateway.url}/conversions?per_page=1`);
    return new Promise((resolve, reject) => {
      http
        .get(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname + url.search,
            headers: { Host: host, Authorization: `Bearer ${token}` },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }),
            );
          },
        )
        .on('error', reject);
    });
  }

  it('When the Host header is hostile, then path and page URLs use the address the server was reached on', async () => {
    const res = await getWithHost('evil.example"><script>alert(1)</script>');
    expect(res.status).toBe(200);
    const base = `${stack.gateway.url}/conversions`;
    expect(res.body.path).toBe(base);
    expect(res.body.first_page_url).toBe(`${base}?per_page=1&page=1`);
    expect(JSON.stringify(res.body)).not.toContain('evil');
  });

  it('When PUBLIC_BASE_URL is set, then path and page URLs are built from it, whatever the Host header says', async () => {
    for (const setting of ['https://api.markwright.example', 'https://api.markwright.example/api/v1/']) {
      const behindProxy = await startStack({ converter: false, env: { PUBLIC_BASE_URL: setting } });
      try {
        const ws = await behindProxy.workspace('free', 1);
        const res = await request(behindProxy.gateway.url)
          .get('/conversions?status=failed')
          .set('Host', 'evil.example')
          .set(...bearer(ws.token));
        expect(res.status).toBe(200);
        expect([res.body.path, res.body.first_page_url]).toEqual([
          'https://api.markwright.example/api/v1/conversions',
          'https://api.markwright.example/api/v1/conversions?status=failed&page=1',
        ]);
      } finally {
        await behindProxy.stop();
      }
    }
  });
});
