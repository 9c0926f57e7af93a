import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { bearer, startStack, type Stack } from './stack';
import { UNCOUNTED_UPLOAD_MAX_BYTES } from '../src/entry-points/http/upload';
import { pipeInto, UPLOAD_MEMORY_BYTES } from '../src/entry-points/http/spooled-upload-storage';
import { PassThrough, Readable, Writable } from 'node:stream';

/**
 * Issue 21, point 2: the plan is known before the body is read, the file is spooled to a
 * temporary file and kept only up to the plan's limit while it arrives, a workspace has at most
 * UPLOADS_PER_WORKSPACE uploads in flight, and the temporary files are removed on every path.
 * Bodies are sent by hand with node:http, so a test can hold one half-sent and look at the disk.
 */
const UPLOADS_PER_WORKSPACE = 2;
const BOUNDARY = 'BoundedUploadBoundary';
const HOOK_URL = 'https://receiver.example/hook';
const MB = 1024 * 1024;
const FREE_LIMIT = 5 * MB;

let stack: Stack;
let tmpDir: string;
beforeAll(async () => {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-upload-spool-'));
  stack = await startStack({
    converter: false,
    env: { UPLOADS_PER_WORKSPACE: String(UPLOADS_PER_WORKSPACE), UPLOAD_TMP_DIR: tmpDir, SYNC_TIMEOUT_MS: '10000' },
  });
});
afterAll(async () => {
  await stack.stop();
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A POST /convert whose body the test writes piece by piece; `answer` settles when the gateway responds. */
function openUpload(token: string, options: { contentLength?: number; filename?: string } = {}) {
  const url = new URL(`${stack.gateway.url}/convert`);
  const req = http.request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...(options.contentLength ? { 'Content-Length': options.contentLength } : { 'Transfer-Encoding': 'chunked' }),
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : {} });
      });
    });
    req.on('error', reject);
  });
  answer.catch(() => undefined);
  const write = (data: string | Buffer) =>
    new Promise<void>((resolve, reject) => req.write(data, (err) => (err ? reject(err) : resolve())));
  return {
    answer,
    /** The webhook field, then the file part's header. */
    start: () =>
      write(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="webhook_url"\r\n\r\n${HOOK_URL}\r\n` +
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${options.filename ?? 'big.txt'}"\r\n` +
          'Content-Type: text/plain\r\n\r\n',
      ),
    writeBytes: async (bytes: number) => {
      const chunk = Buffer.alloc(Math.min(bytes, MB), 0x61);
      for (let left = bytes; left > 0; left -= chunk.length)
        await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
    },
    finish: async () => {
      await write(`\r\n--${BOUNDARY}--\r\n`);
      req.end();
      return answer;
    },
    abort: () => req.destroy(),
  };
}

