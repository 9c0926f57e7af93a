import https from 'node:https';
import type { AddressInfo } from 'node:net';

export type ReceiverMode = 'ok' | 'error500' | 'hang';

/**
 * The customer's HTTPS endpoint: counts, per conversion id, every webhook it received and every
 * one it acknowledged (answered 2xx). Its mode can be switched to answer 500 or to hang.
 */
export async function startCountingReceiver(tls: { key: string; cert: string }) {
  const received = new Map<string, number>();
  const acknowledged = new Map<string, number>();
  let mode: ReceiverMode = 'ok';
  const server = https.createServer(tls, (req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-webhook-conversion-id'] ?? '');
      received.set(id, (received.get(id) ?? 0) + 1);
      if (mode === 'hang') return;
      if (mode === 'error500') {
        res.writeHead(500).end('down');
        return;
      }
      // Counted once the answer is handed to the socket: the receiver has acknowledged it.
      res
        .writeHead(200, { 'Content-Type': 'text/plain' })
        .end('ok', () => acknowledged.set(id, (acknowledged.get(id) ?? 0) + 1));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${port}/hooks`,
    setMode: (next: ReceiverMode) => (mode = next),
    received: (id: string) => received.get(id) ?? 0,
    acknowledged: (id: string) => acknowledged.get(id) ?? 0,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
export type CountingReceiver = Awaited<ReturnType<typeof startCountingReceiver>>;
