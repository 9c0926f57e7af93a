import crypto from 'node:crypto';
import request from 'supertest';
import { bearer, startStack, type Stack } from './stack';
import { authenticateToken, revokeToken, createToken } from '../src/domain/workspaces';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ converter: false });
});
afterAll(() => stack?.stop());

const UNAUTH = { message: 'Unauthenticated.' };

describe('Bearer authentication', () => {
  it('When the Authorization header is missing, then it answers 401 with only the message', async () => {
    const res = await request(stack.gateway.url.replace('/api/v1', '')).get('/api/v1/conversions');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTH);
  });

  it('When the header is not a Bearer token, then it answers 401', async () => {
    const res = await request(stack.gateway.url).get('/conversions').set('Authorization', 'Basic dXNlcjpwYXNz');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTH);
  });

  it('When the token is malformed, then it answers 401', async () => {
    const res = await request(stack.gateway.url)
      .get('/conversions')
      .set(...bearer('mwk_short'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTH);
  });

  it('When the token is well-formed but unknown, then it answers 401', async () => {
    const res = await request(stack.gateway.url)
      .get('/conversions')
      .set(...bearer(`mwk_${'A'.repeat(40)}`));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTH);
  });

  it('When the token was revoked, then it answers 401 while another token of the workspace still works', async () => {
    const { workspaceId, token } = await stack.workspace();
    const second = (await createToken(stack.gateway.db, workspaceId))!;
    expect(await revokeToken(stack.gateway.db, token)).toBe(true);
    const revoked = await request(stack.gateway.url)
      .get('/conversions')
      .set(...bearer(token));
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual(UNAUTH);
    const ok = await request(stack.gateway.url)
      .get('/conversions')
      .set(...bearer(second));
    expect(ok.status).toBe(200);
  });

  it('When many tokens are checked at once (one lookup statement for them), then each finds its own workspace and a revoked one none', async () => {
    const workspaces = await Promise.all(Array.from({ length: 12 }, () => stack.workspace()));
    const revoked = workspaces[5]!;
    expect(await revokeToken(stack.gateway.db, revoked.token)).toBe(true);
    const tokens = [...workspaces.map((w) => w.token), workspaces[0]!.token, `mwk_${'B'.repeat(40)}`];
    const found = await Promise.all(tokens.map((token) => authenticateToken(stack.gateway.db, token)));
    expect(found.map((w) => w?.id ?? null)).toEqual([
      ...workspaces.map((w) => (w === revoked ? null : w.workspaceId)),
      workspaces[0]!.workspaceId,
      null,
    ]);
  });

  it('When POST /convert has no token, then it answers 401 before reading the upload', async () => {
    const res = await request(stack.gateway.url).post('/convert').attach('file', Buffer.from('x'), 'a.txt');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTH);
  });

  it('When a token is created, then it has the mwk_ prefix and 40 base62 characters and only its hash is stored', async () => {
    const { workspaceId, token } = await stack.workspace();
    expect(token).toMatch(/^mwk_[0-9A-Za-z]{40}$/);
    const rows = await stack.gateway.db.apiToken.findMany({ where: { workspaceId } });
    expect(rows.map((r) => r.tokenHash)).toEqual([crypto.createHash('sha256').update(token).digest('hex')]);
  });
});

describe('health and metrics', () => {
  it('When /healthz and /readyz are asked, then both answer 200 without a token', async () => {
    const base = stack.gateway.url.replace('/api/v1', '');
    expect((await request(base).get('/healthz')).status).toBe(200);
    const ready = await request(base).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('When /metrics is scraped, then it is Prometheus text with the request counter', async () => {
    const base = stack.gateway.url.replace('/api/v1', '');
    const res = await request(base).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('markwright_http_requests_total');
  });

  it('When an unknown API path is asked, then it answers 404 not_found', async () => {
    const { token } = await stack.workspace();
    const res = await request(stack.gateway.url)
      .get('/nothing-here')
      .set(...bearer(token));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'The requested resource was not found.' });
  });
});
