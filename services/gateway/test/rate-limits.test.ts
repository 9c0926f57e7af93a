import request from 'supertest';
import { silentLogger, TEST_REDIS_URL } from '@markwright/test-support';
import { bearer, startStack, type Stack } from './stack';
import { createToken } from '../src/domain/workspaces';
import { startGateway } from '../src/gateway';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ converter: false });
});
afterAll(() => stack?.stop());

const convert = (url: string, token: string) =>
  request(url)
    .post('/convert')
    .set(...bearer(token))
    .field('x', '1');

describe('rate limits per workspace', () => {
  it('When two tokens of one free workspace send 21 converts in a minute, then they share 20 and the 21st gets 429', async () => {
    const { workspaceId, token } = await stack.workspace('free', 100);
    const second = (await createToken(stack.gateway.db, workspaceId))!;
    for (let i = 0; i < 20; i++) {
      const res = await convert(stack.gateway.url, i % 2 === 0 ? token : second);
      expect(res.status).toBe(422);
    }
    const limited = await convert(stack.gateway.url, second);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Too many requests. Please wait before retrying.' });
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-policy']).toContain('q=20');
    expect(limited.headers.ratelimit).toContain('r=0');
  });

  it('When another workspace converts, then it has its own budget', async () => {
    const a = await stack.workspace('free', 100);
    const b = await stack.workspace('free', 100);
    for (let i = 0; i < 20; i++) await convert(stack.gateway.url, a.token);
    expect((await convert(stack.gateway.url, a.token)).status).toBe(429);
    expect((await convert(stack.gateway.url, b.token)).status).toBe(422);
  });

  it('When the plan is starter, then the convert budget is 60 a minute', async () => {
    const { token } = await stack.workspace('starter', 100);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await convert(stack.gateway.url, token)).status);
    expect(statuses.slice(0, 60).every((s) => s === 422)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('When other endpoints are called 121 times, then the 121st gets 429 whatever the plan', async () => {
    const { token } = await stack.workspace('business', 100);
    for (let i = 0; i < 120; i++) {
      expect(
        (
          await request(stack.gateway.url)
            .get('/conversions')
            .set(...bearer(token))
        ).status,
      ).toBe(200);
    }
    const limited = await request(stack.gateway.url)
      .get('/conversions/not-a-uuid')
      .set(...bearer(token));
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('When REDIS_URL is set, then two gateway replicas share one budget', async () => {
    const env = { ...stack.env.config, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: `${stack.env.prefix}.redis` };
    const one = await startGateway(env, silentLogger);
    const two = await startGateway(env, silentLogger);
    try {
      const { token } = await stack.workspace('free', 100);
      for (let i = 0; i < 20; i++) {
        expect((await convert(i % 2 ? one.url : two.url, token)).status).toBe(422);
      }
      expect((await convert(one.url, token)).status).toBe(429);
      expect((await convert(two.url, token)).status).toBe(429);
    } finally {
      await one.stop();
      await two.stop();
    }
  });
});
