import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: number;
}

/** A self-signed certificate for localhost / 127.0.0.1, made with openssl; its PEM path is the CA to trust. */
export function makeCertificate(): { key: string; cert: string; certFile: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-cert-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return {
    key: fs.readFileSync(keyFile, 'utf8'),
    cert: fs.readFileSync(certFile, 'utf8'),
    certFile,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The outside world: a real HTTPS webhook receiver. Each path has a script of answers
 * (status codes, 'hang' or 'redirect'); the last answer repeats.
 */
export async function startReceiver(tls: { key: string; cert: string }) {
  const received: Received[] = [];
  const scripts = new Map<string, Array<number | 'hang' | 'redirect'>>();
  const counts = new Map<string, number>();
  const server = https.createServer(tls, (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const p = req.url ?? '/';
      received.push({ path: p, headers: req.headers, body, at: Date.now() });
      const n = counts.get(p) ?? 0;
      counts.set(p, n + 1);
      const script = scripts.get(p) ?? [200];
      const answer = script[Math.min(n, script.length - 1)]!;
      if (answer === 'hang') return;
      if (answer === 'redirect') {
        res.writeHead(301, { Location: '/elsewhere' });
        return res.end();
      }
      res.writeHead(answer, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (p: string) => `https://localhost:${port}${p}`,
    ipUrl: (p: string) => `https://127.0.0.1:${port}${p}`,
    script: (p: string, answers: Array<number | 'hang' | 'redirect'>) => scripts.set(p, answers),
    for: (p: string) => received.filter((r) => r.path === p),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
