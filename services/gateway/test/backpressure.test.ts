import request from 'supertest';
import { eventually, scrapeMetrics, silentLogger } from '@markwright/test-support';
import { loadConfig } from '@markwright/config';
import { bearer, startStack, type Stack } from './stack';
import { AT_CAPACITY_RETRY_AFTER_SECONDS, createJobAdmission } from '../src/domain/job-admission';

const LIMIT = 5;
const BURST = 12;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ converter: false, env: { MAX_QUEUED_JOBS: String(LIMIT) } });
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

const AT_CAPACITY = {
  error: 'at_capacity',
  message: `The service is at capacity: too many conversions are waiting. Please retry in ${AT_CAPACITY_RETRY_AFTER_SECONDS} seconds.`,
};

const convert = (token: string, opts: { async?: boolean } = {}) => {
  let req = request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token));
  if (opts.async !== false) req = req.field('webhook_url', 'https://receiver.example/hook');
  return req.attach('file', Buffer.from('# Queued\n'), 'queued.md');
};

const metric = async (name: string): Promise<number> =>
  (await scrapeMetrics(`${stack.gateway.url.replace('/api/v1', '')}/metrics`)).value(name);

describe('Backpressure: MAX_QUEUED_JOBS (E11)', () => {
  it('When no converter runs and a burst passes the limit, then exactly MAX_QUEUED_JOBS are queued and the rest get 503 at_capacity, uncharged and unstored', async () => {
    const { workspaceId, token } = await stack.workspace('business', 100);
    const answers = await Promise.all(Array.from({ length: BURST }, () => convert(token)));

    const accepted = answers.filter((r) => r.status === 202);
    const refused = answers.filter((r) => r.status === 503);
    expect([accepted.length, refused.length]).toEqual([LIMIT, BURST - LIMIT]);
    for (const r of refused) {
      expect(r.body).toEqual(AT_CAPACITY);
      expect(r.headers['retry-after']).toBe(String(AT_CAPACITY_RETRY_AFTER_SECONDS));
    }
    expect(await stack.ledger(workspaceId)).toEqual([
      { type: 'grant', amount: 100 },
      ...Array.from({ length: LIMIT }, () => ({ type: 'charge', amount: -1 })),
    ]);
    expect(await stack.gateway.db.conversion.count({ where: { workspaceId } })).toBe(LIMIT);
    expect(await stack.gateway.db.upload.count()).toBe(LIMIT);
    expect(await metric('markwright_convert_rejected_at_capacity_total')).toBe(BURST - LIMIT);
  });

  it('When the queue is still full a second later (read from the broker), then async and sync requests are both refused', async () => {
    const { workspaceId, token } = await stack.workspace('business', 100);
    await new Promise((r) => setTimeout(r, 1_100));
    const asyncAnswer = await convert(token);
    const syncAnswer = await convert(token, { async: false });
    expect([asyncAnswer.status, asyncAnswer.body]).toEqual([503, AT_CAPACITY]);
    expect([syncAnswer.status, syncAnswer.body]).toEqual([503, AT_CAPACITY]);
    expect(await stack.ledger(workspaceId)).toEqual([{ type: 'grant', amount: 100 }]);
  });

  it('When a converter drains the queue, then requests are accepted again', async () => {
    const { token } = await stack.workspace('business', 100);
    await stack.startConverter();
    const answer = await eventually(async () => {
      const res = await convert(token, { async: false });
      return res.status === 503 ? undefined : res;
    }, 30_000);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, markdown: '# Queued\n' });
  });
});

