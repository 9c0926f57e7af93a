import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics } from 'prom-client';

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/**
 * /livez (the process answers), /readyz (its dependencies answer) and /metrics for a worker
 * service; /healthz stays as the older name of /livez. The gateway serves its own through Express.
 */
export async function startHealthServer(
  port: number,
  ready: () => Promise<boolean>,
  registry: Registry,
): Promise<HealthServer> {
  const server = http.createServer((req, res) => {
    void (async () => {
      if (req.url === '/livez' || req.url === '/healthz') return json(res, 200, { status: 'ok' });
      if (req.url === '/readyz') {
        const ok = await ready().catch(() => false);
        return json(res, ok ? 200 : 503, { status: ok ? 'ready' : 'unavailable' });
      }
      if (req.url === '/metrics') {
        res.writeHead(200, { 'Content-Type': registry.contentType });
        return res.end(await registry.metrics());
      }
      json(res, 404, { message: 'Not found.' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, '0.0.0.0', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}
