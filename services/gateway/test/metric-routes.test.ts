import request from 'supertest';
import { scrapeMetrics } from '@markwright/test-support';
import { routeLabel } from '../src/entry-points/http/route-label';
import { bearer, startStack, type Stack } from './stack';

let stack: Stack;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  ({ token } = await stack.workspace('business', 100));
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const requestsBy = async (route: string) => {
  const m = await scrapeMetrics(`http://127.0.0.1:${stack.gateway.port}/metrics`);
  const count = (status: string) => m.value('markwright_http_requests_total', { route, status });
  return { ok: count('200'), unauthorized: count('401'), notFound: count('404'), invalid: count('422') };
};

describe('the route label of HTTP metrics', () => {
  it('When POST /api/v1/convert succeeds, fails validation or is refused for its token, then all three are counted under route /api/v1/convert', async () => {
    const convert = () => request(`http://127.0.0.1:${stack.gateway.port}`).post('/api/v1/convert');
    expect(
      (
        await convert()
          .set(...bearer(token))
          .attach('file', Buffer.from('hello'), 'a.txt')
      ).status,
    ).toBe(200);
    expect((await convert().set(...bearer(token))).status).toBe(422);
    expect((await convert().set(...bearer('mw_not_a_token'))).status).toBe(401);
    expect(await requestsBy('/api/v1/convert')).toEqual({ ok: 1, unauthorized: 1, notFound: 0, invalid: 1 });
    expect(await requestsBy('/convert')).toEqual({ ok: 0, unauthorized: 0, notFound: 0, invalid: 0 });
  });

  it('When GET /api/v1/conversions/:id finds nothing or has no token, then both are counted under the route template, and an unknown path under unmatched', async () => {
    const gateway = request(`http://127.0.0.1:${stack.gateway.port}`);
    expect((await gateway.get('/api/v1/conversions/conv_missing').set(...bearer(token))).status).toBe(404);
    expect((await gateway.get('/api/v1/conversions/conv_missing')).status).toBe(401);
    expect((await gateway.get('/api/v1/nothing-here').set(...bearer(token))).status).toBe(404);
    expect(await requestsBy('/api/v1/conversions/:id')).toEqual({ ok: 0, unauthorized: 1, notFound: 1, invalid: 0 });
    expect((await requestsBy('unmatched')).notFound).toBe(1);
  });
});

describe('routeLabel', () => {
  it('When a path matches an endpoint as Express matches it (any case, a trailing slash, HEAD for GET), then the label is the endpoint; a wrong method is unmatched', () => {
    expect(routeLabel('POST', '/API/v1/Convert/')).toBe('/api/v1/convert');
    expect(routeLabel('HEAD', '/livez')).toBe('/livez');
    expect(routeLabel('GET', '/api/v1/conversions/abc')).toBe('/api/v1/conversions/:id');
    expect(routeLabel('GET', '/api/v1/conversions/')).toBe('/api/v1/conversions');
    expect(routeLabel('GET', '/api/v1/convert')).toBe('unmatched');
    expect(routeLabel('GET', '/docs/scalar.js')).toBe('/docs/scalar.js');
  });
});