describe('Job admission', () => {
  const make = (read: () => Promise<number>, now: () => number) =>
    createJobAdmission({
      readWaitingJobs: read,
      maxQueuedJobs: 3,
      logger: silentLogger,
      onRefused: () => undefined,
      now,
    });

  it('When requests arrive within half a second, then the broker is read once; after a second it is read again', async () => {
    let clock = 0;
    let reads = 0;
    const admission = make(
      async () => (reads++, 0),
      () => clock,
    );
    const admitAndPublish = async () => (await admission.admit()).published();
    await Promise.all([admitAndPublish(), admitAndPublish()]);
    clock = 499;
    await admitAndPublish();
    expect(reads).toBe(1);
    clock = 1_600;
    await admitAndPublish();
    expect(reads).toBe(2);
  });

  it('When the reading is half a second old, then requests still use it while one read runs in the background; past a second they wait for a read', async () => {
    let clock = 0;
    const reads: ((waiting: number) => void)[] = [];
    const admission = make(
      () => new Promise<number>((resolve) => reads.push(resolve)),
      () => clock,
    );
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    const first = admission.admit();
    reads[0]!(0);
    (await first).release();
    clock = 500;
    // Answered from the reading of time 0 although the broker has not answered yet: no request waits.
    (await admission.admit()).release();
    (await admission.admit()).release();
    expect(reads).toHaveLength(2); // one read in flight, shared
    reads[1]!(3); // the queue is full now
    await settled();
    await expect(admission.admit()).rejects.toMatchObject({ kind: 'at_capacity' });
    clock = 1_500; // the reading of time 500 is a second old: the next request waits for a read
    let answered = false;
    const waiting = admission.admit().finally(() => (answered = true));
    await settled();
    expect(reads).toHaveLength(3);
    expect(answered).toBe(false);
    reads[2]!(0);
    await expect(waiting).resolves.toHaveProperty('release');
  });

  it('When the broker cannot be read, then requests are let through', async () => {
    const admission = make(
      async () => Promise.reject(new Error('channel closed')),
      () => 0,
    );
    await expect(admission.admit()).resolves.toHaveProperty('release');
  });

  it('When held places reach the limit, then the next is refused until one is published and no longer counted by a later read', async () => {
    let clock = 0;
    let waiting = 0;
    const admission = make(
      async () => waiting,
      () => clock,
    );
    const places = await Promise.all([admission.admit(), admission.admit(), admission.admit()]);
    await expect(admission.admit()).rejects.toMatchObject({ kind: 'at_capacity' });
    places[0]!.published();
    places[0]!.release(); // the request ends after its job was published: still counted
    // Published after the read: still counted until a read that began after it.
    await expect(admission.admit()).rejects.toMatchObject({ kind: 'at_capacity' });
    clock = 1_000;
    waiting = 0; // a converter took the published job
    await expect(admission.admit()).resolves.toHaveProperty('release');
  });

  it('When admitted requests end without a job (422, 402, failed publish) within one reading, then their places are free at once', async () => {
    let reads = 0;
    const admission = make(
      async () => (reads++, 1),
      () => 0,
    );
    // One job waits (the reading), limit 3: two places fit; they end without publishing, twice over.
    for (let round = 0; round < 3; round++) {
      const places = await Promise.all([admission.admit(), admission.admit()]);
      await expect(admission.admit()).rejects.toMatchObject({ kind: 'at_capacity' });
      for (const place of places) {
        place.release();
        place.release(); // idempotent
      }
    }
    await expect(admission.admit()).resolves.toHaveProperty('published');
    expect(reads).toBe(1);
  });

  it('When jobs are published within one reading, then each is counted once: published after the reading, not also held', async () => {
    let clock = 0;
    let waiting = 0;
    const admission = make(
      async () => waiting,
      () => clock,
    );
    const first = await admission.admit();
    first.published();
    first.published(); // a second call counts nothing more
    first.release();
    const second = await admission.admit();
    second.published();
    const third = await admission.admit(); // 2 published since the reading + 1 held = 3
    await expect(admission.admit()).rejects.toMatchObject({ kind: 'at_capacity' });
    third.release(); // ended without a job
    await expect(admission.admit()).resolves.toHaveProperty('published');
    clock = 1_000;
    waiting = 2; // the broker now counts the two published jobs; the held place is still ours
    await expect(admission.admit()).rejects.toMatchObject({ kind: 'at_capacity' });
  });

  it('When MAX_QUEUED_JOBS is not a positive integer, then the configuration names it', () => {
    expect(() => loadConfig({ MAX_QUEUED_JOBS: '0' })).toThrow(/MAX_QUEUED_JOBS/);
  });
});
