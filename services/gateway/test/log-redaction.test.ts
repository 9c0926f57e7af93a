import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger } from '@markwright/config';
import { createTestEnv, type TestEnv } from '@markwright/test-support';
import { startGateway, type Gateway } from '../src/gateway';
import { createWorkspace } from '../src/domain/workspaces';
import { redactedUrl } from '../src/entry-points/http/redacted-url';

/** Issue 21, point 3: a token sent in the query string never reaches the access log. */
let env: TestEnv;
let gateway: Gateway;
const lines: string[] = [];
beforeAll(async () => {
  env = await createTestEnv();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  gateway = await startGateway(env.config, createLogger('gateway', 'info', sink));
});
afterAll(async () => {
  await gateway.stop();
  await env.cleanup();
});

describe('tokens in URLs are redacted from the access log', () => {
  it('When a real token is sent as ?access_token=, ?token= or in any parameter, then the access line shows the request without it', async () => {
    const { token } = await createWorkspace(gateway.db, { name: 'logs', plan: 'free', credits: 1 });
    const secret = token.slice(4);
    for (const query of [
      `access_token=${token}`,
      `token=${token}&page=2`,
      `per_page=5&x=${encodeURIComponent(token)}`,
      `page=1&ACCESS_TOKEN=opaque-value-123`,
    ]) {
      await request(gateway.url).get(`/conversions?${query}`);
    }
    await request(gateway.url).get(`/conversions/${token}`);
    const access = lines.filter((l) => l.includes('"url"'));
    expect(access).toHaveLength(5);
    expect(lines.join('\n')).not.toContain(secret);
    expect(lines.join('\n')).not.toContain('opaque-value-123');
    expect(access.map((l) => (JSON.parse(l) as { req: { url: string } }).req.url)).toEqual([
      '/api/v1/conversions?access_token=[redacted]',
      '/api/v1/conversions?token=[redacted]&page=2',
      '/api/v1/conversions?per_page=5&x=[redacted]',
      '/api/v1/conversions?page=1&ACCESS_TOKEN=[redacted]',
      '/api/v1/conversions/mwk_[redacted]',
    ]);
  });

  it.each([
    ['/api/v1/conversions?page=2&per_page=10', '/api/v1/conversions?page=2&per_page=10'],
    ['/api/v1/conversions?token=', '/api/v1/conversions?token='],
    ['/api/v1/conversions?q=mwk%5Fabc', '/api/v1/conversions?q=[redacted]'],
    ['/api/v1/conversions?mwk_abc', '/api/v1/conversions?[redacted]'],
    ['/api/v1/x%2Fmwk_abc?y=1', '/api/v1/x/mwk_[redacted]?y=1'],
  ])('When the URL is %s, then the log shows %s', (url, shown) => {
    expect(redactedUrl(url)).toBe(shown);
  });
});
