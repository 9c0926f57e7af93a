import { createMetricsRegistry, type HealthServer, startHealthServer } from '../src';

describe('worker health server', () => {
  let ready = true;
  let server: HealthServer;
  const get = (path: string) => fetch(`http://127.0.0.1:${server.port}${path}`);

  beforeAll(async () => {
    server = await startHealthServer(0, async () => ready, createMetricsRegistry('probe-test'));
  });
  afterAll(() => server?.close());

  it('When the liveness probe asks /livez, then it answers 200 ok even while dependencies are down', async () => {
    ready = false;
    const res = await get('/livez');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('When a dependency is down, then /readyz answers 503 unavailable, and 200 ready once it is back', async () => {
    ready = false;
    const down = await get('/readyz');
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'unavailable' });
    ready = true;
    const up = await get('/readyz');
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ status: 'ready' });
  });

  it('When the readiness check throws, then /readyz answers 503 instead of failing the request', async () => {
    const throwing = await startHealthServer(
      0,
      () => Promise.reject(new Error('db gone')),
      createMetricsRegistry('probe-test'),
    );
    try {
      const res = await fetch(`http://127.0.0.1:${throwing.port}/readyz`);
      expect(res.status).toBe(503);
    } finally {
      await throwing.close();
    }
  });

  it('When Prometheus scrapes /metrics, then it gets the text format with the service label', async () => {
    const res = await get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toMatch(/process_resident_memory_bytes\{service="probe-test"\} \d+/);
  });
});
