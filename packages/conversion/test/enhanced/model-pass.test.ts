import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { convertDocument } from '../../src';

/** A stand-in for the outside OpenAI-compatible endpoint: answers with `reply(requestBody)`. */
async function modelServer(
  reply: (body: { model: string; messages: Array<{ role: string; content: string }> }) => {
    status: number;
    content?: string;
    delayMs?: number;
  },
) {
  const requests: Array<{
    headers: http.IncomingHttpHeaders;
    body: { model: string; messages: Array<{ role: string; content: string }> };
  }> = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      requests.push({ headers: req.headers, body });
      const answer = reply(body);
      setTimeout(() => {
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: answer.content ?? '' } }] }));
      }, answer.delayMs ?? 0).unref();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const broken = Buffer.from('Name Score\nAna 3\nBo 4\n');
const repaired = '| Name | Score |\n| --- | --- |\n| Ana | 3 |\n| Bo | 4 |';

describe('enhanced mode model pass', () => {
  it('When pages and chunks are asked for, then they are cut from the model’s Markdown: the PDF keeps an entry per page, the answer on the first', async () => {
    const { makePdf } = await import('../pdf/make-pdf');
    const input = await makePdf((doc) => {
      doc.fontSize(12).text('Name Score');
      doc.addPage();
      doc.fontSize(12).text('Ana 3');
    });
    const server = await modelServer(() => ({ status: 200, content: repaired }));
    try {
      const result = await convertDocument(input, 'pdf', {
        enhanced: true,
        includePages: true,
        chunkMaxTokens: 64,
        modelEndpoint: { baseUrl: server.url, model: 'm', timeoutMs: 5000 },
      });
      expect(result.markdown).toBe(`${repaired}\n`);
      expect(result.pages).toEqual([
        { number: 1, markdown: repaired },
        { number: 2, markdown: '' },
      ]);
      expect(result.chunks!.map((c) => c.markdown)).toEqual([repaired]);
      expect(result.chunks![0]!.pages).toEqual([1]);
    } finally {
      await server.close();
    }
  });

  it('When an endpoint is configured, then enhanced output is the model’s repaired Markdown and the request carries model and key', async () => {
    const server = await modelServer(() => ({ status: 200, content: '```markdown\n' + repaired + '\n```' }));
    try {
      const result = await convertDocument(broken, 'txt', {
        enhanced: true,
        modelEndpoint: { baseUrl: server.url, model: 'tiny-model', apiKey: 'k-123', timeoutMs: 5000 },
      });
      expect(result.markdown).toBe(`${repaired}\n`);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.headers.authorization).toBe('Bearer k-123');
      expect(server.requests[0]!.body.model).toBe('tiny-model');
      expect(server.requests[0]!.body.messages[1]).toEqual({ role: 'user', content: 'Name Score\nAna 3\nBo 4\n' });
    } finally {
      await server.close();
    }
  });

  it('When the endpoint is slower than the timeout, then the local result is kept', async () => {
    const server = await modelServer(() => ({ status: 200, content: repaired, delayMs: 2000 }));
    try {
      const result = await convertDocument(broken, 'txt', {
        enhanced: true,
        modelEndpoint: { baseUrl: server.url, model: 'm', timeoutMs: 200 },
      });
      expect(result.markdown).toBe('Name Score\nAna 3\nBo 4\n');
    } finally {
      await server.close();
    }
  });

  it('When the endpoint fails or answers a truncated text, then the local result is kept', async () => {
    for (const answer of [{ status: 500 }, { status: 200, content: 'Name' }]) {
      const server = await modelServer(() => answer);
      try {
        const result = await convertDocument(broken, 'txt', {
          enhanced: true,
          modelEndpoint: { baseUrl: server.url, model: 'm', timeoutMs: 2000 },
        });
        expect(result.markdown).toBe('Name Score\nAna 3\nBo 4\n');
      } finally {
        await server.close();
      }
    }
  });

  it('When standard mode is used, then the endpoint is never called', async () => {
    const server = await modelServer(() => ({ status: 200, content: repaired }));
    try {
      await convertDocument(broken, 'txt', {
        enhanced: false,
        modelEndpoint: { baseUrl: server.url, model: 'm', timeoutMs: 2000 },
      });
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
