import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stand-in answers: a status, a JSON body, and how long it waits first. */
export interface TranscriptionAnswer {
  status: number;
  body?: unknown;
  delayMs?: number;
}

/** A stand-in for an outside OpenAI-compatible speech-to-text server (`POST /v1/audio/transcriptions`). */
export async function startTranscriptionServer(answer: TranscriptionAnswer) {
  const requests: Array<{ url: string; headers: http.IncomingHttpHeaders; body: Buffer }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      setTimeout(() => {
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(answer.body ?? {}));
      }, answer.delayMs ?? 0).unref();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