const spooledFiles = (): Array<{ name: string; size: number }> =>
  fs.readdirSync(tmpDir).flatMap((name) => {
    try {
      return [{ name, size: fs.statSync(path.join(tmpDir, name)).size }];
    } catch {
      return []; // removed between readdir and stat
    }
  });

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting until ${what}; spool holds ${JSON.stringify(spooledFiles())}`);
}

const charges = async (workspaceId: string) => (await stack.ledger(workspaceId)).filter((t) => t.type !== 'grant');

const spoolEmpty = () => until(() => spooledFiles().length === 0, 'the spool is empty');

/** A body large enough to take an upload slot (smaller declared bodies don't). */
const COUNTED = Buffer.alloc(UNCOUNTED_UPLOAD_MAX_BYTES + 1, 0x61);

const OVER_FREE_LIMIT = {
  message: 'The file field must not be greater than 5120 kilobytes.',
  errors: { file: ['The file field must not be greater than 5120 kilobytes.'] },
};

describe('bounded uploads', () => {
  afterEach(() => spoolEmpty());

  it('When a free-plan file passes 5 MB, then its temporary file is gone while the body still arrives, and the answer is 422 on file with nothing charged', async () => {
    const { token, workspaceId } = await stack.workspace('free', 10);
    const upload = openUpload(token);
    await upload.start();
    await upload.writeBytes(MB);
    await until(() => spooledFiles().some((f) => f.size > 0), 'the first megabyte is spooled');
    await upload.writeBytes(FREE_LIMIT);
    // The body is not finished: the plan's limit has already applied to the bytes that arrived.
    await spoolEmpty();
    await upload.writeBytes(3 * MB);
    expect(spooledFiles()).toEqual([]);
    const res = await upload.finish();
    expect([res.status, res.body]).toEqual([422, OVER_FREE_LIMIT]);
    expect(await charges(workspaceId)).toEqual([]);
  });

  it('When a free-plan file is exactly 5 MB, then it is kept whole and accepted (202), and its temporary file is removed', async () => {
    const { token, workspaceId } = await stack.workspace('free', 10);
    const upload = openUpload(token);
    await upload.start();
    await upload.writeBytes(FREE_LIMIT);
    const res = await upload.finish();
    expect(res.status).toBe(202);
    const stored = await stack.gateway.db.upload.findUniqueOrThrow({ where: { conversionId: String(res.body.id) } });
    expect(stored.bytes.length).toBe(FREE_LIMIT);
    expect(await charges(workspaceId)).toEqual([{ type: 'charge', amount: -1 }]);
  });

  it('When a file is at most 64 KB, then it is held in memory (no temporary file is ever made) and stored intact; one byte more goes to a temporary file', async () => {
    const { token } = await stack.workspace('free', 10);
    /** Uploads a file of `size` bytes and lists the files created in the spool meanwhile. */
    const watched = async (size: number) => {
      const created: string[] = [];
      const watcher = fs.watch(tmpDir, (_event, name) => name && created.push(name));
      try {
        const upload = openUpload(token);
        await upload.start();
        await upload.writeBytes(size);
        const res = await upload.finish();
        await new Promise((r) => setTimeout(r, 100)); // let the watcher's last events in
        return { res, created };
      } finally {
        watcher.close();
      }
    };
    const small = await watched(UPLOAD_MEMORY_BYTES);
    const large = await watched(UPLOAD_MEMORY_BYTES + 1);
    expect(small.created).toEqual([]);
    expect(large.created.length).toBeGreaterThan(0);
    for (const [{ res }, size] of [
      [small, UPLOAD_MEMORY_BYTES],
      [large, UPLOAD_MEMORY_BYTES + 1],
    ] as const) {
      expect(res.status).toBe(202);
      const stored = await stack.gateway.db.upload.findUniqueOrThrow({ where: { conversionId: String(res.body.id) } });
      expect(Buffer.from(stored.bytes).equals(Buffer.alloc(size, 0x61))).toBe(true);
    }
  });

  it('When a free-plan file is over the 60 MB server cap, then it answers 413 with only a message (the cap comes before validation)', async () => {
    const { token } = await stack.workspace('free', 10);
    const upload = openUpload(token);
    await upload.start();
    await upload.writeBytes(60 * MB + 1);
    const res = await upload.finish();
    expect([res.status, res.body]).toEqual([413, { message: 'The uploaded file exceeds the server limit of 60 MB.' }]);
  });

  it('When the declared body is larger than the server cap, then it answers 413 before any of the body is sent', async () => {
    const { token } = await stack.workspace('business', 10);
    const upload = openUpload(token, { contentLength: 70 * MB });
    await upload.start();
    const res = await upload.answer;
    upload.abort();
    expect([res.status, res.body]).toEqual([413, { message: 'The uploaded file exceeds the server limit of 60 MB.' }]);
  });

  it('When the workspace already has its uploads in flight, then another answers 429 with Retry-After, another workspace is not affected, and a finished upload frees its slot', async () => {
    const busy = await stack.workspace('free', 10);
    const other = await stack.workspace('free', 10);
    const held = Array.from({ length: UPLOADS_PER_WORKSPACE }, () => openUpload(busy.token));
    for (const upload of held) {
      await upload.start();
      await upload.writeBytes(UPLOAD_MEMORY_BYTES + 1); // past the memory share, so it shows in the spool
    }
    await until(() => spooledFiles().length === UPLOADS_PER_WORKSPACE, 'both uploads are spooling');

    const refused = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(busy.token))
      .field('webhook_url', HOOK_URL)
      .attach('file', COUNTED, 'a.txt');
    expect([refused.status, refused.body, refused.headers['retry-after']]).toEqual([
      429,
      { message: 'Too many uploads in progress for this workspace. Please wait for one to finish before retrying.' },
      '1',
    ]);
    // A small declared body takes no slot, so it still goes through; a chunked one (size unknown) counts.
    const small = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(busy.token))
      .field('webhook_url', HOOK_URL)
      .attach('file', Buffer.from('hello'), 'a.txt');
    expect(small.status).toBe(202);
    const chunked = openUpload(busy.token);
    await chunked.start();
    await chunked.writeBytes(5);
    expect((await chunked.finish()).status).toBe(429);
    const elsewhere = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(other.token))
      .field('webhook_url', HOOK_URL)
      .attach('file', Buffer.from('hello'), 'a.txt');
    expect(elsewhere.status).toBe(202);

    expect((await held[0]!.finish()).status).toBe(202);
    const after = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(busy.token))
      .field('webhook_url', HOOK_URL)
      .attach('file', COUNTED, 'a.txt');
    expect(after.status).toBe(202);
    expect((await held[1]!.finish()).status).toBe(202);
    expect(await charges(busy.workspaceId)).toHaveLength(4);
  });

  it('When sync conversions wait for their result, then they hold no upload slot: more than the cap wait at once', async () => {
    const { token, workspaceId } = await stack.workspace('free', 10);
    const waiting = UPLOADS_PER_WORKSPACE + 2;
    const pending = () => stack.gateway.db.conversion.count({ where: { workspaceId, status: 'pending' } });
    const answers: Array<Promise<request.Response>> = [];
    // No converter runs in this file: each waits SYNC_TIMEOUT_MS (10 s), then fails and is refunded.
    for (let i = 1; i <= waiting; i++) {
      answers.push(
        request(stack.gateway.url)
          .post('/convert')
          .set(...bearer(token))
          .attach('file', COUNTED, 'a.txt')
          .then((r) => r),
      );
      for (let tries = 0; tries < 100 && (await pending()) < i; tries++) await new Promise((r) => setTimeout(r, 50));
    }
    expect(await pending()).toBe(waiting);
    expect((await Promise.all(answers)).map((r) => [r.status, r.body.error])).toEqual(
      Array.from({ length: waiting }, () => [422, 'conversion_failed']),
    );
  });

  it('When uploads end in 422, 402 or a dropped connection, then their slots are freed', async () => {
    const { token } = await stack.workspace('free', 0);
    for (let i = 0; i < UPLOADS_PER_WORKSPACE + 1; i++) {
      const poor = await request(stack.gateway.url)
        .post('/convert')
        .set(...bearer(token))
        .field('webhook_url', HOOK_URL)
        .attach('file', COUNTED, 'a.txt');
      expect(poor.status).toBe(402);
      const invalid = await request(stack.gateway.url)
        .post('/convert')
        .set(...bearer(token))
        .attach('file', COUNTED, 'a.exe');
      expect(invalid.status).toBe(422);
      const dropped = openUpload(token);
      await dropped.start();
      await dropped.writeBytes(UPLOAD_MEMORY_BYTES + 1); // past the memory share, so it shows in the spool
      await until(() => spooledFiles().length === 1, 'the dropped upload is spooling');
      dropped.abort();
      await spoolEmpty();
    }
    const poor = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', HOOK_URL)
      .attach('file', COUNTED, 'a.txt');
    expect(poor.status).toBe(402);
  });

  it('When the client drops the connection mid-file, then the temporary file is removed and nothing is charged', async () => {
    const { token, workspaceId } = await stack.workspace('business', 10);
    const upload = openUpload(token);
    await upload.start();
    await upload.writeBytes(2 * MB);
    await until(() => spooledFiles().some((f) => f.size > 0), 'the upload is spooling');
    upload.abort();
    await spoolEmpty();
    expect(await charges(workspaceId)).toEqual([]);
  });
});

describe("the spool's pipe (pipeline for one source and one sink, without its AbortController)", () => {
  const collecting = (held: Buffer[], fail?: Error) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (fail) return done(fail);
        held.push(chunk);
        done();
      },
    });

  it('When the source ends, then it resolves once the sink has every byte', async () => {
    const held: Buffer[] = [];
    await pipeInto(Readable.from([Buffer.from('a'.repeat(1024)), Buffer.from('b')]), collecting(held));
    expect(Buffer.concat(held).toString()).toBe(`${'a'.repeat(1024)}b`);
  });

  it('When the source fails, then it rejects with that error and the sink is destroyed', async () => {
    const source = new PassThrough();
    const sink = collecting([]);
    const piped = pipeInto(source, sink);
    source.write('part');
    source.destroy(new Error('Unexpected end of form'));
    await expect(piped).rejects.toThrow('Unexpected end of form');
    expect(sink.destroyed).toBe(true);
  });

  it('When the sink fails, then it rejects with that error and the source is destroyed (nothing waits on it)', async () => {
    const source = new PassThrough();
    const piped = pipeInto(source, collecting([], new Error('ENOSPC')));
    source.end('bytes');
    await expect(piped).rejects.toThrow('ENOSPC');
    expect(source.destroyed).toBe(true);
  });

  it('When the source closes before its end, then it rejects (premature close) instead of waiting forever', async () => {
    const source = new PassThrough();
    const piped = pipeInto(source, collecting([]));
    source.write('part');
    source.destroy();
    await expect(piped).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });
});
