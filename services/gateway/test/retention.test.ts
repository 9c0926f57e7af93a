import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { loadConfig } from '@markwright/config';
import { eventually, silentLogger } from '@markwright/test-support';
import { bearer, startStack, type Stack } from './stack';
import { RETENTION_BATCH, RETENTION_MAX_BATCHES, sweepExpiredResults } from '../src/domain/delete-conversion';
import type { JobControlDeps } from '../src/domain/job-control';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const ADMIN = path.join(ROOT, 'services', 'gateway', 'src', 'entry-points', 'cli', 'admin.ts');

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { RESULT_RETENTION_HOURS: '1' } });
});
afterAll(() => stack.stop());

const HOUR = 3_600_000;

async function admin(...args: string[]) {
  try {
    const { stdout } = await run(TSX, [ADMIN, ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: stack.env.config.DATABASE_URL },
      timeout: 170_000,
    });
    return { code: 0, out: JSON.parse(stdout) as Record<string, unknown> };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, out: JSON.parse(e.stderr) as Record<string, unknown> };
  }
}

async function convertSync(token: string, content = '# Kept\n') {
  const res = await request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token))
    .attach('file', Buffer.from(content), 'doc.md');
  expect(res.status).toBe(200);
  return stack.gateway.db.conversion.findFirstOrThrow({ where: { markdown: content }, orderBy: { createdAt: 'desc' } });
}

const finishedAgo = (id: string, ms: number) =>
  stack.gateway.db.conversion.update({ where: { id }, data: { completedAt: new Date(Date.now() - ms) } });
const exists = async (id: string) => (await stack.gateway.db.conversion.count({ where: { id } })) === 1;

/** Finished conversions inserted directly, `count` of them, finished `agoMs` ago. */
async function insertFinished(workspaceId: string, count: number, agoMs: number): Promise<void> {
  await stack.gateway.db.$executeRaw`
    INSERT INTO conversions (id, workspace_id, status, original_filename, extension, file_size_bytes,
      use_enhanced_ai, include_metadata, optimize_tokens, mode, credits_charged, created_at, completed_at, markdown)
    SELECT gen_random_uuid(), ${workspaceId}::uuid, 'completed', 'bulk.md', 'md', 1, false, false, false, 'sync', 1,
      ${new Date(Date.now() - agoMs - 1000)}, ${new Date(Date.now() - agoMs)}, 'bulk'
    FROM generate_series(1, ${count})`;
}

const quietDeps = (): JobControlDeps => ({
  db: stack.gateway.db,
  logger: silentLogger,
  cancellations: { announceCancelled: async () => undefined },
  jobControl: { cancelled: () => undefined, deleted: () => undefined },
  credits: { charged: () => undefined, refunded: () => undefined },
});

describe('RESULT_RETENTION_HOURS (E8)', () => {
  it('When a conversion finished longer ago than the retention, then the background sweeper deletes it and keeps its ledger rows; newer and unfinished ones stay', async () => {
    const { token } = await stack.workspace('starter', 10);
    const old = await convertSync(token, '# Old result\n');
    const recent = await convertSync(token, '# Recent result\n');
    await stack.stopConverter();
    const pending = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', 'https://receiver.invalid/hook')
      .attach('file', Buffer.from('# Waiting\n'), 'wait.md');
    await finishedAgo(old.id, HOUR + 60_000);
    await finishedAgo(recent.id, HOUR - 60_000);
    await eventually(async () => ((await exists(old.id)) ? undefined : true));
    expect(await exists(recent.id)).toBe(true);
    expect(await exists(pending.body.id)).toBe(true);
    const oldLedger = await stack.gateway.db.creditTransaction.findMany({ where: { conversionId: old.id } });
    expect(oldLedger.map((t) => [t.type, t.amount])).toEqual([['charge', -1]]);
    await stack.startConverter();
    const metrics = await request(`http://127.0.0.1:${stack.gateway.port}`).get('/metrics');
    expect(metrics.text).toMatch(/^markwright_conversions_deleted_total\{[^}]*reason="retention"[^}]*\} [1-9]\d*$/m);
  });

  it('When more has expired than one sweep may delete, then one sweep deletes a bounded number and the next ones the rest', async () => {
    const { workspaceId } = await stack.workspace('starter', 10);
    const bound = RETENTION_BATCH * RETENTION_MAX_BATCHES;
    // Half an hour old: not yet expired for the background sweeper, expired for a sweep run an hour later.
    await insertFinished(workspaceId, bound + 50, HOUR / 2);
    const later = Date.now() + HOUR;
    expect(await sweepExpiredResults(quietDeps(), 1, later)).toBe(bound);
    // The rest: these 50 and any older result of the other tests.
    expect(await sweepExpiredResults(quietDeps(), 1, later)).toBeGreaterThanOrEqual(50);
    expect(await sweepExpiredResults(quietDeps(), 1, later)).toBe(0);
    expect(await stack.gateway.db.conversion.count({ where: { workspaceId } })).toBe(0);
  });

  it('When an Idempotency-Key is past its 24 hours, then the sweeper deletes it', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 10);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .set('Idempotency-Key', 'expiring')
      .attach('file', Buffer.from('# Keyed\n'), 'keyed.md');
    expect(res.status).toBe(200);
    await stack.gateway.db.idempotencyKey.updateMany({
      where: { workspaceId },
      data: { createdAt: new Date(Date.now() - 24 * HOUR - 1000) },
    });
    await eventually(async () =>
      (await stack.gateway.db.idempotencyKey.count({ where: { workspaceId } })) === 0 ? true : undefined,
    );
  });

  it.each(['0', '-3', 'a week'])(
    'When RESULT_RETENTION_HOURS is %p, then the configuration is refused naming it',
    (value) => {
      expect(() => loadConfig({ RESULT_RETENTION_HOURS: value })).toThrow(/RESULT_RETENTION_HOURS/);
    },
  );
});

// Each admin call starts a process through tsx: seconds on a busy machine.
describe('admin command line', () => {
  jest.setTimeout(400_000);

  it('When an operator runs retention with --older-than-hours, then every finished conversion past it is deleted and counted', async () => {
    const { workspaceId } = await stack.workspace('starter', 10);
    await insertFinished(workspaceId, 3, 40 * 60_000);
    const res = await admin('retention', 'run', '--older-than-hours', '0');
    expect(res.code).toBe(0);
    expect(res.out.older_than_hours).toBe(0);
    expect(res.out.deleted).toBeGreaterThanOrEqual(3);
    expect(await stack.gateway.db.conversion.count({ where: { workspaceId } })).toBe(0);
  });

  it('When an operator deletes a conversion, then it prints {"deleted": true}; an unfinished one is refused with a message', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 10);
    const done = await convertSync(token, '# Operator delete\n');
    expect(await admin('conversion', 'delete', '--workspace', workspaceId, '--conversion', done.id)).toEqual({
      code: 0,
      out: { deleted: true },
    });
    expect(await exists(done.id)).toBe(false);
    await stack.stopConverter();
    try {
      const pending = await request(stack.gateway.url)
        .post('/convert')
        .set(...bearer(token))
        .field('webhook_url', 'https://receiver.invalid/hook')
        .attach('file', Buffer.from('# Later\n'), 'later.md');
      expect(await admin('conversion', 'delete', '--workspace', workspaceId, '--conversion', pending.body.id)).toEqual({
        code: 1,
        out: { error: 'The conversion is still pending or processing. Cancel it first.' },
      });
    } finally {
      await stack.startConverter();
    }
  });
});
