import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** How the outside file host answers a path. */
export type FileAnswer =
  | { body: string | Buffer; headers?: Record<string, string> }
  | { status: number }
  | { redirect: string }
  /** Sends 64 KB chunks until the client goes away. */
  | { endless: true }
  /** Declares this Content-Length, then sends nothing. */
  | { declared: number }
  /** Sends the headers, then one byte every `everyMs`. */
  | { drip: number };

/**
 * The outside world for file_url: a real HTTPS server (the test's self-signed certificate) whose
 * paths answer as scripted, recording how much of each endless answer was written before the
 * client gave up.
 */
export async function startFileHost(tls: { key: string; cert: string }, host = '127.0.0.1') {
  const answers = new Map<string, FileAnswer>();
  const closedAfterBytes: number[] = [];
  const requested: string[] = [];
  const server = https.createServer(tls, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    requested.push(path);
    const answer = answers.get(path) ?? { status: 404 };
    if ('status' in answer) return res.writeHead(answer.status).end();
    if ('redirect' in answer) return res.writeHead(302, { Location: answer.redirect }).end();
    if ('declared' in answer) return res.writeHead(200, { 'Content-Length': String(answer.declared) }).flushHeaders();
    if ('drip' in answer) {
      res.writeHead(200, { 'Content-Type': 'text/markdown' });
      const timer = setInterval(() => res.write('a'), answer.drip);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if ('endless' in answer) {
      let written = 0;
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
      };
      res.on('drain', pump);
      res.on('close', () => closedAfterBytes.push(written));
      pump();
      return;
    }
    res.writeHead(200, answer.headers ?? {});
    res.end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** https://localhost:<port><path>: a host name, resolved through DNS by the client. */
    url: (path: string) => `https://localhost:${port}${path}`,
    ipUrl: (path: string) => `https://127.0.0.1:${port}${path}`,
    answer: (path: string, answer: FileAnswer) => answers.set(path, answer),
    closedAfterBytes,
    /** Paths asked for, in order. */
    requested,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
