import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MarkwrightClient } from '../src';

/*
 * What convert() puts on the wire for the extensions' form fields (E1–E5), seen by a stand-in
 * that records the request: the fields themselves are validated by the gateway's own tests.
 */

async function recorder() {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ success: true, markdown: '# Hi\n', credits_used: 1, credits_remaining: 1 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    client: new MarkwrightClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
      token: 'mwk_x',
    }),
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The form's text fields, name → value, and the names of its file parts. */
function formOf(body: string) {
  const fields: Record<string, string> = {};
  const files: string[] = [];
  for (const part of body.split(/\r\n--[^\r\n]+/)) {
    const name = /name="([^"]+)"/.exec(part)?.[1];
    if (!name) continue;
    if (/filename="/.test(part)) files.push(name);
    else fields[name] = part.slice(part.indexOf('\r\n\r\n') + 4);
  }
  return { fields, files };
}

describe('convert options of the extensions', () => {
  it('When pages, a range, chunks and the document are asked for, then each is its form field', async () => {
    const stand = await recorder();
    try {
      await stand.client.convert(
        { data: Buffer.from('%PDF'), filename: 'a.pdf' },
        { includePages: true, pageRange: '1-3,7', chunkMaxTokens: 512, includeDocument: true },
      );
      expect(formOf(stand.bodies[0]!)).toEqual({
        fields: { include_pages: 'true', page_range: '1-3,7', chunk_max_tokens: '512', include_document: 'true' },
        files: ['file'],
      });
    } finally {
      await stand.close();
    }
  });

  it('When the file is null and fileUrl is given, then the form has file_url and no file part', async () => {
    const stand = await recorder();
    try {
      await stand.client.convert(null, { fileUrl: 'https://example.com/a.pdf', includeMetadata: true });
      expect(formOf(stand.bodies[0]!)).toEqual({
        fields: { include_metadata: 'true', file_url: 'https://example.com/a.pdf' },
        files: [],
      });
    } finally {
      await stand.close();
    }
  });
});
