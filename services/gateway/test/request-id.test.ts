import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger } from '@markwright/config';
import { createTestEnv, silentLogger, type TestEnv } from '@markwright/test-support';
import { startConverter, type ConverterService } from '../../converter/src/converter-service';
import { startGateway, type Gateway } from '../src/gateway';
import { createWorkspace } from '../src/domain/workspaces';
import { bearer } from './stack';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let env: TestEnv;
let gateway: Gateway;
let converter: ConverterService;
let token: string;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  env = await createTestEnv();
  // The gateway logs through the production logger, whose lines land here, one JSON object each.
  const capture = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  gateway = await startGateway(env.config, createLogger('gateway', 'info', capture));
  converter = await startConverter(env.config, silentLogger);
  ({ token } = await createWorkspace(gateway.db, { name: 'request-ids', plan: 'business', credits: 100 }));
}, 60_000);
afterAll(async () => {
  await converter?.stop();
  await gateway?.stop();
  await env?.cleanup();
});

const linesOf = (requestId: string) => lines.filter((l) => l.requestId === requestId);

describe('request ids', () => {
  it('When a caller sends a plain X-Request-Id, then the response carries it and so does every log line of that request', async () => {
    const res = await request(gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .set('X-Request-Id', 'checkout-42.retry:1')
      .attach('file', Buffer.from('hello'), 'hello.txt');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('checkout-42.retry:1');
    const messages = linesOf('checkout-42.retry:1').map((l) => l.msg);
    expect(messages).toEqual(expect.arrayContaining(['conversion accepted', 'request completed']));
  });

  it('When a caller sends no request id, then the gateway makes a UUID and logs the request under it', async () => {
    const res = await request(gateway.url)
      .get('/conversions')
      .set(...bearer(token));
    expect(res.status).toBe(200);
    const id = String(res.headers['x-request-id']);
    expect(id).toMatch(UUID);
    expect(linesOf(id).map((l) => l.msg)).toContain('request completed');
  });

  it('When the incoming id is too long or holds spaces or markup, then it is replaced by a fresh UUID', async () => {
    for (const bad of ['x'.repeat(129), 'two words', '<script>', '"quoted"', '']) {
      const res = await request(gateway.url)
        .get('/conversions')
        .set(...bearer(token))
        .set('X-Request-Id', bad);
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('When a request is refused (401, 404), then the error response carries a request id too', async () => {
    const unauthenticated = await request(gateway.url).get('/conversions');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers['x-request-id']).toMatch(UUID);
    const missing = await request(gateway.url)
      .get('/nowhere')
      .set(...bearer(token))
      .set('X-Request-Id', 'lost-1');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-request-id']).toBe('lost-1');
    expect(linesOf('lost-1')).toHaveLength(1);
  });

  it('When a request is logged, then its access line says method, path and status, and never the bearer token', async () => {
    await request(gateway.url)
      .get('/conversions?page=1')
      .set(...bearer(token))
      .set('X-Request-Id', 'access-1');
    const [line] = linesOf('access-1');
    expect(line).toMatchObject({ req: { method: 'GET', url: '/api/v1/conversions?page=1' }, res: { statusCode: 200 } });
    expect(JSON.stringify(line)).not.toContain(token);
  });

  it('When a probe asks /livez, then it answers 200 and leaves no access line', async () => {
    const res = await request(`http://127.0.0.1:${gateway.port}`).get('/livez').set('X-Request-Id', 'probe-1');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('probe-1');
    expect(linesOf('probe-1')).toHaveLength(0);
  });
});
